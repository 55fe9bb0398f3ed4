package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/fencelab/fencelab/lang"
)

// Round trips are where a lab cuts an actor's program. Each call of a
// step runs in a goroutine of its own, and every message that goroutine
// sends a backend passes through Send first: the stores' driver hooks call
// it (a go-redis hook, pgx's tracer, the provider's wrapper), whatever the
// store method that sends the message. There the goroutine parks until the
// lab lets exactly that round trip go, so one action (CallActor) takes an
// actor through one round trip, and the checker can interleave another
// actor between any two — a method that makes three round trips is three
// steps without anyone declaring it.
//
// Only one goroutine runs at a time: the lab hands a baton over (resume)
// and waits until the goroutine parks at its next round trip or ends its
// call. A statement that waits for a lock another actor's open transaction
// holds is the one exception: its actor is blocked, not enabled, until the
// lock is released; its goroutine then parks again before running on, and
// the lab hands it the baton after the action that released the lock.

// The backends a round trip goes to.
const (
	BackendRedis    = "redis"
	BackendPostgres = "postgres"
)

// RoundTrip is one message an actor's code sends a backend, as sent: a
// Redis command or pipeline, a PostgreSQL statement or batch, a provider
// call.
type RoundTrip struct {
	Backend string
	Text    string
	// Opens: the trip is BEGIN with a write of fencelab's own, and
	// Commits, the trip after it, is its COMMIT. A write goes so on the
	// wire so that its locks are held across a point where another
	// actor's statement can be sent (an overlap); an action otherwise
	// takes the two together, as the one autocommit statement they
	// stand for (Lab.throughCommit).
	Opens, Commits bool
}

func (t RoundTrip) String() string { return t.Backend + ": " + t.Text }

// ErrAbandoned is what Send answers a call the lab gave up (a restore,
// a reset, time travel): its round trip was not sent.
var ErrAbandoned = errors.New("the lab abandoned this call: its round trip was not sent")

// ErrBlocked is an action asked of an actor whose statement waits for a
// lock.
var ErrBlocked = lang.Error("waits for a lock another actor's transaction holds")

// ErrOneWaits is an action that would send PostgreSQL a statement while
// another actor's statement waits for a lock (Lab.oneWaits).
var ErrOneWaits = lang.Error("would send a statement while another actor's statement waits for a lock: one waits at a time")

type gateKey struct{}

// Send is called by a store's driver hook before an actor's round trip
// goes out; back is called with the reply once it is back. Outside an
// actor's call (the lab's own housekeeping) it returns at once. An error
// means the trip must not be sent.
func Send(ctx context.Context, trip RoundTrip) (back func(reply string), err error) {
	g, _ := ctx.Value(gateKey{}).(*gate)
	if g == nil {
		return noBack, nil
	}
	return g.send(trip)
}

// OnWire reports whether ctx is an actor's call's, whose round trips park.
func OnWire(ctx context.Context) bool {
	g, _ := ctx.Value(gateKey{}).(*gate)
	return g != nil
}

// Housekeeping is ctx for what a store sends on an actor's connection on
// the lab's behalf (a restore sent on its own): no round trip of the
// actor's, so it never parks.
func Housekeeping(ctx context.Context) context.Context {
	return context.WithValue(ctx, gateKey{}, (*gate)(nil))
}

func noBack(string) {}

type wireKind int

const (
	wireParked   wireKind = iota // at Send, before the trip goes out
	wireReturned                 // the trip is back; waiting for the baton
	wireExited                   // the call returned
)

type wireEvent struct {
	kind    wireKind
	trip    RoundTrip
	reply   string
	outcome StepOutcome
	err     error
}

// gate is one call's goroutine and the lab's hold on it.
type gate struct {
	events chan wireEvent // goroutine → lab
	resume chan bool      // lab → goroutine: go on (true) or give up (false)
	// Goroutine side: a trip is out and its reply not yet handed back (a
	// second Send meanwhile is part of the same trip: EVAL after
	// EVALSHA's NOSCRIPT); the lab gave the call up.
	inTrip    bool
	abandoned bool
}

