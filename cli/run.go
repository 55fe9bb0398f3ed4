package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/redact"
	"github.com/fencelab/fencelab/untrusted"
)

// runRequest is a parsed `fencelab run`.
type runRequest struct {
	scenarios []*engine.Scenario
	modes     []engine.Mode
	json      bool
	saveTrace string // write the (single) run as a trace here
	// keep: leave the ephemeral PostgreSQL up after the runs, for psql,
	// until Enter or a signal.
	keep bool
}

// parseRunRequest reads the scenarios and modes of run or check (command).
func parseRunRequest(command string, args []string, all bool, mode string, asJSON bool, c config) (runRequest, error) {
	req := runRequest{json: asJSON}
	switch {
	case all && len(args) > 0:
		return req, usageError("%s takes a scenario id or --all, not both", command)
	case all:
		req.scenarios = scenarios.All()
	case len(args) == 0:
		return req, usageError("%s needs a scenario id, a scenario file or --all (one of: %s)", command, strings.Join(scenarios.IDs(), ", "))
	default:
		for _, arg := range args {
			s, err := scenarioArg(arg)
			if err != nil {
				return req, err
			}
			req.scenarios = append(req.scenarios, s)
		}
	}
	switch strings.ToLower(mode) {
	case "both":
		req.modes = []engine.Mode{engine.Safe, engine.Unsafe}
	default:
		m, err := engine.ParseMode(mode)
		if err != nil {
			return req, usageError("--mode: %v", err)
		}
		req.modes = []engine.Mode{m}
	}
	if c.pgDSN != "" && !c.allowUnsafe {
		for _, m := range req.modes {
			if m == engine.Unsafe {
				return req, usageError("UNSAFE runs write naive code paths into --pg's server; pass --allow-unsafe to let them (nothing was written)")
			}
		}
	}
	return req, nil
}

// predictionSaid is a prediction as a mismatch line says it: its final,
// fence and verdict — what the prediction names of them (a file with no
// value, or several, predicts no final; one of its own code alone keeps
// no fence of fencelab's).
func predictionSaid(p engine.Prediction, ownCodeOnly bool, l lang.Lang) string {
	var parts []string
	if !p.AnyFinal {
		parts = append(parts, l.T("final %d", p.Final))
	}
	if !ownCodeOnly || !p.AnyMark {
		parts = append(parts, l.T("fence %s", predictedFence(p, l)))
	}
	return strings.Join(append(parts, p.Verdict), " · ")
}

// predictedFence is a prediction's fence as said: "not predicted" when
// its file left it out.
func predictedFence(p engine.Prediction, l lang.Lang) string {
	if p.AnyMark {
		return l.T("not predicted")
	}
	return world.FenceIn(p.Mark, l)
}

// runHeadless runs the guided order of each scenario in each mode and prints
// the timelines and result strips (or JSON). It fails with exitUnexpected
// when a run did not end as the catalog predicts.
func runHeadless(ctx context.Context, c config, req runRequest, stdout, stderr io.Writer) (err error) {
	c.firstLab = engine.LabConnections(req.scenarios[0], req.modes[0])
	b, err := startBackends(ctx, c, func(waiting string) { fmt.Fprintf(stderr, "fencelab: %s\n", waiting) })
	if err != nil {
		return err
	}
	defer func() { warnLeftovers(stderr, b.stop(), err) }()

	describe := backendLines(b)
	if req.json {
		if c.verbose {
			fmt.Fprint(stderr, describe)
		}
	} else {
		fmt.Fprint(stdout, describe)
	}

	began := time.Now()
	var results []engine.Result
	for _, s := range req.scenarios {
		for _, mode := range req.modes {
			result, err := runOne(ctx, b, s, mode, req.keep)
			b.sayCodeRole(stderr, c.lang)
			if err != nil {
				return err
			}
			results = append(results, result)
			if !req.json {
				if ttl := b.HoldTTLFor(s); ttl != b.HoldTTL {
					fmt.Fprint(stdout, c.lang.T("\n%s runs with its file's lease TTL, %s", s.ID, ttl))
				}
				printResult(stdout, result, s, c.lang)
			}
			if req.saveTrace != "" {
				t := engine.NewTrace(b.HoldTTLFor(s), s.Guided(mode), result)
				t.Carry(s)
				if err := saveTrace(req.saveTrace, t); err != nil {
					return err
				}
			}
		}
	}
	if req.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(jsonResults(results)); err != nil {
			return err
		}
	}
	if req.keep {
		if err := keepServer(ctx, b, stderr); err != nil {
			return err
		}
	}
	var differ, broken []string
	unpredicted := 0 // held to what a run can be without a prediction
	for _, r := range results {
		switch {
		case r.AsPredicted() && r.Without == 0 && !r.Predicts:
			unpredicted++
		case r.AsPredicted():
		case r.Without != 0:
			broken = append(broken, r.Scenario+" "+r.ModeLabel())
		default:
			differ = append(differ, r.Scenario+" "+r.ModeLabel())
		}
	}
	catalog := true
	for _, s := range req.scenarios {
		catalog = catalog && s.InCatalog()
	}
	if !req.json && len(results) > 1 {
		// One line to end many: what a reader looks for after 185 of them.
		took, failed := time.Since(began).Seconds(), len(differ)+len(broken)
		if unpredicted > 0 {
			fmt.Fprint(stdout, c.lang.T("\nrun: %d scenario × mode in %.1fs: %d as predicted, %d with no prediction (SAFE broke no invariant; UNSAFE may end any way), %d not\n",
				len(results), took, len(results)-failed-unpredicted, unpredicted, failed))
		} else {
			fmt.Fprint(stdout, c.lang.T("\nrun: %d scenario × mode in %.1fs: %d as predicted, %d not\n",
				len(results), took, len(results)-failed, failed))
		}
	}
	switch {
	case len(differ) > 0 && !catalog:
		return outcomeError("not as predicted: %s", strings.Join(append(differ, broken...), ", "))
	case len(differ) > 0:
		return outcomeError("not as the catalog predicts: %s", strings.Join(append(differ, broken...), ", "))
	case len(broken) > 0:
		return outcomeError("not what SAFE promises (an invariant broke, or the expected value was not reached): %s", strings.Join(broken, ", "))
	}
	var asked engine.GuardSet
	for _, r := range results {
		asked |= r.Consulted
	}
	warnUnasked(stderr, c, asked, c.lang.T("the guided order"))
	return nil
}

