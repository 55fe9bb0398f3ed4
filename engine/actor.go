package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"time"

	"github.com/fencelab/fencelab/lang"
)

// Memory is what an actor believes. It is the actor's own view, which may be
// stale: a paused worker still believes it holds what it held.
type Memory struct {
	// World is what the actor remembers of its world (Remembered); nil:
	// nothing yet.
	World Remembered `json:",omitempty"`
	// Vars are what a file's steps saved (save = "token"), by name.
	Vars map[string]string `json:",omitempty"`
}

// Remembered is a world's part of an actor's memory, which a state's key
// takes whole, encoded as JSON. Only the actor's calls change it, each a
// copy of its own (Clone, at the call's start): saved states share it.
type Remembered interface {
	// Clone copies it.
	Clone() Remembered
	// Relative is it with every moment it holds taken relative to now,
	// as a state's key takes every moment; timed: it holds one (a memory
	// that holds none is encoded once per call of its actor).
	Relative(now time.Time) (r Remembered, timed bool)
	// StepEnded forgets what a call of the step that just ended read for
	// a later call of it.
	StepEnded()
}

// clone copies the memory, its world's part and its variables.
func (m Memory) clone() Memory {
	if m.World != nil {
		m.World = m.World.Clone()
	}
	m.Vars = maps.Clone(m.Vars)
	return m
}

// Actor is a worker, the operator or another participant, with a program.
type Actor struct {
	Name  string
	Label string
	Owner string
	// Setting is the world's own setting of the actor (ActorSpec.Setting).
	Setting any
	Paused  bool
	Pause   string // why it is paused
	Waiting string // why its current step could not proceed
	Halted  string // why its program was cut short (a crash)
	Memory  Memory

	program []Step
	pc      int
	// encoded is Memory as JSON, for fingerprints; nil when it may have
	// changed since (memoryJSON).
	encoded []byte
	// call is the next call of the current step (0: the step has not begun).
	call int
	// stepBegan is the lab clock when the current step's first call began:
	// what the step records is the lab clock's from then on (a world may
	// hold it to that: Observation.StepBegan).
	stepBegan time.Duration
	redis     RedisClient
	ledger    Ledger
	// live is the call in progress, between two of its round trips (nil:
	// none; wire.go).
	live *liveCall
}

// memoryJSON is the actor's memory encoded, for a state's fingerprint,
// with the moments it holds between two calls (a job it read, a write it
// sent) taken relative to now, as the fingerprint takes every moment. A
// memory that holds none is encoded again only after each of the actor's
// calls (a call is the only thing that changes it) and after a reset or
// restore.
func (a *Actor) memoryJSON(now time.Time) []byte {
	m := a.Memory
	timed := false
	if m.World != nil {
		var relative Remembered
		if relative, timed = m.World.Relative(now); timed {
			m.World = relative
		}
	}
	if a.encoded != nil && !timed {
		return a.encoded
	}
	data, err := json.Marshal(m)
	if err != nil {
		panic(fmt.Sprintf("engine: a memory that does not encode: %v", err))
	}
	if !timed {
		a.encoded = data
	}
	return data
}

// Halt ends the actor's program where it stands: its process is gone.
func (a *Actor) Halt(reason string) {
	a.pc, a.call = len(a.program), 0
	a.Waiting = ""
	a.Halted = reason
}

// Done reports whether the actor has run its whole program.
func (a *Actor) Done() bool { return a.pc >= len(a.program) }

// NextStep names the step the actor runs when stepped next.
func (a *Actor) NextStep() string {
	if a.Done() {
		return ""
	}
	return a.program[a.pc].Name
}

// NextCall names the call the actor makes when called next, and where it
// is in its step (call 2 of 3); empty for a step of one call.
func (a *Actor) NextCall() (name string, i, of int) {
	if a.Done() {
		return "", 0, 0
	}
	calls := a.program[a.pc].calls()
	if len(calls) == 1 {
		return "", 0, 0
	}
	return calls[a.call].Name, a.call + 1, len(calls)
}

// MidStep reports whether the actor is between two calls of a step.
func (a *Actor) MidStep() bool { return a.call > 0 || a.live != nil }

