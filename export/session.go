// Package export turns a session — a scenario, a mode and a schedule run
// on the real backends — into documents a speaker can share: a Markdown
// page, a Mermaid sequence diagram, an asciinema recording of the explorer
// and a VHS tape that plays it. Everything in them was read from the
// backends when the session was recorded; nothing is drawn from the
// catalog's predictions.
package export

import (
	"context"
	"errors"
	"fmt"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
)

// Session is a schedule as it ran: the snapshot before the first action
// and after each one, and what each action did.
type Session struct {
	Scenario *engine.Scenario
	Mode     engine.Mode
	// Without is the set of guards the run removed from SAFE.
	Without engine.GuardSet
	// Steps[0] is the seeded state (no action); Steps[k] the k-th action.
	Steps []Step
	// Trace is the session as a trace, for `fencelab --trace`.
	Trace engine.Trace
	// Lang is the language the session's narration was told in.
	Lang lang.Lang
	// Explored: the session is a run the explorer exported (any actions,
	// perhaps off the guided order), not an ID's or a trace's schedule.
	Explored bool
	// TracePath is the trace file the schedule came from; empty when it
	// is the scenario's guided order.
	TracePath string
}

// Step is one action and what the backends held after it.
type Step struct {
	Action   engine.Action
	Events   []engine.Event // the events the action produced
	Snapshot engine.Snapshot
}

// ModeLabel is the mode with its removed guards: "SAFE −region".
func (s Session) ModeLabel() string { return engine.ModeLabel(s.Mode, s.Without) }

// Final is the snapshot after the last action.
func (s Session) Final() engine.Snapshot { return s.Steps[len(s.Steps)-1].Snapshot }

// Verdict is the final verdict — or "pending" for a run exported before its
// end (the explorer's x), as the explorer shows it then.
func (s Session) Verdict() string {
	if final := s.Final(); final.Settled || len(final.Result.Breaks) > 0 {
		return final.Result.Verdict
	}
	return s.Lang.T("pending")
}

// Record runs a lab's guided order (a trace's schedule is its guided
// order) from the lab's current state, reading a snapshot after every
// action.
func Record(ctx context.Context, lab *engine.Lab) (Session, error) {
	first, err := lab.Snapshot(ctx)
	if err != nil {
		return Session{}, err
	}
	session := Session{Scenario: lab.Scenario(), Mode: lab.Mode(), Without: lab.Without(), Lang: lab.Backends().Lang,
		Steps: []Step{{Snapshot: first}}}
	seen := len(first.Events)
	for {
		action, ok := lab.GuidedNext()
		if err := lab.Next(ctx); errors.Is(err, engine.ErrGuidedDone) {
			break
		} else if err != nil {
			return Session{}, fmt.Errorf("step %d (%s): %w", len(session.Steps), action, err)
		}
		if !ok {
			break
		}
		snap, err := lab.Snapshot(ctx)
		if err != nil {
			return Session{}, err
		}
		session.Steps = append(session.Steps, Step{Action: action, Events: snap.Events[seen:], Snapshot: snap})
		seen = len(snap.Events)
	}
	if session.Trace, err = lab.Trace(ctx); err != nil {
		return Session{}, err
	}
	return session, nil
}
