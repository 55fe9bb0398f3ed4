package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/fencelab/fencelab/lang"
)

// Backends are the real systems a lab runs against.
type Backends struct {
	Coordination Coordination
	Database     Database
	// HoldTTL is how long what the actors take is theirs (the catalog's
	// world: its leases' TTL): a scenario's own (Scenario.HoldTTL) unless
	// HoldTTLGiven says the person chose this one (--lease-ttl).
	HoldTTL      time.Duration
	HoldTTLGiven bool
	// Lang is the language of the narration (the zero value: English).
	// Details, codes and guards stay as they are: a trace compares them.
	Lang lang.Lang
	// Without is the set of guards removed from SAFE (--without): the labs
	// run SAFE's code with those checks taken out. UNSAFE ignores it.
	Without GuardSet
}

// Errors of lab operations that the user caused, as opposed to a backend,
// said in any language (lang.Error).
var (
	ErrPaused        = lang.Error("is paused")
	ErrProgramDone   = lang.Error("has finished its program")
	ErrUnknownActor  = lang.Error("no such actor")
	ErrGuidedDone    = lang.Error("the guided order is over")
	ErrNothingToUndo = lang.Error("nothing to undo")
	ErrWallClock     = lang.Error("a lab needs its Redis on the lab clock (a real server's: Coordination.FollowLabClock)")
	ErrNoExpiry      = lang.Error("no key in Redis has a TTL")
	ErrOffPath       = lang.Error("you left the guided order")
	ErrNoGuards      = lang.Error("UNSAFE is the naive code: it has no guards to remove")
)

// StoryStopped reports whether err is the lab's own: its story could not
// go on — an actor paused or done, the guided order left or over, no key
// to expire, the clock at its bound, keys gone outside the lab clock — as
// opposed to a backend that failed or stopped answering. A backend's
// error may be said in a language too (a server that did not answer), so
// being a lang.Error does not tell them apart.
func StoryStopped(err error) bool {
	for _, story := range []error{ErrPaused, ErrProgramDone, ErrUnknownActor, ErrGuidedDone, ErrNothingToUndo,
		ErrWallClock, ErrNoExpiry, ErrOffPath, ErrNoGuards, ErrClockBound, ErrKeysLost, ErrBlocked, ErrOneWaits, ErrConnectionHeld} {
		if errors.Is(err, story) {
			return true
		}
	}
	return false
}

// loggedAction is an entry of the action log. whole marks a call that
// made its step whole (it began the step and ended it): a schedule writes
// it as a step, which is what it was.
type loggedAction struct {
	Action
	whole bool
	// sent are the round trips the action sent, in order.
	sent []RoundTrip
}

