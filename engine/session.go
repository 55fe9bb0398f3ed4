package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/lang"
)

// A file's code may hold state in a PostgreSQL session, beyond its rows:
// a session-level advisory lock (pg_try_advisory_lock) stays with the
// connection that took it, across steps and transactions, until it is
// unlocked or the connection closes. Two things follow.
//
// Connections a file names. A step may run on a connection the file
// names (connection = "pool-1") instead of its actor's own: whichever
// actor takes the step, its statements go on that one connection, as a
// transaction-pooling pooler hands its clients the server connection that
// is free. What one actor's step left in that session (a lock it took)
// is there for the next actor's. A call that has sent a statement on such
// a connection holds it until the call ends (its transaction, if any, is
// the connection's); another actor's call that needs it is not enabled
// until then, as a pooler makes a client wait for a server connection.
//
// Sessions are part of the state. When a file's SQL takes advisory locks
// (Code.Sessions), the lab reads what each connection's session holds
// after every action (Reading.Sessions) — which locks, in which mode, how
// many times — so the checker's state key tells "B's lock is A's lock
// taken again" from "B holds a lock of its own"; and a restore puts each
// session back as it was.

// AdvisoryLock is a session-level advisory lock a connection holds, as
// pg_locks names it: one bigint key (High and Low are its two halves), or
// a pair of integer keys (Pair), in shared or exclusive mode, taken Count
// times (a session may take a lock it holds again; it then holds it until
// as many unlocks).
type AdvisoryLock struct {
	High, Low uint32
	Pair      bool
	Shared    bool
	Count     int
}

// Key is the lock's key as the code that took it wrote it: 42, or 1,2.
func (k AdvisoryLock) Key() string {
	if k.Pair {
		return fmt.Sprintf("%d,%d", int32(k.High), int32(k.Low))
	}
	return fmt.Sprint(int64(uint64(k.High)<<32 | uint64(k.Low)))
}

func (k AdvisoryLock) String() string {
	s := k.Key()
	if k.Shared {
		s += " shared"
	}
	if k.Count > 1 {
		s += fmt.Sprintf(" ×%d", k.Count)
	}
	return s
}

// SessionState is what one connection's session holds.
type SessionState struct {
	// Connection is an actor's name (its own connection) or a connection
	// the file names.
	Connection string
	Locks      []AdvisoryLock
}

// Says is the session's locks as a person reads them: "42 ×2, 7".
func (s SessionState) Says() string {
	var parts []string
	for _, k := range s.Locks {
		parts = append(parts, k.String())
	}
	return strings.Join(parts, ", ")
}

// SessionKeeper is a connection whose session a lab can read and put
// back (pgledger's Ledger).
type SessionKeeper interface {
	// SessionLocks reads the advisory locks the session holds.
	SessionLocks(ctx context.Context) ([]AdvisoryLock, error)
	// ReleaseSession lets go of every lock the session holds, unless it
	// holds want already: then take is false and nothing was sent.
	ReleaseSession(ctx context.Context, want []AdvisoryLock) (take bool, err error)
	// TakeSession takes want, on a session that holds none.
	TakeSession(ctx context.Context, want []AdvisoryLock) error
}

// ErrConnectionHeld is an action asked of an actor whose step needs a
// connection the file names while another actor's call holds it.
var ErrConnectionHeld = lang.Error("waits for its connection")

// sharedConnection is a connection a file names, opened by the lab.
type sharedConnection struct {
	name   string
	ledger Ledger
}

// connectionFor is the connection a call of the actor sends its SQL on:
// the one the call names, or the actor's own.
func (l *Lab) connectionFor(a *Actor, c Call) Ledger {
	if c.Connection != "" {
		for _, s := range l.shared {
			if s.name == c.Connection {
				return s.ledger
			}
		}
	}
	return a.ledger
}

// nextCall is the call the actor is in, or takes next.
func (a *Actor) nextCall() (Call, bool) {
	if a.Done() {
		return Call{}, false
	}
	return a.program[a.pc].calls()[a.call], true
}

// holderOf is the actor whose call holds the connection the actor's call
// needs, if another does: one that has sent a statement on it and not
// ended.
func (l *Lab) holderOf(a *Actor) *Actor {
	c, ok := a.nextCall()
	if !ok || c.Connection == "" {
		return nil
	}
	for _, b := range l.actors {
		if b == a || b.live == nil || len(b.live.trips) == 0 {
			continue
		}
		if bc, ok := b.nextCall(); ok && bc.Connection == c.Connection {
			return b
		}
	}
	return nil
}

// keepsSessions reports whether the lab reads and restores sessions.
func (l *Lab) keepsSessions() bool { return l.scenario.Code != nil && l.scenario.Code.Sessions }

// sessionConnections are the connections whose sessions a state holds, in
// the order Reading.Sessions lists them: each actor's, then the file's.
func (l *Lab) sessionConnections() []sharedConnection {
	out := make([]sharedConnection, 0, len(l.actors)+len(l.shared))
	for _, a := range l.actors {
		out = append(out, sharedConnection{a.Name, a.ledger})
	}
	return append(out, l.shared...)
}

// readSessions reads every connection's session.
func (l *Lab) readSessions(ctx context.Context) ([]SessionState, error) {
	if !l.keepsSessions() {
		return nil, nil
	}
	var out []SessionState
	for _, c := range l.sessionConnections() {
		keeper, ok := unwrapLedger(c.ledger).(SessionKeeper)
		if !ok {
			continue
		}
		locks, err := keeper.SessionLocks(Housekeeping(ctx))
		if err != nil {
			return nil, fmt.Errorf("read the session of connection %s: %w", c.name, err)
		}
		out = append(out, SessionState{Connection: c.name, Locks: locks})
	}
	return out, nil
}

// restoreSessions puts every connection's session as want says (nil:
// holding nothing). Every session that must change lets go first, so no
// lock is taken while another session still holds it.
func (l *Lab) restoreSessions(ctx context.Context, want []SessionState) error {
	if !l.keepsSessions() {
		return nil
	}
	ctx = Housekeeping(ctx)
	type taking struct {
		keeper SessionKeeper
		locks  []AdvisoryLock
	}
	var take []taking
	for _, c := range l.sessionConnections() {
		keeper, ok := unwrapLedger(c.ledger).(SessionKeeper)
		if !ok {
			continue
		}
		var locks []AdvisoryLock
		if i := slices.IndexFunc(want, func(s SessionState) bool { return s.Connection == c.name }); i >= 0 {
			locks = want[i].Locks
		}
		again, err := keeper.ReleaseSession(ctx, locks)
		if err != nil {
			return fmt.Errorf("restore the session of connection %s: %w", c.name, err)
		}
		if again {
			take = append(take, taking{keeper, locks})
		}
	}
	for _, t := range take {
		if err := t.keeper.TakeSession(ctx, t.locks); err != nil {
			return fmt.Errorf("restore a session: %w", err)
		}
	}
	return nil
}
