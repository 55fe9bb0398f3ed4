// Package engine is the heart of fencelab: a lab runs one scenario in one
// mode against real backends, one round trip at a time, and the checker
// searches every order of them. What the round trips are for is the
// scenario's world's (world.go: the catalog's is package scenarios/world).
// It defines the ports it needs (ports.go) and knows no driver and no
// screen.
package engine

import (
	"context"
	"strings"
	"time"

	"github.com/fencelab/fencelab/lang"
)

// Mode is SAFE (the protections on) or UNSAFE (the naive code).
type Mode int

const (
	Safe Mode = iota
	Unsafe
)

func (m Mode) String() string {
	if m == Unsafe {
		return "UNSAFE"
	}
	return "SAFE"
}

// ParseMode reads "safe" or "unsafe" in any case.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(s) {
	case "safe":
		return Safe, nil
	case "unsafe":
		return Unsafe, nil
	}
	return Safe, lang.Error("unknown mode %q (want safe, unsafe or both — both for run and check only)", s)
}

// Layer is where an event happened, as the seed draws its architecture.
type Layer string

const (
	LayerAPI          Layer = "api"
	LayerCoordination Layer = "coordination"
	LayerDatabase     Layer = "database"
	LayerExternal     Layer = "external"
)

// Scenario is one entry of the catalog: its seeded state, its actors'
// programs per mode, the guided order (the seed's timeline) and what the
// catalog predicts.
type Scenario struct {
	ID    string
	Title string
	// Story is the one-line story of the catalog.
	Story string
	// World is what the scenario's actors act on beside the scheduler
	// (world.go): the catalog's, for its scenarios and the files that
	// use its steps; nil for one whose every step is a file's own code.
	World World
	// Expected is the correct business value.
	Expected int64
	// NoValue: the scenario names no business value (a file without
	// expected: a lock service has none). Progress is then every actor
	// finishing its program: the measure counts the actors that did not
	// (Expected 0), a shortfall is UNFINISHED, and no value is shown.
	NoValue bool
	// Actors builds the actors' programs for a mode.
	Actors func(Mode) []ActorSpec
	// Guided is the seed's timeline for a mode.
	Guided func(Mode) []Action
	// Predicted is the catalog's outcome per mode, to compare a run with.
	Predicted map[Mode]Prediction
	// Measure is what expected and final count; the zero Measure is the
	// business value of the seed's resource.
	Measure Measure
	// Shortfall names the anomaly when the final value is not the expected
	// one and no invariant broke: WRONG_VALUE unless the scenario says
	// otherwise (STUCK: the system can no longer make progress).
	Shortfall string
	// From, when set, is where the guided order of mode FromMode came from
	// (a trace file): the scenario is the catalog's with that schedule
	// instead of the seed's timeline (WithSchedule), and the explorer says
	// whose story it follows.
	From     string
	FromMode Mode

	// Source is the scenario file the scenario was compiled from, as
	// written; File is its path (empty for the catalog's, which are
	// embedded). A trace of a scenario outside the catalog carries Source,
	// so it replays where the file is not.
	Source []byte
	File   string
	// Removed are the guards the scenario's SAFE leaves out by design (a
	// file's guards key lists the ones it keeps): its SAFE runs without
	// them, and its predictions are about that design.
	Removed GuardSet
	// HoldTTL is the scenario's own hold TTL (its leases'); 0: the lab's (--lease-ttl
	// or the default). A --lease-ttl given on the command line wins.
	HoldTTL time.Duration
	// GuidedAt is where each guided entry is written, per mode
	// ("mine.toml:6"), so a guided order that cannot be followed is said
	// at its line.
	GuidedAt map[Mode][]string
	// Code is what a file brings of its own: its tables, keys and
	// invariants (code.go); nil for the catalog's. OwnCodeOnly: every
	// step of every actor is the file's code, so fencelab's own tables
	// and keys play no part (the screens leave them out).
	Code        *Code
	OwnCodeOnly bool
	// Warnings are what compiling its file noticed that is no mistake but
	// likely not meant ("mine.toml:12: …"); scenario check says them.
	Warnings []lang.Phrase
}

