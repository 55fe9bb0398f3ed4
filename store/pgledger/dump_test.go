package pgledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/storetest"
)

// A state's dump restores it whole: every row (a rejected execution, an
// outbox row claimed, a receipt, a job's results), every column, and the
// sequences, so the next row gets the id it would have got — on the same
// database after anything else happened, or on another database.
func TestRestorePutsTheSchemaBack(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := seeded(t)
	seededState, err := l.State(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, seededState.Dump)

	now := start.Add(time.Minute)
	_, err = l.FencedMutation(ctx, write(42, 420))
	require.NoError(t, err)
	_, err = l.FencedMutation(ctx, write(41, 410))
	require.NoError(t, err)
	row, _, err := l.ClaimNextOutbox(ctx, now, 30*time.Second)
	require.NoError(t, err)
	require.NoError(t, l.RecordOutcome(ctx, engine.Outcome{OperationID: row.OperationID, Status: engine.ProviderConfirmed,
		Provider: "payments", ReceiptOperationID: row.OperationID, Receipt: "rcpt-001", Now: now}))
	require.NoError(t, l.ApplyJobResults(ctx, "job-1", "evaluation-17", "3 comments", now))
	busy, err := l.State(ctx)
	require.NoError(t, err)
	require.Len(t, busy.Executions, 2)
	require.NotEqual(t, seededState.Dump, busy.Dump)

	// Whatever happens next, the dump puts it back.
	_, err = l.FencedMutation(ctx, write(43, 430))
	require.NoError(t, err)
	require.NoError(t, l.Seed(ctx, seed()))
	require.NoError(t, l.Restore(ctx, "", busy.Dump))
	restored, err := l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, busy, restored)

	// Told what it holds now, it writes only the tables that differ, and
	// ends the same.
	require.NoError(t, l.Seed(ctx, seed()))
	require.NoError(t, l.Restore(ctx, seededState.Dump, busy.Dump))
	restored, err = l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, busy, restored)
	require.NoError(t, l.Restore(ctx, busy.Dump, busy.Dump), "nothing to write")

	// The ids go on from where they stood: the next execution is the third.
	raw := pgledger.RawConn(t, l)
	_, err = l.FencedMutation(ctx, write(44, 440))
	require.NoError(t, err)
	var id int64
	require.NoError(t, raw.QueryRow(ctx, `SELECT max(execution_id) FROM fencelab.executions`).Scan(&id))
	require.EqualValues(t, 3, id)

	// Back to the seeded state, with its sequences as they were.
	require.NoError(t, l.Restore(ctx, "", seededState.Dump))
	again, err := l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, seededState, again)

	// Another database takes the copy.
	other := storetest.Ledger(t)
	require.NoError(t, other.Restore(ctx, "", busy.Dump))
	copied, err := other.State(ctx)
	require.NoError(t, err)
	require.Equal(t, busy, copied)

	require.ErrorContains(t, l.Restore(ctx, "", "not json"), "not a dump")
}