func (g *gate) send(trip RoundTrip) (func(string), error) {
	if g.inTrip {
		return g.back, nil // the same round trip: its reply ends it
	}
	if g.abandoned {
		// An abandoned transaction is rolled back on its way out, so its
		// connection is left clean.
		if trip.Backend == BackendPostgres && strings.EqualFold(strings.TrimSpace(trip.Text), "rollback") {
			return noBack, nil
		}
		return nil, ErrAbandoned
	}
	g.events <- wireEvent{kind: wireParked, trip: trip}
	if !<-g.resume {
		g.abandoned = true
		return nil, ErrAbandoned
	}
	g.inTrip = true
	return g.back, nil
}

func (g *gate) back(reply string) {
	if !g.inTrip {
		return
	}
	g.inTrip = false
	g.events <- wireEvent{kind: wireReturned, reply: reply}
	if !<-g.resume {
		g.abandoned = true
	}
}

// liveCall is an actor's call in progress, as the lab holds it.
type liveCall struct {
	g     *gate
	state wireKind // wireParked: at next; wireReturned: waiting for the baton; wireInFlight, wireRunning
	next  RoundTrip
	// trips are the round trips the call has sent, with the state of the
	// world each went out in: with the memory it began with, what decides
	// what the goroutine knows (for a state's fingerprint).
	trips   []sentTrip
	memory  []byte
	blocked bool
	// holders are the server processes of the lab's connections whose
	// locks the blocked statement waits for.
	holders []uint32
	// ledger is the connection the call's SQL goes on.
	ledger Ledger
}

// wireInFlight: a round trip is out. wireRunning: the goroutine runs the
// call's own code between two of them (a trip's reply handed back).
const (
	wireInFlight wireKind = -1
	wireRunning  wireKind = -2
)

type sentTrip struct {
	RoundTrip
	before [32]byte
	// resumed: it waited for a lock and came back during a later action;
	// after is the world once that action was done.
	resumed bool
	after   [32]byte
}

// startCall runs the actor's current call in a goroutine of its own and
// waits until it parks at its first round trip or ends.
func (l *Lab) startCall(ctx context.Context, a *Actor, c Call) (wireEvent, error) {
	g := &gate{events: make(chan wireEvent), resume: make(chan bool)}
	if a.call == 0 {
		a.stepBegan = l.clock
	}
	conn := l.connectionFor(a, c)
	a.live = &liveCall{g: g, memory: a.memoryJSON(l.Now()), state: wireRunning, ledger: conn}
	// The call changes a copy of its actor's memory: a saved state that
	// holds the memory as it was keeps it so (copy on write: saves and
	// restores copy the memory's value, and only a call changes it).
	if a.Memory.World != nil {
		a.Memory.World = a.Memory.World.Clone()
	}
	callCtx := context.WithValue(context.WithoutCancel(ctx), gateKey{}, g)
	turn := &Turn{lab: l, Actor: a, ledger: conn}
	go func() {
		var ev wireEvent
		defer func() {
			if p := recover(); p != nil {
				ev = wireEvent{err: fmt.Errorf("the call panicked: %v", p)}
			}
			ev.kind = wireExited
			g.inTrip = false
			g.events <- ev
		}()
		ev.outcome, ev.err = c.Run(callCtx, turn)
	}()
	return l.await(ctx, a, false)
}

// await waits for the actor's goroutine to say something. A trip to
// PostgreSQL that does not come back soon is asked about: for one waiting
// for a lock, await returns an event of kind wireInFlight (the actor is
// blocked) instead of waiting on.
func (l *Lab) await(ctx context.Context, a *Actor, inFlight bool) (ev wireEvent, err error) {
	lc := a.live
	// The server is asked soon, then less and less often: most statements
	// are back within a fraction of a millisecond, and one that waits for
	// a lock (an overlap's, often) is told at once rather than a tick
	// later.
	var ask <-chan time.Time
	every := lockAskFirst
	if inFlight && lc.next.Backend == BackendPostgres && l.locks() != nil {
		timer := time.NewTimer(every)
		defer timer.Stop()
		ask = timer.C
		for {
			select {
			case ev = <-lc.g.events:
				return l.heard(lc, ev), nil
			case <-ask:
				if waiting, err := l.waitsForLock(ctx, a); err != nil {
					return ev, err
				} else if waiting {
					return wireEvent{kind: wireInFlight}, nil
				}
				every = min(2*every, lockAskMost)
				timer.Reset(every)
			case <-ctx.Done():
				l.abandon(context.WithoutCancel(ctx), a)
				return ev, ctx.Err()
			}
		}
	}
	select {
	case ev = <-lc.g.events:
		return l.heard(lc, ev), nil
	case <-ctx.Done():
		l.abandon(context.WithoutCancel(ctx), a)
		return ev, ctx.Err()
	}
}