// runOne runs one scenario in one mode. Its errors say which run failed;
// report gives them their exit code.
func runOne(ctx context.Context, b *backends, s *engine.Scenario, mode engine.Mode, keep bool) (engine.Result, error) {
	lab, err := engine.NewLab(ctx, b.Backends, s, mode)
	if err != nil {
		return engine.Result{}, fmt.Errorf("%s %s: %w", s.ID, mode, err)
	}
	if keep {
		// --keep: the file's tables stay with fencelab's for psql (the
		// next run of the file makes its schema again).
		b.keptSchema = lab.KeepFileSchema()
	}
	defer lab.Close(context.WithoutCancel(ctx))
	if err := lab.RunGuided(ctx); err != nil {
		if at := guidedMistake(s, mode, lab, err); at != nil {
			return engine.Result{}, at
		}
		return engine.Result{}, fmt.Errorf("%s %s: %w", s.ID, mode, err)
	}
	result, err := lab.Result(ctx)
	if err != nil {
		return engine.Result{}, fmt.Errorf("%s %s: %w", s.ID, mode, err)
	}
	return result, nil
}

// guidedMistake is a guided order of a scenario file that could not be
// followed, said at the entry's line (exit 2): a mistake in the file the
// compiler could not see, an actor that needs more steps than it took, say.
// A backend's failure is not one.
func guidedMistake(s *engine.Scenario, mode engine.Mode, lab *engine.Lab, err error) error {
	if s.GuidedAt == nil {
		return nil
	}
	for _, mistake := range []error{engine.ErrPaused, engine.ErrProgramDone, engine.ErrUnknownActor, engine.ErrNoExpiry, engine.ErrClockBound} {
		if errors.Is(err, mistake) {
			done, _ := lab.GuidedProgress()
			if at := s.GuidedAt[mode]; done < len(at) {
				return usageError("%s: guided entry %d of %s (%s) cannot be taken: %v", at[done], done+1, mode, s.Guided(mode)[done], err)
			}
		}
	}
	return nil
}

// stdin is where --keep reads its Enter; tests give their own.
var stdin io.Reader = os.Stdin

