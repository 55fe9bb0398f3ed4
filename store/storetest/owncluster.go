package storetest

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/pgcluster"
	"github.com/fencelab/fencelab/store/pgledger"
)

// OwnCluster starts a PostgreSQL cluster of the test's own — one it may
// Freeze without stopping the other tests — and opens its database
// (described as describe); both are stopped when the test ends.
func OwnCluster(t *testing.T, describe string) (*pgcluster.Cluster, *pgledger.Database) {
	t.Helper()
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "fencelab-frozen-")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755)) // the server account must reach its slot
	t.Cleanup(func() { os.RemoveAll(dir) })
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { c.Stop() })
	db, err := pgledger.Open(ctx, c.DSN(pgcluster.Database), pgledger.Options{Describe: describe, Dial: c.Dial})
	require.NoError(t, err)
	t.Cleanup(func() { db.Close() })
	return c, db
}