// heard takes in what a call's goroutine said.
func (l *Lab) heard(lc *liveCall, ev wireEvent) wireEvent {
	lc.state = ev.kind
	if ev.kind == wireParked {
		lc.next = ev.trip
	}
	return ev
}

// How soon a statement still out is first asked about, and how often at
// most after that (await).
const (
	lockAskFirst = 250 * time.Microsecond
	lockAskMost  = 2 * time.Millisecond
)

// oneWaits reports whether actor a stands at a statement to PostgreSQL
// while another actor's statement waits for a lock: a does not send it
// until that one is through. Two statements waiting at once wake, when
// the holder commits, in whichever order the server's processes reach
// the lock first — a race that taking the same actions again need not
// repeat, and a search must. So one statement waits at a time, and a
// schedule in which two would wait together is not explored.
//
// The holder of the lock goes on, of course: its statements are what will
// let the waiting one through.
func (l *Lab) oneWaits(a *Actor) bool {
	if a.live == nil || a.live.state != wireParked || a.live.next.Backend != BackendPostgres {
		return false
	}
	own := watcherOf(l.connectionFor(a, a.program[a.pc].calls()[a.call]))
	for _, b := range l.actors {
		if b != a && b.Blocked() && (own == nil || !slices.Contains(b.live.holders, own.BackendPID())) {
			return true
		}
	}
	return false
}

// locks is what the lab's own connection can say of other connections'
// lock waits (nil: nothing, and no statement is ever taken as blocked).
func (l *Lab) locks() LockWatcher { return watcherOf(l.ledger) }

// session is the connection of the actor's call (its own, when it is in
// none) as a LockWatcher, if it is one.
func (a *Actor) session() LockWatcher {
	if a.live != nil && a.live.ledger != nil {
		return watcherOf(a.live.ledger)
	}
	return watcherOf(a.ledger)
}

// watcherOf is a connection as a LockWatcher, under the lab's lazy
// wrapper; nil if it is none.
func watcherOf(ledger Ledger) LockWatcher {
	w, _ := unwrapLedger(ledger).(LockWatcher)
	return w
}

// waitsForLock reports whether the actor's statement waits for a lock
// that another of the lab's connections holds: another actor's open
// transaction, which the lab ends by an action of its own. A lock of
// anyone else's — autovacuum truncating a table the restores emptied,
// another program on a server of the user's — is let go without the lab,
// and the statement is only slow meanwhile: taking it as blocked would
// make the same actions lead to other states on another run.
func (l *Lab) waitsForLock(ctx context.Context, a *Actor) (bool, error) {
	s, lab := a.session(), l.locks()
	if s == nil || lab == nil || !l.othersMayHoldLocks(a, s) {
		return false, nil
	}
	blockers, err := lab.BlockedBy(Housekeeping(ctx), s.BackendPID())
	if err != nil || len(blockers) == 0 {
		return false, err
	}
	var holders []uint32
	own := func(ledger Ledger) {
		if w := watcherOf(ledger); w != nil && w != s && slices.Contains(blockers, w.BackendPID()) {
			holders = append(holders, w.BackendPID())
		}
	}
	for _, b := range l.actors {
		own(b.ledger)
	}
	for _, c := range l.shared {
		own(c.ledger)
	}
	a.live.holders = holders
	return len(holders) > 0, nil
}

