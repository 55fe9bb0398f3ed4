// Package stress runs many real workers against one resource — goroutines
// of this process, or fencelab processes that a pause freezes with SIGSTOP
// — each with its own Redis and PostgreSQL connections, contending for one
// lease on one conflict key with real wall-clock TTLs. It then checks what
// they did: the rows and keys against the invariants of DESIGN §7, and the
// recorded history of reads and fenced writes for linearizability against
// a fenced register, with Porcupine.
package stress

import (
	"encoding/json"
	"fmt"
)

// Kind is what a record tells.
type Kind string

const (
	// Acquired: the worker took the lease with Token (Call and Return
	// bracket the acquire).
	Acquired Kind = "acquired"
	// Read: the worker read the summary, Value.
	Read Kind = "read"
	// Write: a fenced (SAFE) or unconditional (UNSAFE) write with Token:
	// Accepted or refused for Rejection; Value is what it set the summary
	// to, Prev what it found under the row lock.
	Write Kind = "write"
	// Released: the worker released its lease; Lost when it had already
	// run out.
	Released Kind = "released"
	// Freezing: a worker process stops itself now, with SIGSTOP, for its
	// run to continue it after the pause.
	Freezing Kind = "freezing"
	// Paused: the worker was frozen from Call to Return.
	Paused Kind = "paused"
	// Idle: the worker has no operation in flight at Return and has
	// reported everything before it (a contended acquire, say).
	Idle Kind = "idle"
	// Failed: a backend failed the worker; Err says how. The run ends.
	Failed Kind = "failed"
)

// Record is one thing a worker did, as it reports it: in process over a
// channel, from a worker process as a JSON line. Times are nanoseconds of
// the system's monotonic clock, which every process of the machine shares.
type Record struct {
	Worker    int    `json:"w"`
	Kind      Kind   `json:"k"`
	Call      int64  `json:"c,omitempty"`
	Return    int64  `json:"r"`
	Token     int64  `json:"t,omitempty"`
	Value     int64  `json:"v,omitempty"`
	Prev      int64  `json:"p,omitempty"`
	Accepted  bool   `json:"a,omitempty"`
	Rejection string `json:"x,omitempty"`
	Lost      bool   `json:"l,omitempty"`
	Err       string `json:"e,omitempty"`
	// Gone: the failure was a backend that cannot be reached or stopped
	// answering.
	Gone bool `json:"g,omitempty"`
	// RedisGone: that backend was Redis, silent or gone. The run's own
	// cleanup there then does not wait out a deadline of its own: the
	// worker's process found the server silent, not the run's.
	RedisGone bool `json:"rg,omitempty"`
	// AfterRead: a Freezing worker stops at its pause after a read.
	AfterRead bool `json:"ar,omitempty"`
}

// encodeRecord is a record as a worker process writes it: one JSON line.
func encodeRecord(r Record) []byte {
	line, _ := json.Marshal(r)
	return append(line, '\n')
}

// decodeRecord reads a line a worker process wrote.
func decodeRecord(line []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(line, &r); err != nil {
		return Record{}, fmt.Errorf("stress: a worker wrote %q, not a record: %w", line, err)
	}
	return r, nil
}
