package engine

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The checker explores every schedule of a scenario in one mode on the real
// backends, and says which invariants any of them broke.
//
// A schedule is built action by action. At each point the actions that can
// happen are: any actor that has not finished makes its next call — one
// round trip; a step of several (a read, then a write) is cut at each, so
// other actors act between them, where the races live —, the clock
// advances to the next key expiry in Redis (when a key has a TTL), and the
// clock advances by each duration the scenario's guided order advances by
// (as often as the guided order does). Pausing an actor is not
// an action of its own: an actor that is not scheduled is paused, and the
// search schedules every actor at every point, around every expiry.
// Operators, crashes and restarts are actors of their scenarios, so their
// steps land everywhere too. A schedule ends when every actor has finished,
// or when nothing can happen any more (an actor waiting for a lease that
// never expires).
//
// Pruning is by state: a schedule stops at a state already explored,
// because everything after it was explored there (the shortest
// counterexample is then found over the explored graph, shortest.go).
// A state is everything the lab can observe and everything that
// decides what happens next: every key of the lab in Redis with its value
// and TTL, every row of schema fencelab, what the provider applied and
// remembers, each actor's program position (step and call), pause and
// memory, what the invariant checks remember of earlier steps (the first
// terminal status of each job, where each running pointer pointed, which
// jobs lost theirs to a TTL), and how many of each of the guided order's
// clock advances are left (they decide the actions that come next). Moments
// are taken relative to the lab clock (a job created 10 minutes ago, an
// outbox row due in 30 seconds), since no step depends on the hour itself;
// the time a resource row was last written, which no step reads, is left
// out. On a real Redis a TTL counts as present or absent (its milliseconds
// run on the wall clock).
//
// Sleep sets cut the schedules further (explore): two calls of different
// actors that touch disjoint parts of the lab (their declared Footprints)
// commute, so only one of their two orders is explored from a state. Every
// state is still reached — a test holds the reduced search to the same
// states as the full one — so the reduction is exhaustive too; a search
// cut short by MaxSchedules says so.
//
// Progress is checked beside safety: a complete schedule reached the
// scenario's expected value or not, or ended blocked (an actor waiting on
// something that never comes); and the guided order is run once more on
// its own, to the value it should reach.

// CheckOptions bound and observe a check.
type CheckOptions struct {
	// MaxSchedules stops the search after this many schedules; 0: none.
	MaxSchedules int
	// Stop, asked before each schedule, ends the search as MaxSchedules
	// does when it says true (a memory bound): not exhaustive.
	Stop func() bool
	// NoReduction turns the sleep sets off: every order of commuting calls
	// is explored (the same states, more schedules; tests compare).
	NoReduction bool
	// Progress hears the counts as the search goes; calls are serialised.
	Progress func(CheckProgress)
	// OneAtATime leaves the statements in flight out: every schedule of
	// one statement at a time, as the checker explored before overlaps
	// (the bench's before; InFlightLeft counts what it left).
	OneAtATime bool
	// Why keeps the graph of states, every action from every state, for
	// the shares of broken futures (why.go). It turns the reduction off:
	// counting schedules needs every order of commuting calls.
	Why bool
	// Grow, if set, opens one more lab of the same scenario and mode for
	// the search, or says nil when there are no more. A search still
	// going after GrowAfter takes more labs, one at a time, while it goes
	// on: labs spend most of their time waiting on their backends, so on
	// a long search more of them keep the cores busy, while a short one
	// pays for no more than it started with.
	Grow func(context.Context) (*Lab, error)
	// UntilBroken ends a schedule at the first state where an invariant
	// broke, for a search that asks only whether one breaks and the
	// shortest schedule that breaks one (the matrix): what follows a
	// break cannot make a shorter one. Counts past a break (Broken,
	// Verdicts, States) are then not the whole search's.
	UntilBroken bool
}

// GrowAfter is how long a search runs on the labs it started with before
// it takes more (CheckOptions.Grow).
const GrowAfter = 300 * time.Millisecond

// CheckProgress is how far a check has come.
type CheckProgress struct {
	Schedules, States, Pruned, Queued int
}

// CheckReport is what a check found for one scenario in one mode.
type CheckReport struct {
	Scenario *Scenario
	Mode     Mode
	// Schedules run to their end or to a state already explored; Pruned of
	// them stopped at such a state; States is the distinct states reached.
	Schedules, States, Pruned int
	// Labs is how many labs explored, those CheckOptions.Grow added too.
	Labs int
	// Exhaustive: every schedule was explored (MaxSchedules did not cut it).
	Exhaustive bool
	// InFlightLeft is how many overlaps (two statements in flight) the
	// search left unexplored because the schedules of one statement at a
	// time had already broken what it looks for (checker.takeUpOverlaps).
	InFlightLeft int
	// Broken counts, per invariant, the schedules that broke it;
	// Anomalies, per anomaly those breaks stand for.
	Broken    map[int]int
	Anomalies map[string]int
	// Verdicts counts the verdicts of schedules that ran to their end.
	Verdicts map[string]int
	// Complete is how many schedules ran to their end (not pruned);
	// Reached of them ended at the scenario's expected value, Stuck with
	// an actor left waiting, unable to finish.
	Complete, Reached, Stuck int
	// Guided is how the guided order ended when run on its own: its final
	// value, or why it could not be followed (GuidedErr).
	GuidedFinal   int64
	GuidedVerdict string
	GuidedErr     string
	// Without is the set of guards removed (SAFE); Consulted the guards
	// the exploration's steps asked about: one outside it never was on
	// any path, so removing it changes nothing.
	Without, Consulted GuardSet
	// Refused are the check-only guards (Guard.CheckOnly) that refused a
	// step on some schedule.
	Refused GuardSet
	// Why is the explored graph with every state's futures counted, when
	// CheckOptions.Why asked for it.
	Why *Why
	// Counterexample is the shortest schedule that broke an invariant —
	// in UNSAFE, preferably the catalog's own anomaly, or else ended with
	// the catalog's verdict (ties go to the one closest to the guided
	// order). Nil when there is none.
	Counterexample *Trace
	// Unsent are the OperationIds the scenario scripts the provider for
	// that no schedule of an exhaustive search sent: their answers were
	// never given, so the check shows nothing about them (the code makes
	// its OperationIds otherwise than the scenario expects). Such a check
	// does not hold.
	Unsent []string
	// ShowsCatalog: in UNSAFE, the counterexample breaks the catalog's
	// anomaly or ends with its verdict. The explored graph says so even
	// where no schedule that ran to its end did (a schedule stops at a
	// state explored already, and a verdict depends on the way).
	ShowsCatalog bool
	Elapsed      time.Duration
}

