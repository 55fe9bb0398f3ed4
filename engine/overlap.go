package engine

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/lang"
)

// Two statements in flight at once. The actors take turns, so without
// more PostgreSQL would never have two of them working together, and a
// statement that is only right because it locks what it reads (a fenced
// write that reads its row FOR UPDATE) would look right without the lock.
//
// So each of fencelab's own writes goes on the wire as two round trips —
// BEGIN with the statement, then COMMIT (RoundTrip.Opens and Commits) —
// and an overlap is the action that puts another actor's statement between
// them: the writer's statement runs and holds its locks; the other's is
// sent, and either waits for those locks (its actor is blocked, as
// pg_blocking_pids says) or runs at once on what was committed before; the
// writer commits; the waiting statement then completes as PostgreSQL
// completes it — re-reading the rows it locks, with its snapshot for the
// rest, as READ COMMITTED does. Every other action takes a write and its
// commit together, as the one autocommit statement they stand for, so the
// search pays for a window only where a statement can be in it.
//
// What an overlap does not explore: a window with more than one other
// statement in it, or with a Redis command or a clock move between the
// write and its commit (those commute with the commit and are explored
// before the write or after it).

// DoOverlap is the overlap of writer's next write with other's next
// statement.
func DoOverlap(writer, other string) Action {
	return Action{Kind: OverlapWrite, Actor: writer, With: other}
}

// overlaps are the overlaps enabled at the lab's state: each actor whose
// next round trip may be a write of fencelab's own, with each other actor
// whose next round trip may be a statement. None while a statement waits
// for a lock: one waits at a time (oneWaits).
func (l *Lab) overlaps() (out []Action) {
	if l.blocked() {
		return nil
	}
	for _, a := range l.actors {
		if !l.mayWrite(a) {
			continue
		}
		for _, b := range l.actors {
			if b != a && l.maySendStatement(b) {
				out = append(out, DoOverlap(a.Name, b.Name))
			}
		}
	}
	return out
}

// mayWrite reports whether the actor's next round trip may open a write:
// it is parked at one, or its next call touches the database alone and
// writes it (what the call's first trip is shows only once it has begun;
// an overlap whose actors turn out not to stand at a write and a
// statement changes nothing).
func (l *Lab) mayWrite(a *Actor) bool {
	if !l.mayGo(a) {
		return false
	}
	if a.live != nil {
		return a.live.state == wireParked && a.live.next.Opens
	}
	f := a.program[a.pc].calls()[a.call].Touches
	return databaseAlone(f) && f.Writes&TouchDatabase != 0
}

// maySendStatement reports whether the actor's next round trip may be a
// statement to PostgreSQL that writes (as mayWrite): a statement that
// only reads, without locks, sees in a window what it would see before
// the write, and waits for nothing — the overlap would lead where the
// read before the write does.
func (l *Lab) maySendStatement(a *Actor) bool {
	if !l.mayGo(a) {
		return false
	}
	f := a.program[a.pc].calls()[a.call].Touches
	if a.live != nil {
		return a.live.state == wireParked && a.live.next.Backend == BackendPostgres && (!f.declared() || f.Writes&TouchDatabase != 0)
	}
	return databaseAlone(f) && f.Writes&TouchDatabase != 0
}

// mayGo reports whether the actor can take a call now (a paused one too,
// as moves has it: the check never pauses, and the explorer resumes).
func (l *Lab) mayGo(a *Actor) bool {
	return !a.Done() && !a.Blocked() && l.holderOf(a) == nil
}

// databaseAlone reports whether a call touches PostgreSQL and nothing
// else but the clock it reads, nor another actor's memory.
func databaseAlone(f Footprint) bool {
	touched := f.Reads | f.Writes
	return f.declared() && len(f.Peers) == 0 && touched&TouchDatabase != 0 && touched&^(TouchDatabase|TouchClock) == 0
}

// ErrNoOverlap is an overlap asked of actors that cannot take one.
var ErrNoOverlap = lang.Error("cannot overlap")

