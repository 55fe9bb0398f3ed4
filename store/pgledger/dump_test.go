package pgledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/scenarios/world"
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
	_, err = l.(world.Ledger).FencedMutation(ctx, write(42, 420))
	require.NoError(t, err)
	_, err = l.(world.Ledger).FencedMutation(ctx, write(41, 410))
	require.NoError(t, err)
	row, _, err := l.(world.Ledger).ClaimNextOutbox(ctx, now, 30*time.Second)
	require.NoError(t, err)
	require.NoError(t, l.(world.Ledger).RecordOutcome(ctx, world.Outcome{OperationID: row.OperationID, Status: world.ProviderConfirmed,
		Provider: "payments", ReceiptOperationID: row.OperationID, Receipt: "rcpt-001", Now: now, Attempt: row.AttemptCount}))
	require.NoError(t, l.(world.Ledger).ApplyJobResults(ctx, "job-1", "evaluation-17", "3 comments", now))
	busy, err := l.State(ctx)
	require.NoError(t, err)
	require.Len(t, world.RowsOf(busy).Executions, 2)
	require.NotEqual(t, seededState.Dump, busy.Dump)

	// Whatever happens next, the dump puts it back.
	_, err = l.(world.Ledger).FencedMutation(ctx, write(43, 430))
	require.NoError(t, err)
	require.NoError(t, l.(world.Ledger).Seed(ctx, seed()))
	require.NoError(t, l.Restore(ctx, "", busy.Dump))
	restored, err := l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, busy, restored)

	// Told what it holds now, it writes only the tables that differ, and
	// ends the same.
	require.NoError(t, l.(world.Ledger).Seed(ctx, seed()))
	require.NoError(t, l.Restore(ctx, seededState.Dump, busy.Dump))
	restored, err = l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, busy, restored)
	require.NoError(t, l.Restore(ctx, busy.Dump, busy.Dump), "nothing to write")

	// The ids go on from where they stood: the next execution is the third.
	raw := pgledger.RawConn(t, l)
	_, err = l.(world.Ledger).FencedMutation(ctx, write(44, 440))
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

// Told what the schema holds, a restore writes only the rows that differ:
// a row both states share keeps its tuple (its xmin, the transaction
// that wrote it), a row whose columns changed is updated in place, and
// rows only one side has are deleted or inserted. An execution whose id
// another operation had in the state left (the same key, another unique
// operation_id) is written again, not updated over the old one.
func TestRestoreWritesOnlyTheRowsThatDiffer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := seeded(t)
	raw := pgledger.RawConn(t, l)
	xmin := func(sql string) string {
		t.Helper()
		var x string
		require.NoError(t, raw.QueryRow(ctx, `SELECT xmin::text FROM `+sql).Scan(&x))
		return x
	}

	_, err := l.(world.Ledger).FencedMutation(ctx, write(41, 410))
	require.NoError(t, err)
	one, err := l.State(ctx)
	require.NoError(t, err)
	_, err = l.(world.Ledger).FencedMutation(ctx, write(42, 420))
	require.NoError(t, err)
	two, err := l.State(ctx)
	require.NoError(t, err)
	require.Len(t, world.RowsOf(two).Executions, 2)

	tenant := xmin(`fencelab.tenant_assignments`)
	first := xmin(`fencelab.executions WHERE operation_id = 'op-41'`)
	require.NoError(t, l.Restore(ctx, two.Dump, one.Dump))
	back, err := l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, one, back)
	require.Equal(t, tenant, xmin(`fencelab.tenant_assignments`), "a table that did not change is not written")
	require.Equal(t, first, xmin(`fencelab.executions WHERE operation_id = 'op-41'`), "a row both states have is not written")

	// And forward again, the second write's rows come back.
	require.NoError(t, l.Restore(ctx, one.Dump, two.Dump))
	again, err := l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, two, again)
	require.Equal(t, first, xmin(`fencelab.executions WHERE operation_id = 'op-41'`))

	// Another order of the same writes: execution 1 is op-42's now, 2 is
	// op-41's, so each id changes operation and each operation id.
	require.NoError(t, l.(world.Ledger).Seed(ctx, seed()))
	_, err = l.(world.Ledger).FencedMutation(ctx, write(42, 420))
	require.NoError(t, err)
	_, err = l.(world.Ledger).FencedMutation(ctx, write(41, 410)) // rejected: recorded
	require.NoError(t, err)
	swapped, err := l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, "op-42", world.RowsOf(swapped).Executions[0].OperationID)
	require.NoError(t, l.Restore(ctx, swapped.Dump, two.Dump))
	restored, err := l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, two, restored)
	require.NoError(t, l.Restore(ctx, two.Dump, swapped.Dump))
	restored, err = l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, swapped, restored)
}

// With read-back on, a write brings the schema back in its own round trip
// and State asks nothing; a write that does not read back (a transaction
// of several round trips) leaves State to read again, and so does a
// write on another connection.
func TestReadBackStandsForTheSchemaUntilTheNextWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Database(t)
	l, err := db.Connect(ctx, "a")
	require.NoError(t, err)
	t.Cleanup(func() { l.Close(ctx) })
	other, err := db.Connect(ctx, "b")
	require.NoError(t, err)
	t.Cleanup(func() { other.Close(ctx) })
	require.NoError(t, l.(world.Ledger).Seed(ctx, seed()))
	db.ReadBack(true)

	// A row changed behind fencelab's back shows whether State asked.
	raw := pgledger.RawConn(t, l)
	behind := func(value int) {
		t.Helper()
		_, err := raw.Exec(ctx, `UPDATE fencelab.resources SET summary_value = $1`, value)
		require.NoError(t, err)
	}

	_, err = l.(world.Ledger).FencedMutation(ctx, write(41, 410))
	require.NoError(t, err)
	behind(999)
	s, err := other.State(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 410, world.RowsOf(s).Resources[0].SummaryValue, "the dump the write read back")
	require.Len(t, world.RowsOf(s).Executions, 1)

	// A claim is a transaction of its own, not read back: State asks.
	_, _, err = l.(world.Ledger).ClaimNextOutbox(ctx, start.Add(time.Minute), 30*time.Second)
	require.NoError(t, err)
	s, err = other.State(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 999, world.RowsOf(s).Resources[0].SummaryValue)
	require.Equal(t, "CLAIMED", world.RowsOf(s).Outbox[0].Status)

	// Another connection's write reads back what it committed.
	_, err = other.(world.Ledger).FencedMutation(ctx, write(42, 420))
	require.NoError(t, err)
	s, err = l.State(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 420, world.RowsOf(s).Resources[0].SummaryValue)
	require.Len(t, world.RowsOf(s).Executions, 2)

	// Off, State reads.
	db.ReadBack(false)
	behind(7)
	s, err = l.State(ctx)
	require.NoError(t, err)
	require.EqualValues(t, 7, world.RowsOf(s).Resources[0].SummaryValue)
}
