package engine

import (
	"context"
	"time"
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

func (z lazyLedger) RemoveTenant(ctx context.Context, tenantID string, revision int64, now time.Time) error {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return err
	}
	return z.Ledger.RemoveTenant(ctx, tenantID, revision, now)
}

func (z lazyLedger) Rollout(ctx context.Context, minimumWriter, checkpointSchema int) error {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return err
	}
	return z.Ledger.Rollout(ctx, minimumWriter, checkpointSchema)
}

func (z lazyLedger) BumpNamespace(ctx context.Context, conflictKey string, epoch int64, now time.Time) error {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return err
	}
	return z.Ledger.BumpNamespace(ctx, conflictKey, epoch, now)
}

func (z lazyLedger) ClaimNextOutbox(ctx context.Context, now time.Time, claimTimeout time.Duration) (OutboxRow, bool, error) {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return OutboxRow{}, false, err
	}
	return z.Ledger.ClaimNextOutbox(ctx, now, claimTimeout)
}

func (z lazyLedger) ClaimForReconciliation(ctx context.Context, now time.Time, claimTimeout time.Duration) (OutboxRow, bool, error) {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return OutboxRow{}, false, err
	}
	return z.Ledger.ClaimForReconciliation(ctx, now, claimTimeout)
}

func (z lazyLedger) RecordOutcome(ctx context.Context, o Outcome) error {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return err
	}
	return z.Ledger.RecordOutcome(ctx, o)
}

func (z lazyLedger) ApplyJobResults(ctx context.Context, jobID, target, results string, now time.Time) error {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return err
	}
	return z.Ledger.ApplyJobResults(ctx, jobID, target, results, now)
}

func (z lazyLedger) Seed(ctx context.Context, seed Seed) error {
	z.lab.pending = nil // the seed replaces everything
	return z.Ledger.Seed(ctx, seed)
}

func (z lazyLedger) ReadSummary(ctx context.Context, conflictKey string) (int64, error) {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return 0, err
	}
	return z.Ledger.ReadSummary(ctx, conflictKey)
}

func (z lazyLedger) FencedMutation(ctx context.Context, w Write) (WriteResult, error) {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return WriteResult{}, err
	}
	return z.Ledger.FencedMutation(ctx, w)
}

func (z lazyLedger) RecordWrite(ctx context.Context, w Write, result WriteResult) error {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return err
	}
	return z.Ledger.RecordWrite(ctx, w, result)
}

func (z lazyLedger) UnfencedMutation(ctx context.Context, w Write) (WriteResult, error) {
	if err := z.lab.syncLedger(ctx, z.Ledger); err != nil {
		return WriteResult{}, err
	}
	return z.Ledger.UnfencedMutation(ctx, w)
}

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

// unwrapLedger is a connection without the lab's lazy wrapper.
func unwrapLedger(ledger Ledger) Ledger {
	if z, ok := ledger.(lazyLedger); ok {
		return z.Ledger
	}
	return ledger
}
