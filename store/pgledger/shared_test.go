package pgledger_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/storetest"
)

// A resource shared by stress runs, on a database a lab also uses: the
// lab's run puts the resource's rows aside (and hears which), seeds and
// writes its own, and bumps the namespace; a second lab run finds them
// still aside. The next shared run puts them back beside the lab's rows,
// after them in id order, under the marker they were written under, and
// goes on from them.
func TestSharedRowsWaitOutALabRun(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dsn := storetest.NewDatabaseDSN(t, false)
	shared := seed()
	shared.ConflictKey, shared.TenantID = "stress:class-1", "stress-class-1"
	sharedWrite := func(l engine.Ledger, token int64) {
		t.Helper()
		w := write(token, 0)
		w.OperationID = fmt.Sprintf("stress/%s/e2/t%d", shared.ConflictKey, token)
		w.ConflictKey, w.TenantID, w.AddUnderLock, w.Delta = shared.ConflictKey, shared.TenantID, true, 1
		result, err := l.(world.Ledger).FencedMutation(ctx, w)
		require.NoError(t, err)
		require.True(t, result.Committed, "%+v", result)
	}
	// A run: the database opened, one connection; done ends both.
	var done func()
	open := func(opts pgledger.Options) engine.Ledger {
		t.Helper()
		db, err := pgledger.Open(ctx, dsn, opts)
		require.NoError(t, err)
		l, err := db.Connect(ctx, "test")
		require.NoError(t, err)
		done = func() { l.Close(ctx); db.Close() }
		t.Cleanup(done)
		return l
	}
	ensure := func(l engine.Ledger) world.Seed {
		t.Helper()
		s, err := l.(*pgledger.Ledger).EnsureResource(ctx, shared)
		require.NoError(t, err)
		return s
	}
	l := open(pgledger.Options{Shared: true})
	ensure(l)
	sharedWrite(l, 1)
	sharedWrite(l, 2)
	done()

	for run := range 2 {
		var heard []string
		l = open(pgledger.Options{Parked: func(keys []string) { heard = keys }})
		require.Equal(t, []string{"stress:class-1"}, heard, "lab run %d", run)
		state, err := l.State(ctx)
		require.NoError(t, err)
		for _, e := range world.RowsOf(state).Executions {
			require.NotEqual(t, shared.ConflictKey, e.ConflictKey, "lab run %d", run)
		}
		require.NoError(t, l.(world.Ledger).Seed(ctx, seed()))
		for token := int64(1); token <= 3; token++ {
			_, err := l.(world.Ledger).FencedMutation(ctx, write(token, 10*token))
			require.NoError(t, err)
		}
		require.NoError(t, l.(*pgledger.Ledger).BumpNamespace(ctx, seed().ConflictKey, 3, start))
		done()
	}

	l = open(pgledger.Options{Shared: true, Parked: func([]string) { t.Error("a shared run puts nothing aside") }})
	s := ensure(l)
	require.Equal(t, int64(2), s.NamespaceEpoch, "the marker the shared rows were written under")
	require.Equal(t, int64(2), s.CounterStart)
	sharedWrite(l, 3)
	audit, err := l.(world.Auditor).Audit(ctx, shared.ConflictKey)
	require.NoError(t, err)
	require.Equal(t, 3, audit.Committed)
	require.Equal(t, int64(3), audit.Summary)
	require.Zero(t, audit.StaleCommits)
	require.Zero(t, audit.LostUpdates)
	require.Zero(t, audit.CommitsWithoutOutbox+audit.OutboxWithoutCommit)
	require.False(t, audit.CheckpointDisagrees)

	state, err := l.State(ctx)
	require.NoError(t, err)
	var ops []string
	for _, e := range world.RowsOf(state).Executions {
		ops = append(ops, e.OperationID)
	}
	require.Equal(t, []string{"op-1", "op-2", "op-3",
		"stress/stress:class-1/e2/t1", "stress/stress:class-1/e2/t2", "stress/stress:class-1/e2/t3"}, ops,
		"the lab's rows stay; the shared ones come back after them, in their order")
	require.Len(t, world.RowsOf(state).Outbox, 6)
}
