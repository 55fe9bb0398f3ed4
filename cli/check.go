package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/redact"
	"github.com/fencelab/fencelab/stress"
	"github.com/fencelab/fencelab/untrusted"
)

// checkRequest is a parsed `fencelab check`.
type checkRequest struct {
	runRequest
	maxSchedules int
	out          string // where counterexamples go; empty: a new temp dir
	// allowBounded lets a SAFE search cut short by maxSchedules or memory
	// pass.
	allowBounded bool
	// memory stops a search that holds more than --max-memory.
	memory *memoryBound
	// why: count every state's broken futures (why.go).
	why bool
}

// checkLabs is how many labs a check starts with on fencelab's own
// backends, each with a miniredis and a database of its own on the
// ephemeral cluster: a few more than cores keep the server busy while the
// labs wait on it, and cost a short check little to open.
var checkLabs = func() int { return min(8, runtime.NumCPU()+2) }

// mostCheckLabs is how many labs a long check grows to (engine.GrowAfter):
// a lab spends most of its time waiting on a round trip, and on the
// 2-core machine counter-loss SAFE took 18.6-19.4 s on 4 labs, 14.8-16.7
// on 8, 11.5-12.3 on 16 and 10.9-12.2 on 24 (three runs each, alternated).
var mostCheckLabs = func() int { return max(checkLabs(), min(24, 8*runtime.NumCPU())) }

// runCheck explores every schedule of each scenario in each mode and says,
// per scenario × mode, what it found; counterexamples are written as
// traces.
func runCheck(ctx context.Context, c config, req checkRequest, stdout, stderr io.Writer) error {
	c.pgConnections = labConnections(req.scenarios)
	return withLabPool(ctx, c, stderr, func(pool *labPool) error { return check(ctx, c, req, pool, stdout, stderr) })
}

// labConnections is what the labs of a check need of the ephemeral
// server: each lab holds a connection of its own and one per actor — two
// for an actor of a file with SQL, whose statements go on a connection
// logged in as the file's role —, and a file may have more actors than
// the catalog's four or six.
func labConnections(ss []*engine.Scenario) int {
	most := 0
	for _, s := range ss {
		perActor := 1
		if s.Code != nil {
			perActor = 2
		}
		for _, m := range []engine.Mode{engine.Safe, engine.Unsafe} {
			most = max(most, perActor*len(s.Actors(m)))
		}
	}
	return mostCheckLabs()*(most+3) + 10
}

// withLabPool starts the backends and as many labs' more as a check
// starts with (labPool), runs search on them, and stops them all, those
// the checks grew too.
func withLabPool(ctx context.Context, c config, stderr io.Writer, search func(pool *labPool) error) (err error) {
	b, err := startBackends(ctx, c, func(waiting string) { fmt.Fprintf(stderr, "fencelab: %s\n", waiting) })
	if err != nil {
		return err
	}
	defer func() { warnLeftovers(stderr, b.stop(), err) }()
	pool := newLabPool(b, c)
	defer pool.stop()
	if _, err := pool.take(ctx, checkLabs()); err != nil {
		return err
	}
	return search(pool)
}

// labPool is the backends a command's labs run on: the command's own
// first, then more, started the first time a check needs them and kept
// for the next — on fencelab's own backends a miniredis and a database
// each; with --redis a namespace each on that server; with --pg the one
// lab only (fencelab uses no database there but the one given).
type labPool struct {
	c    config
	mu   sync.Mutex
	all  []*backends // all[0] is the command's own
	most int
}

func newLabPool(b *backends, c config) *labPool {
	most := mostCheckLabs()
	if !b.ephemeral {
		most = 1
	}
	return &labPool{c: c, all: []*backends{b}, most: most}
}

// fixedPool is a pool of backends started already, which does not grow.
func fixedPool(bs ...*backends) *labPool { return &labPool{all: bs, most: len(bs)} }

// first is the command's own backends.
func (p *labPool) first() *backends { return p.all[0] }

// take is the first n backends (fewer when the pool holds fewer at most),
// starting those not started yet.
func (p *labPool) take(ctx context.Context, n int) ([]*backends, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for len(p.all) < min(n, p.most) {
		extra, err := moreBackends(ctx, p.all[0], p.c, fmt.Sprintf("fencelab_check_%d", len(p.all)))
		if err != nil {
			// A partial start is stopped, not kept: the next take would
			// hand out backends without a database.
			if extra != nil {
				extra.stop()
			}
			return nil, err
		}
		p.all = append(p.all, extra)
	}
	return slices.Clone(p.all[:min(n, len(p.all))]), nil
}

