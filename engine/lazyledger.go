package engine

import (
	"context"
)

// The checker restores a saved state at the start of every schedule it
// takes from its queue, and many of those schedules end after one action
// that touches Redis alone (it reaches a state already explored). So the
// database part of a restore waits until something uses the database: a
// step's SQL, a snapshot, a read of the schema the invariant checks cannot
// do without. Until then the lab's world is the saved state's, which is
// what the database will hold. A step's SQL carries the restore in its own
// round trip, on a connection that can (restorerWithNext).

// pendingRestore is a database restore put off: the database holds from
// and must hold to before its next use.
type pendingRestore struct{ from, to LedgerDump }

// putOffRestore notes that the database must hold dump before its next use.
func (l *Lab) putOffRestore(dump LedgerDump) {
	holds := l.reading.Ledger.Dump
	if l.pending != nil {
		holds = l.pending.from // still there: the last restore never ran
	}
	if holds == dump {
		l.pending = nil
		return
	}
	l.pending = &pendingRestore{from: holds, to: dump}
}

// syncLedger runs a restore put off, if any, before a call on the
// connection via (nil: now, on the lab's connection). A connection that
// can send it in front of its next statement (RestoreWithNext) takes it:
// the call is that statement, in the same round trip.
func (l *Lab) syncLedger(ctx context.Context, via Ledger) error {
	if l.pending == nil {
		return nil
	}
	p := l.pending
	l.pending = nil
	var err error
	if r, ok := via.(restorerWithNext); ok {
		err = r.RestoreWithNext(p.from, p.to)
	} else {
		err = l.ledger.Restore(Housekeeping(ctx), p.from, p.to) // the lab's, in an actor's call or not
	}
	if err != nil {
		return err
	}
	// The world is the restored state's; nothing has written since.
	l.ledgerRead, l.readAt = true, l.backends.Database.Writes()
	return nil
}

// restorerWithNext is a Ledger that can send a restore in front of the
// next statement it sends, in its round trip and transaction; if that
// trip fails, it sends the restore again on its own.
type restorerWithNext interface {
	RestoreWithNext(from, to LedgerDump) error
}

// lazyLedger is an actor's connection that runs the lab's put-off restore
// before each use.
type lazyLedger struct {
	Ledger
	lab *Lab
}

var _ Ledger = lazyLedger{}

func (z lazyLedger) State(ctx context.Context) (LedgerState, error) {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return LedgerState{}, err
	}
	return z.Ledger.State(ctx)
}

func (z lazyLedger) Restore(ctx context.Context, from, to LedgerDump) error {
	z.lab.pending = nil
	return z.Ledger.Restore(ctx, from, to)
}

func (z lazyLedger) Statement(ctx context.Context, sql string) (CodeReply, error) {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return CodeReply{}, err
	}
	return z.Ledger.Statement(ctx, sql)
}

func (z lazyLedger) SetupCode(ctx context.Context, schema string, setup []string, values map[string]string) error {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return err
	}
	return z.Ledger.SetupCode(ctx, schema, setup, values)
}

func (z lazyLedger) PrepareCode(ctx context.Context, statements map[string]string) error {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return err
	}
	return z.Ledger.PrepareCode(ctx, statements)
}

// Ready runs the lab's put-off restore, if any, before a call on the
// connection (one of the lab's: an actor's, or the lab's own), and returns
// the connection itself, for a world's calls the engine does not wrap.
func Ready(ctx context.Context, ledger Ledger) (Ledger, error) {
	z, ok := ledger.(lazyLedger)
	if !ok {
		return ledger, nil
	}
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return nil, err
	}
	return z.Ledger, nil
}

// Replacing is the connection itself, for a call that replaces the whole
// schema (a world's seed): the lab's put-off restore is dropped, not run.
func Replacing(ledger Ledger) Ledger {
	z, ok := ledger.(lazyLedger)
	if !ok {
		return ledger
	}
	z.lab.pending = nil
	return z.Ledger
}

// unwrapLedger is a connection without the lab's lazy wrapper.
func unwrapLedger(ledger Ledger) Ledger {
	if z, ok := ledger.(lazyLedger); ok {
		return z.Ledger
	}
	return ledger
}
