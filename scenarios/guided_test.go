package scenarios_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/storetest"
)

// The guided order is a cursor over a schedule. An action a user takes
// that is the cursor's next one moves it on, so keys and n mix freely while
// they tell the same story; any other action leaves the order, after which
// n refuses instead of running a step written for another state, until
// undo or reset brings the lab back onto it.
func TestGuidedPathFollowsTheUserAndRefusesOffIt(t *testing.T) {
	ctx := context.Background()
	s, _ := scenarios.ByID("lease-overrun")
	lab := newLab(t, storetest.Embedded(t), s, engine.Safe)

	t.Run("keys then n", func(t *testing.T) {
		require.NoError(t, lab.Reset(ctx))
		require.NoError(t, lab.Do(ctx, engine.Do("A")))
		require.NoError(t, lab.Do(ctx, engine.Do("A")))
		require.NoError(t, lab.Do(ctx, engine.Pause("A", "paused by you")))
		require.NoError(t, lab.RunGuided(ctx))
		done, total := lab.GuidedProgress()
		require.Equal(t, total, done)
		require.False(t, lab.OffPath())
		result, err := lab.Result(ctx)
		require.NoError(t, err)
		require.True(t, result.AsPredicted(), "%s", result.Verdict)
	})

	t.Run("the whole story by hand is the guided order", func(t *testing.T) {
		require.NoError(t, lab.Reset(ctx))
		for _, a := range []engine.Action{engine.Do("A"), engine.Do("A"), engine.Pause("A", "paused by you"),
			engine.AdvanceToNextExpiry(), engine.Do("B"), engine.Do("B"), engine.Do("B"), engine.Resume("A"), engine.Do("A")} {
			require.NoError(t, lab.Do(ctx, a))
		}
		done, total := lab.GuidedProgress()
		require.Equal(t, 9, done)
		require.Equal(t, 9, total)
		snap, err := lab.Snapshot(ctx)
		require.NoError(t, err)
		require.False(t, snap.OffPath)
		require.True(t, snap.Settled)
		require.Empty(t, snap.GuidedNext)
	})

	t.Run("off the path", func(t *testing.T) {
		require.NoError(t, lab.Reset(ctx))
		require.NoError(t, lab.Next(ctx))               // A leads
		require.NoError(t, lab.Do(ctx, engine.Do("B"))) // not the guided A: B waits for the leader
		require.True(t, lab.OffPath())
		before := len(lab.Events())
		err := lab.Next(ctx)
		require.ErrorIs(t, err, engine.ErrOffPath)
		require.ErrorContains(t, err, "at 1/9")
		require.Len(t, lab.Events(), before, "n took no step")
		snap, err := lab.Snapshot(ctx)
		require.NoError(t, err)
		require.True(t, snap.OffPath)
		require.Empty(t, snap.GuidedNext)
		require.False(t, snap.Settled, "the verdict is not final while actors have steps left")
		// Even the guided action, taken now, does not put it back.
		require.NoError(t, lab.Do(ctx, engine.Do("A")))
		require.True(t, lab.OffPath())

		require.NoError(t, lab.Undo(ctx))
		require.NoError(t, lab.Undo(ctx))
		require.False(t, lab.OffPath(), "undo took the departure back")
		require.NoError(t, lab.RunGuided(ctx))
		result, err := lab.Result(ctx)
		require.NoError(t, err)
		require.True(t, result.AsPredicted())
	})
}

// On a real Redis kept on the lab clock, leases do not run out while
// someone reads the screen, only when the lab clock moves, whatever the
// pace: with the lease TTL under a second and the wall clock running past
// it between steps, the story ends as on the embedded server. The server
// keeps real TTLs (the lab's and a second), and undo replays on it.
func TestARealRedisOnTheLabClock(t *testing.T) {
	ctx := context.Background()
	s, _ := scenarios.ByID("lease-overrun")
	redis := storetest.RealRedis(t)
	redis.FollowLabClock()
	lab, err := engine.NewLab(ctx, engine.Backends{Coordination: redis, Database: storetest.Database(t),
		HoldTTL: 600 * time.Millisecond}, s, engine.Safe)
	require.NoError(t, err)
	t.Cleanup(func() { lab.Close(ctx) })
	for range 3 { // A leads, takes 41, pauses
		require.NoError(t, lab.Next(ctx))
	}
	time.Sleep(2 * time.Second) // three times the lease, on the wall clock
	keys, err := redis.Keys(ctx)
	require.NoError(t, err)
	leases := 0
	for _, k := range keys {
		if k.Role == world.RoleLease || k.Role == world.RoleLeader {
			leases++
			require.Equal(t, 600*time.Millisecond, k.TTL, "%s: the lab TTL, untouched by the wall clock", k.Key)
			left := storetest.ServerTTL(t, redis, k.Key)
			require.Greater(t, left, time.Duration(0), "%s has a real TTL on the server", k.Key)
			require.LessOrEqual(t, left, 600*time.Millisecond+time.Second, "%s: the lab's TTL and at most a second", k.Key)
		}
	}
	require.Equal(t, 2, leases, "A's leader and resource leases are still there: %v", keys)
	require.NoError(t, lab.RunGuided(ctx))
	result, err := lab.Result(ctx)
	require.NoError(t, err)
	require.True(t, result.AsPredicted(), "%s", result.Verdict)
	require.Equal(t, int64(42), result.Final)

	// Undo replays on the lab clock: the run can go back and on again.
	require.NoError(t, lab.Undo(ctx))
	require.NoError(t, lab.RunGuided(ctx))
	again, err := lab.Result(ctx)
	require.NoError(t, err)
	require.Equal(t, result.Verdict, again.Verdict)

	// With nothing that ever had a TTL, there is nothing to advance to.
	require.NoError(t, lab.Reset(ctx))
	require.ErrorIs(t, lab.Do(ctx, engine.AdvanceToNextExpiry()), engine.ErrNoExpiry)
}

