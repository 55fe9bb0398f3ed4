package pgcluster_test

import (
	"context"
	"os"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/pgcluster"
	"github.com/fencelab/fencelab/store/storetest"
)

func tempDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "fencelab-cluster-")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755)) // the server account must reach its slot
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func alive(pid int) bool { return syscall.Kill(pid, 0) == nil }

// A cluster starts, serves its database over the socket, keeps its data
// directory for the next start (no second initdb) and is gone after Stop.
func TestStartStopRestart(t *testing.T) {
	ctx := context.Background()
	dir := tempDir(t)

	first, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	require.True(t, first.Fresh, "the first start runs initdb")
	conn, err := pgx.Connect(ctx, first.DSN(pgcluster.Database))
	require.NoError(t, err)
	_, err = conn.Exec(ctx, `CREATE TABLE kept (v int); INSERT INTO kept VALUES (7)`)
	require.NoError(t, err)
	conn.Close(ctx)
	pid := first.PID()
	require.NoError(t, first.Stop())
	require.False(t, alive(pid), "postmaster %d still runs after Stop", pid)

	second, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	defer second.Stop()
	require.False(t, second.Fresh, "a warm start skips initdb")
	require.Equal(t, first.SlotDir, second.SlotDir)
	conn, err = pgx.Connect(ctx, second.DSN(pgcluster.Database))
	require.NoError(t, err)
	defer conn.Close(ctx)
	var v int
	require.NoError(t, conn.QueryRow(ctx, `SELECT v FROM kept`).Scan(&v))
	require.Equal(t, 7, v)
}

// Two fencelab processes at once get two clusters, never one data directory.
func TestConcurrentStartsTakeSeparateSlots(t *testing.T) {
	ctx := context.Background()
	dir := tempDir(t)
	a, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	defer a.Stop()
	b, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	defer b.Stop()
	require.NotEqual(t, a.SlotDir, b.SlotDir)
	for _, c := range []*pgcluster.Cluster{a, b} {
		conn, err := pgx.Connect(ctx, c.DSN(pgcluster.Database))
		require.NoError(t, err)
		conn.Close(ctx)
	}
}

// A postmaster left running by a fencelab that was killed is stopped by the
// next start of that slot, which then works.
func TestOrphanedServerIsReplaced(t *testing.T) {
	ctx := context.Background()
	dir := tempDir(t)
	first, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	orphan := first.PID()
	first.ReleaseSlotOnly() // as if fencelab died without stopping its server

	second, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	defer second.Stop()
	require.Equal(t, first.SlotDir, second.SlotDir)
	require.False(t, storetest.Running(orphan), "the orphan %d still runs", orphan)
	conn, err := pgx.Connect(ctx, second.DSN(pgcluster.Database))
	require.NoError(t, err)
	conn.Close(ctx)
}

// Without server binaries, Start says so with ErrNoServer.
func TestNoBinaries(t *testing.T) {
	t.Setenv("PATH", "")
	saved := pgcluster.SearchPatterns
	pgcluster.SearchPatterns = nil
	defer func() { pgcluster.SearchPatterns = saved }()
	_, err := pgcluster.Start(context.Background(), pgcluster.Options{Dir: tempDir(t)})
	require.ErrorIs(t, err, pgcluster.ErrNoServer)
}