// stop stops the backends the pool started (not the command's own).
func (p *labPool) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, extra := range p.all[1:] {
		extra.stop()
	}
	p.all = p.all[:1]
}

// largeSearch is where check says, before it starts, that a search will
// be long: the catalog's scenarios are far below it.
const largeSearch = 20_000

// check is runCheck on a pool of backends.
func check(ctx context.Context, c config, req checkRequest, pool *labPool, stdout, stderr io.Writer) error {
	began := time.Now()
	meter := newProgress(stderr, "")
	total := len(req.scenarios) * len(req.modes)
	defer searchGC(req.memory.ceiling())()
	var reports []engine.CheckReport
	var traces []string
	var whys []*whyRun
	for _, s := range req.scenarios {
		for _, mode := range req.modes {
			label := fmt.Sprintf("%s %s", s.ID, engine.ModeLabel(mode, c.without))
			done := len(reports)
			if places := engine.PlaceCombinations(s.Actors(mode)); places >= largeSearch {
				meter.done()
				fmt.Fprint(stderr, c.lang.T("fencelab: %s: its %d actors' places alone combine %s ways, more with data and the clock: a long search, bounded by --max-memory %s\n",
					label, len(s.Actors(mode)), stress.FormatCount(int(min(places, 1e15))), formatSize(req.memory.limit)))
			}
			req.memory.reset()
			searching := time.Now()
			report, err := checkOne(ctx, pool, s, mode, c.without, engine.CheckOptions{MaxSchedules: req.maxSchedules, Why: req.why, Stop: req.memory.exceeded,
				Progress: func(p engine.CheckProgress) {
					rate := float64(p.States) / max(time.Since(searching).Seconds(), 0.001)
					meter.line(fmt.Sprintf("check %s %d/%d · %s: %d schedules, %d states, %d queued, %s states/s, %s in memory",
						bar(done, total, 20), done, total, label, p.Schedules, p.States, p.Queued, stress.FormatCount(int(rate)), formatSize(heldMemory())))
				}})
			pool.first().sayCodeRole(stderr, c.lang)
			var why *whyRun
			if err == nil && req.why {
				why, err = whyAlong(ctx, pool.first(), report, c.without)
			}
			if err != nil {
				meter.done()
				if req.json { // else each was named as it was found
					sayFoundSoFar(stderr, req.out, len(slices.DeleteFunc(slices.Clone(traces), func(p string) bool { return p == "" })), c.lang)
				}
				return fmt.Errorf("%s: %w", label, err)
			}
			whys = append(whys, why)
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
				if report.Without != 0 {
					base += "-without-" + fileNamePart(strings.ReplaceAll(report.Without.String(), ",", "-"))
				}
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
				printCheckReport(stdout, report, path, req.allowBounded, req.memory.hit(), c)
				if req.memory.hit() {
					fmt.Fprint(stdout, c.lang.T("  cut short at %s states, past --max-memory %s: this proves nothing; a larger --max-memory goes further\n",
						stress.FormatCount(report.States), formatSize(req.memory.limit)))
				}
				if why != nil {
					printWhy(stdout, report, why, c.lang)
				}
			}
		}
	}
	meter.done()

	if req.json {
		if err := printCheckJSON(stdout, reports, traces, whys, req.allowBounded); err != nil {
			return err
		}
	}
	var differ lang.List
	for _, r := range reports {
		if why, failed := failure(r, req.allowBounded); failed {
			differ = append(differ, lang.P("%s %s (%s)", r.Scenario.ID, engine.ModeLabel(r.Mode, r.Without), why))
		}
	}
	if !req.json && len(reports) > 1 {
		printCheckSummary(stdout, reports, len(differ), time.Since(began), c.lang)
	}
	if len(differ) > 0 {
		for _, r := range reports {
			if !r.Scenario.InCatalog() {
				return outcomeError("not as claimed: %s", differ)
			}
		}
		return outcomeError("not as the catalog claims: %s", differ)
	}
	var asked engine.GuardSet
	for _, r := range reports {
		asked |= r.Consulted
	}
	warnUnasked(stderr, c, asked, c.lang.T("any schedule"))
	return nil
}

