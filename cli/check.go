package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/provider"
	"github.com/fencelab/fencelab/store/redact"
	"github.com/fencelab/fencelab/stress"
)

// checkRequest is a parsed `fencelab check`.
type checkRequest struct {
	runRequest
	maxSchedules int
	out          string // where counterexamples go; empty: a new temp dir
}

// checkLabs is how many labs explore at once on fencelab's own backends:
// each has a miniredis and a database of its own on the ephemeral cluster.
// The work is mostly PostgreSQL's, so a few more labs than cores keep the
// server busy while the labs wait on it.
func checkLabs() int { return min(8, runtime.NumCPU()+2) }

// runCheck explores every schedule of each scenario in each mode and says,
// per scenario × mode, what it found; counterexamples are written as
// traces.
func runCheck(ctx context.Context, c config, req checkRequest, stdout, stderr io.Writer) (err error) {
	b, err := startBackends(ctx, c, func(waiting string) { fmt.Fprintf(stderr, "fencelab: %s\n", waiting) })
	if err != nil {
		return err
	}
	defer func() { warnLeftovers(stderr, b.stop(), err) }()
	pool, err := labBackends(ctx, b, c)
	defer func() {
		for _, extra := range pool[1:] {
			extra.stop()
		}
	}()
	if err != nil {
		return err
	}

	meter := newProgress(stderr, "")
	total := len(req.scenarios) * len(req.modes)
	var reports []engine.CheckReport
	var traces []string
	for _, s := range req.scenarios {
		for _, mode := range req.modes {
			label := fmt.Sprintf("%s %s", s.ID, mode)
			done := len(reports)
			report, err := checkOne(ctx, pool, s, mode, req.maxSchedules, func(p engine.CheckProgress) {
				meter.line(fmt.Sprintf("check %s %d/%d · %s: %d schedules, %d states, %d queued",
					bar(done, total, 20), done, total, label, p.Schedules, p.States, p.Queued))
			})
			if err != nil {
				meter.done()
				return fmt.Errorf("%s: %w", label, err)
			}
			reports = append(reports, report)
			path := ""
			if report.Counterexample != nil {
				if req.out == "" {
					if req.out, err = os.MkdirTemp("", "fencelab-check-"); err != nil {
						meter.done()
						return err
					}
				}
				base := fmt.Sprintf("%s-%s", s.ID, strings.ToLower(mode.String()))
				if path, err = saveNewTrace(req.out, base, *report.Counterexample); err != nil {
					meter.done()
					return err
				}
			}
			traces = append(traces, path)
			if !req.json {
				// Each as it is found: a long check interrupted keeps what
				// it printed.
				meter.done()
				printCheckReport(stdout, report, path, c)
			}
		}
	}
	meter.done()

	if req.json {
		if err := printCheckJSON(stdout, reports, traces); err != nil {
			return err
		}
	}
	var differ []string
	for _, r := range reports {
		if !r.Holds() {
			differ = append(differ, r.Scenario.ID+" "+r.Mode.String())
		}
	}
	if len(differ) > 0 {
		return outcomeError("not as the catalog claims: %s", strings.Join(differ, ", "))
	}
	return nil
}

func checkOne(ctx context.Context, pool []*backends, s *engine.Scenario, mode engine.Mode, maxSchedules int,
	progress func(engine.CheckProgress)) (engine.CheckReport, error) {
	var labs []*engine.Lab
	defer func() {
		for _, lab := range labs {
			lab.Close(context.WithoutCancel(ctx))
		}
	}()
	// The labs open their connections at once: a scenario's labs open a
	// few dozen, and the catalog has two dozen scenarios × modes.
	labs = make([]*engine.Lab, len(pool))
	errs := make([]error, len(pool))
	var wg sync.WaitGroup
	for i, b := range pool {
		wg.Go(func() { labs[i], errs[i] = engine.NewLab(ctx, b.Backends, s, mode) })
	}
	wg.Wait()
	labs = slices.DeleteFunc(labs, func(l *engine.Lab) bool { return l == nil })
	for _, err := range errs {
		if err != nil {
			return engine.CheckReport{}, err // the first: they tend to say the same
		}
	}
	return engine.Check(ctx, labs, engine.CheckOptions{MaxSchedules: maxSchedules, Progress: progress})
}

// labBackends is the first lab's backends and as many more as can explore
// in parallel: on fencelab's own backends a miniredis and a database each;
// with --redis a namespace each on that server; with --pg one lab only
// (fencelab uses no database there but the one given). The first entry is
// b itself; the caller stops the others.
func labBackends(ctx context.Context, b *backends, c config) ([]*backends, error) {
	pool := []*backends{b}
	if !b.ephemeral {
		return pool, nil
	}
	for i := 1; i < checkLabs(); i++ {
		extra := &backends{}
		extra.Provider = provider.New()
		extra.LeaseTTL = b.LeaseTTL
		redis, err := startRedis(ctx, c)
		if err != nil {
			return pool, err
		}
		extra.redis, extra.Coordination = redis, redis
		pool = append(pool, extra)
		name := fmt.Sprintf("fencelab_check_%d", i)
		if err := b.cluster.CreateDatabase(ctx, name, ""); err != nil && !alreadyExists(err) {
			return pool, unreachable(err)
		}
		extra.database, err = pgledger.Open(ctx, b.cluster.DSN(name), pgledger.Options{Describe: name, Dial: b.cluster.Dial})
		if err != nil {
			return pool, classify(ctx, err)
		}
		extra.Database = extra.database
	}
	return pool, nil
}