// deadlockedWith is the actor whose blocked statement waits for a lock a's
// session holds while a's statement waits for one of its: the two wait
// for each other, a deadlock, which PostgreSQL ends by failing one of the
// statements (deadlock_timeout after the second began to wait). Nil where
// a waits for no one who waits for it.
func (l *Lab) deadlockedWith(a *Actor) *Actor {
	own := a.session()
	if !a.Blocked() || own == nil {
		return nil
	}
	for _, b := range l.actors {
		theirs := b.session()
		if b == a || !b.Blocked() || theirs == nil {
			continue
		}
		if slices.Contains(a.live.holders, theirs.BackendPID()) && slices.Contains(b.live.holders, own.BackendPID()) {
			return b
		}
	}
	return nil
}

// othersMayHoldLocks reports whether a lab connection other than the
// actor's own session s may hold a lock its statement could wait for, so
// that the server need be asked: one with a transaction open, or one whose
// statement is still out (its client has not heard yet whether it began
// one). Outside a transaction PostgreSQL keeps no lock past a statement
// but a session's advisory locks; where a file takes those
// (keepsSessions), a connection may hold one while idle, and the server
// is always asked. Most statements are sent while no one else holds
// anything, and asking cost the checker a query each.
func (l *Lab) othersMayHoldLocks(a *Actor, s LockWatcher) bool {
	if l.keepsSessions() {
		return true
	}
	for _, b := range l.actors {
		if b != a && b.live != nil && (b.live.blocked || b.live.state == wireInFlight) {
			return true
		}
	}
	open := func(ledger Ledger) bool {
		if ledger == nil {
			return false
		}
		if w := watcherOf(ledger); w == nil || w == s {
			return false
		}
		c, ok := unwrapLedger(ledger).(CodeLedger)
		return !ok || c.InTransaction()
	}
	for _, b := range l.actors {
		if b == a {
			continue
		}
		if open(b.ledger) || (b.live != nil && open(b.live.ledger)) {
			return true
		}
	}
	for _, c := range l.shared {
		if open(c.ledger) {
			return true
		}
	}
	return false
}

// LockWatcher is a Ledger that can say what its connection is doing, so
// a lab can tell a statement waiting for a lock from a slow one, and give
// up a call whose transaction is open.
type LockWatcher interface {
	// BackendPID is the server process of this connection.
	BackendPID() uint32
	// BlockedBy asks, on this connection, which server processes hold a
	// lock that the server process pid waits for (none: it waits for
	// none).
	BlockedBy(ctx context.Context, pid uint32) ([]uint32, error)
	// CancelStatement asks, on this connection, that pid's statement be
	// cancelled.
	CancelStatement(ctx context.Context, pid uint32) error
	// EndTransaction rolls back this connection's open transaction, if
	// any.
	EndTransaction(ctx context.Context) error
}

// tripOnce takes the actor through its call's next round trip: from where
// it is parked, the trip goes out, and the goroutine runs on until it
// parks at the one after or ends the call. done: the call ended (ev is its
// end); an event of kind wireInFlight: the trip waits for a lock.
func (l *Lab) tripOnce(ctx context.Context, a *Actor) (ev wireEvent, done bool, err error) {
	lc := a.live
	if lc.state == wireExited {
		return wireEvent{kind: wireExited}, true, nil
	}
	lc.trips = append(lc.trips, sentTrip{RoundTrip: lc.next, before: l.sharedSum()})
	l.sent = append(l.sent, lc.next)
	lc.state = wireInFlight
	lc.g.resume <- true
	return l.afterSend(ctx, a)
}

// afterSend waits for a trip that went out: its reply, then the goroutine's
// next park or end.
func (l *Lab) afterSend(ctx context.Context, a *Actor) (ev wireEvent, done bool, err error) {
	lc := a.live
	ev, err = l.await(ctx, a, true)
	if err != nil {
		return ev, false, err
	}
	if ev.kind == wireInFlight {
		lc.blocked, lc.state = true, wireInFlight
		return ev, false, nil
	}
	if ev.kind == wireReturned {
		// The goroutine runs on: until its next event it is neither parked
		// nor waiting for the baton, and abandon must wait for that event
		// rather than send a resume nobody takes (a cancel that fails the
		// run here once left both waiting on each other).
		lc.state = wireRunning
		lc.g.resume <- true
		if ev, err = l.await(ctx, a, false); err != nil {
			return ev, false, err
		}
	}
	return ev, ev.kind == wireExited, nil
}

