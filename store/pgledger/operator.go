package pgledger

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fencelab/fencelab/engine"
)

// RemoveTenant deactivates a tenant at a new membership revision.
func (l *Ledger) RemoveTenant(ctx context.Context, tenantID string, revision int64, now time.Time) error {
	tag, err := l.exec(ctx, `
		UPDATE fencelab.tenant_assignments SET active = false, membership_revision = $2 WHERE tenant_id = $1`,
		tenantID, revision)
	if err != nil {
		return fmt.Errorf("pgledger: remove tenant %s: %w", tenantID, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("pgledger: remove tenant %s: %w", tenantID, engine.ErrNotFound)
	}
	return nil
}

// Rollout sets the versions a writer must meet.
func (l *Ledger) Rollout(ctx context.Context, minimumWriter, checkpointSchema int) error {
	_, err := l.exec(ctx, `
		UPDATE fencelab.rollout_markers SET minimum_writer_version = $1, checkpoint_schema_version = $2
		 WHERE marker_name = 'current'`, minimumWriter, checkpointSchema)
	if err != nil {
		return fmt.Errorf("pgledger: rollout: %w", err)
	}
	return nil
}

// BumpNamespace starts a new namespace epoch in PostgreSQL: the marker and
// the resource move together, and the resource's fence restarts at none,
// since tokens of the new epoch start from the beginning.
func (l *Ledger) BumpNamespace(ctx context.Context, conflictKey string, epoch int64, now time.Time) error {
	batch := &pgx.Batch{}
	batch.Queue(`UPDATE fencelab.rollout_markers SET namespace_epoch = $1 WHERE marker_name = 'current'`, epoch)
	batch.Queue(`
		UPDATE fencelab.resources SET namespace_epoch = $2, last_accepted_fence = 0, updated_at = $3
		 WHERE conflict_key = $1`, conflictKey, epoch, now)
	if err := l.oneTrip(ctx, batch, true, nil); err != nil {
		return fmt.Errorf("pgledger: bump namespace epoch to %d: %w", epoch, err)
	}
	return nil
}