// Lab is one scenario in one mode on one set of backends.
type Lab struct {
	scenario *Scenario
	mode     Mode
	backends Backends
	// without: the guards removed from SAFE (none in UNSAFE); consulted:
	// the guards the lab's steps asked about since it was made.
	without, consulted GuardSet
	// refused: the check-only guards that refused a step (Turn.Refuse).
	refused GuardSet
	// prepared: the file's statements were parsed by the server once
	// (PrepareCode), at the lab's first setup.
	prepared bool

	lang   lang.Lang
	ledger Ledger // the lab's own connection: seeding and snapshots
	actors []*Actor
	// shared are the connections the file names (session.go).
	shared []sharedConnection

	clock  time.Duration
	events []Event
	breaks []Break
	log    []loggedAction
	// eventsAfter counts, per log entry, the events once it was taken.
	eventsAfter []int
	// used says how far the arrays under those four slices are used: by
	// the lab or by a state it saved (appendShared).
	used       usedArrays
	guided     []Action
	guidedNext int
	// offPath: an action taken since the reset was not the guided order's
	// next one, so the guided order no longer applies.
	offPath bool
	// world is the worlds' part of the lab: the scenario's world's and a
	// file's code's (world.go, codeworld.go); nil for neither.
	world LabWorld
	// start is the lab clock's first moment (World.Start); checks, the
	// world's invariants that check themselves (Invariant.Check).
	start  time.Time
	checks []Invariant
	// reading is the state the last invariant check read, for the checker;
	// keys are the lab's keys it read (a world compares the keys an
	// action leaves with these); keysRead: they are what Redis holds now,
	// read after the last action or restored (a restore writes only what
	// differs from them).
	reading  Reading
	keys     []RedisKey
	keysRead bool
	// readAhead: the keys an action read once it was done (a clock
	// advance, to say what expired), for the invariant check after it.
	readAhead []RedisKey
	// cause is what the action being taken is, for a world's invariants.
	cause cause
	// found is the invariants the last check found broken, before the
	// breaks already recorded are left out: what the last call did, as a
	// function of the state and the call alone (why.go's edges);
	// foundAnomalies, the anomalies of those breaks (shortest.go's edges).
	found          invariantSet
	foundAnomalies []string
	// hashed is the hash of the world's rows, for fingerprints.
	hashed *ledgerSum
	// luaHeld is what a file's Lua invariants answered, by state of the
	// keys (code.go).
	luaHeld map[[32]byte]bool
	// pending is a restore of the database the checker put off until the
	// database is next used (lazyledger.go).
	pending *pendingRestore
	// story is how far a search's schedule follows the guided order (its
	// next action's index; -1: it left it), for the order it takes actions
	// in (the checker's).
	story int
	// checking: the checker runs the lab, and nobody else writes its
	// database, so a ledger state read at Database.Writes() == readAt
	// still holds (ledgerRead: world.Ledger is such a read).
	checking   bool
	ledgerRead bool
	readAt     uint64
	// sent are the round trips the action being taken has sent; resumed,
	// the actors whose blocked statement came back during it (wire.go).
	sent    []RoundTrip
	resumed []*Actor
	// anchor is the last state of the checker's schedule where no actor
	// was inside a call, and since the actions taken after it: a state
	// inside a call is saved as the way back to it (check.go).
	anchor *labState
	since  []Action
	// restoring is the log a Reconnect is putting the lab back to, kept
	// until a replay of it has succeeded (reconnect.go).
	restoring []Action
	// keepSchema: Close leaves the file's schema (KeepFileSchema).
	keepSchema bool
}

// cause is who or what made the changes an invariant check sees.
type cause struct {
	actor   *Actor // the actor whose call it was; nil for the clock or a pause
	clock   bool   // the lab clock moved: keys may have expired on their TTL
	restart bool   // a step restarted Redis: the environment lost its keys
}

// HoldTTLFor is the hold TTL a lab of s runs with: the scenario's own,
// unless a person chose one.
func (b Backends) HoldTTLFor(s *Scenario) time.Duration {
	if s.HoldTTL > 0 && !b.HoldTTLGiven {
		return s.HoldTTL
	}
	return b.HoldTTL
}

// LabConnections names a lab's connections to the database, in the order
// NewLab opens them: the lab's own, then one per actor.
func LabConnections(scenario *Scenario, mode Mode) []string {
	names := []string{"lab"}
	for _, spec := range scenario.Actors(mode) {
		names = append(names, spec.Name)
	}
	if scenario.Code != nil {
		names = append(names, scenario.Code.Connections...)
	}
	return names
}