// settle waits, after an action, for the statements that were blocked:
// one whose lock the action released comes back, and its actor runs on to
// its next round trip or the end of its call.
func (l *Lab) settle(ctx context.Context) error { return l.settleHolding(ctx, false) }

// settleHolding is settle; with holdCommits, a statement that came back
// and opened a write stays parked at its COMMIT (an overlap checks the
// invariants between the two commits).
func (l *Lab) settleHolding(ctx context.Context, holdCommits bool) error {
	for progress := true; progress; {
		progress = false
		for _, a := range l.actors {
			if a.live == nil || !a.live.blocked {
				continue
			}
			ev, done, err := l.afterSend(ctx, a)
			if err != nil {
				return err
			}
			if ev.kind == wireInFlight {
				continue // still waiting
			}
			a.live.blocked = false
			n := len(a.live.trips) - 1
			a.live.trips[n].resumed = true
			l.resumed = append(l.resumed, a)
			progress = true
			if !done && !holdCommits {
				if ev, done, err = l.throughCommit(ctx, a); err != nil {
					return err
				}
			}
			if done {
				if _, err := l.endCall(a, ev); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// noteResumed gives each trip that came back during the last action the
// world the action left, once the invariant check has read it.
func (l *Lab) noteResumed() {
	if len(l.resumed) == 0 {
		return
	}
	sum := l.sharedSum()
	for _, a := range l.resumed {
		if a.live == nil {
			continue
		}
		for i := range a.live.trips {
			if t := &a.live.trips[i]; t.resumed && t.after == ([32]byte{}) {
				t.after = sum
			}
		}
	}
	l.resumed = l.resumed[:0]
}

// abandon gives up the actor's call in progress: a parked trip is never
// sent, a statement in flight is cancelled, the goroutine ends, and an
// open transaction is rolled back.
func (l *Lab) abandon(ctx context.Context, a *Actor) {
	lc := a.live
	if lc == nil {
		return
	}
	session := a.session()
	a.live = nil
	if lc.state == wireInFlight && lc.next.Backend == BackendPostgres {
		if lab := l.locks(); session != nil && lab != nil {
			_ = lab.CancelStatement(Housekeeping(ctx), session.BackendPID())
		}
	}
	state := lc.state
	for state != wireExited {
		if state == wireParked || state == wireReturned {
			lc.g.resume <- false
		}
		state = (<-lc.g.events).kind
	}
	if session != nil {
		_ = session.EndTransaction(Housekeeping(ctx))
	}
}

// abandonAll gives up every call in progress: first those whose statement
// waits for a lock, then the rest. The other way round, rolling back the
// holder's transaction would let a waiting statement run and commit before
// its cancel arrived — a write the lab never saw, left in the database a
// restore then takes as it believes it to be.
func (l *Lab) abandonAll(ctx context.Context) {
	for _, a := range l.actors {
		if a.Blocked() {
			l.abandon(ctx, a)
		}
	}
	for _, a := range l.actors {
		l.abandon(ctx, a)
	}
	l.resumed = l.resumed[:0]
}

// quiescent reports whether no actor is inside a call: every state the
// backends are in is then in their keys and rows.
func (l *Lab) quiescent() bool {
	for _, a := range l.actors {
		if a.live != nil {
			return false
		}
	}
	return true
}

// blocked reports whether some actor's statement waits for a lock.
func (l *Lab) blocked() bool {
	for _, a := range l.actors {
		if a.live != nil && a.live.blocked {
			return true
		}
	}
	return false
}

// Blocked reports whether the actor's statement waits for a lock.
func (a *Actor) Blocked() bool { return a.live != nil && a.live.blocked }

// InCall reports whether the actor is inside a call, between two of its
// round trips, and the round trip it sends next.
func (a *Actor) InCall() (next RoundTrip, in bool) {
	if a.live == nil {
		return RoundTrip{}, false
	}
	return a.live.next, true
}
