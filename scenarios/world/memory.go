package world

import (
	"fmt"
	"time"

	"github.com/fencelab/fencelab/engine"
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
}

// MemoryOf is what the turn's actor remembers of the catalog's world.
func MemoryOf(t *engine.Turn) *Memory { return Remembers(t.Actor) }

// Remembers is what an actor remembers of the catalog's world.
func Remembers(a *engine.Actor) *Memory {
	m, _ := a.Memory.World.(*Memory)
	if m == nil {
		m = &Memory{}
		a.Memory.World = m
	}
	return m
}

// Clone copies the memory (what it read is read-only, and shared).
func (m *Memory) Clone() engine.Remembered {
	c := *m
	return &c
}

// Relative is the memory with the moments it holds between two calls (a
// job it read, a write it sent) taken relative to now.
func (m *Memory) Relative(now time.Time) (engine.Remembered, bool) {
	if m.Seen.Job.CreatedAt.IsZero() && m.Seen.Job.Heartbeat.IsZero() && m.Seen.Sent == nil {
		return m, false
	}
	relative := func(t time.Time) time.Time {
		if t.IsZero() {
			return t
		}
		return time.Unix(0, 0).UTC().Add(t.Sub(now))
	}
	c := *m
	c.Seen.Job.CreatedAt, c.Seen.Job.Heartbeat = relative(c.Seen.Job.CreatedAt), relative(c.Seen.Job.Heartbeat)
	if c.Seen.Sent != nil {
		sent := *c.Seen.Sent
		sent.Now = relative(sent.Now)
		c.Seen.Sent = &sent
	}
	return &c, true
}

// StepEnded forgets what the step's calls read for one another.
func (m *Memory) StepEnded() { m.Seen = Sighting{} }

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

// OperationID names a write: stable per job, token and attempt, so a retry
// of the same write has the same id.
func OperationID(t *engine.Turn, job string) string {
	m := MemoryOf(t)
	if m.Token > 0 {
		return fmt.Sprintf("%s/e%d/t%d", job, m.Epoch, m.Token)
	}
	return fmt.Sprintf("%s/%s/%d", job, t.Actor.Name, m.Writes)
}