// Holds reports whether the check agrees with the catalog: SAFE broke no
// invariant on any schedule of an exhaustive search and made progress;
// UNSAFE reached the catalog's anomaly or verdict on one, counted or shown
// by the counterexample (a bounded search that found it found it).
//
// A scenario file may predict nothing for a mode: its SAFE must then break
// no invariant (progress is reported, not required), and its UNSAFE may
// end any way.
func (r CheckReport) Holds() bool {
	if len(r.Unsent) > 0 {
		return false
	}
	_, predicted := r.Scenario.Predicted[r.Mode]
	if r.Mode == Safe {
		return r.Exhaustive && len(r.Broken) == 0 && (r.Progressed() || !predicted)
	}
	if !predicted {
		return true
	}
	want := r.Scenario.Predicted[Unsafe].Verdict
	return r.Verdicts[want] > 0 || r.Anomalies[want] > 0 || r.ShowsCatalog
}

// Progressed reports whether SAFE did the work: the guided order reached
// the expected value, and so did some complete schedule.
func (r CheckReport) Progressed() bool {
	return r.GuidedErr == "" && r.GuidedFinal == r.Scenario.Expected && r.Reached > 0
}

// Check explores every schedule of the labs' scenario in their mode. Each
// lab runs on backends of its own (a database and a Redis namespace each),
// and the labs explore in parallel: a lab takes an action queued at a
// state any lab saved, restores that state and goes on from there.
func Check(ctx context.Context, labs []*Lab, opts CheckOptions) (CheckReport, error) {
	if len(labs) == 0 {
		return CheckReport{}, errors.New("check needs a lab")
	}
	first := labs[0]
	if opts.Why {
		opts.NoReduction = true
	}
	c := &checker{
		opts:      opts,
		durations: guidedDurations(first.scenario.Guided(first.mode)),
		guided:    withoutPauses(first.scenario.Guided(first.mode)),
		visited:   map[[32]byte]*visit{},
		paths:     newPathGraph(),
		report: CheckReport{Scenario: first.scenario, Mode: first.mode, Exhaustive: true, Without: first.without,
			Broken: map[int]int{}, Anomalies: map[string]int{}, Verdicts: map[string]int{}},
		queue: []workItem{{}},
		over:  make(chan struct{}),
	}
	c.cond = sync.NewCond(&c.mu)
	if opts.Why {
		c.graph = newStateGraph()
	}
	var all []*Lab // the labs at work, those Grow opened too
	defer func() {
		for _, lab := range all {
			lab.checking = false
			lab.backends.Database.ReadBack(false)
		}
	}()
	start := HostClock()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	// goCheck runs part of the search; its failure is the search's.
	goCheck := func(part func() error) {
		wg.Go(func() {
			err := func() (err error) {
				defer CatchPanic(&err)
				return part()
			}()
			if err != nil {
				c.fail(err)
				cancel(err)
			}
		})
	}
	startLab := func(lab *Lab) {
		// A lab's actors take turns, and the checks read the schema after
		// every step that wrote: the write reads it back.
		lab.checking = true
		lab.backends.Database.ReadBack(true)
		all = append(all, lab)
		goCheck(func() error { return c.work(ctx, lab) })
	}
	for _, lab := range labs {
		startLab(lab)
	}
	if opts.Grow != nil {
		goCheck(func() error { return c.grow(ctx, startLab) })
	}
	wg.Wait()
	if c.err != nil {
		return c.report, c.err
	}
	if err := ctx.Err(); err != nil {
		return c.report, context.Cause(ctx)
	}
	if err := c.counterexample(ctx, first); err != nil {
		return c.report, err
	}
	if err := c.runGuided(ctx, first); err != nil {
		return c.report, err
	}
	for _, lab := range all {
		c.report.Consulted |= lab.consulted
		c.report.Refused |= lab.refused
	}
	if c.report.Exhaustive {
		c.report.Unsent = slices.Sorted(maps.Keys(c.unsent))
	}
	c.report.Labs = len(all)
	if c.graph != nil {
		c.report.Why = c.graph.why(c.report)
	}
	c.report.Elapsed = HostSince(start)
	return c.report, nil
}

// grow adds the labs CheckOptions.Grow opens while they pay: from
// GrowAfter on it counts the schedules run in each growWindow, opens
// growStep labs more, and goes on while a window ran a twentieth more
// schedules than the one before — a search bound by the cores, as one on
// the embedded Redis alone is, gains nothing from labs that wait for a
// core — until the search is over or Grow has none. startLab is called from this goroutine
// alone once the first labs are at work; the wait group counts this
// goroutine, so a lab started here is waited for.
func (c *checker) grow(ctx context.Context, startLab func(*Lab)) error {
	// pause waits d; false when the search ended meanwhile.
	pause := func(d time.Duration) bool {
		wait := time.NewTimer(d)
		defer wait.Stop()
		select {
		case <-wait.C:
			return true
		case <-c.over:
		case <-ctx.Done():
		}
		return false
	}
	schedules := func() int {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.report.Schedules
	}
	if !pause(GrowAfter) {
		return nil
	}
	before := schedules()
	if !pause(growWindow) {
		return nil
	}
	last := schedules()
	rate := last - before
	for {
		for range growStep {
			lab, err := c.opts.Grow(ctx)
			if err != nil || lab == nil {
				if ctx.Err() != nil {
					return nil // the search failed or was stopped meanwhile
				}
				return err
			}
			startLab(lab)
		}
		if !pause(growWindow) {
			return nil
		}
		now := schedules()
		if 20*(now-last) < 21*rate {
			return nil
		}
		rate, last = now-last, now
	}
}

