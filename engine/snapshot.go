package engine

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"
)

// Snapshot is everything a screen shows, read from the real backends at
// one moment. Nothing in it is a copy kept by a UI.
type Snapshot struct {
	Scenario *Scenario
	Mode     Mode
	Clock    time.Duration
	Now      time.Time

	RedisName string
	// RedisPrefix starts the name of every lab key (fencelab:, or
	// fencelab:RUN: on a shared server).
	RedisPrefix  string
	DatabaseName string
	DSN          string

	Actors []ActorView
	Keys   []RedisKey
	Ledger LedgerState
	// Sessions are what each connection's session holds, for a file
	// whose code takes advisory locks (session.go).
	Sessions []SessionState
	// World is the world's own reading (LabWorld.Read).
	World  any
	Events []Event
	// Guard is the last event whose step ran a guard, if any.
	Guard  *Event
	Result Result

	// Settled: the guided order is over or every actor has run its
	// program, so the verdict is final.
	Settled bool

	GuidedDone, GuidedTotal int
	// GuidedNext describes the next guided action; empty when it is over
	// or the lab left it (OffPath, at GuidedDone).
	GuidedNext string
	// GuidedAction is that action itself (the zero Action when none).
	GuidedAction Action
	OffPath      bool
	// Actions is how many actions the lab had taken.
	Actions int
	// State is the state as a check names it (to find it in a check's
	// graph); Broken the invariants the run has broken so far.
	State  StateID
	Broken InvariantSet
}

// LastGuard is the last event whose step ran a guard in one layer: a Lua
// script's in Redis, a transaction's in PostgreSQL. Nil when none did.
func (s Snapshot) LastGuard(layer Layer) *Event {
	for i := len(s.Events) - 1; i >= 0; i-- {
		if e := &s.Events[i]; e.Guard != "" && e.Layer == layer {
			return e
		}
	}
	return nil
}

// ActorView is one actor's row: what it is doing, what it believes, and the
// truth beside it.
type ActorView struct {
	Name, Label string
	NextStep    string
	// NextCall names the call the actor is at, when it is between two
	// calls of a step (a digit key makes that one; n the rest of the step);
	// CallOf is where it is: call 2 of 3.
	NextCall   string
	CallAt, Of int
	Done       bool
	Paused     bool
	Pause      string
	Waiting    string
	Halted     string
	// Belief is what the actor believes it holds, in words; Truth what
	// the stores say of it (both the world's).
	Belief string
	Truth  string
	// World is the world's own view of the actor, as data.
	World any
	// Deceived: the actor believes it holds what it does not.
	Deceived bool
	// HoldsNothing: the actor believes it holds nothing (its Belief says
	// so in words).
	HoldsNothing bool
	// Deadlocked: the actor's statement and another's wait for each
	// other's locks (Waiting says whose).
	Deadlocked bool
	// Saved is what a file's actor saved (save = "read_version"), as
	// "name = value" by name: what it believes, beside what the stores
	// hold.
	Saved []string
}

// Snapshot reads the backends and the lab's own state.
func (l *Lab) Snapshot(ctx context.Context) (Snapshot, error) {
	s := Snapshot{
		Scenario:     l.scenario,
		Mode:         l.mode,
		Clock:        l.clock,
		Now:          l.Now(),
		RedisName:    l.backends.Coordination.Describe(),
		RedisPrefix:  l.backends.Coordination.Prefix(),
		DatabaseName: l.backends.Database.Describe(),
		DSN:          l.backends.Database.DSN(),
		Events:       l.events,
		GuidedDone:   l.guidedNext,
		GuidedTotal:  len(l.guided),
	}
	var err error
	if s.Keys, err = l.backends.Coordination.Keys(ctx); err != nil {
		return s, err
	}
	if l.world != nil {
		l.world.Keys(s.Keys)
	}
	if s.Ledger, err = l.ledger.State(ctx); err != nil {
		return s, err
	}
	if s.Sessions, err = l.readSessions(ctx); err != nil {
		return s, err
	}
	s.World = l.readWorld(s.Keys)
	s.Result = l.resultFrom(Reading{Ledger: s.Ledger, Keys: s.Keys, Prefix: s.RedisPrefix, World: s.World})
	if s.State, err = l.StateID(ctx); err != nil {
		return s, err
	}
	s.Broken = l.BrokenSoFar()
	for i := len(l.events) - 1; i >= 0; i-- {
		if l.events[i].Guard != "" {
			s.Guard = &l.events[i]
			break
		}
	}
	if next, ok := l.GuidedNext(); ok {
		s.GuidedAction = next
		s.GuidedNext = next.String()
		if next.Caption != "" {
			s.GuidedNext += " — " + next.Caption
		}
	}
	s.OffPath, s.Actions = l.OffPath(), len(l.log)
	s.Settled = s.GuidedNext == "" && !s.OffPath
	allDone := true
	for _, a := range l.actors {
		allDone = allDone && a.Done()
	}
	s.Settled = s.Settled || allDone

	for _, a := range l.actors {
		v := ActorView{Name: a.Name, Label: a.Label, NextStep: a.NextStep(), Done: a.Done(),
			Paused: a.Paused, Pause: a.Pause, Waiting: a.Waiting, Halted: a.Halted}
		if a.MidStep() {
			v.NextCall, v.CallAt, v.Of = a.NextCall()
		}
		// Inside a call, between two of its round trips: what it sends
		// next, or the statement that waits for a lock.
		if next, in := a.InCall(); in {
			v.Waiting = l.lang.T("inside its call; next: %s", next)
			if a.Blocked() {
				v.Waiting = l.lang.T("%s waits for a lock another transaction holds: %s", a.Name, next)
			}
			if b := l.deadlockedWith(a); b != nil {
				v.Waiting = l.lang.T("%s and %s wait for each other's locks, a deadlock: PostgreSQL fails one of the two statements", a.Name, b.Name)
				v.Deadlocked = true
			}
		}
		if b := l.holderOf(a); b != nil {
			c, _ := a.nextCall()
			v.Waiting = l.lang.T("waits for connection %s, which %s's step holds", c.Connection, b.Name)
		}
		v.Belief, v.HoldsNothing = l.lang.T("holds nothing"), true
		for _, name := range slices.Sorted(maps.Keys(a.Memory.Vars)) {
			v.Saved = append(v.Saved, name+" = "+savedValue(a.Memory.Vars[name]))
		}
		s.Actors = append(s.Actors, v)
	}
	if l.world != nil {
		if err := l.world.View(ctx, l.actors, s.Actors); err != nil {
			return s, err
		}
	}
	return s, nil
}

// savedValue is a saved value as a pane line shows it: at most 24
// characters of it, on one line.
func savedValue(v string) string {
	v = strings.Join(strings.Fields(v), " ")
	if v == "" {
		return `""`
	}
	if r := []rune(v); len(r) > 24 {
		return string(r[:23]) + "…"
	}
	return v
}