// InCatalog reports whether the scenario is one of the catalog's own,
// unchanged: not compiled from a file a person gave.
func (s *Scenario) InCatalog() bool { return s.File == "" && s.From == "" }

// Measure is what a scenario's expected and final values count, read from
// the backends.
type Measure struct {
	Label string // "effects applied", "job hashes"; empty: the summary value
	Count func(Reading) int64
}

// Reading is the state of all the backends at one moment.
type Reading struct {
	Ledger LedgerState
	// Keys are the lab's keys, named in full; Prefix starts their names.
	Keys   []RedisKey
	Prefix string
	// Sessions are what each connection's session holds, when the file's
	// code takes advisory locks (session.go).
	Sessions []SessionState
	// World is the world's own reading (LabWorld.Read).
	World any
}

// Prediction is a catalog row: final value, the world's mark beside it
// (Result.Mark; 0: none) and verdict.
type Prediction struct {
	Final   int64
	Mark    int64
	Verdict string
	// AnyMark: the prediction says nothing of the mark (a file that
	// leaves the key out), so any mark matches it.
	AnyMark bool
	// AnyFinal: the prediction names no final value (a file with no
	// expected value, or several): its verdict says how the run ends.
	AnyFinal bool
}

// ActorSpec is an actor and its program.
type ActorSpec struct {
	Name  string      // short, shown in events: "A"
	Label lang.Phrase // "worker A (daily-summary)", said in the lab's language
	// Owner is the actor's id in Redis lease values ("worker-A"), so a
	// snapshot can tell whether the lease the actor believes it holds is
	// really its own.
	Owner string
	// Setting is the world's own setting of the actor, if any (the
	// catalog's: the key whose holder is its truth).
	Setting any
	Program []Step
}

// Step is one thing an actor does, as its program and the guided order
// count them: "acquire resource lease", "poll status". It is one or more
// calls, each one round trip that is one atomic unit on its backend — one
// Lua script, one SQL statement or transaction, one provider call — so
// another actor can act between any two calls of a step (`check` and free
// stepping go call by call; the guided order takes a step whole).
//
// A step of one call sets Run; a step of several sets Calls instead. A
// call's outcome says what comes next: Continue goes on with the step's
// next call, ContinueAt with a later one; Advance, Wait and Finish end the
// step as a one-call step's do. What a call learns for a later one lives
// in the actor's Memory (Seen), which a saved state keeps.
type Step struct {
	Name  string
	Run   func(ctx context.Context, t *Turn) (StepOutcome, error)
	Calls []Call
	// Touches is what a step of one call touches (see Call).
	Touches Footprint
}

// Call is one round trip of a step. Touches declares what it may read and
// write, for the checker's reduction; undeclared, it commutes with nothing.
type Call struct {
	Name    string
	Run     func(ctx context.Context, t *Turn) (StepOutcome, error)
	Touches Footprint
	// Connection is the connection the file names that the call's SQL
	// goes on (session.go); empty: the actor's own.
	Connection string
}

// calls are the step's round trips in order.
func (s Step) calls() []Call {
	if len(s.Calls) > 0 {
		return s.Calls
	}
	return []Call{{Name: s.Name, Run: s.Run, Touches: s.Touches}}
}

// StepOutcome says what the actor does after a call.
type StepOutcome int

const (
	// Advance: the step is done; the program moves on.
	Advance StepOutcome = iota
	// Wait: the step could not proceed (a contended lease); the actor stays
	// on it and starts it over when stepped.
	Wait
	// Finish: the step ends the actor's program (a request that reused a
	// running job starts no worker).
	Finish
	// Continue: this call is done and the step goes on with its next one.
	Continue
	// continueAt + i goes on with call i (ContinueAt).
	continueAt
)

// ContinueAt: this call is done and the step goes on with call i (a later
// one), skipping those between — a lookup that found nothing to read.
func ContinueAt(i int) StepOutcome { return continueAt + StepOutcome(i) }

// ActionKind is what the user (or the guided order) asks the lab to do.
type ActionKind int

