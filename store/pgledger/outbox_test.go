package pgledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
)

// A committed write leaves one PENDING outbox row; the worker claims it
// once, with a deadline, and nobody can claim it again meanwhile.
func TestOutboxClaim(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := seeded(t)
	_, err := l.(world.Ledger).FencedMutation(ctx, write(42, 42))
	require.NoError(t, err)
	now := start.Add(time.Minute)

	row, found, err := l.(world.Ledger).ClaimNextOutbox(ctx, now, 30*time.Second)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, "op-42", row.OperationID)
	require.Equal(t, "CLAIMED", row.Status)
	require.Equal(t, 1, row.AttemptCount)
	require.Equal(t, now.Add(30*time.Second), row.NextAttemptAt.UTC())

	_, found, err = l.(world.Ledger).ClaimNextOutbox(ctx, now, 30*time.Second)
	require.NoError(t, err)
	require.False(t, found, "a claimed row is not claimed twice")
}

// A row whose claim expired (the worker died between claim and record) is
// found for reconciliation, but only once its claim is over.
func TestOutboxClaimExpiry(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := seeded(t)
	_, err := l.(world.Ledger).FencedMutation(ctx, write(42, 42))
	require.NoError(t, err)
	now := start.Add(time.Minute)
	_, _, err = l.(world.Ledger).ClaimNextOutbox(ctx, now, 30*time.Second)
	require.NoError(t, err)

	_, found, err := l.(world.Ledger).ClaimForReconciliation(ctx, now.Add(29*time.Second), 30*time.Second)
	require.NoError(t, err)
	require.False(t, found, "the claim still holds")
	row, found, err := l.(world.Ledger).ClaimForReconciliation(ctx, now.Add(31*time.Second), 30*time.Second)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, "CLAIMED", row.Status)
	require.Equal(t, 2, row.AttemptCount, "the reconciler's claim is a new attempt")

	require.NoError(t, l.(world.Ledger).RecordOutcome(ctx, world.Outcome{OperationID: row.OperationID, Status: world.ProviderConfirmed,
		Provider: "payments", ReceiptOperationID: row.OperationID, Receipt: "rcpt-1", Now: now.Add(31 * time.Second), Attempt: 2}))
	state, err := l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, "CONFIRMED", world.RowsOf(state).Outbox[0].Status)
	require.Equal(t, []world.Receipt{{Provider: "payments", OperationID: "op-42", Status: "CONFIRMED", Receipt: "rcpt-1"}}, world.RowsOf(state).Receipts)
}

// RECONCILIATION_REQUIRED is found for reconciliation; a final outcome
// cannot be recorded twice; DECLINED writes its receipt too.
func TestOutboxOutcomes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := seeded(t)
	_, err := l.(world.Ledger).FencedMutation(ctx, write(42, 42))
	require.NoError(t, err)
	now := start.Add(time.Minute)
	row, _, err := l.(world.Ledger).ClaimNextOutbox(ctx, now, 30*time.Second)
	require.NoError(t, err)

	require.NoError(t, l.(world.Ledger).RecordOutcome(ctx, world.Outcome{OperationID: row.OperationID, Status: "RECONCILIATION_REQUIRED", Now: now, Attempt: row.AttemptCount}))
	found, ok, err := l.(world.Ledger).ClaimForReconciliation(ctx, now, 30*time.Second)
	require.NoError(t, err)
	require.True(t, ok)
	require.Equal(t, "RECONCILIATION_REQUIRED", found.Status)

	require.NoError(t, l.(world.Ledger).RecordOutcome(ctx, world.Outcome{OperationID: row.OperationID, Status: world.ProviderDeclined,
		Provider: "payments", ReceiptOperationID: row.OperationID, Receipt: "rcpt-9", Now: now, Attempt: found.AttemptCount}))
	err = l.(world.Ledger).RecordOutcome(ctx, world.Outcome{OperationID: row.OperationID, Status: world.ProviderConfirmed, Now: now, Attempt: found.AttemptCount})
	require.ErrorIs(t, err, engine.ErrNotFound, "a final outcome is final")

	state, err := l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, "DECLINED", world.RowsOf(state).Outbox[0].Status)
	require.Equal(t, "DECLINED", world.RowsOf(state).Receipts[0].Status)
	_, ok, err = l.(world.Ledger).ClaimForReconciliation(ctx, now.Add(time.Hour), 30*time.Second)
	require.NoError(t, err)
	require.False(t, ok, "nothing left to reconcile")
}

// The claim's attempt fences its record: a worker whose claim ran out,
// and whose row a reconciler claimed since, can neither mark the row for
// reconciliation under the reconciler's claim nor settle it after; the
// reconciler's record stands.
func TestOutboxRecordIsFencedByItsClaim(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := seeded(t)
	_, err := l.(world.Ledger).FencedMutation(ctx, write(42, 42))
	require.NoError(t, err)
	now := start.Add(time.Minute)
	stalled, _, err := l.(world.Ledger).ClaimNextOutbox(ctx, now, 30*time.Second)
	require.NoError(t, err)
	later := now.Add(31 * time.Second)
	reconciler, found, err := l.(world.Ledger).ClaimForReconciliation(ctx, later, 30*time.Second)
	require.NoError(t, err)
	require.True(t, found)
	require.Equal(t, stalled.AttemptCount+1, reconciler.AttemptCount)

	err = l.(world.Ledger).RecordOutcome(ctx, world.Outcome{OperationID: stalled.OperationID, Status: "RECONCILIATION_REQUIRED", Now: later, Attempt: stalled.AttemptCount})
	require.ErrorIs(t, err, engine.ErrNotFound, "a claim that ran out and was taken over records nothing")
	require.NoError(t, l.(world.Ledger).RecordOutcome(ctx, world.Outcome{OperationID: reconciler.OperationID, Status: world.ProviderConfirmed,
		Provider: "payments", ReceiptOperationID: reconciler.OperationID, Receipt: "rcpt-1", Now: later, Attempt: reconciler.AttemptCount}))
	err = l.(world.Ledger).RecordOutcome(ctx, world.Outcome{OperationID: stalled.OperationID, Status: world.ProviderConfirmed,
		Provider: "payments", ReceiptOperationID: stalled.OperationID, Receipt: "rcpt-2", Now: later, Attempt: stalled.AttemptCount})
	require.ErrorIs(t, err, engine.ErrNotFound)

	state, err := l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, "CONFIRMED", world.RowsOf(state).Outbox[0].Status)
	require.Equal(t, []world.Receipt{{Provider: "payments", OperationID: "op-42", Status: "CONFIRMED", Receipt: "rcpt-1"}}, world.RowsOf(state).Receipts)
}
