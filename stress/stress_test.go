package stress_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/storetest"
	"github.com/fencelab/fencelab/stress"
)

func backends(t *testing.T) stress.Backends {
	t.Helper()
	redis := storetest.Embedded(t)
	t.Cleanup(redis.FollowWallClock())
	return stress.Backends{Coordination: redis, Database: storetest.Database(t)}
}

// SAFE under pauses longer than the lease: every invariant holds and the
// history is linearizable; the pauses made stale writers, which PostgreSQL
// refused.
func TestSafeHoldsUnderPauses(t *testing.T) {
	t.Parallel()
	report, err := stress.Run(context.Background(), stress.Config{Workers: 4, Duration: 3 * time.Second,
		PauseEvery: 300 * time.Millisecond, Pause: 250 * time.Millisecond, Mode: engine.Safe, LeaseTTL: 100 * time.Millisecond},
		backends(t), stress.Goroutines())
	require.NoError(t, err)
	t.Logf("%+v", report)
	require.True(t, report.Held(), "%+v", report.Checks())
	require.True(t, report.AsExpected())
	require.Greater(t, report.Accepted, 50)
	require.Greater(t, report.Pauses, 3)
	require.Equal(t, report.Accepted, report.Audit.Committed)
	require.Equal(t, int64(report.Accepted), report.Audit.Summary)
	require.Positive(t, report.Rejections[engine.StaleFence], "a paused worker came back with an old token")
}

// UNSAFE under the same pauses: the stale writers' unconditional writes
// land — stale commits, lost updates, and a history no fenced register
// allows.
func TestUnsafeBreaksUnderPauses(t *testing.T) {
	t.Parallel()
	report, err := stress.Run(context.Background(), stress.Config{Workers: 4, Duration: 3 * time.Second,
		PauseEvery: 300 * time.Millisecond, Pause: 250 * time.Millisecond, Mode: engine.Unsafe, LeaseTTL: 100 * time.Millisecond},
		backends(t), stress.Goroutines())
	require.NoError(t, err)
	t.Logf("%+v", report)
	require.False(t, report.Held())
	require.True(t, report.AsExpected())
	require.Positive(t, report.Audit.StaleCommits)
	require.Positive(t, report.Illegal)
	require.NotEmpty(t, report.FirstViolation)
}