// overlap takes an overlap (see above). At its end no write of either
// actor is open: each one's call has run on to its next round trip or its
// end.
func (l *Lab) overlap(ctx context.Context, action Action) error {
	w, err := l.stepping(action.Actor)
	if err != nil {
		return err
	}
	o, err := l.stepping(action.With)
	if err != nil {
		return err
	}
	if w == o || l.blocked() {
		return lang.Error("%s with %s: %w", w.Name, o.Name, ErrNoOverlap)
	}
	events := len(l.events)
	pw, err := l.begin(ctx, w)
	if err != nil {
		return err
	}
	po, err := l.begin(ctx, o)
	if err != nil {
		return err
	}
	if !(w.live != nil && w.live.state == wireParked && w.live.next.Opens) ||
		!(o.live != nil && o.live.state == wireParked && o.live.next.Backend == BackendPostgres) {
		// Not a write and a statement after all: the calls begun to see
		// their first trips are given up, and nothing has changed.
		pw.giveUp(ctx)
		po.giveUp(ctx)
		l.events = l.events[:events]
		return nil
	}
	w.encoded, o.encoded = nil, nil
	l.keysRead = false
	l.cause = cause{actor: w}

	// The write runs and holds its locks.
	ev, done, err := l.tripOnce(ctx, w)
	if err != nil {
		return err
	}
	if done {
		_, err := l.endCall(w, ev)
		po.giveUp(ctx)
		return err
	}
	if w.Blocked() {
		po.giveUp(ctx) // it waits for a lock a transaction of a file's holds: no window
		return nil
	}
	if !(w.live.state == wireParked && w.live.next.Commits) {
		return fmt.Errorf("engine: %s's write was not followed by its COMMIT but by %s", w.Name, w.live.next)
	}
	l.emitTold(Event{Actor: w.Name, Layer: LayerDatabase, Code: w.Name + "_IN_FLIGHT", State: "UNCOMMITTED"},
		lang.P("%s's write has run and holds its row locks; its COMMIT has not gone yet", w.Name))

	// The other statement goes while the write is open.
	evo, doneo, err := l.tripOnce(ctx, o)
	if err != nil {
		return err
	}
	if o.Blocked() {
		l.emitTold(Event{Actor: o.Name, Layer: LayerDatabase, Code: o.Name + "_WAITS", State: "WAITING"},
			lang.P("%s's statement is sent while %s's write is open: it waits for %s's locks", o.Name, w.Name, w.Name))
	} else {
		l.emitTold(Event{Actor: o.Name, Layer: LayerDatabase, Code: o.Name + "_IN_FLIGHT", State: "BESIDE"},
			lang.P("%s's statement is sent while %s's write is open: it waits for nothing and sees only what was committed before", o.Name, w.Name))
	}
	if doneo {
		if _, err := l.endCall(o, evo); err != nil {
			return err
		}
	}

	// The write commits; a statement that waited for it goes on, and a
	// write of the other's stops before its own commit: the invariants
	// are checked between the two, so each commit is held to the world
	// of its moment (the catalog's world compares a write with the configuration
	// as it committed).
	if ev, done, err = l.throughCommit(ctx, w); err != nil {
		return err
	}
	if done {
		if _, err := l.endCall(w, ev); err != nil {
			return err
		}
	}
	if err := l.settleHolding(ctx, true); err != nil {
		return err
	}
	if !o.Blocked() && o.live != nil && o.live.state == wireParked && o.live.next.Commits {
		if err := l.checkInvariants(ctx); err != nil {
			return err
		}
		l.noteResumed()
		if evo, doneo, err = l.throughCommit(ctx, o); err != nil {
			return err
		}
		if doneo {
			if _, err := l.endCall(o, evo); err != nil {
				return err
			}
		}
	}
	return nil
}

// begun is an actor's call as begin left it.
type begun struct {
	l       *Lab
	a       *Actor
	started bool
	memory  Memory
}

// begin starts the actor's next call, if it is not in one, up to its first
// round trip (nothing is sent), so the trip can be seen.
func (l *Lab) begin(ctx context.Context, a *Actor) (begun, error) {
	b := begun{l: l, a: a}
	if a.live != nil {
		return b, nil
	}
	b.started, b.memory = true, a.Memory.clone()
	a.encoded = nil
	_, err := l.startCall(ctx, a, a.program[a.pc].calls()[a.call])
	return b, err
}

// giveUp undoes begin: the call, which has sent nothing, is given up, and
// the memory it began with put back.
func (b begun) giveUp(ctx context.Context) {
	if !b.started || b.a.live == nil || len(b.a.live.trips) > 0 {
		return
	}
	b.l.abandon(ctx, b.a)
	b.a.Memory = b.memory.clone()
	b.a.encoded = nil
}
