package pgledger_test

import (
	"context"
	"github.com/fencelab/fencelab/scenarios/world"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/storetest"
)

// Row 6 of issue 21: a call that a frozen server does not answer gives up
// after CallTimeout, and the driver gives the connection up with it; Lost
// says so, as every later call on it fails. A new connection works once
// the server is back.
func TestConnectionLostToAFrozenServer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	c, db := storetest.OwnCluster(t, "")
	l, err := db.Connect(ctx, "A")
	require.NoError(t, err)
	defer l.Close(ctx)
	require.NoError(t, l.(world.Ledger).Seed(ctx, seed()))
	require.False(t, l.Lost())

	thaw := storetest.Freeze(t, c.PID())
	_, err = l.State(ctx)
	require.ErrorIs(t, err, pgledger.ErrNoAnswer)
	thaw()
	require.True(t, l.Lost(), "the connection a frozen server did not answer on is gone")
	_, err = l.State(ctx)
	require.Error(t, err, "a lost connection does not come back by itself")

	again, err := db.Connect(ctx, "A")
	require.NoError(t, err)
	defer again.Close(ctx)
	require.False(t, again.Lost())
	state, err := again.State(ctx)
	require.NoError(t, err)
	require.Len(t, world.RowsOf(state).Resources, 1)
}