// NewLab opens the lab's connections and resets the backends to the
// scenario's seeded state.
func NewLab(ctx context.Context, backends Backends, scenario *Scenario, mode Mode) (*Lab, error) {
	if backends.Coordination == nil {
		backends.Coordination = noKeys{}
	}
	if backends.Database == nil {
		backends.Database = noDatabase{}
	}
	if !backends.Coordination.Virtual() {
		return nil, ErrWallClock
	}
	backends.HoldTTL = backends.HoldTTLFor(scenario)
	l := &Lab{scenario: scenario, mode: mode, backends: backends, lang: backends.Lang}
	if scenario.World != nil {
		l.start = scenario.World.Start()
		for _, inv := range scenario.World.Invariants() {
			if inv.Check != nil {
				l.checks = append(l.checks, inv)
			}
		}
	}
	if mode == Safe {
		l.without = backends.Without
	}
	// The lab's connection and each actor's are opened at once: a new
	// connection is most of what opening a lab costs, and they do not
	// wait on one another.
	specs := scenario.Actors(mode)
	names := LabConnections(scenario, mode)
	ledgers := make([]Ledger, len(names))
	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Go(func() {
			defer CatchPanic(&errs[i])
			ledgers[i], errs[i] = backends.Database.Connect(ctx, name)
		})
	}
	wg.Wait()
	if ledgers[0] != nil {
		l.ledger = lazyLedger{ledgers[0], l}
	}
	for i, spec := range specs {
		actor := &Actor{Name: spec.Name, Label: spec.Label.In(backends.Lang), Owner: spec.Owner, Setting: spec.Setting, program: spec.Program,
			redis: backends.Coordination.Client(spec.Name)}
		if ledgers[i+1] != nil {
			actor.ledger = lazyLedger{ledgers[i+1], l}
		}
		l.actors = append(l.actors, actor)
	}
	for i := len(specs) + 1; i < len(names); i++ {
		if ledgers[i] != nil {
			l.shared = append(l.shared, sharedConnection{names[i], lazyLedger{ledgers[i], l}})
		}
	}
	l.openWorlds()
	if err := errors.Join(errs...); err != nil {
		l.Close(ctx)
		for _, err := range errs {
			if err != nil {
				return nil, err // the first: they tend to say the same
			}
		}
	}
	if err := l.Reset(ctx); err != nil {
		l.Close(ctx)
		return nil, err
	}
	return l, nil
}

// Close closes the lab's connections. The backends keep their state, so a
// user can look at the rows afterwards.
func (l *Lab) Close(ctx context.Context) {
	l.abandonAll(ctx)
	if l.ledger != nil {
		if c := l.scenario.Code; c != nil && c.Schema != "" && !l.keepSchema {
			l.ledger.DropCode(ctx, c.Schema) // the file's tables go with the lab
		}
		l.ledger.Close(ctx)
	}
	l.pending = nil
	for _, a := range l.actors {
		if a.ledger != nil {
			a.ledger.Close(ctx)
		}
	}
	for _, c := range l.shared {
		c.ledger.Close(ctx)
	}
}

// KeepFileSchema leaves a scenario file's schema, with its rows, when the
// lab closes (run --keep, for psql); the next lab of the file makes it
// again. It names the schema; empty for a scenario without one.
func (l *Lab) KeepFileSchema() string {
	if c := l.scenario.Code; c != nil && c.Schema != "" {
		l.keepSchema = true
		return c.Schema
	}
	return ""
}

func (l *Lab) Scenario() *Scenario { return l.scenario }
func (l *Lab) Mode() Mode          { return l.mode }
func (l *Lab) Backends() Backends  { return l.backends }
func (l *Lab) Actors() []*Actor    { return l.actors }
func (l *Lab) Events() []Event     { return l.events }
func (l *Lab) Breaks() []Break     { return l.breaks }

// Without is the set of guards removed from this lab's SAFE code.
func (l *Lab) Without() GuardSet { return l.without }

// Consulted is the set of guards the lab's steps have asked about since
// the lab was made: a guard outside it was never on any path they took.
func (l *Lab) Consulted() GuardSet { return l.consulted }

// ModeLabel names the lab's mode with its removed guards: "SAFE −region".
func (l *Lab) ModeLabel() string { return ModeLabel(l.mode, l.without) }

// Now is the lab clock as a time: its start plus the time advanced.
func (l *Lab) Now() time.Time { return l.Start().Add(l.clock) }

// Start is the lab clock's first moment: the world's (zero without one).
func (l *Lab) Start() time.Time { return l.start }

// LastReading is the state of the stores the last invariant check read
// (or a restore put back).
func (l *Lab) LastReading() Reading { return l.reading }

// Ledger is the lab's own connection to the database (seeding, snapshots).
func (l *Lab) Ledger() Ledger { return l.ledger }

// World is the worlds' part of the lab (the scenario's world's, and a
// file's code's beside it: Worlds); nil without one.
func (l *Lab) World() LabWorld { return l.world }

// Language is the language the lab tells its story in.
func (l *Lab) Language() lang.Lang { return l.lang }

