package engine

import (
	"context"
	"time"

	"github.com/fencelab/fencelab/lang"
)

// The engine schedules actors' round trips and searches their orders; what
// the round trips are for is a world's. A World is plugged into a scenario
// (Scenario.World) and opened once per lab: it seeds its part of the
// stores, remembers what its invariants need from one action to the next,
// judges each action, adds its part to a state's key, and says what an
// actor believes. The engine holds a world's values without looking inside
// them.
//
// Two worlds answer today: the catalog's (package scenarios/world: what
// its workers remember, its stores' ports, its ten invariants) and a
// scenario file's own code (codeworld.go: its tables, keys and
// invariants), which a lab runs beside the scenario's.
type World interface {
	// Start is the lab clock's first moment.
	Start() time.Time
	// Invariants are the world's rules, numbered from 1 and below
	// FirstCodeInvariant, with the anomaly each stands for.
	Invariants() []Invariant
	// Verdicts are the verdicts a run in the world may end with beside
	// its invariants' anomalies: the kinds of break its invariants name,
	// then its guards' refusals (Refusals).
	Verdicts() []string
	Refusals() []string
	// Open makes the world's part of one lab.
	Open(l *Lab) LabWorld
}

// LabWorld is a world's part of one lab. The lab calls it from one
// goroutine at a time.
type LabWorld interface {
	// Reset seeds the world's part of the stores for a new run, once the
	// lab has wiped its keys and reset its actors, and forgets what its
	// invariants remembered.
	Reset(ctx context.Context) error
	// Read is the world's own part of what the stores hold, beside the
	// keys just read and the rows (Reading.World): what it keeps itself.
	Read(keys []RedisKey) any
	// Check finds the breaks of the world's invariants after an action,
	// from what the lab just read.
	Check(ctx context.Context, o Observation) ([]Break, error)
	// Sum writes what the world remembers between actions (what its
	// invariants need, relative to now) to a state's key; SumShared what
	// the stores it keeps itself hold (an in-process service's memory).
	Sum(h StateHash, now time.Time)
	SumShared(h StateHash, now time.Time)
	// Rows is the world's rows of the database (LedgerState.Rows) as a
	// state's key takes them: without what no step reads, in an order
	// that does not depend on the schedule.
	Rows(rows LedgerState) any
	// Save copies what the world keeps outside the stores the lab saves;
	// Restore puts such a copy back.
	Save() any
	Restore(saved any)
	// View adds what each actor believes, and the truth beside it, to its
	// row of a snapshot (views[i] is actors[i]'s).
	View(ctx context.Context, actors []*Actor, views []ActorView) error
	// Keys names which part of the world each key is for (RedisKey.Conflict).
	Keys(keys []RedisKey)
	// Result adds the world's part to a run's result.
	Result(w Reading, r *Result)
	// Pausing says what the world knows of an actor paused (paused) or
	// resumed, in place of the lab's own words (detail, narration).
	Pausing(a *Actor, paused bool, detail *lang.Phrase, narration *string)
	// Holds reports whether the actor believes it holds something the
	// clock takes away (a trace's story pauses it while the clock moves).
	Holds(a *Actor) bool
}

// readWorld is the world's own reading, if the lab has a world.
func (l *Lab) readWorld(keys []RedisKey) any {
	if l.world == nil {
		return nil
	}
	return l.world.Read(keys)
}

// Invariant is a rule a world holds every state to: a number, the anomaly
// its break stands for, a sentence, and a check.
type Invariant struct {
	Number int
	// Anomaly is the verdict its break stands for.
	Anomaly string
	// Says is the rule in one sentence, in English.
	Says string
	// Check finds its breaks in what the lab read after an action. A
	// world whose rules share what they remember (the catalog's) leaves
	// it nil and judges them together (LabWorld.Check).
	Check func(Observation) []Break
}

// Observation is what the lab read after an action, for a world's
// invariants: the stores before the action and after it, and who acted.
type Observation struct {
	Before, After Reading
	// KeysBefore are the lab's keys as the check before read them.
	KeysBefore []RedisKey
	// Actor made the call (nil: the clock, a pause, a crash); Clock: the
	// lab clock moved; Restart: a step restarted Redis.
	Actor          *Actor
	Clock, Restart bool
	// Sent: the call sent a round trip; StepBegan is when its step began.
	Sent      bool
	StepBegan time.Time
	// Now is the lab clock.
	Now time.Time
}

// NewBreak is a break of invariant n, its detail kept in English (the lab
// tells it in its language when it records it).
func NewBreak(n int, anomaly string, detail lang.Phrase) Break {
	return Break{Invariant: n, Anomaly: anomaly, Detail: detail.In(lang.En), phrase: detail}
}