// printCheckSummary ends a check of several scenarios or modes with one
// line: how many held as claimed, how many did not, the time, the states.
func printCheckSummary(w io.Writer, reports []engine.CheckReport, differ int, took time.Duration, l lang.Lang) {
	states, held, broke := 0, 0, 0
	for _, r := range reports {
		states += r.States
		if len(r.Broken) == 0 {
			held++
		} else {
			broke++
		}
	}
	fmt.Fprint(w, l.T("check: %d scenario × mode in %.1fs, %s states: %d as claimed, %d not; invariants held in %d, broke in %d\n",
		len(reports), took.Seconds(), stress.FormatCount(states), len(reports)-differ, differ, held, broke))
}

// failure says in a few words why a check does not pass, and whether it
// failed: SAFE broke an invariant (its number), made no progress, or was
// cut short by --max-schedules without --allow-bounded; UNSAFE never
// reached the catalog's anomaly.
func failure(r engine.CheckReport, allowBounded bool) (lang.Phrase, bool) {
	if len(r.Unsent) > 0 {
		return lang.P("[provider] \"%s\" never sent", untrusted.Line(r.Unsent[0])), true
	}
	if r.Mode == engine.Unsafe {
		if r.Holds() {
			return lang.Phrase{}, false
		}
		return lang.P("no %s", r.Scenario.Predicted[engine.Unsafe].Verdict), true
	}
	switch {
	case len(r.Broken) > 0:
		var ns []string
		for _, n := range r.Scenario.InvariantNumbers() {
			if r.Broken[n] > 0 {
				ns = append(ns, fmt.Sprint(n))
			}
		}
		return lang.P("invariant %s", strings.Join(ns, ", ")), true
	case !r.Progressed() && hasPrediction(r):
		return lang.P("progress"), true
	case r.Without == 0 && hasPrediction(r) && !guidedAsPredicted(r):
		p := r.Scenario.Predicted[r.Mode]
		if p.AnyFinal {
			return lang.P("the guided order ended %s, predicted %s", r.GuidedVerdict, p.Verdict), true
		}
		return lang.P("the guided order ended %d %s, predicted %d %s", r.GuidedFinal, r.GuidedVerdict, p.Final, p.Verdict), true
	case !r.Exhaustive && !allowBounded:
		return lang.P("bounded"), true
	}
	return lang.Phrase{}, false
}

// guidedAsPredicted: the guided order, run on its own, ended with the
// final value and verdict its file, or the catalog, predicts. A bug that
// keeps every invariant can still change how the story ends (a guard that
// no longer refuses, results applied early), and the proof would pass.
func guidedAsPredicted(r engine.CheckReport) bool {
	p := r.Scenario.Predicted[r.Mode]
	return r.GuidedErr == "" && (p.AnyFinal || r.GuidedFinal == p.Final) && r.GuidedVerdict == p.Verdict
}

// hasPrediction: a scenario file may predict nothing for a mode, and SAFE
// is then held to its invariants only.
func hasPrediction(r engine.CheckReport) bool {
	_, ok := r.Scenario.Predicted[r.Mode]
	return ok
}

// claimed is whether a check passes: as the catalog claims.
func claimed(r engine.CheckReport, allowBounded bool) bool {
	_, failed := failure(r, allowBounded)
	return !failed
}

