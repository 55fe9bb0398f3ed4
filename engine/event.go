package engine

import (
	"time"

	"github.com/fencelab/fencelab/lang"
)

// Event is one line of the timeline.
type Event struct {
	Sequence int
	At       time.Duration // lab time since the scenario's start
	Actor    string
	Layer    Layer
	Code     string // e.g. A_RESUME
	State    string // e.g. REJECTED
	// Detail is one line of what happened, in English: a trace keeps it
	// and replay compares it. Told is the same in the lab's language, for
	// the screen and the exports (empty in an event read from a trace).
	Detail string
	Told   string `json:"-"`
	// Guard is the check that decided the step, as evaluated, if one ran:
	// an expression of identifiers and numbers, the same in every
	// language, but where it is words (UNSAFE's "no guard"); GuardTold is
	// those words in the lab's language.
	Guard     string
	GuardTold string `json:"-"`
	// Refusal is the code of the guard that refused this step
	// (STALE_FENCE, ILLEGAL_TRANSITION, ...); a SAFE verdict names the last.
	Refusal string
	// Narration says in one plain sentence why the step matters, for a
	// listener; empty where Detail says enough.
	Narration string
}

// Break is an invariant that a step broke.
type Break struct {
	Invariant int
	// Anomaly is the UNSAFE verdict it stands for: STALE_OVERWRITE, ...
	Anomaly string
	Detail  string // in English, as Event.Detail
	Told    string `json:"-"`
	phrase  lang.Phrase
	// Sequence is the last event of the step that broke it.
	Sequence int
}

// Said is the event's detail in the language it was told in.
func (e Event) Said() string {
	if e.Told != "" {
		return e.Told
	}
	return e.Detail
}

// GuardSaid is the event's guard in the language it was told in.
func (e Event) GuardSaid() string {
	if e.GuardTold != "" {
		return e.GuardTold
	}
	return e.Guard
}

// Said is the break's detail in the language it was told in.
func (b Break) Said() string {
	if b.Told != "" {
		return b.Told
	}
	return b.Detail
}
