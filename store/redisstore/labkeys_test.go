package redisstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
)

// labKeys makes a lease (a string with a TTL), a counter and an epoch
// (strings without one), and a job hash with its running pointer.
func labKeys(t *testing.T, c *redisstore.Coordination) {
	t.Helper()
	ctx := context.Background()
	client := c.Client("A").(world.RedisClient)
	require.NoError(t, client.Bootstrap(ctx, key, 2, 40))
	_, err := client.AcquireLease(ctx, key, "worker-A", 30*time.Second, 2, 0)
	require.NoError(t, err)
	_, err = client.AcquireJob(ctx, "target", "job-1", 3, created, time.Hour, time.Hour)
	require.NoError(t, err)
}

// relative names keys as Restore takes them.
func relative(c *redisstore.Coordination, keys []engine.RedisKey) []engine.RedisKey {
	out := make([]engine.RedisKey, len(keys))
	for i, k := range keys {
		k.Key = strings.TrimPrefix(k.Key, c.Prefix())
		out[i] = k
	}
	return out
}

// The embedded server's keys are read from its memory and a real server's
// over the wire; both read the same keys alike.
func TestKeysReadAlikeOnBothServers(t *testing.T) {
	ctx := context.Background()
	read := map[string][]engine.RedisKey{}
	var jobs []world.JobsState
	storetest.Redises(t, func(t *testing.T, c *redisstore.Coordination) {
		require.NoError(t, c.Wipe(ctx))
		labKeys(t, c)
		keys, err := c.Keys(ctx)
		require.NoError(t, err)
		for i, k := range keys {
			require.True(t, strings.HasPrefix(k.Key, c.Prefix()), k.Key)
			require.NotZero(t, k.TTL, "%s: a TTL is positive, none is negative", k.Key)
			keys[i].TTL = max(min(k.TTL, 1), -1) // has one or not: a real server's runs on
		}
		read[t.Name()] = relative(c, keys)
		state, err := c.Jobs(ctx)
		require.NoError(t, err)
		for i := range state.Jobs {
			state.Jobs[i].Key = strings.TrimPrefix(state.Jobs[i].Key, c.Prefix())
		}
		jobs = append(jobs, state)
	})
	require.Len(t, read, 2)
	require.Len(t, read["TestKeysReadAlikeOnBothServers/miniredis"], 5)
	require.Equal(t, read["TestKeysReadAlikeOnBothServers/miniredis"], read["TestKeysReadAlikeOnBothServers/redis-server"])
	require.Len(t, jobs[0].Jobs, 1)
	require.Equal(t, jobs[0], jobs[1])
}

// Restore puts back exactly the keys read, with their TTLs, whatever
// happened to them since, on the same lab or another one, and touches no
// key that is not the lab's.
func TestRestorePutsTheKeysBack(t *testing.T) {
	storetest.Redises(t, func(t *testing.T, c *redisstore.Coordination) {
		ctx := context.Background()
		require.NoError(t, c.Wipe(ctx))
		require.NoError(t, redisstore.SetRaw(ctx, c, "someone:else", "keep me"))
		labKeys(t, c)
		saved, err := c.Keys(ctx)
		require.NoError(t, err)

		// Everything changes: a key goes, a hash field changes, a key comes.
		client := c.Client("B").(world.RedisClient)
		_, err = client.TransitionJob(ctx, "target", "job-1", world.JobFailed, 0)
		require.NoError(t, err)
		require.NoError(t, client.Bootstrap(ctx, "another:key", 1, 1))
		_, err = client.AcquireLeader(ctx, "daily", "worker-B", time.Minute)
		require.NoError(t, err)

		require.NoError(t, c.Restore(ctx, nil, relative(c, saved)))
		restored, err := c.Keys(ctx)
		require.NoError(t, err)
		requireSameKeys(t, saved, restored, c.Virtual())
		v, err := redisstore.GetRaw(ctx, c, "someone:else")
		require.NoError(t, err)
		require.Equal(t, "keep me", v)

		// The copy fits a lab with a namespace of its own.
		other := storetest.Embedded(t)
		if !c.Virtual() {
			other = storetest.RealRedis(t)
		}
		require.NoError(t, other.Restore(ctx, nil, relative(c, saved)))
		copied, err := other.Keys(ctx)
		require.NoError(t, err)
		requireSameKeys(t, relative(c, saved), relative(other, copied), c.Virtual())
	})
}

// requireSameKeys compares keys with their TTLs: exactly on the embedded
// server, whose clock stands still; within the test's time on a real one.
func requireSameKeys(t *testing.T, want, got []engine.RedisKey, exact bool) {
	t.Helper()
	require.Len(t, got, len(want))
	for i := range want {
		w, g := want[i], got[i]
		if !exact && w.TTL > 0 {
			require.InDelta(t, w.TTL, g.TTL, float64(5*time.Second), w.Key)
			w.TTL, g.TTL = 0, 0
		}
		require.Equal(t, w, g)
	}
}