func checkOne(ctx context.Context, pool *labPool, s *engine.Scenario, mode engine.Mode, without engine.GuardSet, opts engine.CheckOptions) (engine.CheckReport, error) {
	var (
		mu   sync.Mutex
		labs []*engine.Lab
	)
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, lab := range labs {
			lab.Close(context.WithoutCancel(ctx))
		}
	}()
	open := func(b *backends) (*engine.Lab, error) {
		bk := b.Backends
		bk.Without = without
		lab, err := engine.NewLab(ctx, bk, s, mode)
		if lab != nil {
			mu.Lock()
			labs = append(labs, lab)
			mu.Unlock()
		}
		return lab, err
	}
	first, err := pool.take(ctx, checkLabs())
	if err != nil {
		return engine.CheckReport{}, err
	}
	// The labs open their connections at once: a scenario's labs open a
	// few dozen, and the catalog has two dozen scenarios × modes.
	start := make([]*engine.Lab, len(first))
	errs := make([]error, len(first))
	var wg sync.WaitGroup
	for i, b := range first {
		wg.Go(func() {
			defer engine.CatchPanic(&errs[i])
			start[i], errs[i] = open(b)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return engine.CheckReport{}, err // the first: they tend to say the same
		}
	}
	if pool.most > len(first) {
		opened := len(first)
		// A lab more that cannot be had (the server's connections are
		// spent, say) ends the growing, not the check: the labs at work
		// go on, and meet a server that went away themselves.
		opts.Grow = func(ctx context.Context) (*engine.Lab, error) {
			more, err := pool.take(ctx, opened+1)
			if err != nil || len(more) <= opened {
				return nil, nil
			}
			opened++
			lab, err := open(more[opened-1])
			if caught := (*engine.Panic)(nil); errors.As(err, &caught) {
				return nil, err // a bug, not a server: the check ends with it
			}
			if err != nil {
				return nil, nil // open keeps a partly opened lab, to close it
			}
			return lab, nil
		}
	}
	return engine.Check(ctx, start, opts)
}

