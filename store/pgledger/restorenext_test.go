package pgledger_test

import (
	"context"
	"github.com/fencelab/fencelab/scenarios/world"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/storetest"
)

// A restore put off to go with the next statement waits until then, goes
// in the same round trip as the write behind it, and the write lands on
// the restored schema. A trip that fails leaves the schema restored all
// the same, whether PostgreSQL refused a statement (its transaction took
// the restore back) or the statements went through and the answer did
// not do (the restore had committed), and the connection goes on. A
// transaction of several round trips, or a read, sends it first.
func TestRestoreWithNextGoesWithTheNextWrite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Database(t)
	l, err := db.Connect(ctx, "a")
	require.NoError(t, err)
	t.Cleanup(func() { l.Close(ctx) })
	require.NoError(t, l.(world.Ledger).Seed(ctx, seed()))
	db.ReadBack(true)
	seeded, err := l.State(ctx)
	require.NoError(t, err)
	raw := pgledger.RawConn(t, l)
	executions := func() int {
		t.Helper()
		var n int
		require.NoError(t, raw.QueryRow(ctx, `SELECT count(*) FROM fencelab.executions`).Scan(&n))
		return n
	}
	withNext := func(from, to engine.LedgerDump) {
		t.Helper()
		require.NoError(t, l.(interface {
			RestoreWithNext(from, to engine.LedgerDump) error
		}).RestoreWithNext(from, to))
	}

	_, err = l.(world.Ledger).FencedMutation(ctx, write(41, 410))
	require.NoError(t, err)
	one, err := l.State(ctx)
	require.NoError(t, err)
	_, err = l.(world.Ledger).FencedMutation(ctx, write(42, 420))
	require.NoError(t, err)
	two, err := l.State(ctx)
	require.NoError(t, err)

	// Nothing is sent until the next write; then one round trip.
	sent := db.Writes()
	withNext(two.Dump, one.Dump)
	require.Equal(t, sent, db.Writes())
	require.Equal(t, 2, executions(), "the schema still holds the state left")
	_, err = l.(world.Ledger).FencedMutation(ctx, write(43, 430))
	require.NoError(t, err)
	require.Equal(t, sent+1, db.Writes(), "the restore went with the write")
	s, err := l.State(ctx)
	require.NoError(t, err)
	require.Len(t, world.RowsOf(s).Executions, 2)
	require.Equal(t, "op-41", world.RowsOf(s).Executions[0].OperationID)
	require.Equal(t, "op-43", world.RowsOf(s).Executions[1].OperationID, "the write landed on the restored state")
	require.EqualValues(t, 430, world.RowsOf(s).Resources[0].SummaryValue)
	var id int64
	require.NoError(t, raw.QueryRow(ctx, `SELECT execution_id FROM fencelab.executions WHERE operation_id = 'op-43'`).Scan(&id))
	require.EqualValues(t, 2, id, "the sequence was restored too")

	// PostgreSQL refuses the write (a check of this test's): its
	// transaction takes the restore back, and the restore comes again.
	_, err = raw.Exec(ctx, `ALTER TABLE fencelab.rollout_markers ADD CHECK (minimum_writer_version < 100)`)
	require.NoError(t, err)
	require.NoError(t, l.Restore(ctx, "", two.Dump))
	withNext(two.Dump, one.Dump)
	require.ErrorContains(t, l.(world.Ledger).Rollout(ctx, 100, 1), "violates check constraint")
	require.False(t, l.Lost())
	s, err = l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, one, s)

	// The statements go through and the answer is an error (no such
	// resource): the restore had committed — here it inserts rows, which
	// the same statements could not insert twice —, and the schema is the
	// restored one still.
	require.NoError(t, l.Restore(ctx, "", one.Dump))
	withNext(one.Dump, two.Dump)
	missing := write(44, 440)
	missing.ConflictKey = "summary:nowhere"
	_, err = l.(world.Ledger).FencedMutation(ctx, missing)
	require.ErrorIs(t, err, engine.ErrNotFound)
	require.False(t, l.Lost())
	s, err = l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, two, s)

	// The unfenced write carries it as the fenced one does.
	require.NoError(t, l.Restore(ctx, "", two.Dump))
	withNext(two.Dump, one.Dump)
	sent = db.Writes()
	_, err = l.(world.Ledger).UnfencedMutation(ctx, write(45, 450))
	require.NoError(t, err)
	require.Equal(t, sent+1, db.Writes())
	s, err = l.State(ctx)
	require.NoError(t, err)
	require.Len(t, world.RowsOf(s).Executions, 2)
	require.Equal(t, "op-45", world.RowsOf(s).Executions[1].OperationID)

	// A transaction of several round trips sends it on its own first:
	// the seeded state has no outbox row to claim.
	withNext(s.Dump, seeded.Dump)
	_, ok, err := l.(world.Ledger).ClaimNextOutbox(ctx, start.Add(time.Minute), 30*time.Second)
	require.NoError(t, err)
	require.False(t, ok, "the outbox of the restored state")
	s, err = l.State(ctx)
	require.NoError(t, err)
	require.Equal(t, seeded, s)

	// A read sends it first.
	withNext(s.Dump, one.Dump)
	value, err := l.(world.Ledger).ReadSummary(ctx, seed().ConflictKey)
	require.NoError(t, err)
	require.EqualValues(t, 410, value)
}
