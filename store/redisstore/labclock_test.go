package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
)

// A real server kept on the lab clock: a lease's TTL is what the call set,
// exactly, however long the wall clock runs; the server holds a real TTL
// a second above it; the lab clock ends it; a renewal is learnt exactly; a
// restore of another state writes what differs and keeps the TTLs exact.
func TestARealServerOnTheLabClock(t *testing.T) {
	ctx := context.Background()
	c := storetest.RealRedis(t)
	c.FollowLabClock()
	require.True(t, c.Virtual())
	client := c.Client("A").(world.RedisClient)
	require.NoError(t, client.Bootstrap(ctx, key, 2, 40))
	_, err := client.AcquireLease(ctx, key, "worker-A", 700*time.Millisecond, 2, 0)
	require.NoError(t, err)
	lease := c.ConflictKeyNames(key)[0]
	ttl := func() time.Duration {
		t.Helper()
		keys, err := c.Keys(ctx)
		require.NoError(t, err)
		for _, k := range keys {
			if k.Key == lease {
				return k.TTL
			}
		}
		return 0
	}
	require.Equal(t, 700*time.Millisecond, ttl())
	time.Sleep(2500 * time.Millisecond) // past the lease and the slack, on the wall clock
	require.Equal(t, 700*time.Millisecond, ttl(), "the wall clock does not run the lab's TTLs down")
	server := storetest.ServerTTL(t, c, lease)
	require.Greater(t, server, time.Duration(0))
	require.LessOrEqual(t, server, 1700*time.Millisecond)
	require.Empty(t, lostKeys(t, c, false))

	status, err := client.RenewLease(ctx, key, "worker-A", 41, 900*time.Millisecond, 2, 0)
	require.NoError(t, err)
	require.Equal(t, world.LeaseStatus(1), status)
	require.Equal(t, 900*time.Millisecond, ttl(), "the renewal's TTL, exactly")
	require.NoError(t, c.Elapse(ctx, 500*time.Millisecond))
	require.Equal(t, 400*time.Millisecond, ttl())
	saved, err := c.Keys(ctx)
	require.NoError(t, err)
	require.NoError(t, c.Elapse(ctx, 400*time.Millisecond))
	require.Zero(t, ttl(), "the lease ran out on the lab clock")
	require.Equal(t, time.Duration(-2), storetest.ServerTTL(t, c, lease), "and is gone from the server")

	// A job comes; the saved state goes back, written where it differs.
	_, err = client.AcquireJob(ctx, "target", "job-1", 3, created, time.Hour, time.Minute)
	require.NoError(t, err)
	now, err := c.Keys(ctx)
	require.NoError(t, err)
	require.NoError(t, c.Restore(ctx, relative(c, now), relative(c, saved)))
	back, err := c.Keys(ctx)
	require.NoError(t, err)
	require.Equal(t, saved, back)
	require.Empty(t, lostKeys(t, c, false))

	// A key deleted behind the lab's back is lost, and said once: the
	// keeper notices, or a look on the server now.
	storetest.DeleteOnServer(t, c, lease)
	time.Sleep(600 * time.Millisecond)
	require.Equal(t, []string{lease}, lostKeys(t, c, false))
	require.Empty(t, lostKeys(t, c, false))
	_, err = client.AcquireLease(ctx, key, "worker-A", time.Minute, 2, 0)
	require.NoError(t, err)
	_, err = c.Keys(ctx) // the lab reads its keys after every action
	require.NoError(t, err)
	storetest.DeleteOnServer(t, c, lease)
	require.Equal(t, []string{lease}, lostKeys(t, c, true))
}

func lostKeys(t *testing.T, c *redisstore.Coordination, now bool) []string {
	t.Helper()
	lost, err := c.LostKeys(context.Background(), now)
	require.NoError(t, err)
	return lost
}

// The TTL a call set is the one it passed, read back a little short.
func TestTheTTLACallSet(t *testing.T) {
	ms := time.Millisecond
	given := redisstore.Given
	require.Equal(t, 900*ms, given(897*ms, []time.Duration{900 * ms}, 3*ms), "read 3ms after it was set")
	require.Equal(t, 900*ms, given(900*ms, []time.Duration{time.Hour, 900 * ms}, 0))
	require.Equal(t, 850*ms, given(850*ms, []time.Duration{900 * ms}, 3*ms), "not a TTL the call set: as read")
	require.Equal(t, 1000*ms, given(1000*ms, []time.Duration{900 * ms}, time.Second), "never less than read")
	require.Equal(t, 500*ms, given(499*ms, []time.Duration{600 * ms, 500 * ms}, 200*ms), "the nearest above")
}