// growWindow is how long grow counts schedules between steps, and
// growStep how many labs a step opens.
const (
	growWindow = 250 * time.Millisecond
	growStep   = 2
)

// runGuided runs the guided order on its own, from the seeded state, for
// progress: the value it ends at, or why it could not be followed (with a
// guard removed, the story may go elsewhere: an actor the guided order
// steps has finished, say). A backend's failure is the check's.
func (c *checker) runGuided(ctx context.Context, lab *Lab) error {
	if err := lab.Reset(ctx); err != nil {
		return err
	}
	defer lab.Reset(context.WithoutCancel(ctx))
	if err := lab.RunGuided(ctx); err != nil {
		if !StoryStopped(err) {
			return err
		}
		c.report.GuidedErr = err.Error()
		return nil
	}
	result, err := lab.Result(ctx)
	if err != nil {
		return err
	}
	c.report.GuidedFinal, c.report.GuidedVerdict = result.Final, result.Verdict
	return nil
}

// recordStory runs a counterexample's schedule from the seeded state and
// records it as a trace, with the pauses the search leaves implicit made
// explicit: an actor that holds a lease while the clock moves on is paused
// before the clock moves (frozen, as the catalog's stories say) and resumed
// before its next step. A pause changes nothing on the backends — an actor
// that is not scheduled is as good as paused — so the run ends exactly as
// the schedule did; the explorer and the trace show the freeze.
func (l *Lab) recordStory(ctx context.Context, schedule []TraceAction) (Trace, error) {
	if err := l.Reset(ctx); err != nil {
		return Trace{}, err
	}
	defer l.Reset(context.WithoutCancel(ctx))
	do := func(a Action) error {
		if err := l.Do(ctx, a); err != nil {
			return fmt.Errorf("%s: %w", a, err)
		}
		return nil
	}
	for _, ta := range schedule {
		a, err := ta.ToAction()
		if err != nil {
			return Trace{}, err
		}
		switch a.Kind {
		case AdvanceClock, AdvanceToExpiry:
			for _, actor := range l.actors {
				if !actor.Done() && !actor.Paused && l.world != nil && l.world.Holds(actor) {
					if err := do(Pause(actor.Name, "stopped while the clock moves on")); err != nil {
						return Trace{}, err
					}
				}
			}
		case StepActor, CallActor, OverlapWrite:
			for _, name := range []string{a.Actor, a.With} {
				if actor, err := l.Actor(name); err == nil && actor.Paused {
					if err := do(Resume(name)); err != nil {
						return Trace{}, err
					}
				}
			}
		}
		if err := do(a); err != nil {
			return Trace{}, err
		}
	}
	return l.Trace(ctx)
}

// checker is the state of one check, shared by its labs.
type checker struct {
	opts      CheckOptions
	durations []durationBudget
	guided    []Action // the guided order without its pauses and resumes

	mu    sync.Mutex
	cond  *sync.Cond
	queue []workItem // actions yet to be taken at saved states
	// later are the overlaps, taken once every schedule of one statement
	// at a time is explored (inFlight), and only if those broke nothing
	// (deferOverlaps).
	later    []workItem
	inFlight bool
	// unsent are what every schedule that ended so far left unsent, as
	// its result says (Result.Unsent); nil before the first ended.
	unsent  map[string]bool
	busy    int // labs working on a schedule
	visited map[[32]byte]*visit
	report  CheckReport
	paths   *pathGraph  // every action taken, for the counterexample (shortest.go)
	graph   *stateGraph // the states and their edges (CheckOptions.Why)
	err     error
	// over is closed once the search is over (next said so to a lab).
	over     chan struct{}
	overOnce sync.Once
}

// durationBudget is a clock advance of the guided order and how often the
// guided order takes it.
type durationBudget struct {
	by    time.Duration
	times int
}

func withoutPauses(guided []Action) []Action {
	var out []Action
	for _, a := range guided {
		if a.Kind != PauseActor && a.Kind != ResumeActor {
			a.Note, a.Caption = "", ""
			out = append(out, a)
		}
	}
	return out
}

func guidedDurations(guided []Action) []durationBudget {
	var out []durationBudget
	for _, a := range guided {
		if a.Kind != AdvanceClock {
			continue
		}
		i := slices.IndexFunc(out, func(d durationBudget) bool { return d.by == a.By })
		if i < 0 {
			out = append(out, durationBudget{by: a.By})
			i = len(out) - 1
		}
		out[i].times++
	}
	return out
}

func (c *checker) fail(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err == nil {
		c.err = err
	}
	c.cond.Broadcast()
}

// next takes a schedule from the queue, waiting while other labs may still
// add some; false when the search is over.
func (c *checker) next(ctx context.Context) (workItem, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for len(c.queue) == 0 && c.busy > 0 && c.err == nil && ctx.Err() == nil {
		c.cond.Wait()
	}
	if len(c.queue) == 0 && len(c.later) > 0 {
		c.takeUpOverlaps()
	}
	if len(c.queue) == 0 || c.err != nil || ctx.Err() != nil || c.full() {
		c.cond.Broadcast()
		c.overOnce.Do(func() { close(c.over) })
		return workItem{}, false
	}
	// Last in, first out: the search goes deep first, which keeps the queue
	// short.
	item := c.queue[len(c.queue)-1]
	c.queue = c.queue[:len(c.queue)-1]
	c.busy++
	return item, true
}

