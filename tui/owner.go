package tui

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/fencelab/fencelab/engine"
)

// errLabClosed is what an operation gets once the explorer is quitting.
var errLabClosed = errors.New("the lab is closed")

// errReconnected is what the key gets that found a PostgreSQL connection
// of the lab lost: the lab reconnected and is back as it was after its
// last action, and nothing else was done (as psql does not run again the
// command that lost its connection).
var errReconnected = errors.New("PostgreSQL connection lost: reconnected; the step was not taken")

// connectionLostError is an operation that failed and left a PostgreSQL
// connection of the lab lost: the next key reconnects.
type connectionLostError struct{ err error }

func (e *connectionLostError) Error() string { return e.err.Error() }
func (e *connectionLostError) Unwrap() error { return e.err }

// labOwner is the one way to the lab. A key's action, the refresh on a real
// Redis, the snapshot after each of them, opening another scenario or mode
// and closing all run here, one at a time: the lab and its connections are
// never used from two goroutines at once, and a lab is closed only when
// nothing runs on it. The model's own queue keeps the keys' order; the
// owner keeps them apart from everything else.
type labOwner struct {
	ctx    context.Context
	cancel context.CancelFunc

	mu     sync.Mutex
	lab    *engine.Lab
	closed bool
	// place is the actions a reload could not all replay (a save whose
	// code fails at an action): while the lab's own are where that reload
	// stopped, the next reload replays these, so a mended save comes back
	// to the place a broken one left.
	place []engine.Action
}

func newLabOwner(ctx context.Context) *labOwner {
	ctx, cancel := context.WithCancel(ctx)
	return &labOwner{ctx: ctx, cancel: cancel}
}

// open closes the current lab, if any, and opens scenario × mode from its
// seed; it returns the new lab's first snapshot.
func (o *labOwner) open(backends engine.Backends, s *engine.Scenario, mode engine.Mode) (engine.Snapshot, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.place = nil // another scenario or mode: no place of the last one
	if o.closed {
		return engine.Snapshot{}, errLabClosed
	}
	if o.lab != nil {
		o.lab.Close(o.ctx)
		o.lab = nil
	}
	lab, err := engine.NewLab(o.ctx, backends, s, mode)
	if err != nil {
		return engine.Snapshot{}, err
	}
	snap, err := lab.Snapshot(o.ctx)
	if err != nil {
		lab.Close(o.ctx)
		return engine.Snapshot{}, err
	}
	o.lab = lab
	return snap, nil
}

// do runs one operation on the lab and reads the snapshot after it, even
// when the operation failed (a step that did not happen leaves the lab as
// it was, and the screen should say so). fresh: the snapshot was read.
// When a connection of the lab was lost, the operation reconnects the lab
// instead (errReconnected), and one that loses a connection reads no
// snapshot: the lab will be put back as the screen shows it, and a frozen
// server would keep the screen waiting once more.
func (o *labOwner) do(fn func(ctx context.Context, lab *engine.Lab) error) (snap engine.Snapshot, fresh bool, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || o.lab == nil {
		return engine.Snapshot{}, false, errLabClosed
	}
	if fn != nil {
		var reconnected bool
		if reconnected, err = o.lab.Reconnect(o.ctx); err == nil && reconnected {
			err = errReconnected
		} else if err == nil {
			err = fn(o.ctx, o.lab)
		}
	}
	if err != nil && o.lab.ConnectionLost() {
		return engine.Snapshot{}, false, &connectionLostError{err}
	}
	snap, serr := o.lab.Snapshot(o.ctx)
	if err == nil {
		err = serr
	}
	return snap, serr == nil, err
}

// close cancels whatever runs on the lab, waits for it to return, and
// closes the lab. Later operations get errLabClosed.
func (o *labOwner) close() {
	o.cancel()
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	o.closed = true
	if o.lab != nil {
		o.lab.Close(context.WithoutCancel(o.ctx))
		o.lab = nil
	}
}

// schedule is the actions the lab has taken since its reset.
func (o *labOwner) schedule() ([]engine.Action, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || o.lab == nil {
		return nil, errLabClosed
	}
	return o.lab.Schedule(), nil
}

// reload puts a new version of the lab's scenario in place of the old: it
// opens s × mode (with the guards the old lab had removed) and takes again
// the actions the old lab had taken, as far as the new version lets them.
// after records a screen once the lab is open and after each action.
// replayed is how many were taken again; err, why the next could not be.
//
// A new version the servers refuse as its lab opens (its setup, or a
// statement PostgreSQL cannot parse) is no version to run: the old lab's
// schema went with the attempt (they share it), so the last good version
// opens again and replays to the place, and kept says so.
func (o *labOwner) reload(backends engine.Backends, s *engine.Scenario, mode engine.Mode,
	after func(*engine.Lab) error) (snap engine.Snapshot, replayed, total int, kept bool, err error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed || o.lab == nil {
		return engine.Snapshot{}, 0, 0, false, errLabClosed
	}
	actions := o.lab.Schedule()
	if len(o.place) > len(actions) && slices.EqualFunc(actions, o.place[:len(actions)], sameAction) {
		actions = o.place
	}
	o.place = nil
	backends.Without = o.lab.Without()
	lab, err := engine.NewLab(o.ctx, backends, s, mode)
	var refused error
	var mistake *engine.CodeFailure
	if errors.As(err, &mistake) {
		refused, kept = err, true
		lab, err = engine.NewLab(o.ctx, backends, o.lab.Scenario(), mode)
	}
	if err != nil {
		return engine.Snapshot{}, 0, len(actions), false, err
	}
	o.lab.Close(o.ctx)
	o.lab = lab
	if err = after(lab); err == nil {
		for _, a := range actions {
			if err = lab.Do(o.ctx, a); err != nil {
				break
			}
			replayed++
			if err = after(lab); err != nil {
				break
			}
		}
	}
	if replayed < len(actions) {
		o.place = actions
	}
	snap, serr := lab.Snapshot(o.ctx)
	if err == nil {
		err = serr
	}
	if err == nil {
		err = refused
	}
	return snap, replayed, len(actions), kept, err
}

// sameAction says two actions of a schedule are the same action.
func sameAction(a, b engine.Action) bool {
	return a.Kind == b.Kind && a.Actor == b.Actor && a.With == b.With && a.By == b.By
}