// alreadyExists: a database of an earlier check is there; it is reused
// (every lab reset empties it).
func alreadyExists(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && pgErr.Code == "42P04"
}

func bar(done, total, width int) string {
	filled := 0
	if total > 0 {
		filled = done * width / total
	}
	return "[" + strings.Repeat("█", filled) + strings.Repeat("·", width-filled) + "]"
}

// printCheckReport prints what a check found for one scenario × mode.
func printCheckReport(w io.Writer, r engine.CheckReport, trace string, c config) {
	{
		l := c.lang
		scope := l.T("every schedule")
		if !r.Exhaustive {
			scope = l.T("BOUNDED by --max-schedules: not every schedule")
		}
		fmt.Fprint(w, l.T("%s · %s: %s, %s, %s pruned (%s, %.1fs)\n",
			r.Scenario.ID, r.Mode, counted(l, r.Schedules, "%s schedule", "%s schedules"),
			counted(l, r.States, "%s distinct state", "%s distinct states"), stress.FormatCount(r.Pruned), scope, r.Elapsed.Seconds()))
		for n := 1; n <= len(engine.Invariants); n++ {
			if k := r.Broken[n]; k > 0 {
				fmt.Fprint(w, l.T("  invariant %d broken on %d schedule(s): %s\n", n, k, l.T(engine.Invariants[n])))
			}
		}
		if len(r.Broken) == 0 {
			fmt.Fprint(w, l.T("  every invariant held on every schedule run\n"))
		}
		var verdicts []string
		for v, k := range r.Verdicts {
			verdicts = append(verdicts, fmt.Sprintf("%s %d", v, k))
		}
		sort.Strings(verdicts)
		fmt.Fprint(w, l.T("  verdicts of complete schedules: %s\n", strings.Join(verdicts, ", ")))
		var short []string
		for _, v := range []string{engine.VerdictWrongValue, r.Scenario.Shortfall} {
			if v != "" && r.Verdicts[v] > 0 {
				short = append(short, v)
			}
		}
		if r.Mode == engine.Safe && len(r.Broken) == 0 && len(short) > 0 {
			// Not a violation, and it would look like one.
			fmt.Fprint(w, l.T("  (%s: schedules that kept every invariant but could not finish the work — a write\n   refused and not retried, an actor left waiting — safe, and short of the expected value)\n",
				strings.Join(short, ", ")))
		}
		if r.Holds() {
			fmt.Fprint(w, l.T("  as the catalog claims\n"))
		} else if r.Mode == engine.Safe {
			fmt.Fprint(w, l.T("  NOT as the catalog claims: SAFE broke an invariant\n"))
		} else {
			fmt.Fprint(w, l.T("  NOT as the catalog claims: no schedule ended %s\n", r.Scenario.Predicted[engine.Unsafe].Verdict))
		}
		if trace != "" {
			t := r.Counterexample
			steps, shown := 0, "" // the pauses it shows are not actions of the search
			for _, a := range t.Schedule {
				if a.Action != "pause" && a.Action != "resume" {
					steps++
				}
			}
			if k := len(t.Schedule) - steps; k > 0 {
				shown = l.T(" (and %d pauses and resumes it implies)", k)
			}
			fmt.Fprint(w, l.T("  counterexample: %d actions%s, verdict %s → %s\n", steps, shown, t.Result.Verdict, trace))
			fmt.Fprint(w, l.T("  open it:  %s\n", openCommand(trace, c)))
		}
	}
}

// openCommand is the command line that opens a trace in the explorer, with
// the backend flags of this run (the DSN without its password).
func openCommand(path string, c config) string {
	parts := []string{"fencelab"}
	if c.redisURL != "" {
		parts = append(parts, "--redis", shellQuote(redact.URL(c.redisURL)))
	}
	if c.pgDSN != "" {
		parts = append(parts, "--pg", shellQuote(redact.PostgresDSN(c.pgDSN)))
		if c.allowUnsafe {
			parts = append(parts, "--allow-unsafe")
		}
	}
	return strings.Join(append(parts, "--trace", shellQuote(path)), " ")
}

func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@=,+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

type jsonCheck struct {
	Scenario   string         `json:"scenario"`
	Mode       string         `json:"mode"`
	Schedules  int            `json:"schedules"`
	States     int            `json:"states"`
	Pruned     int            `json:"pruned"`
	Exhaustive bool           `json:"exhaustive"`
	Broken     map[string]int `json:"brokenInvariants"`
	Verdicts   map[string]int `json:"verdicts"`
	AsClaimed  bool           `json:"asClaimed"`
	Trace      string         `json:"trace,omitempty"`
	Seconds    float64        `json:"seconds"`
}

func printCheckJSON(w io.Writer, reports []engine.CheckReport, traces []string) error {
	out := make([]jsonCheck, 0, len(reports))
	for i, r := range reports {
		j := jsonCheck{Scenario: r.Scenario.ID, Mode: strings.ToLower(r.Mode.String()), Schedules: r.Schedules,
			States: r.States, Pruned: r.Pruned, Exhaustive: r.Exhaustive, Broken: map[string]int{},
			Verdicts: r.Verdicts, AsClaimed: r.Holds(), Trace: traces[i], Seconds: r.Elapsed.Seconds()}
		for n, k := range r.Broken {
			j.Broken[fmt.Sprint(n)] = k
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
