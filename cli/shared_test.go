package cli

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/storetest"
)

// A run, a check or an unshared stress on the --pg of a shared stress
// resource reseeds the lab's tables and leaves the shared resource's rows
// alone: it puts them aside, says so in one line at its start, and the
// next shared run puts them back — the summary and the checks from the
// rows still count every shared run's writes. They reseeded schema
// fencelab whole, and the resource started again from nothing.
func TestLabRunsLeaveASharedResourceAlone(t *testing.T) {
	redis, pg := storetest.RealRedisURL(t), storetest.NewDatabaseDSN(t, false)
	type report struct {
		Accepted     int   `json:"accepted"`
		Summary      int64 `json:"summary"`
		Linearizable bool  `json:"linearizable"`
		AsExpected   bool  `json:"asExpected"`
	}
	shared := func() report {
		t.Helper()
		code, stdout, stderr := call(t, "stress", "--shared", "class-1", "--redis", redis, "--pg", pg,
			"--workers", "2", "--ops", "15", "--lease-ttl", "500ms", "--json")
		require.Equal(t, 0, code, "%s\n%s", stdout, stderr)
		var r report
		require.NoError(t, json.Unmarshal([]byte(stdout), &r))
		require.True(t, r.AsExpected, "%s", stdout)
		return r
	}
	accepted := shared().Accepted

	for _, args := range [][]string{
		{"run", "lease-overrun", "--pg", pg},
		{"check", "lease-overrun", "--pg", pg, "--out", t.TempDir()},
		{"stress", "--workers", "2", "--ops", "10", "--pg", pg},
	} {
		code, stdout, stderr := call(t, args...)
		require.Equal(t, 0, code, "%v\n%s\n%s", args, stdout, stderr)
		requireOneLine(t, stderr, "stress:class-1")
		last := shared()
		accepted += last.Accepted
		require.Equal(t, int64(accepted), last.Summary, "%v: the summary counts every shared run's accepted writes", args)
	}

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, pg)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var committed, outbox int
	require.NoError(t, conn.QueryRow(ctx, `SELECT count(*) FILTER (WHERE state = 'COMMITTED') FROM fencelab.executions
		 WHERE conflict_key = 'stress:class-1'`).Scan(&committed))
	require.NoError(t, conn.QueryRow(ctx, `SELECT count(*) FROM fencelab.outbox WHERE operation_id LIKE 'stress/stress:class-1/%'`).Scan(&outbox))
	require.Equal(t, accepted, committed)
	require.Equal(t, accepted, outbox)
}