// keepServer holds the ephemeral PostgreSQL, with the last run's rows, until
// a line (or the end) on stdin, or a signal.
func keepServer(ctx context.Context, b *backends, stderr io.Writer) error {
	fmt.Fprint(stderr, b.Lang.T("PostgreSQL keeps the last run's rows: psql %s — Enter (or Ctrl-C) stops it\n", redact.Shell(b.database.DSN())))
	if b.keptSchema != "" {
		fmt.Fprint(stderr, b.Lang.T("the file's tables are in schema %s\n", b.keptSchema))
	}
	entered := make(chan struct{})
	go func() {
		// The reader is left blocked if a signal comes first; the process
		// ends right after.
		bufio.NewReader(stdin).ReadString('\n')
		close(entered)
	}()
	select {
	case <-entered:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

func backendLines(b *backends) string {
	var sb strings.Builder
	l := b.Lang
	redis := l.T("%s (real server; its lab keys expire on the lab clock)", b.Coordination.Describe())
	if b.redis.Embedded() {
		redis = l.T("%s (embedded; keys expire on the lab clock)", b.Coordination.Describe())
	}
	sb.WriteString(l.T("redis     %s, lease TTL %s\n", redis, b.HoldTTL))
	fmt.Fprintf(&sb, "postgres  %s\n", b.Database.Describe())
	// The DSN comes without its password: never print one.
	dsn := b.database.DSN()
	switch {
	case b.ephemeral:
		sb.WriteString(l.T("          psql %s   (while fencelab runs)\n", redact.Shell(dsn)))
	case b.database.PasswordHidden():
		sb.WriteString(l.T("          psql %s   (schema fencelab; password as in your --pg, or PGPASSWORD)\n", redact.Shell(dsn)))
	default:
		sb.WriteString(l.T("          psql %s   (schema fencelab)\n", redact.Shell(dsn)))
	}
	return sb.String()
}

func printResult(w io.Writer, r engine.Result, s *engine.Scenario, l lang.Lang) {
	if !s.InCatalog() {
		printResultAs(w, r, l.T("its file predicts"), true, l)
		return
	}
	printResultAs(w, r, l.T("the catalog predicts"), true, l)
}

// printResultAs prints a run, its narration in l; source is what its
// prediction comes from. promise: with guards removed, the catalog predicts
// nothing, and the run is held to what SAFE promises (a trace's recorded
// result is a prediction whatever its guards).
func printResultAs(w io.Writer, r engine.Result, source string, promise bool, l lang.Lang) {
	fmt.Fprintf(w, "\n%s · %s\n", r.Scenario, r.ModeLabel())
	// Each column as wide as its widest entry, so the details start in one
	// column, and the guard and narration under them.
	codeWidth, stateWidth := 18, 10
	for _, e := range r.Timeline {
		codeWidth, stateWidth = max(codeWidth, len(e.Code)), max(stateWidth, len(e.State))
	}
	detailAt := 3 + 1 + 9 + 1 + 6 + 1 + 12 + 1 + codeWidth + 1 + stateWidth + 1
	for _, e := range r.Timeline {
		fmt.Fprintf(w, "%3d %-9s %-6s %-12s %-*s %-*s %s\n", e.Sequence, engine.FormatClock(e.At),
			e.Actor, e.Layer, codeWidth, e.Code, stateWidth, e.State, e.Said())
		if e.Guard != "" {
			fmt.Fprintf(w, "%*s%s\n", detailAt, "", l.T("guard: %s", e.GuardSaid()))
		}
		if e.Narration != "" {
			fmt.Fprintf(w, "%*s› %s\n", detailAt, "", e.Narration)
		}
	}
	what := ""
	if r.MeasureLabel != "" {
		what = l.T(r.MeasureLabel) + ": "
	}
	switch {
	case r.NoValue:
		// No value named: the verdict alone.
		fmt.Fprint(w, l.T("result  verdict %s", r.Verdict))
	case len(r.Values) > 0:
		fmt.Fprint(w, l.T("result  %s · verdict %s", r.ValuesSaid(l), r.Verdict))
	case r.OwnCodeOnly:
		// A file's own code: fencelab's fence is none of its rows.
		fmt.Fprint(w, l.T("result  %sexpected %d · final %d · verdict %s", what, r.Expected, r.Final, r.Verdict))
	default:
		fmt.Fprint(w, l.T("result  %sexpected %d · final %d · last accepted fence %s · verdict %s",
			what, r.Expected, r.Final, world.FenceIn(r.Mark, l), r.Verdict))
	}
	switch {
	case r.Without == 0 && !r.Predicts && len(r.Breaks) == 0:
		fmt.Fprint(w, l.T("  — no prediction; every invariant held\n"))
	case r.Without == 0 && !r.Predicts:
		fmt.Fprint(w, l.T("  — no prediction; an invariant broke\n"))
	case !promise && r.MatchesPrediction():
		fmt.Fprint(w, l.T("  — as %s\n", source))
	case !promise:
		p := r.Predicted
		fmt.Fprint(w, l.T("  — NOT as %s (%s)\n", source, predictionSaid(p, r.OwnCodeOnly, l)))
	case r.Without != 0 && r.AsPredicted() && r.NoValue:
		fmt.Fprint(w, l.T("  — SAFE's promise kept without %s: every invariant held, every actor finished\n", r.Without.String()))
	case r.Without != 0 && r.AsPredicted():
		fmt.Fprint(w, l.T("  — SAFE's promise kept without %s: every invariant held, the expected value reached\n", r.Without.String()))
	case r.Without != 0 && len(r.Breaks) > 0:
		fmt.Fprint(w, l.T("  — SAFE's promise broken without %s: an invariant broke\n", r.Without.String()))
	case r.Without != 0:
		fmt.Fprint(w, l.T("  — SAFE's promise broken without %s: the expected value was not reached\n", r.Without.String()))
	case r.AsPredicted():
		fmt.Fprint(w, l.T("  — as %s\n", source))
	default:
		p := r.Predicted
		fmt.Fprint(w, l.T("  — NOT as %s (%s)\n", source, predictionSaid(p, r.OwnCodeOnly, l)))
	}
	for _, b := range r.Breaks {
		fmt.Fprint(w, l.T("broken  invariant %d at step %d: %s (%s)\n", b.Invariant, b.Sequence, b.Said(), l.T(r.InvariantText(b.Invariant))))
	}
	for _, id := range r.Unsent {
		fmt.Fprint(w, l.T("unsent  [provider] \"%s\" was never sent: its scripted answer was never given, so the run shows nothing about it (is the OperationId made otherwise than the scenario expects?)\n", untrusted.Line(id)))
	}
}

// The JSON of `run --json`: one object per scenario × mode.
type jsonResult struct {
	Scenario          string          `json:"scenario"`
	Mode              string          `json:"mode"`
	Without           []string        `json:"without,omitempty"`
	Expected          int64           `json:"expected"`
	Final             int64           `json:"final"`
	LastAcceptedFence *int64          `json:"lastAcceptedFence"`
	NamespaceEpoch    int64           `json:"namespaceEpoch"`
	Measure           string          `json:"measure,omitempty"`
	Verdict           string          `json:"verdict"`
	AsPredicted       bool            `json:"asPredicted"`
	Unsent            []string        `json:"unsent,omitempty"`
	BrokenInvariants  []jsonBreak     `json:"brokenInvariants"`
	Executions        []jsonExecution `json:"executions"`
	Timeline          []jsonEvent     `json:"timeline"`
}

type jsonBreak struct {
	Invariant int    `json:"invariant"`
	Anomaly   string `json:"anomaly"`
	Sequence  int    `json:"sequence"`
	Detail    string `json:"detail"`
}

type jsonExecution struct {
	JobName      string  `json:"jobName"`
	FencingToken *int64  `json:"fencingToken"`
	State        string  `json:"state"`
	Rejection    *string `json:"rejection"`
}

type jsonEvent struct {
	Sequence int    `json:"sequence"`
	Actor    string `json:"actor"`
	Layer    string `json:"layer"`
	Code     string `json:"code"`
	State    string `json:"state"`
	Detail   string `json:"detail"`
	Guard    string `json:"guard,omitempty"`
}

func jsonResults(results []engine.Result) []jsonResult {
	out := make([]jsonResult, 0, len(results))
	for _, r := range results {
		j := jsonResult{
			Scenario:          r.Scenario,
			Mode:              strings.ToLower(r.Mode.String()),
			Without:           r.Without.Names(),
			Expected:          r.Expected,
			Final:             r.Final,
			LastAcceptedFence: optional(r.Mark),
			NamespaceEpoch:    world.FiguresOf(r).NamespaceEpoch,
			Measure:           r.MeasureLabel,
			Verdict:           r.Verdict,
			AsPredicted:       r.AsPredicted(),
			Unsent:            r.Unsent,
			BrokenInvariants:  []jsonBreak{},
			Executions:        []jsonExecution{},
			Timeline:          []jsonEvent{},
		}
		for _, b := range r.Breaks {
			j.BrokenInvariants = append(j.BrokenInvariants, jsonBreak{b.Invariant, b.Anomaly, b.Sequence, b.Detail})
		}
		for _, e := range world.RowsOf(r.Ledger).Executions {
			var rejection *string
			if e.Rejection != "" {
				rejection = &e.Rejection
			}
			j.Executions = append(j.Executions, jsonExecution{e.JobName, optional(e.FencingToken), e.State, rejection})
		}
		for _, e := range r.Timeline {
			j.Timeline = append(j.Timeline, jsonEvent{e.Sequence, e.Actor, string(e.Layer), e.Code, e.State, e.Detail, e.Guard})
		}
		out = append(out, j)
	}
	return out
}

func optional(v int64) *int64 {
	if v == 0 {
		return nil
	}
	return &v
}