// takeUpOverlaps starts on the overlaps put off until every schedule of
// one statement at a time was explored — unless those already broke what
// the check looks for (SAFE: an invariant; UNSAFE: the predicted anomaly
// or verdict): the search has its answer and its shortest counterexample
// (which prefers one statement at a time whatever its length), and the
// statements in flight are left unexplored, as the report says. c.mu is
// held.
func (c *checker) takeUpOverlaps() {
	r := &c.report
	answered := len(r.Broken) > 0
	if r.Mode == Unsafe {
		want, predicted := r.Scenario.Predicted[Unsafe]
		answered = predicted && (r.Verdicts[want.Verdict] > 0 || r.Anomalies[want.Verdict] > 0)
	}
	if (answered || c.opts.OneAtATime) && c.graph == nil {
		r.InFlightLeft = len(c.later)
		c.later = nil
		return
	}
	c.inFlight = true
	c.queue, c.later = c.later, nil
}

// deferOverlaps puts off the overlap the schedule is about to take at the
// lab's state (see takeUpOverlaps), with what is asleep after it as
// pushSiblings has it, and reports whether it did: the schedule stops
// here for now. (The actions after it at this state were queued beside
// it, and overlaps, which moves lists last, go to the same place.) Once
// the overlaps are taken up, none is put off.
func (c *checker) deferOverlaps(lab *Lab, keys []RedisKey, state [32]byte, todo []Action, i int, sleep []Action) bool {
	if todo[i].Kind != OverlapWrite {
		return false
	}
	c.mu.Lock()
	inFlight := c.inFlight
	c.mu.Unlock()
	if inFlight {
		return false
	}
	item := workItem{from: lab.save(keys, state), action: todo[i], sleep: c.asleepAfter(lab, todo[i], sleep, todo[:i])}
	c.mu.Lock()
	c.later = append(c.later, item)
	c.mu.Unlock()
	return true
}

func (c *checker) done() {
	c.mu.Lock()
	c.busy--
	c.cond.Broadcast()
	c.mu.Unlock()
}

// full reports whether MaxSchedules is reached, counting a schedule for
// each lab still at work; c.mu is held.
func (c *checker) full() bool {
	if c.opts.MaxSchedules > 0 && c.report.Schedules+c.busy >= c.opts.MaxSchedules || c.opts.Stop != nil && c.opts.Stop() {
		c.report.Exhaustive = false
		return true
	}
	return false
}

// work runs schedules on one lab until the search is over.
func (c *checker) work(ctx context.Context, lab *Lab) error {
	for {
		item, ok := c.next(ctx)
		if !ok {
			return nil
		}
		err := c.explore(ctx, lab, item)
		c.done()
		if err != nil {
			return err
		}
	}
}

// explore brings the lab to the item's state, takes the item's action and
// carries the schedule on, queueing every other action it could have
// taken at each new state.
//
// Sleep sets (Godefroid): an action queued at a state carries the actions
// its schedule need not take next — ones explored from that state before
// it that commute with it (Lab.independent): taking one of them first
// leads where the other order already led. A state remembers the actions
// it has not taken (they were asleep), and a schedule that comes back to it
// with fewer of them asleep takes those. Every state is still reached; only
// schedules that differ in the order of commuting calls are left out.
func (c *checker) explore(ctx context.Context, lab *Lab, item workItem) error {
	var before [32]byte // the state before the last action taken
	sleep := item.sleep // what need not be taken at the state the schedule is at
	// from and via: the edge the last action took, for the graph.
	var from [32]byte
	var via *Action
	var step takenStep // what the last action did, for the counterexample
	if item.from == nil {
		if err := lab.Reset(ctx); err != nil {
			return err
		}
		lab.story = 0
		if err := lab.checkInvariants(ctx); err != nil { // reads the seeded world
			return err
		}
	} else {
		if err := lab.restore(ctx, item.from); err != nil {
			return err
		}
		before = item.from.fingerprint
		var err error
		if step, err = c.take(ctx, lab, item.action, before); err != nil {
			return fmt.Errorf("%s after %d actions: %w", item.action, len(item.from.log), err)
		}
		from, via = before, &item.action
	}
	// At the state the schedule is at: what it may take (todo), which one
	// it took (i), and the actions enabled there.
	var todo, enabledHere []Action
	i, asleepHere := 0, []Action(nil)
	// queued: the schedule is at the state the item's own action led to.
	// (Not told by the log's length: a state inside a call is restored
	// from an anchor of the same state, which another schedule may have
	// reached in fewer actions.)
	queued := item.from != nil
	for {
		keys := lab.keys
		state := lab.fingerprint(keys)
		c.mu.Lock()
		if via == nil {
			c.paths.root = c.paths.node(state)
		} else {
			c.paths.took(from, step, state)
		}
		if c.graph != nil {
			if via == nil {
				c.graph.root = c.graph.node(state)
			} else {
				c.graph.edge(from, *via, state, lab.found)
			}
		}
		c.mu.Unlock()
		if c.opts.UntilBroken && len(lab.breaks) > 0 {
			// Not claimed: the same state reached without a break (its
			// fingerprint holds no breaks) is still explored from.
			c.end(lab, state, true)
			return nil
		}
		if state != before {
			enabled := c.enabled(lab, keys)
			var ok bool
			todo, ok = c.claim(state, sleep, enabled)
			if !ok {
				c.end(lab, state, true)
				return nil
			}
			if len(enabled) == 0 {
				c.end(lab, state, false)
				return nil
			}
			before, i, enabledHere, asleepHere = state, 0, enabled, sleep
			if len(todo) == 0 {
				// Every action here is asleep: explored from elsewhere. The
				// schedule takes them only to learn whether the state is
				// one where schedules end (every action changes nothing,
				// below); the first that changes something goes on to a
				// state reached from elsewhere too.
				todo = slices.Clone(enabled)
			} else {
				c.pushSiblings(lab, keys, state, todo, sleep)
			}
		} else {
			// The action changed nothing (an actor waiting on a lease that
			// waits again).
			if queued {
				return nil // a queued action: the others here were queued beside it
			}
			if i++; i == len(todo) {
				// Nothing taken here changed anything. The schedule is over
				// if the actions not taken change nothing either (asleep:
				// explored from elsewhere, or taken at an earlier visit), so
				// they are taken too: a state where schedules end is then
				// known as one whichever schedule reached it first, as the
				// counterexample needs (pathGraph.ended).
				rest := filter(enabledHere, func(a Action) bool { return !slices.Contains(todo, a) })
				if len(rest) == 0 {
					c.end(lab, state, false)
					return nil
				}
				todo = append(todo, rest...)
			}
		}
		queued = false
		if c.deferOverlaps(lab, keys, state, todo, i, asleepHere) {
			return nil
		}
		next := todo[i]
		sleep = c.asleepAfter(lab, next, asleepHere, todo[:i])
		var err error
		if step, err = c.take(ctx, lab, next, before); err != nil {
			return fmt.Errorf("%s after %d actions: %w", next, len(lab.log), err)
		}
		from, via = before, &next
	}
}