// A key the lab clock keeps can still vanish from under it: deleted by
// somebody, or its server TTL run out while fencelab was stopped. The next
// action says so, and no invariant blames the actor who takes it.
func TestAKeyLostOutsideTheLabClock(t *testing.T) {
	ctx := context.Background()
	s, _ := scenarios.ByID("lease-overrun")
	redis := storetest.RealRedis(t)
	lab := newLab(t, redis, s, engine.Safe)
	require.NoError(t, lab.Do(ctx, engine.Do("A"))) // A's leader lease
	require.NoError(t, lab.Do(ctx, engine.Do("A"))) // token 41
	lease := labKeys(t, redis, ":lease")
	require.Len(t, lease, 1)
	storetest.DeleteOnServer(t, redis, lease[0]) // as redis-cli DEL would
	require.NoError(t, lab.Do(ctx, engine.Do("B")))
	var lost *engine.Event
	for i, e := range lab.Events() {
		if e.Code == "KEYS_LOST" {
			lost = &lab.Events()[i]
		}
	}
	require.NotNil(t, lost, "the lost lease is told")
	require.Contains(t, lost.Detail, lease[0])
	require.Empty(t, lab.Breaks(), "B's step did not end A's lease")
}

// An actor's truth is the lease it really takes: region-partition's B holds
// the lease of region-b's own conflict key, and the snapshot says so —
// belief and truth agree, as the Redis pane shows.
func TestTruthIsTheActorsOwnLease(t *testing.T) {
	ctx := context.Background()
	s, _ := scenarios.ByID("region-partition")
	lab := newLab(t, storetest.Embedded(t), s, engine.Safe)
	require.NoError(t, lab.Next(ctx)) // the operator partitions region-b
	require.NoError(t, lab.Next(ctx)) // B takes its lease
	snap, err := lab.Snapshot(ctx)
	require.NoError(t, err)
	b := snap.Actors[1]
	require.Equal(t, "B", b.Name)
	require.Equal(t, "holds lease, token 100", b.Belief)
	require.Equal(t, "lease held by worker-B, token 100", b.Truth)
	require.False(t, b.Deceived)
}

// Narration says what a token means where it is: after the restart
// counter-loss's naive counter hands out a token smaller than those before
// it, and no narration calls a new token bigger than the last one when it
// is not.
func TestTokenNarrationIsTrue(t *testing.T) {
	ctx := context.Background()
	s, _ := scenarios.ByID("counter-loss")
	lab := newLab(t, storetest.Embedded(t), s, engine.Unsafe)
	require.NoError(t, lab.RunGuided(ctx))
	smaller := false
	for _, e := range lab.Events() {
		require.False(t, strings.Contains(e.Narration, "bigger number") && strings.Contains(e.Narration, "token 1:"), e.Narration)
		smaller = smaller || strings.Contains(e.Narration, "smaller than the tokens it handed out before")
	}
	require.True(t, smaller, "the smaller token is said")
}

// Every step of every guided story is narrated for a listener: a sentence
// of its own, not the command the timeline row shows.
func TestEveryGuidedStepIsNarrated(t *testing.T) {
	ctx := context.Background()
	db := storetest.Database(t)
	for _, s := range scenarios.All() {
		for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
			lab := newLabOn(t, storetest.Embedded(t), db, s, mode)
			require.NoError(t, lab.RunGuided(ctx))
			for _, e := range lab.Events() {
				where := fmt.Sprintf("%s %s #%d %s %s", s.ID, mode, e.Sequence, e.Code, e.State)
				require.NotEmpty(t, e.Narration, where)
				require.Regexp(t, `[.!?]$`, e.Narration, where)
				for _, command := range []string{"HSET", "DEL ", "GET ", "SET ", "INCR", "UPDATE ", "INSERT "} {
					require.False(t, strings.HasPrefix(e.Narration, command), "%s: %q", where, e.Narration)
				}
			}
			lab.Close(ctx)
		}
	}
}