// Reset brings Redis and PostgreSQL back to the scenario's seeded state,
// whatever an earlier run left, and clears the actors and the timeline.
func (l *Lab) Reset(ctx context.Context) error {
	l.abandonAll(ctx)
	for _, a := range l.actors {
		a.pc, a.call, a.Paused, a.Pause, a.Waiting, a.Halted = 0, 0, false, "", "", ""
		a.Memory, a.encoded = Memory{}, nil
	}
	if err := l.backends.Coordination.Wipe(ctx); err != nil {
		return err
	}
	if l.world != nil {
		if err := l.world.Reset(ctx); err != nil {
			return err
		}
	}
	l.clock, l.events, l.breaks, l.log, l.eventsAfter, l.used = 0, nil, nil, nil, nil, usedArrays{}
	l.guided = l.scenario.Guided(l.mode)
	l.guidedNext, l.offPath = 0, false
	l.reading, l.keys, l.keysRead, l.readAhead, l.ledgerRead = Reading{}, nil, false, nil, false
	return nil
}

// Actor finds an actor by name.
func (l *Lab) Actor(name string) (*Actor, error) {
	for _, a := range l.actors {
		if a.Name == name {
			return a, nil
		}
	}
	return nil, lang.Error("%q: %w", name, ErrUnknownActor)
}

// GuidedNext is the next action of the guided order, if any is left and
// the lab is on it. An actor between two calls of the guided step is still
// on it: the step is the next guided action until it ends.
func (l *Lab) GuidedNext() (Action, bool) {
	if l.guidedNext >= len(l.guided) || l.offPath {
		return Action{}, false
	}
	return l.guided[l.guidedNext], true
}

// OffPath reports whether an action taken since the reset was not the
// guided order's next one: the guided order then no longer applies (its
// next action was written for a state the lab is not in).
func (l *Lab) OffPath() bool { return l.offPath }

// sameAction: a user's action is the guided one when it does the same
// thing (a pause's reason and a caption do not count).
func sameAction(a, b Action) bool {
	return a.Kind == b.Kind && a.Actor == b.Actor && a.With == b.With && a.By == b.By
}

// GuidedProgress is how far the guided order has come.
func (l *Lab) GuidedProgress() (done, total int) { return l.guidedNext, len(l.guided) }

// Next takes the next action of the guided order.
func (l *Lab) Next(ctx context.Context) error {
	if l.offPath {
		return lang.Error("%w at %d/%d", ErrOffPath, l.guidedNext, len(l.guided))
	}
	action, ok := l.GuidedNext()
	if !ok {
		return ErrGuidedDone
	}
	return l.take(ctx, action)
}

