package pgledger

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fencelab/fencelab/engine"
)

const outboxColumns = `operation_id, effect_type, status, attempt_count, next_attempt_at`

func scanOutbox(row pgx.Row) (engine.OutboxRow, error) {
	var o engine.OutboxRow
	err := row.Scan(&o.OperationID, &o.EffectType, &o.Status, &o.AttemptCount, &o.NextAttemptAt)
	return o, err
}

// ClaimNextOutbox claims the oldest due PENDING row and commits the claim
// before anyone calls the provider, so the call happens outside any
// transaction and a second worker skips the row.
func (l *Ledger) ClaimNextOutbox(ctx context.Context, now time.Time, claimTimeout time.Duration) (engine.OutboxRow, bool, error) {
	var claimed engine.OutboxRow
	found := false
	err := l.inTx(ctx, pgx.TxOptions{}, func(ctx context.Context, tx pgx.Tx) error {
		o, err := scanOutbox(tx.QueryRow(ctx, `
			SELECT `+outboxColumns+` FROM fencelab.outbox
			 WHERE status = 'PENDING' AND next_attempt_at <= $1
			 ORDER BY next_attempt_at, outbox_id
			 LIMIT 1 FOR UPDATE SKIP LOCKED`, now))
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		claimed, err = scanOutbox(tx.QueryRow(ctx, `
			UPDATE fencelab.outbox
			   SET status = 'CLAIMED', attempt_count = attempt_count + 1, next_attempt_at = $2, updated_at = $3
			 WHERE operation_id = $1
			RETURNING `+outboxColumns, o.OperationID, now.Add(claimTimeout), now))
		found = err == nil
		return err
	})
	if err != nil {
		return engine.OutboxRow{}, false, fmt.Errorf("pgledger: claim outbox: %w", err)
	}
	return claimed, found, nil
}

// ClaimForReconciliation claims the oldest row whose outcome is unknown: one
// marked RECONCILIATION_REQUIRED, or a claim that expired (its worker died
// between claim and record). The claim is committed before the provider is
// queried, as a delivery's is, so a second reconciler skips the row; the
// row is returned as found, its status saying why it needs reconciling.
func (l *Ledger) ClaimForReconciliation(ctx context.Context, now time.Time, claimTimeout time.Duration) (engine.OutboxRow, bool, error) {
	var row engine.OutboxRow
	found := false
	err := l.inTx(ctx, pgx.TxOptions{}, func(ctx context.Context, tx pgx.Tx) error {
		o, err := scanOutbox(tx.QueryRow(ctx, `
			SELECT `+outboxColumns+` FROM fencelab.outbox
			 WHERE status = 'RECONCILIATION_REQUIRED' OR (status = 'CLAIMED' AND next_attempt_at <= $1)
			 ORDER BY next_attempt_at, outbox_id
			 LIMIT 1 FOR UPDATE SKIP LOCKED`, now))
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `
			UPDATE fencelab.outbox SET status = 'CLAIMED', next_attempt_at = $2, updated_at = $3
			 WHERE operation_id = $1`, o.OperationID, now.Add(claimTimeout), now); err != nil {
			return err
		}
		row, found = o, true
		return nil
	})
	if err != nil {
		return engine.OutboxRow{}, false, fmt.Errorf("pgledger: claim a row to reconcile: %w", err)
	}
	return row, found, nil
}

// RecordOutcome stores what the provider answered. A final answer writes a
// receipt in the same transaction.
func (l *Ledger) RecordOutcome(ctx context.Context, o engine.Outcome) error {
	err := l.inTx(ctx, pgx.TxOptions{}, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `
			UPDATE fencelab.outbox SET status = $2, updated_at = $3
			 WHERE operation_id = $1 AND status IN ('CLAIMED', 'RECONCILIATION_REQUIRED')`,
			o.OperationID, o.Status, o.Now)
		if err != nil {
			return err
		}
		if tag.RowsAffected() != 1 {
			return fmt.Errorf("outbox row %s is not awaiting an outcome: %w", o.OperationID, engine.ErrNotFound)
		}
		if o.Status != engine.ProviderConfirmed && o.Status != engine.ProviderDeclined {
			return nil
		}
		_, err = tx.Exec(ctx, `
			INSERT INTO fencelab.effect_receipts (provider, operation_id, status, receipt, recorded_at)
			VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (provider, operation_id) DO NOTHING`,
			o.Provider, o.ReceiptOperationID, o.Status, o.Receipt, o.Now)
		return err
	})
	if err != nil {
		return fmt.Errorf("pgledger: record outcome of %s: %w", o.OperationID, err)
	}
	return nil
}
