package stress_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
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
	require.Positive(t, report.Rejections[world.StaleFence], "a paused worker came back with an old token")
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

// SAFE with a guard removed that stress's workers make: the run does not
// hold, and the check that names what broke fails — the fence (a stale
// commit), the read under the row lock (a lost update), the owner check of
// release (a release that deleted another worker's lease).
func TestSafeWithoutAGuardDoesNotHold(t *testing.T) {
	t.Parallel()
	for g, broken := range map[engine.Guard]int{world.GuardFence: 1, world.GuardReadInTx: 7, world.GuardOwner: 8} {
		t.Run(g.String(), func(t *testing.T) {
			t.Parallel()
			report, err := stress.Run(context.Background(), stress.Config{Workers: 4, Duration: 3 * time.Second,
				PauseEvery: 300 * time.Millisecond, Pause: 250 * time.Millisecond, Mode: engine.Safe, LeaseTTL: 100 * time.Millisecond,
				Without: engine.Guards(g)}, backends(t), stress.Goroutines())
			require.NoError(t, err)
			require.False(t, report.Held(), "%+v", report.Checks())
			require.False(t, report.AsExpected())
			for _, c := range report.Checks() {
				if c.Invariant == broken {
					require.False(t, c.Held, "invariant %d: %s", broken, c.What)
				}
			}
		})
	}
}

// A guard no stress worker asks is refused, not silently ignored.
func TestStressRefusesAGuardItNeverAsks(t *testing.T) {
	_, err := stress.Run(context.Background(), stress.Config{Workers: 1, Duration: time.Second, Mode: engine.Safe,
		LeaseTTL: 100 * time.Millisecond, Without: engine.Guards(world.GuardTerminal)}, backends(t), stress.Goroutines())
	require.ErrorContains(t, err, "never asks terminal")
}

// repeating is a Redis whose acquire hands out the same token every time:
// a token source that lost its counter, say. No invariant breaks (the
// fence refuses every token it has seen), but nearly every write is
// refused: SAFE's progress fails, and says by how much.
type repeating struct{ world.Coordination }

func (r repeating) Client(actor string) engine.RedisClient {
	return repeatingClient{r.Coordination.Client(actor).(world.RedisClient)}
}

type repeatingClient struct{ world.RedisClient }

func (c repeatingClient) AcquireLease(ctx context.Context, key, owner string, ttl time.Duration, epoch int64, without engine.GuardSet) (world.LeaseGrant, error) {
	grant, err := c.RedisClient.AcquireLease(ctx, key, owner, ttl, epoch, without)
	if grant.Outcome == world.LeaseAcquired {
		grant.Token = 7
	}
	return grant, err
}

func TestRepeatedTokensFailProgress(t *testing.T) {
	t.Parallel()
	b := backends(t)
	b.Coordination = repeating{b.Coordination.(world.Coordination)}
	report, err := stress.Run(context.Background(), stress.Config{Workers: 4, Duration: 2 * time.Second,
		Mode: engine.Safe, LeaseTTL: 100 * time.Millisecond}, b, stress.Goroutines())
	require.NoError(t, err)
	require.False(t, report.Held())
	require.False(t, report.AsExpected())
	var progress *stress.Check
	for _, c := range report.Checks() {
		if c.Invariant == 0 && strings.HasPrefix(c.What.String(), "progress") {
			progress = &c
		}
	}
	require.NotNil(t, progress)
	require.False(t, progress.Held)
	require.Contains(t, progress.Found.String(), "STALE_FENCE")
	require.Less(t, report.UnpausedAccepted*2, report.UnpausedWrites)
}

// Workers waiting for the lease are woken by its release rather than
// poll for it: they try a held lease about a hundred times a second all
// told, for a lease that ran out unreleased. Polling every few
// milliseconds, as worker processes do, 4 workers tried it 400 to 500
// times a second on the 2-core machine, more often than they committed.
func TestWaitingWorkersAreHandedTheLease(t *testing.T) {
	t.Parallel()
	report, err := stress.Run(context.Background(), stress.Config{Workers: 4, Duration: time.Second, Mode: engine.Safe,
		LeaseTTL: 500 * time.Millisecond}, backends(t), stress.Goroutines())
	require.NoError(t, err)
	require.True(t, report.Held(), "%+v", report.Checks())
	require.Greater(t, report.Accepted, 50)
	perSecond := float64(report.Contended) / report.Elapsed.Seconds()
	require.Less(t, perSecond, 250.0, "tries at a held lease a second (%d in %s, beside %d commits)",
		report.Contended, report.Elapsed, report.Accepted)
}
