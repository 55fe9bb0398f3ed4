package pgcluster_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/pgcluster"
)

// socketTail is what follows the cache directory in the server's socket
// path: the slot, its run directory and the socket's own name.
const socketTail = "/slot-0/run/.s.PGSQL.5432"

// startAndQuery starts a cluster in dir, connects to its database through
// its DSN and runs a query; it returns the cluster, stopped at cleanup.
func startAndQuery(t *testing.T, dir string) *pgcluster.Cluster {
	t.Helper()
	ctx := context.Background()
	started := time.Now()
	c, err := pgcluster.Start(ctx, pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	t.Cleanup(func() { c.Stop() })
	require.Less(t, time.Since(started), 20*time.Second, "the start waited on a server that was ready")
	conn, err := pgx.Connect(ctx, c.DSN(pgcluster.Database))
	require.NoError(t, err)
	defer conn.Close(ctx)
	var one int
	require.NoError(t, conn.QueryRow(ctx, `SELECT 1`).Scan(&one))
	require.Equal(t, 1, one)
	return c
}

// Row 4 of issue 21: a cache directory with a space, a quote and a
// backslash in its path. The DSN's values are quoted as libpq quotes them,
// so the start, pgx and psql all find the socket.
func TestCacheDirWithSpacesAndQuotes(t *testing.T) {
	dir := filepath.Join(tempDir(t), `a b'c\d e`)
	require.NoError(t, os.Mkdir(dir, 0o755))
	c := startAndQuery(t, dir)

	config, err := pgconn.ParseConfig(c.DSN(pgcluster.Database))
	require.NoError(t, err)
	require.Equal(t, filepath.Join(c.SlotDir, "run"), config.Host)
	require.Equal(t, pgcluster.Database, config.Database)

	psql, err := exec.LookPath("psql")
	if err != nil {
		return // pgx's parse is libpq's; psql would only say it again
	}
	out, err := exec.Command(psql, c.DSN(pgcluster.Database), "-XAtc", "SELECT current_database()").CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Equal(t, pgcluster.Database, strings.TrimSpace(string(out)))
}

// Row 4: a socket path longer than a unix socket address holds (107 bytes
// on Linux) is refused in one line that names FENCELAB_CACHE_DIR, before
// anything is made or started; one of exactly 107 bytes works.
func TestSocketPathTooLong(t *testing.T) {
	base := tempDir(t)
	pad := func(total int) string { // a cache dir whose socket path is total bytes long
		name := strings.Repeat("x", total-len(base)-1-len(socketTail))
		return filepath.Join(base, name)
	}

	long := pad(108)
	started := time.Now()
	_, err := pgcluster.Start(context.Background(), pgcluster.Options{Dir: long})
	require.ErrorIs(t, err, pgcluster.ErrSocketPathTooLong)
	require.Less(t, time.Since(started), 2*time.Second)
	msg := err.Error()
	require.NotContains(t, msg, "\n")
	require.Contains(t, msg, "108 bytes")
	require.Contains(t, msg, "107")
	require.Contains(t, msg, "FENCELAB_CACHE_DIR")
	_, statErr := os.Lstat(filepath.Join(long, "slot-0"))
	require.ErrorIs(t, statErr, os.ErrNotExist, "a slot was made for a server that cannot start")

	c := startAndQuery(t, pad(107))
	require.Len(t, filepath.Join(c.SlotDir, "run", ".s.PGSQL.5432"), 107)
}
