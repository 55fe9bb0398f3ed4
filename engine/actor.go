package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/fencelab/fencelab/lang"
)

// Memory is what an actor believes. It is the actor's own view, which may be
// stale: a paused worker still believes it holds its lease.
type Memory struct {
	Token       int64 // fencing token it holds, 0: none
	Epoch       int64 // namespace epoch it works under
	HoldsLease  bool
	HoldsLeader bool
	Read        int64 // value it read before computing its write
	HasRead     bool
	Writes      int // writes attempted, for operation ids
	Delivery    Delivery
	JobID       string // the job it started, reused or works on
	JobReused   bool   // a request that found a running job
	// ReplyLost: its last write's reply never came back (a client-side
	// timeout), so it cannot tell whether the write landed.
	ReplyLost bool
	// Seen is what a call of the current step read for a later call of
	// it: a step of several round trips acts on what it saw.
	Seen Sighting
	// Vars are what a file's steps saved (save = "token"), by name.
	Vars map[string]string `json:",omitempty"`
}

// Sighting is what an actor read in one call of a step and acts on in a
// later one — possibly stale by then: that is the point of cutting steps at
// their round trips.
type Sighting struct {
	Found   bool
	Pointer string // a running pointer's job id
	Job     Job
	// Sent and Write are a write and its result between the business
	// row's transaction and the one that records it (the outbox guard
	// removed).
	Sent  *Write       `json:",omitempty"`
	Write *WriteResult `json:",omitempty"`
}

// Delivery is what the outbox worker knows of the row it works on.
type Delivery struct {
	OperationID string // the outbox row
	Attempt     int    // the claim's attempt: it fences the record
	SentAs      string // the OperationId it sent the provider
	Answer      ProviderAnswer
	Retries     int
}

// Actor is a worker, the operator or another participant, with a program.
type Actor struct {
	Name  string
	Label string
	Owner string
	// LeaseKey is the conflict key of the lease it takes (its truth).
	LeaseKey string
	Paused   bool
	Pause    string // why it is paused
	Waiting  string // why its current step could not proceed
	Halted   string // why its program was cut short (a crash)
	Memory   Memory

	program []Step
	pc      int
	// encoded is Memory as JSON, for fingerprints; nil when it may have
	// changed since (memoryJSON).
	encoded []byte
	// call is the next call of the current step (0: the step has not begun).
	call int
	// stepBegan is the lab clock when the current step's first call began:
	// what the step records is the lab clock's from then on (invariant 10).
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
	timed := !m.Seen.Job.CreatedAt.IsZero() || !m.Seen.Job.Heartbeat.IsZero() || m.Seen.Sent != nil
	if a.encoded != nil && !timed {
		return a.encoded
	}
	if timed {
		relative := func(t time.Time) time.Time {
			if t.IsZero() {
				return t
			}
			return time.Unix(0, 0).UTC().Add(t.Sub(now))
		}
		m.Seen.Job.CreatedAt, m.Seen.Job.Heartbeat = relative(m.Seen.Job.CreatedAt), relative(m.Seen.Job.Heartbeat)
		if m.Seen.Sent != nil {
			sent := *m.Seen.Sent
			sent.Now = relative(sent.Now)
			m.Seen.Sent = &sent
		}
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

func (t *Turn) Mode() Mode              { return t.lab.mode }
func (t *Turn) Now() time.Time          { return t.lab.Now() }
func (t *Turn) Seed() Seed              { return t.lab.scenario.Seed }
func (t *Turn) LeaseTTL() time.Duration { return t.lab.backends.LeaseTTL }
func (t *Turn) Leases() LeaseStore      { return answeredLeases{t.Actor.redis, t.lab} }
func (t *Turn) Jobs() JobStore          { return answeredJobs{t.Actor.redis, t.lab} }
func (t *Turn) Ledger() Ledger {
	if t.ledger != nil {
		return answeredOutbox{t.ledger, t.lab, t.Actor.Name} // the connection the call names
	}
	return answeredOutbox{t.Actor.ledger, t.lab, t.Actor.Name}
}
func (t *Turn) Code() CodeStore            { return t.Actor.redis }
func (t *Turn) Memory() *Memory            { return &t.Actor.Memory }
func (t *Turn) Coordination() Coordination { return t.lab.backends.Coordination }
func (t *Turn) Provider() Provider         { return gatedProvider{t.lab.backends.Provider} }

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
func (t *Turn) Before() World { return t.lab.world }

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
	if g, ok := refusingGuard[code]; ok {
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

// OperationID names a write: stable per job, token and attempt, so a retry
// of the same write has the same id.
func (t *Turn) OperationID(job string) string {
	m := t.Memory()
	if m.Token > 0 {
		return fmt.Sprintf("%s/e%d/t%d", job, m.Epoch, m.Token)
	}
	return fmt.Sprintf("%s/%s/%d", job, t.Actor.Name, m.Writes)
}
