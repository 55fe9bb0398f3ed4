package pgledger_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/scenarios/world"
)

// The audit counts what a long run's rows break, in the database: fenced
// writes in order break nothing; an unconditional write with an older
// token is a stale commit (invariant 1), and one built on an old read a
// lost update (invariant 7).
func TestAuditCountsStaleCommitsAndLostUpdates(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := seeded(t)
	auditor := l.(world.Auditor)
	key := seed().ConflictKey

	for token := int64(1); token <= 3; token++ {
		w := write(token, 0)
		w.AddUnderLock, w.Delta = true, 1
		res, err := l.(world.Ledger).FencedMutation(ctx, w)
		require.NoError(t, err)
		require.True(t, res.Committed)
	}
	late := write(2, 99)
	late.OperationID = "op-2-late"
	res, err := l.(world.Ledger).FencedMutation(ctx, late)
	require.NoError(t, err)
	require.Equal(t, world.StaleFence, res.Rejection)

	a, err := auditor.Audit(ctx, key)
	require.NoError(t, err)
	require.Equal(t, world.Audit{ConflictKey: key, Summary: 3, LastAcceptedFence: 3, Committed: 3, Rejected: 1,
		Rejections: map[string]int{world.StaleFence: 1}}, a)

	// A paused writer with token 2 comes back and writes unconditionally,
	// from the 1 it read before the others committed.
	read := int64(1)
	stale := write(2, read+1)
	stale.OperationID, stale.Owner, stale.ReadValue = "op-2-again", "paused", &read
	_, err = l.(world.Ledger).UnfencedMutation(ctx, stale)
	require.NoError(t, err)
	a, err = auditor.Audit(ctx, key)
	require.NoError(t, err)
	require.Equal(t, 1, a.StaleCommits)
	require.Equal(t, &world.StaleCommit{Owner: "paused", Token: 2, After: 3, AfterOwner: "worker", OperationID: "op-2-again"}, a.FirstStale)
	require.Equal(t, 1, a.LostUpdates)
	require.Equal(t, &world.LostUpdate{Owner: "paused", Value: 2, Read: 1, Previous: 3, OperationID: "op-2-again"}, a.FirstLost)
	require.Zero(t, a.CommitsWithoutOutbox)
	require.Zero(t, a.OutboxWithoutCommit)
	require.False(t, a.CheckpointDisagrees)
	require.Equal(t, int64(2), a.Summary)
}
