package engine

import (
	"context"
	"slices"
)

// A Diff is one schedule run twice, the same actions in the same order:
// in SAFE and in UNSAFE, or in SAFE with and without a guard. It says where
// the two runs part ways and which guard decided it, and what each ended
// with. Each run is a lab of its own on the same backends, one after the
// other (a lab resets its backends to the seed).
type Diff struct {
	Scenario *Scenario
	Schedule []Action
	Sides    [2]DiffSide
	// Diverged is the first action whose events differ between the sides
	// (the actor, code, state or refusal of one of them); -1: none.
	Diverged int
	// Decided is the guard whose removal alone from SAFE changes SAFE's
	// events at the divergence, found by running the schedule that far
	// without each guard SAFE consulted; DecidedOK is false when no single
	// guard does (or there is no divergence).
	Decided   Guard
	DecidedOK bool
}

// DiffSide is one run of a diff.
type DiffSide struct {
	Mode    Mode
	Without GuardSet
	// Steps are the events each action emitted, in the schedule's order.
	Steps [][]Event
	// Stopped is the action this side could not take (an actor that
	// finished sooner in this mode's code), with why; -1: it took them all.
	Stopped int
	Why     error
	Result  Result
	// Consulted are the guards the run asked about.
	Consulted GuardSet
	// Snapshots are the backends as read before the first action and
	// after each one taken, for the exports.
	Snapshots []Snapshot
}

// DiffSpec is a side to run: a mode and the guards removed from SAFE.
type DiffSpec struct {
	Mode    Mode
	Without GuardSet
}

// RunDiff runs the schedule of s on each side and finds where they part.
// A backend's failure ends it; an action a side's code cannot take ends
// that side only.
func RunDiff(ctx context.Context, b Backends, s *Scenario, schedule []Action, sides [2]DiffSpec) (Diff, error) {
	d := Diff{Scenario: s, Schedule: slices.Clone(schedule), Diverged: -1}
	for i, spec := range sides {
		side, err := play(ctx, b, s, spec, schedule)
		if err != nil {
			return d, err
		}
		d.Sides[i] = side
	}
	left, right := d.Sides[0], d.Sides[1]
	for k := 0; k < min(len(left.Steps), len(right.Steps)); k++ {
		if !sameEvents(left.Steps[k], right.Steps[k]) {
			d.Diverged = k
			break
		}
	}
	if d.Diverged < 0 && len(left.Steps) != len(right.Steps) {
		d.Diverged = min(len(left.Steps), len(right.Steps))
	}
	if d.Diverged < 0 {
		return d, nil
	}
	// Which guard decided: SAFE's side run that far without each guard it
	// asked about, alone; the first whose removal changes SAFE's events
	// at the divergence.
	safe := 0
	if left.Mode != Safe {
		safe = 1
	}
	base := d.Sides[safe]
	if d.Diverged >= len(base.Steps) {
		return d, nil
	}
	for _, g := range (base.Consulted &^ base.Without).List() {
		probe, err := play(ctx, b, s, DiffSpec{Mode: Safe, Without: base.Without | Guards(g)}, schedule[:d.Diverged+1])
		if err != nil {
			return d, err
		}
		if d.Diverged >= len(probe.Steps) || !sameEvents(probe.Steps[d.Diverged], base.Steps[d.Diverged]) {
			d.Decided, d.DecidedOK = g, true
			break
		}
	}
	return d, nil
}

// play runs the schedule on a lab of its own, from the seed.
func play(ctx context.Context, b Backends, s *Scenario, spec DiffSpec, schedule []Action) (DiffSide, error) {
	side := DiffSide{Mode: spec.Mode, Without: spec.Without, Stopped: -1}
	if spec.Mode == Safe {
		b.Without = spec.Without
	} else {
		b.Without, side.Without = 0, 0
	}
	lab, err := NewLab(ctx, b, s, spec.Mode)
	if err != nil {
		return side, err
	}
	defer lab.Close(context.WithoutCancel(ctx))
	first, err := lab.Snapshot(ctx)
	if err != nil {
		return side, err
	}
	side.Snapshots = append(side.Snapshots, first)
	for k, a := range schedule {
		before := len(lab.Events())
		if err := lab.Do(ctx, a); err != nil {
			if !StoryStopped(err) || lab.ConnectionLost() {
				return side, err
			}
			side.Stopped, side.Why = k, err
			break
		}
		side.Steps = append(side.Steps, slices.Clone(lab.Events()[before:]))
		snap, err := lab.Snapshot(ctx)
		if err != nil {
			return side, err
		}
		side.Snapshots = append(side.Snapshots, snap)
	}
	side.Consulted = lab.Consulted()
	if side.Result, err = lab.Result(ctx); err != nil {
		return side, err
	}
	return side, nil
}

// sameEvents: two actions did the same, as far as who did what and how
// it ended (the details name tokens and times that may differ).
func sameEvents(a, b []Event) bool {
	return slices.EqualFunc(a, b, func(x, y Event) bool {
		return x.Actor == y.Actor && x.Code == y.Code && x.State == y.State && x.Refusal == y.Refusal
	})
}