const (
	// StepActor runs the actor's current step to its end: every call of
	// it that is left. The guided order and n take steps.
	StepActor ActionKind = iota
	PauseActor
	ResumeActor
	AdvanceClock    // by Action.By
	AdvanceToExpiry // to the next key expiry in Redis
	// CallActor runs one call of the actor's current step: one round trip.
	// `check` and the explorer's digit keys take calls.
	CallActor
	// OverlapWrite sends Action.With's next statement between the actor's
	// next write and its COMMIT (overlap.go). `check` takes overlaps.
	OverlapWrite
	// CrashActor ends the actor's process where it stands, whatever round
	// trip it is at: its connection's session ends, and PostgreSQL rolls
	// back its open transaction and lets go of its advisory locks (crash.go).
	// `check` takes crashes of actors whose session holds a lock.
	CrashActor
)

// Action is one entry of the lab's action log.
type Action struct {
	Kind  ActionKind
	Actor string
	// With is the other actor of an overlap.
	With string
	By   time.Duration
	// Note is why, for pauses: "GC pause".
	Note string
	// Caption is what a speaker says at this action (from a trace); the
	// explorer shows it with the next guided action.
	Caption string
	// Narration is a scenario file's sentence for this guided action, in
	// the languages the file gives: it replaces the narration of the last
	// event the action emits. Empty: the step's own narration stays.
	Narration lang.Texts
}

func (a Action) String() string { return a.Words().In(lang.En) }

// Words say the action in a few words, in any language: "step A".
func (a Action) Words() lang.Phrase {
	switch a.Kind {
	case StepActor:
		return lang.P("step %s", a.Actor)
	case CallActor:
		return lang.P("one call of %s", a.Actor)
	case PauseActor:
		return lang.P("pause %s", a.Actor)
	case ResumeActor:
		return lang.P("resume %s", a.Actor)
	case AdvanceClock:
		return lang.P("advance clock %s", a.By)
	case OverlapWrite:
		return lang.P("%s's write, %s's statement before its commit", a.Actor, a.With)
	case CrashActor:
		return lang.P("crash %s", a.Actor)
	default:
		// The catalog's words for it, which traces, screens and the
		// Korean catalog of messages have always said: the next key
		// expiry, which in the catalog is a lease's.
		return lang.P("advance clock to the next lease expiry")
	}
}

// Shorthands for guided orders.
func Do(actor string) Action            { return Action{Kind: StepActor, Actor: actor} }
func DoCall(actor string) Action        { return Action{Kind: CallActor, Actor: actor} }
func Pause(actor, why string) Action    { return Action{Kind: PauseActor, Actor: actor, Note: why} }
func Resume(actor string) Action        { return Action{Kind: ResumeActor, Actor: actor} }
func AdvanceBy(by time.Duration) Action { return Action{Kind: AdvanceClock, By: by} }
func AdvanceToNextExpiry() Action       { return Action{Kind: AdvanceToExpiry} }
func Crash(actor string) Action         { return Action{Kind: CrashActor, Actor: actor} }

// PlaceCombinations is how many ways the actors' places in their programs
// combine — each actor before one of its calls, or done: a first measure of
// a search's size, taken before it starts. It is no bound: data and the
// clock multiply it, and an actor waiting for another cuts it.
func PlaceCombinations(actors []ActorSpec) float64 {
	combinations := 1.0
	for _, a := range actors {
		places := 1 // done
		for _, step := range a.Program {
			places += len(step.calls())
		}
		combinations *= float64(places)
	}
	return combinations
}

// GuardList are the guards the scenario's SAFE makes and --without may
// take out: a file's, those its steps define; the catalog's, fencelab's.
func (s *Scenario) GuardList() []Guard {
	if s.Code != nil {
		return s.Code.Guards.List()
	}
	return AllGuards()
}

// ShortfallVerdict is the verdict of a run short of the expected value
// that no invariant explains: the scenario's own, UNFINISHED where it
// names no value, else none (WRONG_VALUE, Verdict's).
func (s *Scenario) ShortfallVerdict() string {
	if s.Shortfall == "" && s.NoValue {
		return VerdictUnfinished
	}
	return s.Shortfall
}