// moreBackends are backends of their own beside b's, for a lab that runs
// at the same time as b's: a Redis (the embedded one's own, or a namespace
// of the real one) and a database of the ephemeral cluster, named name. A
// partial start is returned with its error, for the caller to stop.
func moreBackends(ctx context.Context, b *backends, c config, name string) (*backends, error) {
	extra := &backends{}

	extra.HoldTTL, extra.HoldTTLGiven, extra.Lang = b.HoldTTL, b.HoldTTLGiven, b.Lang
	redis, err := startRedis(ctx, c)
	if err != nil {
		return nil, err
	}
	extra.redis, extra.Coordination = redis, redis
	if err := b.cluster.CreateDatabase(ctx, name, ""); err != nil && !alreadyExists(err) {
		return extra, unreachable(err)
	}
	extra.database, err = pgledger.Open(ctx, b.cluster.DSN(name), pgledger.Options{Describe: name, Dial: b.cluster.Dial})
	if err != nil {
		return extra, classify(ctx, err)
	}
	extra.Database = extra.database
	return extra, nil
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
// outOfMemory: --max-memory, not --max-schedules, cut the search short.
func printCheckReport(w io.Writer, r engine.CheckReport, trace string, allowBounded, outOfMemory bool, c config) {
	l := c.lang
	scope := l.T("every schedule")
	if !r.Exhaustive {
		scope = l.T("BOUNDED by --max-schedules: not every schedule")
		if outOfMemory {
			scope = l.T("BOUNDED by --max-memory: not every schedule")
		}
	}
	fmt.Fprint(w, l.T("%s · %s: %s, %s, %s pruned (%s, %.1fs, %s states/s)\n",
		r.Scenario.ID, engine.ModeLabel(r.Mode, r.Without), counted(l, r.Schedules, "%s schedule", "%s schedules"),
		counted(l, r.States, "%s distinct state", "%s distinct states"), stress.FormatCount(r.Pruned), scope, r.Elapsed.Seconds(),
		stress.FormatCount(int(statesPerSecond(r)))))
	for _, n := range r.Scenario.InvariantNumbers() {
		if k := r.Broken[n]; k > 0 {
			fmt.Fprint(w, l.T("  invariant %d broken on %s: %s\n", n, counted(l, k, "%s schedule", "%s schedules"), l.T(r.Scenario.InvariantText(n))))
		}
	}
	if len(r.Broken) == 0 {
		fmt.Fprint(w, l.T("  every invariant held on every schedule run\n"))
	}
	for _, id := range r.Unsent {
		fmt.Fprint(w, l.T("  [provider] \"%s\" was sent on no schedule: its scripted answer was never given, so this check shows nothing about it (is the OperationId made otherwise than the scenario expects?)\n", untrusted.Line(id)))
	}
	if r.InFlightLeft > 0 {
		fmt.Fprint(w, l.T("  (it broke with one statement at a time, so the %s with a statement in flight were left out)\n",
			counted(l, r.InFlightLeft, "%s schedule", "%s schedules")))
	}
	var verdicts []string
	for v, k := range r.Verdicts {
		verdicts = append(verdicts, v+" "+stress.FormatCount(k))
	}
	sort.Strings(verdicts)
	fmt.Fprint(w, l.T("  verdicts of complete schedules: %s\n", strings.Join(verdicts, ", ")))
	if want := r.Scenario.Predicted[engine.Unsafe].Verdict; r.Mode == engine.Unsafe && r.ShowsCatalog &&
		r.Verdicts[want] == 0 && r.Anomalies[want] == 0 {
		fmt.Fprint(w, l.T("  (%s: no schedule ran to its end so — each stopped at a state explored already — but the counterexample does)\n", want))
	}
	if r.Mode == engine.Safe {
		guided := l.T("reached it")
		switch {
		case r.GuidedErr != "":
			guided = l.T("could not be followed: %s", r.GuidedErr)
		case r.GuidedFinal != r.Scenario.Expected && r.Scenario.NoValue:
			guided = l.T("left %d actors short of their programs' end (%s)", r.GuidedFinal, r.GuidedVerdict)
		case r.GuidedFinal != r.Scenario.Expected:
			guided = l.T("ended at %d (%s)", r.GuidedFinal, r.GuidedVerdict)
		}
		if r.Scenario.Code != nil && len(r.Scenario.Code.Values) > 1 {
			if r.GuidedFinal != 0 && r.GuidedErr == "" {
				guided = l.T("left %d values short of what they should be (%s)", r.GuidedFinal, r.GuidedVerdict)
			}
			fmt.Fprint(w, l.T("  progress: %s of %s complete schedules ended with every value as expected; %s ended with an actor left waiting; the guided order %s\n",
				stress.FormatCount(r.Reached), stress.FormatCount(r.Complete), stress.FormatCount(r.Stuck), guided))
		} else if r.Scenario.NoValue {
			// No value named: progress is every actor's program done.
			fmt.Fprint(w, l.T("  progress: %s of %s complete schedules ended with every actor's program done; %s ended with an actor left waiting; the guided order %s\n",
				stress.FormatCount(r.Reached), stress.FormatCount(r.Complete), stress.FormatCount(r.Stuck), guided))
		} else {
			fmt.Fprint(w, l.T("  progress: %s of %s complete schedules reached the expected %d; %s ended with an actor left waiting; the guided order %s\n",
				stress.FormatCount(r.Reached), stress.FormatCount(r.Complete), r.Scenario.Expected, stress.FormatCount(r.Stuck), guided))
		}
	}
	var short []string
	for _, v := range []string{engine.VerdictWrongValue, r.Scenario.Shortfall} {
		if v != "" && r.Verdicts[v] > 0 {
			short = append(short, v)
		}
	}
	if r.Mode == engine.Safe && len(r.Broken) == 0 && r.Progressed() {
		// Not a violation, and it would look like one: one true sentence
		// per verdict.
		for _, v := range short {
			switch v {
			case engine.VerdictWrongValue:
				fmt.Fprint(w, l.T("  (%s: a verdict, not a break — schedules that kept every invariant and ended with a value\n   other than the expected one, higher or lower, with no guard refusing a write)\n", v))
			case engine.VerdictStuck:
				fmt.Fprint(w, l.T("  (%s: a verdict, not a break — schedules that kept every invariant and ended where the\n   system can no longer make progress, short of the expected value)\n", v))
			default:
				fmt.Fprint(w, l.T("  (%s: a verdict, not a break — schedules that kept every invariant and ended away from the\n   expected value, which this scenario names %s)\n", v, v))
			}
		}
	}
	label := engine.ModeLabel(r.Mode, r.Without)
	// A scenario file's claim is its own predictions, and it may make none.
	_, predicted := r.Scenario.Predicted[r.Mode]
	file := !r.Scenario.InCatalog() && r.Without == 0
	switch _, failed := failure(r, allowBounded); {
	case len(r.Unsent) > 0 && file:
		fmt.Fprint(w, l.T("  NOT as its file predicts: a [provider] entry was sent on no schedule\n"))
	case len(r.Unsent) > 0:
		fmt.Fprint(w, l.T("  NOT as the catalog claims: a [provider] entry was sent on no schedule\n"))
	case file && !predicted && r.Mode == engine.Unsafe:
		fmt.Fprint(w, l.T("  no prediction for UNSAFE: the counts above are what happened\n"))
	case file && !predicted && len(r.Broken) > 0:
		fmt.Fprint(w, l.T("  SAFE broke an invariant\n"))
	case file && !predicted && r.Exhaustive:
		fmt.Fprint(w, l.T("  no prediction for SAFE: every invariant held on every schedule (progress is judged only against a prediction)\n"))
	case file && !failed && (r.Mode == engine.Unsafe || r.Exhaustive):
		fmt.Fprint(w, l.T("  as its file predicts\n"))
	case file && r.Mode == engine.Unsafe:
		fmt.Fprint(w, l.T("  NOT as its file predicts: no schedule ended %s\n", r.Scenario.Predicted[engine.Unsafe].Verdict))
	case file && len(r.Broken) > 0:
		fmt.Fprint(w, l.T("  NOT as its file predicts: SAFE broke an invariant\n"))
	case file && !r.Progressed() && predicted:
		fmt.Fprint(w, l.T("  NOT as its file predicts: SAFE made no progress — no complete schedule, or not the guided order, did the work\n"))
	case file && predicted && !guidedAsPredicted(r):
		p := r.Scenario.Predicted[r.Mode]
		if p.AnyFinal {
			fmt.Fprint(w, l.T("  NOT as its file predicts: the guided order ended %s, predicted %s\n", r.GuidedVerdict, p.Verdict))
		} else {
			fmt.Fprint(w, l.T("  NOT as its file predicts: the guided order ended %d %s, predicted %d %s\n", r.GuidedFinal, r.GuidedVerdict, p.Final, p.Verdict))
		}
	case r.Mode == engine.Unsafe && !failed:
		fmt.Fprint(w, l.T("  as the catalog claims\n"))
	case r.Mode == engine.Unsafe:
		fmt.Fprint(w, l.T("  NOT as the catalog claims: no schedule ended %s\n", r.Scenario.Predicted[engine.Unsafe].Verdict))
	case len(r.Broken) > 0 && r.Without != 0:
		fmt.Fprint(w, l.T("  %s broke an invariant: this scenario needs what was removed\n", label))
	case len(r.Broken) > 0:
		fmt.Fprint(w, l.T("  NOT as the catalog claims: SAFE broke an invariant\n"))
	case !r.Progressed() && r.Without != 0:
		fmt.Fprint(w, l.T("  %s kept every invariant but made no progress: no complete schedule, or not the guided order, did the work\n", label))
	case !r.Progressed():
		fmt.Fprint(w, l.T("  NOT as the catalog claims: SAFE made no progress — no complete schedule, or not the guided order, did the work\n"))
	case r.Without == 0 && predicted && !guidedAsPredicted(r):
		p := r.Scenario.Predicted[r.Mode]
		fmt.Fprint(w, l.T("  NOT as the catalog claims: the guided order ended %d %s, predicted %d %s\n", r.GuidedFinal, r.GuidedVerdict, p.Final, p.Verdict))
	case !r.Exhaustive:
		fmt.Fprint(w, l.T("  no break found in %s (bounded): not a proof%s\n", counted(l, r.Schedules, "%s schedule", "%s schedules"), boundedNote(allowBounded, l)))
	case r.Without != 0:
		fmt.Fprint(w, l.T("  %s still held: this scenario does not need what was removed\n", label))
	default:
		fmt.Fprint(w, l.T("  as the catalog claims\n"))
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
		writeRoundTrips(w, t.Schedule)
		fmt.Fprint(w, l.T("  open it:  %s\n", openCommand(trace, c)))
	}
}

// writeRoundTrips lists a counterexample's actions with the round trips
// each sent, when it cuts a step between two of its round trips (a call
// action) or sends a statement while a write is open (an overlap): the
// break lies between them.
func writeRoundTrips(w io.Writer, schedule []engine.TraceAction) {
	if !slices.ContainsFunc(schedule, func(a engine.TraceAction) bool { return a.Action == "call" || a.Action == "overlap" }) {
		return
	}
	n := 0
	for _, a := range schedule {
		if a.Action == "pause" || a.Action == "resume" {
			continue
		}
		n++
		what := a.Action + " " + a.Actor
		if a.Actor == "" {
			what = a.Action + " " + a.By
		}
		if a.Action == "overlap" && len(a.Sent) >= 3 {
			// In the order an overlap sends them: the write, the other's
			// statement while it is open, the write's COMMIT, then the
			// other's own COMMIT if it wrote too.
			whose := []string{a.Actor + " opens", a.With + " sends", a.Actor + " commits", a.With + " commits"}
			for i, trip := range a.Sent {
				label := fmt.Sprintf("%2d.", n)
				if i > 0 {
					label = "   "
				}
				if i < len(whose) {
					what = whose[i]
				}
				fmt.Fprintf(w, "    %s %-10s %s\n", label, what, shortTrip(trip))
			}
			continue
		}
		sent := "(nothing sent)"
		if len(a.Sent) > 0 {
			sent = shortTrip(strings.Join(a.Sent, " | "))
		}
		fmt.Fprintf(w, "    %2d. %-10s %s\n", n, strings.TrimSpace(what), sent)
	}
}

// shortTrip is a round trip on one line of a terminal.
func shortTrip(s string) string {
	if r := []rune(s); len(r) > 96 {
		return string(r[:95]) + "…"
	}
	return s
}

func boundedNote(allowed bool, l lang.Lang) string {
	if allowed {
		return l.T("; --allow-bounded lets it pass")
	}
	return l.T("; exit 1 (--allow-bounded lets it pass)")
}

// openCommand is the command line that opens a trace in the explorer, with
// the backend flags of this run (the DSN without its password).
func openCommand(path string, c config) string {
	parts := []string{invokedAs(thisInvocation())}
	if c.redisURL != "" {
		parts = append(parts, "--redis", redact.Shell(redact.URL(c.redisURL)))
	}
	if c.pgDSN != "" {
		parts = append(parts, "--pg", redact.Shell(redact.PostgresDSN(c.pgDSN)))
		if c.allowUnsafe {
			parts = append(parts, "--allow-unsafe")
		}
	}
	return strings.Join(append(parts, "--trace", redact.Shell(path)), " ")
}

// invocation is how this fencelab was run, for a hint that calls it
// again (invokedAs).
type invocation struct {
	arg0 string
	// temps are where `go run` builds (GOTMPDIR, or the temporary
	// directory: its go-build* folders); caches, where it keeps what it
	// built (GOCACHE, since Go 1.24).
	temps, caches []string
	inSource      bool // the working directory is fencelab's module
}

// thisInvocation is this process's.
func thisInvocation() invocation {
	inv := invocation{arg0: os.Args[0], temps: []string{os.TempDir()}}
	if dir := os.Getenv("GOTMPDIR"); dir != "" {
		inv.temps = append(inv.temps, dir)
	}
	if dir := os.Getenv("GOCACHE"); dir != "" {
		inv.caches = append(inv.caches, dir)
	}
	if dir, err := os.UserCacheDir(); err == nil {
		inv.caches = append(inv.caches, filepath.Join(dir, "go-build"))
	}
	if inv.goRun() {
		// The working directory's go.mod may be anything (a FIFO, a link
		// to a device): read as a file from anyone, and only when asked.
		mod, err := untrusted.ReadFile("go.mod", untrusted.Limits{MaxBytes: 64 << 10, MaxDepth: 64, Syntax: untrusted.JSON})
		inv.inSource = err == nil && modulePath(string(mod)) == "github.com/fencelab/fencelab"
	}
	return inv
}

// modulePath is a go.mod's module path: its module directive's, past any
// comments before it, quoted or not ("" if it has none).
func modulePath(mod string) string {
	for line := range strings.Lines(mod) {
		line, _, _ = strings.Cut(line, "//")
		fields := strings.Fields(line)
		if len(fields) == 2 && fields[0] == "module" {
			if unquoted, err := strconv.Unquote(fields[1]); err == nil {
				return unquoted
			}
			return fields[1]
		}
	}
	return ""
}

// invokedAs is how a hint calls this fencelab again: by the path or the
// name it was run by (./fencelab, fencelab-dev on the PATH), quoted for a
// shell. A binary `go run` built is gone when it ends, or deep in the
// build cache: for that one, `go run .` in fencelab's source (the same
// code; a fencelab on the PATH may be older), else fencelab, as the
// README calls it.
func invokedAs(inv invocation) string {
	switch {
	case !inv.goRun():
		return redact.Shell(inv.arg0)
	case inv.inSource:
		return "go run ."
	}
	return "fencelab"
}

// goRun: the binary is one `go run` built.
func (inv invocation) goRun() bool {
	if !strings.ContainsRune(inv.arg0, filepath.Separator) {
		return false // the PATH found it
	}
	abs, err := filepath.Abs(inv.arg0)
	if err != nil {
		return false
	}
	for _, dir := range inv.temps {
		if rel, err := filepath.Rel(dir, abs); err == nil && filepath.IsLocal(rel) && strings.HasPrefix(rel, "go-build") {
			return true
		}
	}
	for _, dir := range inv.caches {
		if rel, err := filepath.Rel(dir, abs); err == nil && filepath.IsLocal(rel) {
			return true
		}
	}
	return false
}

type jsonCheck struct {
	Scenario   string      `json:"scenario"`
	Mode       string      `json:"mode"`
	Without    []string    `json:"without,omitempty"`
	Consulted  []string    `json:"consultedGuards"`
	Complete   int         `json:"completeSchedules"`
	Reached    int         `json:"reachedExpected"`
	Stuck      int         `json:"stuck"`
	Guided     *jsonGuided `json:"guided,omitempty"`
	Progress   bool        `json:"progress"`
	Schedules  int         `json:"schedules"`
	States     int         `json:"states"`
	Pruned     int         `json:"pruned"`
	Exhaustive bool        `json:"exhaustive"`
	// InFlightLeft: overlaps (a statement sent while a write is open) left
	// unexplored, the schedules of one statement at a time having broken.
	InFlightLeft int            `json:"inFlightLeft,omitempty"`
	Broken       map[string]int `json:"brokenInvariants"`
	Verdicts     map[string]int `json:"verdicts"`
	AsClaimed    bool           `json:"asClaimed"`
	// Unsent are the [provider] entries no schedule sent.
	Unsent []string `json:"unsentProviderEntries,omitempty"`
	// ShowsCatalog: the UNSAFE counterexample breaks the catalog's
	// anomaly or ends with its verdict, which no complete schedule may
	// have (one stops at a state explored already).
	ShowsCatalog bool    `json:"showsCatalog,omitempty"`
	Trace        string  `json:"trace,omitempty"`
	Seconds      float64 `json:"seconds"`
	// StatesPerSecond is the distinct states the check reached a second.
	StatesPerSecond float64 `json:"statesPerSecond"`
	// Labs is how many labs explored: a long check takes more while they
	// make it faster.
	Labs int      `json:"labs"`
	Why  *jsonWhy `json:"why,omitempty"`
}

// jsonGuided is how the guided order ended when run on its own.
type jsonGuided struct {
	Final   int64  `json:"final"`
	Verdict string `json:"verdict,omitempty"`
	Error   string `json:"error,omitempty"`
}

func printCheckJSON(w io.Writer, reports []engine.CheckReport, traces []string, whys []*whyRun, allowBounded bool) error {
	out := make([]jsonCheck, 0, len(reports))
	for i, r := range reports {
		j := jsonCheck{Scenario: r.Scenario.ID, Mode: strings.ToLower(r.Mode.String()), Without: r.Without.Names(),
			Consulted: r.Consulted.Names(), Complete: r.Complete, Reached: r.Reached, Stuck: r.Stuck,
			Progress: r.Progressed(), Schedules: r.Schedules,
			States: r.States, Pruned: r.Pruned, Exhaustive: r.Exhaustive, InFlightLeft: r.InFlightLeft, Broken: map[string]int{},
			Verdicts: r.Verdicts, AsClaimed: claimed(r, allowBounded), ShowsCatalog: r.ShowsCatalog, Trace: traces[i], Seconds: r.Elapsed.Seconds(),
			StatesPerSecond: statesPerSecond(r), Labs: r.Labs, Unsent: r.Unsent}
		if j.Consulted == nil {
			j.Consulted = []string{}
		}
		if r.Mode == engine.Safe {
			j.Guided = &jsonGuided{Final: r.GuidedFinal, Verdict: r.GuidedVerdict, Error: r.GuidedErr}
		}
		for n, k := range r.Broken {
			j.Broken[fmt.Sprint(n)] = k
		}
		if whys[i] != nil {
			j.Why = jsonWhyOf(r, whys[i])
		}
		out = append(out, j)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// statesPerSecond is how fast a check reached its distinct states.
func statesPerSecond(r engine.CheckReport) float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.States) / r.Elapsed.Seconds()
}
