package engine

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
)

// The checker explores every schedule of a scenario in one mode on the real
// backends, and says which invariants any of them broke.
//
// A schedule is built action by action. At each point the actions that can
// happen are: any actor that has not finished takes its next step, the
// clock advances to the next key expiry in Redis (when a key has a TTL),
// and the clock advances by each duration the scenario's guided order
// advances by (as often as the guided order does). Pausing an actor is not
// an action of its own: an actor that is not scheduled is paused, and the
// search schedules every actor at every point, around every expiry.
// Operators, crashes and restarts are actors of their scenarios, so their
// steps land everywhere too. A schedule ends when every actor has finished,
// or when nothing can happen any more (an actor waiting for a lease that
// never expires).
//
// Pruning is by state: a schedule stops at a state already explored by a
// schedule no longer than it, because everything after it was explored
// there. A state is everything the lab can observe and everything that
// decides what happens next: every key of the lab in Redis with its value
// and TTL, every row of schema fencelab, what the provider applied and
// remembers, each actor's program position, pause and memory, the lab
// clock, and what the invariant checks remember of earlier steps (the
// first terminal status of each job, which jobs were reachable). On a real
// Redis a TTL counts as present or absent (its milliseconds run on the wall
// clock); the lab clock stands in for the rest.

// CheckOptions bound and observe a check.
type CheckOptions struct {
	// MaxSchedules stops the search after this many schedules; 0: none.
	MaxSchedules int
	// Progress hears the counts as the search goes; calls are serialised.
	Progress func(CheckProgress)
}

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
	// Exhaustive: every schedule was explored (MaxSchedules did not cut it).
	Exhaustive bool
	// Broken counts, per invariant, the schedules that broke it;
	// Anomalies, per anomaly those breaks stand for.
	Broken    map[int]int
	Anomalies map[string]int
	// Verdicts counts the verdicts of schedules that ran to their end.
	Verdicts map[string]int
	// Counterexample is the shortest schedule that broke an invariant —
	// in UNSAFE, preferably the catalog's own anomaly, or else ended with
	// the catalog's verdict (ties go to the one closest to the guided
	// order). Nil when there is none.
	Counterexample *Trace
	Elapsed        time.Duration
}

