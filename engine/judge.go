package engine

import (
	"context"
	"fmt"
)

// checkInvariants reads the database and records breaks not seen before,
// on the step just taken.
func (l *Lab) checkInvariants(ctx context.Context) error {
	state, err := l.readLedger(ctx)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, b := range l.breaks {
		seen[b.Detail] = true
	}
	keys := l.readAhead
	l.readAhead = nil
	if keys == nil {
		if keys, err = l.backends.Coordination.Keys(ctx); err != nil {
			return err
		}
	}
	sessions, err := l.readSessions(ctx)
	if err != nil {
		return err
	}
	previous := l.reading
	l.reading = Reading{Ledger: state, Keys: keys, Prefix: l.backends.Coordination.Prefix(), Sessions: sessions}
	l.reading.World = l.readWorld(keys)
	var found []Break
	if l.world != nil {
		o := Observation{Before: previous, After: l.reading, KeysBefore: l.keys, Actor: l.cause.actor,
			Clock: l.cause.clock, Restart: l.cause.restart, Sent: len(l.sent) > 0, Now: l.Now()}
		if a := l.cause.actor; a != nil {
			o.StepBegan = l.Start().Add(a.stepBegan)
		}
		if found, err = l.world.Check(ctx, o); err != nil {
			return err
		}
		for _, inv := range l.checks {
			found = append(found, inv.Check(o)...)
		}
	}
	l.keys, l.keysRead, l.cause = keys, true, cause{}
	l.found, l.foundAnomalies = 0, l.foundAnomalies[:0]
	for _, b := range found {
		l.found = l.found.with(b.Invariant)
		l.foundAnomalies = append(l.foundAnomalies, b.Anomaly)
	}
	for _, b := range found {
		if seen[b.Detail] {
			continue
		}
		b.Sequence = len(l.events)
		b.Told = b.phrase.In(l.lang)
		appendShared(&l.breaks, &l.used.breaks, b)
		l.emit(Event{Actor: "lab", Layer: LayerDatabase, Code: fmt.Sprintf("INVARIANT_%d", b.Invariant),
			State: "BROKEN", Detail: b.Detail, Told: b.Told,
			Narration: l.lang.T("Invariant %d broke: %s — %s.", b.Invariant, l.lang.T(l.scenario.InvariantText(b.Invariant)), b.Told)})
	}
	return nil
}

// readLedger reads the schema for the checks. The checker, whose databases
// nobody else writes, reads it again only when a connection of the lab has
// written since the last read: most steps of most scenarios touch Redis
// alone.
//
// A restore put off is not run for a read that asks nothing: the world
// is then the restored state's (restore), which is what the database will
// hold.
func (l *Lab) readLedger(ctx context.Context) (LedgerState, error) {
	unchanged := func() bool { return l.checking && l.ledgerRead && l.backends.Database.Writes() == l.readAt }
	if unchanged() {
		return l.reading.Ledger, nil
	}
	if err := l.syncLedger(ctx, nil); err != nil {
		return LedgerState{}, err
	}
	writes := l.backends.Database.Writes()
	if unchanged() {
		return l.reading.Ledger, nil
	}
	state, err := l.ledger.State(ctx)
	if err != nil {
		return LedgerState{}, err
	}
	l.ledgerRead, l.readAt = true, writes
	return state, nil
}
