package engine

import "time"

// Event is one line of the timeline.
type Event struct {
	Sequence int
	At       time.Duration // lab time since the scenario's start
	Actor    string
	Layer    Layer
	Code     string // e.g. A_RESUME
	State    string // e.g. REJECTED
	Detail   string
	// Guard is the check that decided the step, as evaluated, if one ran.
	Guard string
	// Refusal is the code of the guard that refused this step
	// (STALE_FENCE, ILLEGAL_TRANSITION, ...); a SAFE verdict names the last.
	Refusal string
	// Narration says in one plain sentence why the step matters, for a
	// listener; empty where Detail says enough.
	Narration string
}

// Break is an invariant of DESIGN §7 that a step broke.
type Break struct {
	Invariant int
	// Anomaly is the UNSAFE verdict it stands for: STALE_OVERWRITE, ...
	Anomaly string
	Detail  string
	// Sequence is the last event of the step that broke it.
	Sequence int
}