// Holds reports whether the check agrees with the catalog: SAFE broke no
// invariant on any schedule; UNSAFE reached the catalog's anomaly on one.
func (r CheckReport) Holds() bool {
	if r.Mode == Safe {
		return len(r.Broken) == 0
	}
	want := r.Scenario.Predicted[Unsafe].Verdict
	return r.Verdicts[want] > 0 || r.Anomalies[want] > 0
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
	c := &checker{
		opts:      opts,
		durations: guidedDurations(first.scenario.Guided(first.mode)),
		guided:    withoutPauses(first.scenario.Guided(first.mode)),
		visited:   map[[32]byte]int{},
		report: CheckReport{Scenario: first.scenario, Mode: first.mode, Exhaustive: true,
			Broken: map[int]int{}, Anomalies: map[string]int{}, Verdicts: map[string]int{}},
		queue: []workItem{{}},
	}
	c.cond = sync.NewCond(&c.mu)
	for _, lab := range labs {
		lab.checking = true
		defer func() { lab.checking = false }()
	}
	start := time.Now()
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var wg sync.WaitGroup
	for _, lab := range labs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.work(ctx, lab); err != nil {
				c.fail(err)
				cancel(err)
			}
		}()
	}
	wg.Wait()
	if c.err != nil {
		return c.report, c.err
	}
	if err := ctx.Err(); err != nil {
		return c.report, context.Cause(ctx)
	}
	if t := c.report.Counterexample; t != nil {
		// Its events and result are those of exactly its schedule.
		recorded, err := first.recordStory(ctx, t.Schedule)
		if err != nil {
			return c.report, err
		}
		c.report.Counterexample = &recorded
	}
	c.report.Elapsed = time.Since(start)
	return c.report, nil
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
				if !actor.Done() && !actor.Paused && (actor.Memory.HoldsLease || actor.Memory.HoldsLeader) {
					if err := do(Pause(actor.Name, "stopped while the clock moves on")); err != nil {
						return Trace{}, err
					}
				}
			}
		case StepActor:
			if actor, err := l.Actor(a.Actor); err == nil && actor.Paused {
				if err := do(Resume(a.Actor)); err != nil {
					return Trace{}, err
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

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []workItem // actions yet to be taken at saved states
	busy    int        // labs working on a schedule
	visited map[[32]byte]int
	report  CheckReport
	best    counterexampleRank // the counterexample's
	err     error
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
	if len(c.queue) == 0 || c.err != nil || ctx.Err() != nil || c.full() {
		c.cond.Broadcast()
		return workItem{}, false
	}
	// Last in, first out: the search goes deep first, which keeps the queue
	// short; shorter schedules that reach a known state again still win.
	item := c.queue[len(c.queue)-1]
	c.queue = c.queue[:len(c.queue)-1]
	c.busy++
	return item, true
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
	if c.opts.MaxSchedules > 0 && c.report.Schedules+c.busy >= c.opts.MaxSchedules {
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
func (c *checker) explore(ctx context.Context, lab *Lab, item workItem) error {
	var before [32]byte // the state before the last action taken
	var noops []Action  // actions that changed nothing at this state
	if item.from == nil {
		if err := lab.Reset(ctx); err != nil {
			return err
		}
		if err := lab.checkInvariants(ctx); err != nil { // reads the seeded world
			return err
		}
	} else {
		if err := lab.restore(ctx, item.from); err != nil {
			return err
		}
		before = item.from.fingerprint
		if err := lab.apply(ctx, item.action); err != nil {
			return fmt.Errorf("%s after %d actions: %w", item.action, len(item.from.log), err)
		}
		lab.record(loggedAction{Action: item.action})
	}
	for {
		keys, err := lab.backends.Coordination.Keys(ctx)
		if err != nil {
			return err
		}
		state := lab.fingerprint(keys)
		arrived := state != before
		if arrived {
			if !c.claim(state, len(lab.log)) {
				c.end(lab, true)
				return nil
			}
			before, noops = state, nil
		} else if len(noops) == 0 && item.from != nil && len(lab.log) == len(item.from.log)+1 {
			// A queued action that changes nothing: every other action at
			// this state is explored from where it was queued.
			return nil
		} else {
			// The step changed nothing (an actor waiting on a lease that
			// waits again). The schedule goes on without it; what else can
			// happen here was queued on arriving.
			noops = append(noops, lab.log[len(lab.log)-1].Action)
		}
		enabled := slices.DeleteFunc(c.enabled(lab, keys), func(a Action) bool { return slices.Contains(noops, a) })
		if len(enabled) == 0 {
			c.end(lab, false)
			return nil
		}
		if arrived {
			c.push(lab.save(keys, state), enabled[1:])
		}
		if err := lab.apply(ctx, enabled[0]); err != nil {
			return fmt.Errorf("%s after %d actions: %w", enabled[0], len(lab.log), err)
		}
		lab.record(loggedAction{Action: enabled[0]})
	}
}

// workItem is an action to take at a state already explored; nil from is
// the seeded state, before any action.
type workItem struct {
	from   *labState
	action Action
}

// labState is a lab at one point of a schedule, whole: what the stores
// hold (the lab's keys with the TTLs they have left, every row of the
// schema, what the provider remembers) and the lab's own part (clock,
// actors, timeline, what the checks remember). Restoring it on any lab of
// the same scenario and mode puts that lab exactly there, so a schedule
// goes on from a state without replaying the actions that led to it.
type labState struct {
	fingerprint [32]byte
	keys        []RedisKey // named relative to the namespace
	dump        LedgerDump
	provider    ProviderSnapshot
	clock       time.Duration
	actors      []actorState
	events      []Event
	breaks      []Break
	log         []loggedAction
	eventsAfter []int
	seenExecs   int
	world       World
	expiring    bool
	terminal    map[string]string
	reachable   map[string]bool
}

// actorState is an actor's part of a lab state.
type actorState struct {
	pc                     int
	paused                 bool
	pause, waiting, halted string
	memory                 Memory
}

// save copies the lab's state, from keys just read and the world the last
// invariant check read. The slices are clipped, so the lab's later appends
// never write into the copy's arrays.
func (l *Lab) save(keys []RedisKey, fingerprint [32]byte) *labState {
	namespace := l.backends.Coordination.Namespace()
	s := &labState{fingerprint: fingerprint, dump: l.world.Ledger.Dump, provider: l.backends.Provider.Snapshot(),
		clock: l.clock, events: slices.Clip(l.events), breaks: slices.Clip(l.breaks), log: slices.Clip(l.log),
		eventsAfter: slices.Clip(l.eventsAfter), seenExecs: l.seenExecs, world: l.world, expiring: l.expiring,
		terminal: maps.Clone(l.jobWatch.terminal), reachable: maps.Clone(l.jobWatch.reachable)}
	s.keys = make([]RedisKey, len(keys))
	for i, k := range keys {
		k.Key = strings.TrimPrefix(k.Key, namespace)
		s.keys[i] = k
	}
	for _, a := range l.actors {
		s.actors = append(s.actors, actorState{pc: a.pc, paused: a.Paused, pause: a.Pause, waiting: a.Waiting,
			halted: a.Halted, memory: a.Memory})
	}
	return s
}

// restore puts the lab in a saved state. The schema is written only when
// it differs from the saved one: the dump the last check read is what the
// database holds now.
func (l *Lab) restore(ctx context.Context, s *labState) error {
	if err := l.backends.Coordination.Restore(ctx, s.keys); err != nil {
		return err
	}
	if l.world.Ledger.Dump != s.dump {
		if err := l.ledger.Restore(ctx, s.dump); err != nil {
			return err
		}
	}
	l.ledgerRead, l.readAt = true, l.backends.Database.Writes() // s.world holds from here on
	l.backends.Provider.Restore(s.provider)
	for i, a := range l.actors {
		saved := s.actors[i]
		a.pc, a.Paused, a.Pause, a.Waiting, a.Halted, a.Memory =
			saved.pc, saved.paused, saved.pause, saved.waiting, saved.halted, saved.memory
	}
	l.clock, l.events, l.breaks, l.log, l.eventsAfter = s.clock, s.events, s.breaks, s.log, s.eventsAfter
	l.seenExecs, l.world, l.expiring = s.seenExecs, s.world, s.expiring
	l.jobWatch = &jobWatch{terminal: maps.Clone(s.terminal), reachable: maps.Clone(s.reachable)}
	l.guidedNext = 0
	return nil
}

// claim marks a state as explored from a schedule of length depth; false
// when it was explored already from one no longer.
func (c *checker) claim(state [32]byte, depth int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d, seen := c.visited[state]; seen && d <= depth {
		return false
	}
	if _, seen := c.visited[state]; !seen {
		c.report.States++
	}
	c.visited[state] = depth
	return true
}

// push queues an action to take at a saved state for each of others.
func (c *checker) push(from *labState, others []Action) {
	if len(others) == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	// Queued in reverse so the first of them is taken first.
	for i := len(others) - 1; i >= 0; i-- {
		c.queue = append(c.queue, workItem{from: from, action: others[i]})
	}
	c.cond.Broadcast()
}

// enabled lists the actions that can happen next, or none when the
// schedule is over.
func (c *checker) enabled(lab *Lab, keys []RedisKey) (out []Action) {
	finished := true
	for _, a := range lab.actors {
		if !a.Done() {
			finished = false
			if !a.Paused {
				out = append(out, Do(a.Name))
			}
		}
	}
	if finished {
		return nil
	}
	defer func() { out = c.guidedFirst(lab, out) }()
	if hasTTL(keys) {
		out = append(out, AdvanceToNextExpiry())
	}
	for _, d := range c.durations {
		taken := 0
		for _, a := range lab.log {
			if a.Kind == AdvanceClock && a.By == d.by {
				taken++
			}
		}
		if taken < d.times {
			out = append(out, AdvanceBy(d.by))
		}
	}
	return out
}

// guidedFirst puts the guided order's next action first while the
// schedule follows it, so the first schedule explored is the catalog's own
// (its pauses are left out: not scheduling an actor is its pause). The
// order changes which schedules a bounded search reaches, never which ones
// an exhaustive search explores.
func (c *checker) guidedFirst(lab *Lab, enabled []Action) []Action {
	k := len(lab.log)
	if k >= len(c.guided) {
		return enabled
	}
	for i, a := range lab.log {
		if a.Action != c.guided[i] {
			return enabled
		}
	}
	for i, a := range enabled {
		if a == c.guided[k] {
			return append([]Action{a}, append(enabled[:i:i], enabled[i+1:]...)...)
		}
	}
	return enabled
}

// end counts a schedule that ran to its end (or, pruned, to a state already
// explored) and keeps it if it is the shortest counterexample so far.
func (c *checker) end(lab *Lab, pruned bool) {
	result := lab.resultFrom(lab.world)
	c.mu.Lock()
	defer c.mu.Unlock()
	r := &c.report
	r.Schedules++
	if pruned {
		r.Pruned++
	} else {
		r.Verdicts[result.Verdict]++
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
	// In UNSAFE the counterexample to keep is one that tells the
	// catalog's story: it breaks the invariant of the catalog's anomaly, or
	// ends with the catalog's verdict; any other break comes after those.
	want := ""
	if lab.mode == Unsafe {
		want = lab.scenario.Predicted[Unsafe].Verdict
	}
	cut, onCatalog := 0, false // cut: the break the schedule is cut after
	for _, b := range result.Breaks {
		if want != "" && b.Anomaly == want {
			cut, onCatalog = b.Sequence, true
			break
		}
	}
	if !onCatalog && len(result.Breaks) > 0 {
		cut = result.Breaks[0].Sequence
	}
	if !onCatalog && !pruned && want != "" && result.Verdict == want {
		cut, onCatalog = 0, true // the verdict is the whole schedule's
	}
	if len(broken) > 0 || onCatalog {
		n := len(lab.log)
		// A schedule that broke an invariant is cut after the step that
		// broke it: what follows adds nothing to the story.
		if cut > 0 {
			n = lab.actionOf(cut)
		}
		schedule := lab.Schedule()[:n]
		rank := c.rank(schedule, cut > 0)
		rank.offCatalog = want != "" && !onCatalog
		if r.Counterexample == nil || rank.before(c.best) {
			t := NewTrace(lab.backends.LeaseTTL, schedule, result)
			t.Events, t.Result = nil, TraceResult{} // recorded by running exactly that prefix
			r.Counterexample, c.best = &t, rank
		}
	}
	if c.opts.Progress != nil {
		c.opts.Progress(CheckProgress{Schedules: r.Schedules, States: r.States, Pruned: r.Pruned, Queued: len(c.queue)})
	}
}

// counterexampleRank orders counterexamples: in UNSAFE one with the
// catalog's anomaly first; then one that broke an invariant before a bare
// verdict, then the shorter, then the one that follows the guided order
// longer (it tells the catalog's story), then by its text, so the labs'
// interleaving never changes which one a check writes.
type counterexampleRank struct {
	offCatalog bool
	unbroken   bool
	length     int
	offStory   int // actions after the guided order's prefix
	text       string
}

func (c *checker) rank(schedule []Action, broke bool) counterexampleRank {
	onStory := 0
	for onStory < len(schedule) && onStory < len(c.guided) && schedule[onStory] == c.guided[onStory] {
		onStory++
	}
	return counterexampleRank{unbroken: !broke, length: len(schedule), offStory: len(schedule) - onStory,
		text: fmt.Sprint(schedule)}
}

func (a counterexampleRank) before(b counterexampleRank) bool {
	switch {
	case a.offCatalog != b.offCatalog:
		return !a.offCatalog
	case a.unbroken != b.unbroken:
		return !a.unbroken
	case a.length != b.length:
		return a.length < b.length
	case a.offStory != b.offStory:
		return a.offStory < b.offStory
	}
	return a.text < b.text
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

// fingerprint hashes the lab's state as the package comment defines it,
// from keys just read and the world the last invariant check read.
func (l *Lab) fingerprint(keys []RedisKey) [32]byte {
	type actorState struct {
		PC     int
		Paused bool
		Memory Memory
	}
	virtual := l.backends.Coordination.Virtual()
	namespace := l.backends.Coordination.Namespace()
	normalised := make([]RedisKey, len(keys))
	for i, k := range keys {
		k.Key = strings.TrimPrefix(k.Key, namespace)
		if !virtual && k.TTL > 0 {
			k.TTL = 1
		}
		k.Fields = nil // Value holds them
		normalised[i] = k
	}
	sort.Slice(normalised, func(i, j int) bool { return normalised[i].Key < normalised[j].Key })
	state := struct {
		Clock     time.Duration
		Keys      []RedisKey
		World     World
		Answers   map[string]ProviderAnswer
		Actors    []actorState
		Terminal  map[string]string
		Reachable map[string]bool
	}{Clock: l.clock, Keys: normalised, World: l.world, Answers: l.backends.Provider.Answers(),
		Terminal: l.jobWatch.terminal, Reachable: l.jobWatch.reachable}
	for _, a := range l.actors {
		state.Actors = append(state.Actors, actorState{PC: a.pc, Paused: a.Paused, Memory: a.Memory})
	}
	// encoding/json writes maps in key order, so equal states encode equally.
	data, err := json.Marshal(state)
	if err != nil {
		panic(fmt.Sprintf("engine: a lab state that does not encode: %v", err))
	}
	return sha256.Sum256(data)
}
