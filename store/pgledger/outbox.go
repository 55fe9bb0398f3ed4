package pgledger

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
)

const outboxColumns = `operation_id, effect_type, status, attempt_count, next_attempt_at`

func scanOutbox(row pgx.Row) (world.OutboxRow, error) {
	var o world.OutboxRow
	err := row.Scan(&o.OperationID, &o.EffectType, &o.Status, &o.AttemptCount, &o.NextAttemptAt)
	return o, err
}

// Each outbox method is one statement, sent as one round trip: the claim
// is the row lock and the update together, so no other actor can act
// between them (and the checker need not explore what cannot happen).

// claimNext claims the oldest due PENDING row that no other transaction
// has locked.
const claimNext = `
	UPDATE fencelab.outbox
	   SET status = 'CLAIMED', attempt_count = attempt_count + 1, next_attempt_at = $2, updated_at = $3
	 WHERE outbox_id = (SELECT outbox_id FROM fencelab.outbox
	                     WHERE status = 'PENDING' AND next_attempt_at <= $1
	                     ORDER BY next_attempt_at, outbox_id
	                     LIMIT 1 FOR UPDATE SKIP LOCKED)
	RETURNING ` + outboxColumns

// ClaimNextOutbox claims the oldest due PENDING row and commits the claim
// before anyone calls the provider, so the call happens outside any
// transaction and a second worker skips the row.
func (l *Ledger) ClaimNextOutbox(ctx context.Context, now time.Time, claimTimeout time.Duration) (world.OutboxRow, bool, error) {
	claimed, found, err := l.claim(ctx, claimNext, now, now.Add(claimTimeout), now)
	if err != nil {
		return world.OutboxRow{}, false, fmt.Errorf("pgledger: claim outbox: %w", err)
	}
	return claimed, found, nil
}

// claimToReconcile claims the oldest row whose outcome is unknown and
// returns it as it was found, but for its attempt: the new claim's.
const claimToReconcile = `
	WITH found AS (
	    SELECT outbox_id, ` + outboxColumns + ` FROM fencelab.outbox
	     WHERE status = 'RECONCILIATION_REQUIRED' OR (status = 'CLAIMED' AND next_attempt_at <= $1)
	     ORDER BY next_attempt_at, outbox_id
	     LIMIT 1 FOR UPDATE SKIP LOCKED),
	claimed AS (
	    UPDATE fencelab.outbox o SET status = 'CLAIMED', attempt_count = o.attempt_count + 1, next_attempt_at = $2, updated_at = $3
	      FROM found WHERE o.outbox_id = found.outbox_id)
	SELECT operation_id, effect_type, status, attempt_count + 1, next_attempt_at FROM found`

// ClaimForReconciliation claims the oldest row whose outcome is unknown: one
// marked RECONCILIATION_REQUIRED, or a claim that expired (its worker died
// between claim and record). The claim is committed before the provider is
// queried, as a delivery's is, so a second reconciler skips the row; the
// row is returned as found, its status saying why it needs reconciling.
func (l *Ledger) ClaimForReconciliation(ctx context.Context, now time.Time, claimTimeout time.Duration) (world.OutboxRow, bool, error) {
	row, found, err := l.claim(ctx, claimToReconcile, now, now.Add(claimTimeout), now)
	if err != nil {
		return world.OutboxRow{}, false, fmt.Errorf("pgledger: claim a row to reconcile: %w", err)
	}
	return row, found, nil
}

// claim runs a claiming statement that returns the row, or none.
func (l *Ledger) claim(ctx context.Context, sql string, args ...any) (world.OutboxRow, bool, error) {
	var row world.OutboxRow
	found := false
	batch := &pgx.Batch{}
	batch.Queue(sql, args...)
	err := l.oneTrip(ctx, batch, true, func(results pgx.BatchResults) error {
		var err error
		row, err = scanOutbox(results.QueryRow())
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		found = err == nil
		return err
	})
	return row, found, err
}

// recordOutcome sets a row's outcome and, for a final one, writes its
// receipt; it counts the rows it set (1, or 0: the claim is no longer the
// row's). The claim's attempt fences the record as a token fences a
// write: a worker whose claim ran out, and whose row another worker
// claimed since, cannot overwrite what the newer claimant records (or
// mark the row for reconciliation under it). A row a worker's own record
// marked for reconciliation stays under its attempt until it is claimed
// again.
const recordOutcome = `
	WITH updated AS (
	    UPDATE fencelab.outbox SET status = $2::text, updated_at = $3
	     WHERE operation_id = $1 AND status IN ('CLAIMED', 'RECONCILIATION_REQUIRED') AND attempt_count = $7
	    RETURNING 1),
	receipt AS (
	    INSERT INTO fencelab.effect_receipts (provider, operation_id, status, receipt, recorded_at)
	    SELECT $4, $5, $2::text, $6, $3 FROM updated
	     WHERE $2::text IN ('CONFIRMED', 'DECLINED')
	    ON CONFLICT (provider, operation_id) DO NOTHING)
	SELECT count(*) FROM updated`

// RecordOutcome stores what the provider answered, if the claim it was
// delivered under (o.Attempt) is still the row's; otherwise it changes
// nothing and says ErrNotFound. A final answer writes a receipt in the
// same statement.
func (l *Ledger) RecordOutcome(ctx context.Context, o world.Outcome) error {
	var updated int64
	batch := &pgx.Batch{}
	batch.Queue(recordOutcome, o.OperationID, o.Status, o.Now, o.Provider, o.ReceiptOperationID, o.Receipt, o.Attempt)
	err := l.oneTrip(ctx, batch, true, func(results pgx.BatchResults) error {
		return results.QueryRow().Scan(&updated)
	})
	if err == nil && updated != 1 {
		err = fmt.Errorf("outbox row %s is not claimed under attempt %d: %w", o.OperationID, o.Attempt, engine.ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("pgledger: record outcome of %s: %w", o.OperationID, err)
	}
	return nil
}
