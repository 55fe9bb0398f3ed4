package engine

import "context"

// A PostgreSQL connection the driver gave up — the server froze past
// CallTimeout, or went away — fails every later call. The action that lost
// it may have made a call and not its invariant check (an actor moved on,
// a key taken), so the lab is no longer what its log says. Reconnect
// makes the lab's connections anew and replays the log: the lab is then
// exactly as it was after its last logged action, and the action that
// failed never counted.

// ConnectionLost reports whether one of the lab's PostgreSQL connections
// is gone (Ledger.Lost): until Reconnect, every action that uses it fails.
func (l *Lab) ConnectionLost() bool {
	if l.ledger != nil && l.ledger.Lost() {
		return true
	}
	for _, a := range l.actors {
		if a.ledger != nil && a.ledger.Lost() {
			return true
		}
	}
	for _, c := range l.shared {
		if c.ledger.Lost() {
			return true
		}
	}
	return false
}

// Reconnect, when a connection of the lab is lost (or an earlier
// Reconnect did not finish), opens all of the lab's connections anew and
// puts the lab back as it was after its last logged action by replaying
// its log on the lab clock, as undo does. It reports whether it did; on
// an error the lab stays to be restored, and the next Reconnect tries
// again with the same log.
func (l *Lab) Reconnect(ctx context.Context) (bool, error) {
	if l.restoring == nil {
		if !l.ConnectionLost() {
			return false, nil
		}
		l.restoring = l.Schedule()
	}
	if err := l.connectAgain(ctx); err != nil {
		return false, err
	}
	if err := l.Replay(ctx, l.restoring, nil); err != nil {
		return false, err
	}
	l.restoring = nil
	return true, nil
}

// connectAgain replaces the lab's connection and each actor's with new
// ones: all of them, since a server that restarted ended even those that
// have not noticed yet. Until every new one is open the old ones stay.
func (l *Lab) connectAgain(ctx context.Context) error {
	names := []string{"lab"}
	for _, a := range l.actors {
		names = append(names, a.Name)
	}
	for _, c := range l.shared {
		names = append(names, c.name)
	}
	fresh := make([]Ledger, 0, len(names))
	for _, name := range names {
		ledger, err := l.backends.Database.Connect(ctx, name)
		if err != nil {
			for _, f := range fresh {
				f.Close(ctx)
			}
			return err
		}
		fresh = append(fresh, lazyLedger{ledger, l})
	}
	l.abandonAll(ctx) // a call in progress is on the old connections
	l.ledger.Close(ctx)
	l.ledger = fresh[0]
	for i, a := range l.actors {
		a.ledger.Close(ctx)
		a.ledger = fresh[i+1]
	}
	for i := range l.shared {
		l.shared[i].ledger.Close(ctx)
		l.shared[i].ledger = fresh[len(l.actors)+1+i]
	}
	return nil
}
