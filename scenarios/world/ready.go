package world

import (
	"context"
	"time"

	"github.com/fencelab/fencelab/engine"
)

// ready is a lab's connection as the catalog's world uses it: before each
// call the engine does not wrap, the lab's put-off restore runs
// (engine.Ready), so the call finds the database as the lab's state says.
type ready struct{ engine.Ledger }

var _ Ledger = ready{}

// conn is the connection, once the lab's restore has run.
func (z ready) conn(ctx context.Context) (Ledger, error) {
	l, err := engine.Ready(ctx, z.Ledger)
	if err != nil {
		return nil, err
	}
	return l.(Ledger), nil
}

func (z ready) RemoveTenant(ctx context.Context, tenantID string, revision int64, now time.Time) error {
	l, err := z.conn(ctx)
	if err != nil {
		return err
	}
	return l.RemoveTenant(ctx, tenantID, revision, now)
}

func (z ready) Rollout(ctx context.Context, minimumWriter, checkpointSchema int) error {
	l, err := z.conn(ctx)
	if err != nil {
		return err
	}
	return l.Rollout(ctx, minimumWriter, checkpointSchema)
}

func (z ready) BumpNamespace(ctx context.Context, conflictKey string, epoch int64, now time.Time) error {
	l, err := z.conn(ctx)
	if err != nil {
		return err
	}
	return l.BumpNamespace(ctx, conflictKey, epoch, now)
}

func (z ready) ClaimNextOutbox(ctx context.Context, now time.Time, claimTimeout time.Duration) (OutboxRow, bool, error) {
	l, err := z.conn(ctx)
	if err != nil {
		return OutboxRow{}, false, err
	}
	return l.ClaimNextOutbox(ctx, now, claimTimeout)
}

func (z ready) ClaimForReconciliation(ctx context.Context, now time.Time, claimTimeout time.Duration) (OutboxRow, bool, error) {
	l, err := z.conn(ctx)
	if err != nil {
		return OutboxRow{}, false, err
	}
	return l.ClaimForReconciliation(ctx, now, claimTimeout)
}

func (z ready) RecordOutcome(ctx context.Context, o Outcome) error {
	l, err := z.conn(ctx)
	if err != nil {
		return err
	}
	return l.RecordOutcome(ctx, o)
}

func (z ready) ApplyJobResults(ctx context.Context, jobID, target, results string, now time.Time) error {
	l, err := z.conn(ctx)
	if err != nil {
		return err
	}
	return l.ApplyJobResults(ctx, jobID, target, results, now)
}

func (z ready) Seed(ctx context.Context, seed Seed) error {
	return engine.Replacing(z.Ledger).(Ledger).Seed(ctx, seed) // the seed replaces everything
}

func (z ready) ReadSummary(ctx context.Context, conflictKey string) (int64, error) {
	l, err := z.conn(ctx)
	if err != nil {
		return 0, err
	}
	return l.ReadSummary(ctx, conflictKey)
}

func (z ready) FencedMutation(ctx context.Context, w Write) (WriteResult, error) {
	l, err := z.conn(ctx)
	if err != nil {
		return WriteResult{}, err
	}
	return l.FencedMutation(ctx, w)
}

func (z ready) RecordWrite(ctx context.Context, w Write, result WriteResult) error {
	l, err := z.conn(ctx)
	if err != nil {
		return err
	}
	return l.RecordWrite(ctx, w, result)
}

func (z ready) UnfencedMutation(ctx context.Context, w Write) (WriteResult, error) {
	l, err := z.conn(ctx)
	if err != nil {
		return WriteResult{}, err
	}
	return l.UnfencedMutation(ctx, w)
}