// pushSiblings queues every action of todo but the first, each with the
// actions asleep after it.
func (c *checker) pushSiblings(lab *Lab, keys []RedisKey, state [32]byte, todo, sleep []Action) {
	if len(todo) < 2 {
		return
	}
	from := lab.save(keys, state)
	items := make([]workItem, 0, len(todo)-1)
	for k := 1; k < len(todo); k++ {
		items = append(items, workItem{from: from, action: todo[k], sleep: c.asleepAfter(lab, todo[k], sleep, todo[:k])})
	}
	c.push(items)
}

// asleepAfter is the sleep set after taking action at the lab's state: of
// the actions asleep there and the ones taken there before it, those that
// commute with it.
func (c *checker) asleepAfter(lab *Lab, action Action, asleep, before []Action) []Action {
	if c.opts.NoReduction {
		return nil
	}
	var out []Action
	for _, u := range [2][]Action{asleep, before} {
		for _, a := range u {
			if a != action && lab.independent(a, action) && !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// take applies an action of the search, logs it, follows the guided
// order's story, and says what the action did.
func (c *checker) take(ctx context.Context, lab *Lab, action Action, before [32]byte) (takenStep, error) {
	events := len(lab.events)
	if lab.quiescent() {
		// The way back to any state inside the call this action may start.
		if lab.anchor == nil || lab.anchor.fingerprint != before {
			lab.anchor = lab.save(lab.keys, before)
		}
		lab.since = nil
	}
	entry, err := lab.applyLogged(ctx, action)
	if err != nil {
		return takenStep{}, err
	}
	lab.record(entry)
	lab.since = append(lab.since, action)
	c.followStory(lab, action)
	step := takenStep{action: entry.Action, broke: lab.found != 0}
	if entry.whole {
		step.action.Kind = StepActor
	}
	if a, _ := lab.Actor(action.Actor); a != nil && action.Kind == CallActor {
		step.stepEnded = !a.MidStep()
	}
	for _, e := range lab.events[events:] {
		if e.Refusal != "" {
			step.refusal = e.Refusal
		}
	}
	step.catalog = lab.mode == Unsafe && slices.Contains(lab.foundAnomalies, lab.scenario.Predicted[Unsafe].Verdict)
	return step, nil
}

// followStory moves the schedule's place on the guided order on (the
// order guidedFirst takes actions in): a call of the guided step's actor
// stays on it, the step's end moves it on, any other action leaves it.
func (c *checker) followStory(lab *Lab, action Action) {
	if lab.story < 0 || lab.story >= len(c.guided) {
		lab.story = -1
		return
	}
	want := c.guided[lab.story]
	switch {
	case want.Kind == StepActor && action.Kind == CallActor && action.Actor == want.Actor:
		if a, _ := lab.Actor(action.Actor); a != nil && !a.MidStep() {
			lab.story++
		}
	case action == want:
		lab.story++
	default:
		lab.story = -1
	}
}

// workItem is an action to take at a state already explored; nil from is
// the seeded state, before any action. sleep is what need not be taken
// at the state the action leads to.
type workItem struct {
	from   *labState
	action Action
	sleep  []Action
}

// visit is what the search remembers of a state: the actions enabled there
// it has not taken (they were asleep each time it came).
type visit struct {
	asleep []Action
}

// labState is a lab at one point of a schedule, whole: what the stores
// hold (the lab's keys with the TTLs they have left, every row of the
// schema, what the world keeps itself) and the lab's own part (clock,
// actors, timeline, what the checks remember). Restoring it on any lab of
// the same scenario and mode puts that lab exactly there, so a schedule
// goes on from a state without replaying the actions that led to it.
type labState struct {
	fingerprint [32]byte
	keys        []RedisKey // named relative to the namespace
	dump        LedgerDump
	clock       time.Duration
	actors      []actorState
	events      []Event
	breaks      []Break
	log         []loggedAction
	eventsAfter []int
	used        usedArrays // how far those slices' arrays are used
	reading     Reading
	// world is what the scenario's world keeps outside the stores
	// (LabWorld.Save).
	world any
	// story: the search's place on the guided order (checker.take).
	story int
	// A state inside a call (an actor's goroutine parked between two of
	// its round trips, a transaction open) cannot be copied: it is saved
	// as the last state before it that can (anchor) and the actions taken
	// since, and restored by taking them again from there.
	anchor *labState
	since  []Action
}

// actorState is an actor's part of a lab state.
type actorState struct {
	pc, call               int
	paused                 bool
	pause, waiting, halted string
	memory                 Memory
	encoded                []byte // memory's JSON, for fingerprints
	stepBegan              time.Duration
}

// save copies the lab's state, from keys just read and the world the last
// invariant check read. The lab's timeline (events, breaks, log) is kept
// as it is, sharing its arrays: the lab and any lab the state is restored
// on append to them through appendShared, which never writes where a
// saved state reads.
func (l *Lab) save(keys []RedisKey, fingerprint [32]byte) *labState {
	if !l.quiescent() {
		return &labState{fingerprint: fingerprint, anchor: l.anchor, since: slices.Clone(l.since), story: l.story,
			log: l.log, used: usedArrays{log: l.used.log}}
	}
	prefix := l.backends.Coordination.Prefix()
	s := &labState{fingerprint: fingerprint, dump: l.reading.Ledger.Dump,
		clock: l.clock, events: l.events, breaks: l.breaks, log: l.log, eventsAfter: l.eventsAfter, used: l.used,
		reading: l.reading, story: l.story}
	if l.world != nil {
		s.world = l.world.Save()
	}
	s.keys = make([]RedisKey, len(keys))
	for i, k := range keys {
		k.Key = strings.TrimPrefix(k.Key, prefix)
		s.keys[i] = k
	}
	for _, a := range l.actors {
		s.actors = append(s.actors, actorState{pc: a.pc, call: a.call, paused: a.Paused, pause: a.Pause, waiting: a.Waiting,
			halted: a.Halted, memory: a.Memory, encoded: a.encoded, stepBegan: a.stepBegan})
	}
	return s
}

// restore puts the lab in a saved state. The schema is written only when
// it differs from the saved one (the dump the last check read is what the
// database holds now), and only when the database is next used.
func (l *Lab) restore(ctx context.Context, s *labState) error {
	l.abandonAll(ctx)
	if s.anchor != nil {
		return l.restoreInside(ctx, s)
	}
	var from []RedisKey // unknown: every key is written
	if l.keysRead {
		prefix := l.backends.Coordination.Prefix()
		from = make([]RedisKey, len(l.keys))
		for i, k := range l.keys {
			k.Key = strings.TrimPrefix(k.Key, prefix)
			from[i] = k
		}
	}
	if err := l.backends.Coordination.Restore(ctx, from, s.keys); err != nil {
		l.keysRead = false
		return err
	}
	if err := l.restoreSessions(ctx, s.reading.Sessions); err != nil {
		return err
	}
	l.putOffRestore(s.dump)
	l.ledgerRead, l.readAt = true, l.backends.Database.Writes() // s.reading holds from here on
	if l.world != nil {
		l.world.Restore(s.world)
	}
	for i, a := range l.actors {
		saved := s.actors[i]
		a.pc, a.call, a.Paused, a.Pause, a.Waiting, a.Halted, a.Memory =
			saved.pc, saved.call, saved.paused, saved.pause, saved.waiting, saved.halted, saved.memory
		a.encoded, a.stepBegan = saved.encoded, saved.stepBegan
	}
	l.clock, l.events, l.breaks, l.log, l.eventsAfter, l.used = s.clock, s.events, s.breaks, s.log, s.eventsAfter, s.used
	l.reading = s.reading
	prefix := l.backends.Coordination.Prefix()
	l.keys = make([]RedisKey, len(s.keys))
	for i, k := range s.keys {
		k.Key = prefix + k.Key
		l.keys[i] = k
	}
	l.keysRead, l.readAhead = true, nil
	l.guidedNext, l.offPath = 0, true // the search follows its own story (story)
	l.story = s.story
	return nil
}

// restoreInside puts the lab in a saved state inside a call: at the state
// before the call, then through the actions taken since. The code is the
// same and so are the backends, so the actions lead to the same state; one
// that does not is a step that is not deterministic, which the search
// cannot explore.
func (l *Lab) restoreInside(ctx context.Context, s *labState) error {
	if err := l.restore(ctx, s.anchor); err != nil {
		return err
	}
	l.anchor, l.since = s.anchor, nil
	for _, a := range s.since {
		entry, err := l.applyLogged(ctx, a)
		if err != nil {
			return fmt.Errorf("check: taking %s again to a state inside a call: %w", a, err)
		}
		l.record(entry)
		l.since = append(l.since, a)
	}
	l.story = s.story
	if got := l.fingerprint(l.keys); got != s.fingerprint {
		return fmt.Errorf("check: taking %v again from the state before did not reach the same state inside the call: a step's code does not do the same thing twice", s.since)
	}
	return nil
}

// claim marks a state as reached by a schedule with the actions asleep,
// and says which of the enabled actions it must take: all but the asleep
// at a first visit; at a later visit, those asleep before and awake now.
// false: none (the state was explored already, as far as this schedule
// needs). A later visit by a shorter schedule explores nothing again: the
// counterexample is the graph's shortest, whichever schedule took each
// edge (shortest.go).
func (c *checker) claim(state [32]byte, asleep, enabled []Action) ([]Action, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, seen := c.visited[state]
	awake := func(a Action) bool { return !slices.Contains(asleep, a) }
	if !seen {
		c.report.States++
		c.visited[state] = &visit{asleep: slices.Clone(asleep)}
		return filter(enabled, awake), true
	}
	todo := filter(enabled, func(a Action) bool { return slices.Contains(v.asleep, a) && awake(a) })
	v.asleep = filter(v.asleep, func(a Action) bool { return !awake(a) })
	return todo, len(todo) > 0
}

func filter(actions []Action, keep func(Action) bool) []Action {
	var out []Action
	for _, a := range actions {
		if keep(a) {
			out = append(out, a)
		}
	}
	return out
}

// push queues work items; the first is taken first.
func (c *checker) push(items []workItem) {
	if len(items) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := len(items) - 1; i >= 0; i-- {
		if items[i].action.Kind == OverlapWrite && !c.inFlight {
			c.later = append(c.later, items[i])
			continue
		}
		c.queue = append(c.queue, items[i])
	}
	c.cond.Broadcast()
}

// enabled lists the actions that can happen next, the guided order's
// first, or none when the schedule is over.
func (c *checker) enabled(lab *Lab, keys []RedisKey) []Action {
	out := lab.moves(keys, c.durations)
	if len(out) == 0 {
		return nil
	}
	return c.guidedFirst(lab, out)
}

// moves are the actions a search can take at the lab's state, from keys
// just read: a call of each actor that has not finished, a crash of each
// whose session holds an advisory lock (crash.go), the clock to the
// next expiry when a key has a TTL, and each clock advance of the guided
// order while the schedule has taken fewer of it than the guided order
// does; none once every actor has finished.
func (l *Lab) moves(keys []RedisKey, durations []durationBudget) (out []Action) {
	waiting := false
	for _, a := range l.actors {
		switch {
		case a.Blocked(), !a.Done() && l.holderOf(a) != nil:
			waiting = true // not enabled until the lock (the connection) it waits for is released
		case l.oneWaits(a):
			waiting = true // not enabled while another actor's statement waits (wire.go)
		case !a.Done():
			out = append(out, DoCall(a.Name))
		}
	}
	out = append(out, l.crashes()...)
	if len(out) == 0 && !waiting {
		return nil
	}
	if hasTTL(keys) {
		out = append(out, AdvanceToNextExpiry())
	}
	for _, d := range durations {
		taken := 0
		for _, a := range l.log {
			if a.Kind == AdvanceClock && a.By == d.by {
				taken++
			}
		}
		if taken < d.times {
			out = append(out, AdvanceBy(d.by))
		}
	}
	// Last: a search takes them up once the rest is explored (checker.
	// takeUpOverlaps).
	return append(out, l.overlaps()...)
}

// guidedFirst puts the guided order's next action first while the
// schedule follows it, so the first schedule explored is the catalog's own
// (its pauses are left out: not scheduling an actor is its pause). The
// order changes which schedules a bounded search reaches, never which ones
// an exhaustive search explores.
func (c *checker) guidedFirst(lab *Lab, enabled []Action) []Action {
	if lab.story < 0 || lab.story >= len(c.guided) {
		return enabled
	}
	want := c.guided[lab.story]
	if want.Kind == StepActor {
		want = DoCall(want.Actor)
	}
	for i, a := range enabled {
		if a == want {
			return append([]Action{a}, append(enabled[:i:i], enabled[i+1:]...)...)
		}
	}
	return enabled
}

// end counts a schedule that ran to its end at state (or, pruned, to a
// state already explored); one that ran to its end marks state as a
// place where schedules end, with the value they measure there.
func (c *checker) end(lab *Lab, state [32]byte, pruned bool) {
	result := lab.resultFrom(lab.reading)
	c.mu.Lock()
	defer c.mu.Unlock()
	r := &c.report
	// What no schedule sent is what every schedule's result says it
	// did not.
	if c.unsent == nil {
		c.unsent = map[string]bool{}
		for _, id := range result.Unsent {
			c.unsent[id] = true
		}
	} else {
		maps.DeleteFunc(c.unsent, func(id string, _ bool) bool { return !slices.Contains(result.Unsent, id) })
	}
	r.Schedules++
	if pruned {
		r.Pruned++
	} else {
		c.paths.ended(state, result.Final)
		r.Verdicts[result.Verdict]++
		r.Complete++
		if result.Final == result.Expected {
			r.Reached++
		}
		for _, a := range lab.actors {
			if !a.Done() {
				r.Stuck++
				break
			}
		}
	}
	broken, anomalies := map[int]bool{}, map[string]bool{}
	for _, b := range result.Breaks {
		broken[b.Invariant], anomalies[b.Anomaly] = true, true
	}
	for n := range broken {
		r.Broken[n]++
	}
	for a := range anomalies {
		r.Anomalies[a]++
	}
	if c.opts.Progress != nil {
		c.opts.Progress(CheckProgress{Schedules: r.Schedules, States: r.States, Pruned: r.Pruned, Queued: len(c.queue)})
	}
}

// counterexample finds the shortest schedule of the explored graph that
// broke an invariant — in UNSAFE, preferably the catalog's anomaly, or
// else one that ended with the catalog's verdict (shortest.go) — and
// records it by running exactly that schedule from the seeded state, so
// its events and result are its own. A recorded run that does not end as
// the graph said is the checker's fault, and fails the check.
func (c *checker) counterexample(ctx context.Context, lab *Lab) error {
	want := ""
	if lab.mode == Unsafe {
		want = lab.scenario.Predicted[Unsafe].Verdict
	}
	s := lab.scenario
	verdict := func(final int64, refusal string) string {
		var refusals []string
		if refusal != "" {
			refusals = []string{refusal}
		}
		return Verdict(s.Expected, final, refusals, nil, s.ShortfallVerdict())
	}
	c.paths.markStory(c.guided)
	schedule, kind := c.paths.counterexample(want, verdict)
	if schedule == nil {
		return nil
	}
	t := NewTrace(lab.backends.HoldTTL, schedule, Result{})
	recorded, err := lab.recordStory(ctx, t.Schedule)
	if err != nil {
		return err
	}
	if !kind.keeps(recorded.Result, want) {
		return fmt.Errorf("check: the counterexample %v, run again, ended %s with %d breaks, not as the search saw it",
			schedule, recorded.Result.Verdict, len(recorded.Result.Broken))
	}
	c.report.Counterexample = &recorded
	c.report.ShowsCatalog = kind == breaksCatalog || kind == endsAsCatalog
	return nil
}

// actionOf is how many actions of the log it took to reach event seq.
func (l *Lab) actionOf(seq int) int {
	for i, n := range l.eventsAfter {
		if n >= seq {
			return i + 1
		}
	}
	return len(l.log)
}

// ledgerHash hashes the rows of the database as a state's fingerprint
// takes them: as the world says (LabWorld.Rows), without what no step
// reads. The hash is kept until the database is read again.
func (l *Lab) ledgerHash() [32]byte {
	if l.hashed != nil && l.hashed.dump == l.reading.Ledger.Dump {
		return l.hashed.sum
	}
	rows := struct {
		Rows any
		Code CodeState
	}{l.reading.Ledger.Rows, l.reading.Ledger.Code}
	if l.world != nil {
		rows.Rows = l.world.Rows(l.reading.Ledger)
	}
	data, err := json.Marshal(rows)
	if err != nil {
		panic(fmt.Sprintf("engine: rows that do not encode: %v", err))
	}
	l.hashed = &ledgerSum{dump: l.reading.Ledger.Dump, sum: sha256.Sum256(data)}
	return l.hashed.sum
}

// ledgerSum is the hash of the rows of one dump.
type ledgerSum struct {
	dump LedgerDump
	sum  [32]byte
}

// fingerprint hashes the lab's state as the package comment defines it,
// from keys just read and the world the last invariant check read. It is
// computed after every action of a search, so it is written to the hash
// field by field rather than encoded whole; an actor's memory is encoded
// as JSON (every field of it, whatever is added later), once per change.
func (l *Lab) fingerprint(keys []RedisKey) [32]byte {
	h := StateHash{sha256.New()}
	now := l.Now()
	// How often each clock advance was taken: the guided order's budget
	// of them decides which advances can come next.
	advances := map[time.Duration]int{}
	for _, a := range l.log {
		if a.Kind == AdvanceClock {
			advances[a.By]++
		}
	}
	for _, by := range slices.Sorted(maps.Keys(advances)) {
		h.Int(int64(by))
		h.Int(int64(advances[by]))
	}
	h.Mark()
	shared := l.sharedSumOf(keys)
	h.Write(shared[:])
	// A pause is no part of a state: the search never pauses an actor (not
	// scheduling one is its pause), and the explorer's paused actor stands
	// where the search's unscheduled one does (why.go looks it up).
	for _, a := range l.actors {
		h.Int(int64(a.pc))
		h.Int(int64(a.call))
		h.Write(a.memoryJSON(now))
		if a.MidStep() {
			// How long ago its step began: what it records is held to
			// the clock then (Observation.StepBegan). Mostly 0: the clock seldom
			// moves inside a step.
			h.Int(int64(l.clock - a.stepBegan))
		}
		// Inside a call, what the goroutine knows is what it began with
		// and the replies it had: each trip's text and the world it went
		// out in (and, one that waited for a lock, the world it came back
		// to) decide them.
		if lc := a.live; lc != nil {
			h.Bool(true)
			h.Write(lc.memory)
			for _, t := range lc.trips {
				h.Str(t.Backend, t.Text)
				h.Write(t.before[:])
				h.Bool(t.resumed)
				h.Write(t.after[:])
			}
			h.Bool(lc.blocked)
			h.Mark()
		}
	}
	h.Mark()
	if l.world != nil {
		l.world.Sum(h, now)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// sharedSum hashes what the backends hold as the last invariant check
// read it: the state a round trip goes out in.
func (l *Lab) sharedSum() [32]byte { return l.sharedSumOf(l.keys) }

// sharedSumOf hashes the lab's keys (as just read), rows and provider.
func (l *Lab) sharedSumOf(keys []RedisKey) [32]byte {
	prefix := l.backends.Coordination.Prefix()
	h := StateHash{sha256.New()}
	// Moments are taken relative to the lab clock, not the clock itself:
	// nothing a step does depends on the hour, only on how long ago (a
	// deadline, a due time, a TTL), so states a whole number of expiries
	// apart that are otherwise alike are one.
	now := l.Now()
	sorted := slices.Clone(keys)
	slices.SortFunc(sorted, func(a, b RedisKey) int { return strings.Compare(a.Key, b.Key) })
	for _, k := range sorted {
		h.Str(strings.TrimPrefix(k.Key, prefix), k.Type, k.Role)
		h.Int(int64(k.TTL))
		if len(k.Stamps) == 0 || k.Fields == nil {
			h.Str(k.Value)
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(k.Fields)) {
			value := k.Fields[name]
			if ms, err := strconv.ParseInt(value, 10, 64); err == nil && slices.Contains(k.Stamps, name) {
				value = "ago " + strconv.FormatInt(now.UnixMilli()-ms, 10)
			}
			h.Str(name, value)
		}
		h.Mark()
	}
	h.Mark()
	// The world's jobs are the keys' (hashed above); its rows are hashed
	// once per read of the database (ledgerHash).
	sum := l.ledgerHash()
	h.Write(sum[:])
	h.Mark()
	for _, s := range l.reading.Sessions {
		h.Str(s.Connection)
		for _, k := range s.Locks {
			h.Int(int64(k.High)<<32 | int64(k.Low))
			h.Bool(k.Pair)
			h.Bool(k.Shared)
			h.Int(int64(k.Count))
		}
		h.Mark()
	}
	h.Mark()
	if l.world != nil {
		l.world.SumShared(h, now)
	}
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// StateHash writes a state's fields to a hash, each delimited so no two
// states write the same bytes.
type StateHash struct{ hash.Hash }

func (h StateHash) Int(v int64) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], uint64(v))
	h.Write(b[:])
}

func (h StateHash) Str(values ...string) {
	for _, v := range values {
		h.Int(int64(len(v)))
		h.Write([]byte(v))
	}
}

func (h StateHash) Bool(v bool) {
	if v {
		h.Write([]byte{1})
	} else {
		h.Write([]byte{0})
	}
}

// mark ends a list of variable length.
func (h StateHash) Mark() { h.Write([]byte{0xff, 0xfe}) }
