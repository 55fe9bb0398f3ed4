package engine

import "slices"

// Touch is a part of the lab a call reads or writes, as the checker's
// reduction sees it: two calls of different actors commute — either order
// leads to the same state — when neither writes a part the other touches.
// The database and the clock are parts of every lab; a world divides the
// keys into parts of its own (KeyPart), and may keep a service in the
// process (TouchService).
type Touch uint8

const (
	TouchDatabase Touch = 1 << iota // PostgreSQL
	TouchClock                      // the lab clock (a call reads it; only the clock's own actions write it)
	TouchService                    // a service the world keeps in the process
	touchKeys0                      // the first part of the keys (KeyPart)
)

// keyParts is how many parts a world may divide the keys into.
const keyParts = 5

// KeyPart is part i (0 to 4) of the lab's keys, as a world divides them.
func KeyPart(i int) Touch {
	if i < 0 || i >= keyParts {
		panic("engine: no such part of the keys")
	}
	return touchKeys0 << i
}

const (
	// touchKeys are all the keys' parts; touchAll, every part.
	touchKeys Touch = (1<<keyParts - 1) * touchKeys0
	touchAll        = TouchDatabase | TouchClock | TouchService | touchKeys
)

// Footprint is what a call may read and write, and which other actors'
// memory it reads or changes (a worker reads its request's job id; a crash
// ends another actor's program). Every call also reads and writes its own
// actor's memory. The zero Footprint is undeclared: the call may touch
// anything, and commutes with nothing.
type Footprint struct {
	Reads, Writes Touch
	Peers         []string
}

// Touching is a footprint: reads, writes, and the peers whose memory the
// call reads or changes.
func Touching(reads, writes Touch, peers ...string) Footprint {
	return Footprint{Reads: reads | writes, Writes: writes, Peers: peers}
}

func (f Footprint) declared() bool { return f.Reads|f.Writes != 0 || len(f.Peers) > 0 }

// clockFootprint is what a clock action touches: the clock, and the keys
// whose TTLs it runs down.
var clockFootprint = Footprint{Reads: touchKeys | TouchClock, Writes: touchKeys | TouchClock}

// footprint is what an enabled action would touch at the lab's state, and
// whose actions they are: an actor's next call's; an overlap's two calls
// (each actor's next, to the round trip after it); the clock's (no owner).
func (l *Lab) footprint(a Action) (owners []string, f Footprint) {
	switch a.Kind {
	case StepActor, CallActor:
		return []string{a.Actor}, l.nextCallTouches(a.Actor)
	case OverlapWrite:
		fw, fo := l.nextCallTouches(a.Actor), l.nextCallTouches(a.With)
		return []string{a.Actor, a.With}, Footprint{Reads: fw.Reads | fo.Reads, Writes: fw.Writes | fo.Writes,
			Peers: append(slices.Clip(fw.Peers), fo.Peers...)}
	case CrashActor:
		// Its session's locks go, which any actor's next statement may be
		// waiting to take: it commutes with nothing.
		return []string{a.Actor}, Footprint{Reads: touchAll, Writes: touchAll}
	}
	return nil, clockFootprint
}

// nextCallTouches is what the actor's next call touches (everything, when
// it does not say, or the actor has finished).
func (l *Lab) nextCallTouches(name string) Footprint {
	actor, err := l.Actor(name)
	if err != nil || actor.Done() {
		return Footprint{Reads: touchAll, Writes: touchAll}
	}
	f := actor.program[actor.pc].calls()[actor.call].Touches
	if !f.declared() {
		return Footprint{Reads: touchAll, Writes: touchAll}
	}
	return f
}

// independent reports whether two actions enabled at the lab's state
// commute: different actors (or actors and the clock), neither writing
// what the other touches, neither touching the other's memory.
func (l *Lab) independent(a, b Action) bool {
	if l.blocked() {
		// Which action releases the lock a statement waits for, and so
		// where the statement comes back, is not declared.
		return false
	}
	ownersA, fa := l.footprint(a)
	ownersB, fb := l.footprint(b)
	shares := func(names, others []string) bool {
		return slices.ContainsFunc(names, func(n string) bool { return slices.Contains(others, n) })
	}
	switch {
	case ownersA == nil && ownersB == nil: // two clock actions
		return false
	case shares(ownersA, ownersB):
		return false
	case fa.Writes&fb.Reads != 0 || fb.Writes&fa.Reads != 0:
		return false
	case shares(fa.Peers, ownersB), shares(fb.Peers, ownersA):
		return false
	case ownersA == nil:
		return l.clockOutlives(ownersB, fb)
	case ownersB == nil:
		return l.clockOutlives(ownersA, fa)
	}
	return true
}

// clockOutlives reports whether the clock stays able to move whatever the
// owners' calls do: the clock moves only while some actor has not
// finished, and a call may finish its own actor (or, a crash, its peers).
// Some other actor that the calls cannot finish must be left.
func (l *Lab) clockOutlives(owners []string, f Footprint) bool {
	for _, a := range l.actors {
		if !slices.Contains(owners, a.Name) && !a.Done() && !slices.Contains(f.Peers, a.Name) {
			return true
		}
	}
	return false
}