// Turn is what a step sees: its actor, the actor's connections, the lab clock.
type Turn struct {
	lab   *Lab
	Actor *Actor
	// ledger is the connection the call names (nil: the actor's own).
	ledger Ledger
}

func (t *Turn) Mode() Mode             { return t.lab.mode }
func (t *Turn) Now() time.Time         { return t.lab.Now() }
func (t *Turn) HoldTTL() time.Duration { return t.lab.backends.HoldTTL }

// Lab is the lab the turn is taken in (a world reaches its part of it,
// LabWorld, through it).
func (t *Turn) Lab() *Lab { return t.lab }

// Redis is the actor's Redis connection, as its world's steps use it.
func (t *Turn) Redis() RedisClient { return t.Actor.redis }

// Ledger is the database connection the call names, else the actor's own.
func (t *Turn) Ledger() Ledger {
	if t.ledger != nil {
		return t.ledger
	}
	return t.Actor.ledger
}
func (t *Turn) Code() CodeStore            { return t.Actor.redis }
func (t *Turn) Memory() *Memory            { return &t.Actor.Memory }
func (t *Turn) Coordination() Coordination { return t.lab.backends.Coordination }

// Off reports whether guard g is removed from this run (SAFE --without g,
// or a scenario file whose design leaves g out)
// and notes that the run consulted it: a step asks before the check that
// g is, and takes the code path without the check when it is off.
func (t *Turn) Off(g Guard) bool {
	t.lab.consulted |= Guards(g)
	return t.lab.mode == Safe && (t.lab.without | t.lab.scenario.Removed).Has(g)
}

// Unguarded is the set of guards among gs removed from this run, for a
// store call that makes those checks itself (the fenced write's SQL, a Lua
// script): each is consulted, as Off does.
func (t *Turn) Unguarded(gs ...Guard) GuardSet {
	var s GuardSet
	for _, g := range gs {
		if t.Off(g) {
			s |= Guards(g)
		}
	}
	return s
}

// Before is the world as it was before this call: what the invariant
// check after the last action read. Narration may use it (what a key held
// before an unconditional DEL); a worker's decisions never do — they rest
// on what it read itself.
func (t *Turn) Before() Reading { return t.lab.reading }

// RestartRedis loses Redis's data as a restart without persistence does,
// and tells the invariants that the environment, not a worker, ended
// whatever leases and pointers were there.
func (t *Turn) RestartRedis(ctx context.Context) (restarted bool, err error) {
	t.lab.cause.restart = true
	return t.lab.backends.Coordination.Restart(ctx)
}

// Peer is another actor of the lab, by name (a worker reads the job id its
// request started); nil if there is none.
func (t *Turn) Peer(name string) *Actor {
	a, _ := t.lab.Actor(name)
	return a
}

// Emit adds an event for this actor; Code is prefixed with the actor's
// name. The detail is format and args, kept in English for the trace and
// told in the lab's language for the screen (an argument may be a
// lang.Phrase, said in the same language); guard is the check that decided
// the step, as evaluated, or empty.
func (t *Turn) Emit(layer Layer, code, state, guard, format string, args ...any) {
	detail := lang.P(format, args...)
	t.lab.emit(Event{Actor: t.Actor.Name, Layer: layer, Code: t.Actor.Name + "_" + code,
		State: state, Detail: detail.In(lang.En), Told: detail.In(t.lab.lang), Guard: guard, GuardTold: t.lab.lang.T(guard)})
}

// Refuse marks the event this turn emitted last as a guard's refusal.
func (t *Turn) Refuse(code string) {
	if n := len(t.lab.events); n > 0 {
		t.lab.events[n-1].Refusal = code
	}
	if g, ok := refusingGuard(code); ok {
		t.lab.refused |= Guards(g)
	}
}

// Narrate sets the narration of the event this turn emitted last.
func (t *Turn) Narrate(format string, args ...any) {
	if n := len(t.lab.events); n > 0 {
		t.lab.events[n-1].Narration = t.lab.lang.T(format, args...)
	}
}

// Emitf is Emit without a guard.
func (t *Turn) Emitf(layer Layer, code, state, format string, args ...any) {
	t.Emit(layer, code, state, "", format, args...)
}