// RunGuided takes every remaining action of the guided order.
func (l *Lab) RunGuided(ctx context.Context) error {
	for {
		err := l.Next(ctx)
		if errors.Is(err, ErrGuidedDone) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// Do takes one action chosen by the user. While the lab is on the guided
// order, the action that is its next one moves it on, as n would (so 1
// then n plays the same story as n alone); a call of the guided step's
// actor keeps the lab on it, and moves it on when it ends the step; any
// other action leaves it.
func (l *Lab) Do(ctx context.Context, action Action) error { return l.take(ctx, action) }

// take applies an action, logs it and moves the guided order on or leaves
// it, as Do says.
func (l *Lab) take(ctx context.Context, action Action) error {
	next, onPath := l.GuidedNext()
	before := len(l.events)
	entry, err := l.applyLogged(ctx, action)
	if err != nil {
		return err
	}
	switch {
	case !onPath:
	case sameAction(action, next):
		l.guidedNext++
		l.narrate(before, next)
	case action.Kind == CallActor && next.Kind == StepActor && action.Actor == next.Actor:
		if a, _ := l.Actor(action.Actor); a != nil && !a.MidStep() {
			l.guidedNext++ // the call ended the guided step
			l.narrate(before, next)
		}
	default:
		l.offPath = true
	}
	l.record(entry)
	return nil
}

// narrate gives the last event a guided action emitted (after the first
// before) the narration its scenario file wrote for it, if any.
func (l *Lab) narrate(before int, guided Action) {
	if text := guided.Narration.In(l.lang); text != "" && len(l.events) > before {
		l.events[len(l.events)-1].Narration = text
	}
}

// Undo resets the lab and replays every action but the last, on the lab
// clock.
func (l *Lab) Undo(ctx context.Context) error {
	if len(l.log) == 0 {
		return ErrNothingToUndo
	}
	return l.Rewind(ctx, len(l.log)-1)
}

// Actions is how many actions the lab has taken since its reset.
func (l *Lab) Actions() int { return len(l.log) }

// Rewind takes the lab back to where it was after its first n actions:
// it resets and replays them on the lab clock; the later ones are dropped.
func (l *Lab) Rewind(ctx context.Context, n int) error {
	if n < 0 || n > len(l.log) {
		return fmt.Errorf("cannot go back to action %d of %d", n, len(l.log))
	}
	if n == len(l.log) {
		return nil
	}
	return l.Replay(ctx, l.Schedule()[:n], nil)
}

// Replay resets the lab and takes the actions again, on the lab clock:
// undo, time travel and a change of the guards removed. after, if set, is
// called once the lab is reset and after each action (a screen records a
// snapshot there).
func (l *Lab) Replay(ctx context.Context, actions []Action, after func() error) error {
	actions = slices.Clone(actions)
	if err := l.Reset(ctx); err != nil {
		return err
	}
	if after != nil {
		if err := after(); err != nil {
			return err
		}
	}
	for _, a := range actions {
		if err := l.take(ctx, a); err != nil {
			return fmt.Errorf("replay %s: %w", a, err)
		}
		if after != nil {
			if err := after(); err != nil {
				return err
			}
		}
	}
	return nil
}

// SetWithout changes the guards removed from SAFE and replays the actions
// taken so far with the new set (after as Replay's), so the screen shows
// the same schedule with and without a guard — as far as the actions can
// still be taken: one the new code makes impossible (an actor that
// finished sooner) ends the replay there, and the error says where. In
// UNSAFE there are no guards to remove.
func (l *Lab) SetWithout(ctx context.Context, without GuardSet, after func() error) error {
	if l.mode == Unsafe {
		return ErrNoGuards
	}
	l.without = without
	if len(l.log) == 0 {
		if err := l.Reset(ctx); err != nil {
			return err
		}
		if after != nil {
			return after()
		}
		return nil
	}
	return l.Replay(ctx, l.Schedule(), after)
}

// record logs an action just applied.
func (l *Lab) record(entry loggedAction) {
	appendShared(&l.log, &l.used.log, entry)
	appendShared(&l.eventsAfter, &l.used.eventsAfter, len(l.events))
}

// applyLogged performs one action, checks the invariants afterwards and
// returns the log entry the action makes (a failed action makes none; the
// caller records it). A step is taken call by call, with the invariants checked after each, so a
// break is pinned on the round trip that made it.
func (l *Lab) applyLogged(ctx context.Context, action Action) (entry loggedAction, err error) {
	entry = loggedAction{Action: action}
	l.sent = l.sent[:0]
	defer func() { entry.sent = slices.Clone(l.sent) }()
	if err := l.noticeLostKeys(ctx); err != nil {
		return entry, err
	}
	if action.Kind != StepActor && action.Kind != CallActor {
		l.cause = cause{clock: action.Kind == AdvanceClock || action.Kind == AdvanceToExpiry}
		if action.Kind == OverlapWrite {
			err = l.overlap(ctx, action)
		} else {
			err = l.perform(ctx, action)
		}
		if err != nil {
			return entry, err
		}
		if err := l.settle(ctx); err != nil {
			return entry, err
		}
		if err := l.checkInvariants(ctx); err != nil {
			return entry, err
		}
		l.noteResumed()
		return entry, nil
	}
	a, err := l.stepping(action.Actor)
	if err != nil {
		return entry, err
	}
	began := !a.MidStep()
	for {
		l.cause = cause{actor: a}
		ended, err := l.call(ctx, a)
		if err != nil {
			return entry, err
		}
		for _, peer := range l.actors {
			if peer.Done() && peer.live != nil {
				l.abandon(ctx, peer) // halted by the call (a crash) inside one of its own
			}
		}
		if err := l.settle(ctx); err != nil {
			return entry, err
		}
		if err := l.checkInvariants(ctx); err != nil {
			return entry, err
		}
		l.noteResumed()
		if ended || action.Kind == CallActor || a.Blocked() {
			entry.whole = action.Kind == CallActor && began && ended
			return entry, nil
		}
	}
}

// perform performs one action on the backends, without the checks: a
// pause, a resume or a clock change (a step goes call by call, see
// applyLogged).
func (l *Lab) perform(ctx context.Context, action Action) error {
	var err error
	switch action.Kind {
	case PauseActor, ResumeActor:
		err = l.setPaused(action.Actor, action.Kind == PauseActor, action.Note)
	case AdvanceClock:
		err = l.advance(ctx, action.By)
	case AdvanceToExpiry:
		err = l.advanceToExpiry(ctx)
	case CrashActor:
		err = l.crash(ctx, action.Actor)
	}
	return err
}

// stepping finds the actor an action steps, if it can be stepped.
func (l *Lab) stepping(name string) (*Actor, error) {
	a, err := l.Actor(name)
	if err != nil {
		return nil, err
	}
	if a.Paused {
		return nil, lang.Error("%s %w (%s): resume it first", a.Name, ErrPaused, a.Pause)
	}
	if a.Done() {
		return nil, lang.Error("%s %w", a.Name, ErrProgramDone)
	}
	return a, nil
}

// call takes the actor through its next round trip (wire.go): its current
// call starts if it has not, sends one message to a backend and runs on
// until it parks before the next or ends. It reports whether the step
// ended. A call that sends nothing ends in one action.
func (l *Lab) call(ctx context.Context, a *Actor) (ended bool, err error) {
	if b := l.deadlockedWith(a); b != nil {
		return false, lang.Error("%s %w: %s's statement waits for one of %s's, a deadlock (PostgreSQL fails one of the two statements after its deadlock_timeout)", a.Name, ErrBlocked, b.Name, a.Name)
	}
	if a.Blocked() {
		return false, lang.Error("%s %w", a.Name, ErrBlocked)
	}
	if b := l.holderOf(a); b != nil {
		c, _ := a.nextCall()
		return false, lang.Error("%s %w %s: %s's step holds it", a.Name, ErrConnectionHeld, c.Connection, b.Name)
	}
	if l.oneWaits(a) {
		return false, lang.Error("%s %w", a.Name, ErrOneWaits)
	}
	a.encoded = nil    // the call may change its memory
	l.keysRead = false // and the keys, until the invariant check reads them
	var ev wireEvent
	done := false
	if a.live == nil {
		c := a.program[a.pc].calls()[a.call]
		if ev, err = l.startCall(ctx, a, c); err != nil {
			return false, err
		}
		done = ev.kind == wireExited
		if !done && l.oneWaits(a) {
			return false, nil // parked at its first trip, a statement, until the one waiting is through
		}
	}
	if !done {
		if ev, done, err = l.tripOnce(ctx, a); err != nil {
			return false, err
		}
	}
	if !done {
		if ev, done, err = l.throughCommit(ctx, a); err != nil {
			return false, err
		}
	}
	if !done {
		return false, nil // parked at its next round trip, or blocked
	}
	return l.endCall(a, ev)
}

// throughCommit takes the actor, parked at a write's COMMIT (a trip that
// Commits), through it: a write and its commit are one action, as the one
// autocommit statement they stand for, but in an overlap. done: the call
// ended (ev is its end).
func (l *Lab) throughCommit(ctx context.Context, a *Actor) (ev wireEvent, done bool, err error) {
	for a.live != nil && a.live.state == wireParked && a.live.next.Commits {
		if ev, done, err = l.tripOnce(ctx, a); err != nil || done {
			return ev, done, err
		}
	}
	return ev, false, nil
}

// endCall takes in what the actor's call returned: the step goes on with
// another call, ends, or waits.
func (l *Lab) endCall(a *Actor, ev wireEvent) (ended bool, err error) {
	a.live = nil
	a.encoded = nil
	calls := a.program[a.pc].calls()
	c := calls[a.call]
	outcome := ev.outcome
	if err := ev.err; err != nil {
		l.emit(Event{Actor: a.Name, Layer: LayerAPI, Code: a.Name + "_ERROR", State: "ERROR", Detail: err.Error()})
		return false, fmt.Errorf("%s: %s: %w", a.Name, c.Name, err)
	}
	switch {
	case outcome == Continue && a.call+1 < len(calls):
		a.call++
		a.Waiting = ""
		return false, nil
	case outcome >= continueAt && int(outcome-continueAt) > a.call && int(outcome-continueAt) < len(calls):
		a.call = int(outcome - continueAt)
		a.Waiting = ""
		return false, nil
	case outcome == Finish:
		a.pc, a.call = len(a.program), 0
		a.Waiting = ""
	case outcome == Wait:
		a.call = 0
		if n := len(l.events); n > 0 {
			a.Waiting = l.events[n-1].Said()
		}
	default: // Advance, or a Continue past the step's last call
		a.pc, a.call = a.pc+1, 0
		a.Waiting = ""
	}
	if a.Memory.World != nil {
		a.Memory.World.StepEnded()
	}
	return true, nil
}

func (l *Lab) setPaused(name string, paused bool, why string) error {
	a, err := l.Actor(name)
	if err != nil {
		return err
	}
	if a.Paused == paused {
		return nil
	}
	a.Paused = paused
	if paused {
		// why is a trace's note ("GC pause"), said in the lab's language
		// where the catalog has it.
		reason := lang.P("paused")
		if why != "" {
			reason = lang.P(why)
		}
		a.Pause = reason.In(l.lang)
		detail := lang.P("%s stops (%s); it still believes what it believed", a.Name, reason)
		narration := l.lang.T("%s is frozen mid-step (%s): it cannot notice time passing.", a.Name, a.Pause)
		if l.world != nil {
			l.world.Pausing(a, true, &detail, &narration)
		}
		l.emitTold(Event{Actor: a.Name, Layer: LayerAPI, Code: a.Name + "_PAUSE", State: "PAUSED", Narration: narration}, detail)
		return nil
	}
	a.Pause = ""
	detail := lang.P("%s wakes up and carries on", a.Name)
	narration := l.lang.T("%s carries on exactly where it stopped, as if no time had passed.", a.Name)
	if l.world != nil {
		l.world.Pausing(a, false, &detail, &narration)
	}
	l.emitTold(Event{Actor: a.Name, Layer: LayerAPI, Code: a.Name + "_RESUME", State: "RUNNING", Narration: narration}, detail)
	return nil
}

// The bounds of the lab clock. A lease lives seconds to minutes; a day is
// far past anything a scenario asks, and a year of lab time is far past
// any schedule, yet far from where a duration overflows (292 years).
const (
	MaxHoldTTL  = 24 * time.Hour
	MaxAdvance  = 24 * time.Hour
	MaxLabClock = 365 * 24 * time.Hour
)

// ErrClockBound is an advance of the lab clock outside its bounds.
var ErrClockBound = lang.Error("the lab clock advances by more than 0 and at most %s at a time, to at most %s in all", MaxAdvance, FormatClock(MaxLabClock))

func (l *Lab) advance(ctx context.Context, by time.Duration) error {
	if by <= 0 || by > MaxAdvance || l.clock > MaxLabClock-by {
		return ErrClockBound
	}
	before, err := l.currentKeys(ctx)
	if err != nil {
		return err
	}
	l.keysRead = false // until the invariant check reads them after it
	if err := l.backends.Coordination.Elapse(ctx, by); err != nil {
		return err
	}
	l.clock += by
	after, err := l.backends.Coordination.Keys(ctx)
	if err != nil {
		return err
	}
	l.readAhead = after // the invariant check's read
	detail := lang.P("lab clock +%s → %s", by, FormatClock(l.clock))
	narration := l.lang.T("%s passes; nothing in Redis expires.", by)
	if gone := vanished(before, after); len(gone) > 0 {
		if l.scenario.OwnCodeOnly {
			// A file's keys, as the file names them.
			for i, k := range gone {
				gone[i] = strings.TrimPrefix(k, l.backends.Coordination.Prefix())
			}
		}
		detail = lang.P("lab clock +%s → %s; expired: %s", by, FormatClock(l.clock), strings.Join(gone, ", "))
		narration = l.lang.T("Time passes and Redis drops %d expired key(s); whoever held them is not told.", len(gone))
	}
	l.emitTold(Event{Actor: "clock", Layer: LayerCoordination, Code: "CLOCK_ADVANCE", State: "ADVANCED", Narration: narration}, detail)
	return nil
}

// advanceToExpiry advances exactly to the soonest TTL among the lab keys.
func (l *Lab) advanceToExpiry(ctx context.Context) error {
	keys, err := l.currentKeys(ctx)
	if err != nil {
		return err
	}
	var soonest time.Duration
	for _, k := range keys {
		if k.TTL > 0 && (soonest == 0 || k.TTL < soonest) {
			soonest = k.TTL
		}
	}
	if soonest == 0 {
		return ErrNoExpiry
	}
	return l.advance(ctx, soonest)
}

// ErrKeysLost is a search's error when keys vanished from a real server
// outside its actions: the states after that are not the lab clock's.
var ErrKeysLost = lang.Error("lab keys vanished from Redis outside the lab clock")

// noticeLostKeys tells of the lab keys a real server lost between actions
// (Coordination.LostKeys), before the next action: the invariant checks
// then do not pin their loss on it. A search, which nobody else touches,
// asks only what was seen; it cannot go on from such a state.
func (l *Lab) noticeLostKeys(ctx context.Context) error {
	lost, err := l.backends.Coordination.LostKeys(ctx, !l.checking)
	if err != nil || len(lost) == 0 {
		return err
	}
	sort.Strings(lost)
	if l.checking {
		return fmt.Errorf("%w: %s", ErrKeysLost, strings.Join(lost, ", "))
	}
	gone := map[string]bool{}
	for _, k := range lost {
		gone[k] = true
	}
	l.keys = slices.DeleteFunc(slices.Clone(l.keys), func(k RedisKey) bool { return gone[k.Key] })
	l.emitTold(Event{Actor: "clock", Layer: LayerCoordination, Code: "KEYS_LOST", State: "LOST",
		Narration: l.lang.T("Redis dropped %s on its own, outside the lab clock: its TTL ran out on the wall clock while fencelab was not there to keep it (stopped or suspended for more than a second), or somebody deleted it. From here on the run is not the lab clock's alone.", strings.Join(lost, ", "))},
		lang.P("gone from Redis outside the lab clock: %s", strings.Join(lost, ", ")))
	return nil
}

// currentKeys are the lab's keys: as the last invariant check read them
// or a restore wrote them, when nothing changed them since (keysRead), or
// read now.
func (l *Lab) currentKeys(ctx context.Context) ([]RedisKey, error) {
	if l.keysRead {
		return l.keys, nil
	}
	return l.backends.Coordination.Keys(ctx)
}

func hasTTL(keys []RedisKey) bool {
	for _, k := range keys {
		if k.TTL > 0 {
			return true
		}
	}
	return false
}

func vanished(before, after []RedisKey) []string {
	present := map[string]bool{}
	for _, k := range after {
		present[k.Key] = true
	}
	var gone []string
	for _, k := range before {
		if !present[k.Key] {
			gone = append(gone, k.Key)
		}
	}
	sort.Strings(gone)
	return gone
}

// emitTold is emit with a detail kept in English and told in the lab's
// language.
func (l *Lab) emitTold(e Event, detail lang.Phrase) {
	e.Detail, e.Told = detail.In(lang.En), detail.In(l.lang)
	l.emit(e)
}

func (l *Lab) emit(e Event) {
	e.Sequence = len(l.events) + 1
	e.At = l.clock
	appendShared(&l.events, &l.used.events, e)
}
