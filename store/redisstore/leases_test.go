package redisstore_test

import (
	"context"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
)

const key = "summary:tenant-a:2026-07"

// The Lua scripts, against miniredis and a real redis-server.
func TestLeaseScripts(t *testing.T) {
	storetest.Redises(t, func(t *testing.T, c *redisstore.Coordination) {
		ctx := context.Background()
		a, b := c.Client("A").(world.RedisClient), c.Client("B").(world.RedisClient)
		ttl := time.Minute

		t.Run("acquire refuses without a bootstrapped history", func(t *testing.T) {
			require.NoError(t, c.Wipe(ctx))
			_, err := a.AcquireLease(ctx, key, "worker-A", ttl, 2, 0)
			require.ErrorIs(t, err, world.ErrHistoryLost)
		})

		t.Run("tokens grow, a held lease is contended, the holder extends", func(t *testing.T) {
			require.NoError(t, c.Wipe(ctx))
			require.NoError(t, a.Bootstrap(ctx, key, 2, 40))

			grant, err := a.AcquireLease(ctx, key, "worker-A", ttl, 2, 0)
			require.NoError(t, err)
			require.Equal(t, world.LeaseGrant{Outcome: world.LeaseAcquired, Token: 41}, grant)

			grant, err = b.AcquireLease(ctx, key, "worker-B", ttl, 2, 0)
			require.NoError(t, err)
			require.Equal(t, world.LeaseGrant{Outcome: world.LeaseContended, Holder: "worker-A", HolderToken: 41}, grant)

			grant, err = a.AcquireLease(ctx, key, "worker-A", ttl, 2, 0)
			require.NoError(t, err)
			require.Equal(t, world.LeaseGrant{Outcome: world.LeaseExtended, Token: 41}, grant)

			status, err := a.ReleaseLease(ctx, key, "worker-A", 41, 2, 0)
			require.NoError(t, err)
			require.Equal(t, world.LeaseDone, status)

			grant, err = b.AcquireLease(ctx, key, "worker-B", ttl, 2, 0)
			require.NoError(t, err)
			require.Equal(t, world.LeaseGrant{Outcome: world.LeaseAcquired, Token: 42}, grant, "the counter survives a release")
		})

		t.Run("renew and release check owner, token and epoch", func(t *testing.T) {
			require.NoError(t, c.Wipe(ctx))
			require.NoError(t, a.Bootstrap(ctx, key, 2, 40))
			_, err := a.AcquireLease(ctx, key, "worker-A", ttl, 2, 0)
			require.NoError(t, err)

			for _, tc := range []struct {
				owner string
				token int64
				epoch int64
				want  world.LeaseStatus
			}{
				{"worker-B", 41, 2, world.LeaseLost},
				{"worker-A", 40, 2, world.LeaseLost},
				{"worker-A", 41, 3, world.LeaseEpochMismatch},
				{"worker-A", 41, 2, world.LeaseDone},
			} {
				status, err := a.RenewLease(ctx, key, tc.owner, tc.token, ttl, tc.epoch, 0)
				require.NoError(t, err)
				require.Equal(t, tc.want, status, "renew %+v", tc)
			}
			status, err := b.ReleaseLease(ctx, key, "worker-B", 41, 2, 0)
			require.NoError(t, err)
			require.Equal(t, world.LeaseLost, status)
			status, err = a.ReleaseLease(ctx, key, "worker-A", 41, 2, 0)
			require.NoError(t, err)
			require.Equal(t, world.LeaseDone, status)
			status, err = a.ReleaseLease(ctx, key, "worker-A", 41, 2, 0)
			require.NoError(t, err)
			require.Equal(t, world.LeaseLost, status)
		})

		t.Run("without the owner guard, renew and release change another's lease", func(t *testing.T) {
			require.NoError(t, c.Wipe(ctx))
			require.NoError(t, a.Bootstrap(ctx, key, 2, 40))
			_, err := b.AcquireLease(ctx, key, "worker-B", ttl, 2, 0)
			require.NoError(t, err)
			status, err := a.RenewLease(ctx, key, "worker-A", 7, ttl, 2, engine.Guards(world.GuardOwner))
			require.NoError(t, err)
			require.Equal(t, world.LeaseDone, status, "worker-B's lease extended by A")
			status, err = a.ReleaseLease(ctx, key, "worker-A", 7, 2, engine.Guards(world.GuardOwner))
			require.NoError(t, err)
			require.Equal(t, world.LeaseDone, status, "worker-B's lease deleted by A")
			status, err = a.ReleaseLease(ctx, key, "worker-A", 7, 2, engine.Guards(world.GuardOwner))
			require.NoError(t, err)
			require.Equal(t, world.LeaseLost, status, "nothing left to delete")
		})

		t.Run("without the history guard, a lost counter starts from zero", func(t *testing.T) {
			require.NoError(t, c.Wipe(ctx))
			_, err := a.AcquireLease(ctx, key, "worker-A", ttl, 2, 0)
			require.ErrorIs(t, err, world.ErrHistoryLost)
			grant, err := a.AcquireLease(ctx, key, "worker-A", ttl, 2, engine.Guards(world.GuardHistory))
			require.NoError(t, err)
			require.Equal(t, int64(1), grant.Token)
		})

		t.Run("without the namespace guard, another epoch is not compared", func(t *testing.T) {
			require.NoError(t, c.Wipe(ctx))
			require.NoError(t, a.Bootstrap(ctx, key, 3, 40))
			grant, err := a.AcquireLease(ctx, key, "worker-A", ttl, 2, engine.Guards(world.GuardNamespace))
			require.NoError(t, err)
			require.Equal(t, int64(41), grant.Token)
			status, err := a.ReleaseLease(ctx, key, "worker-A", 41, 2, 0)
			require.NoError(t, err)
			require.Equal(t, world.LeaseEpochMismatch, status)
			status, err = a.ReleaseLease(ctx, key, "worker-A", 41, 2, engine.Guards(world.GuardNamespace))
			require.NoError(t, err)
			require.Equal(t, world.LeaseDone, status)
		})

		t.Run("another namespace epoch is refused", func(t *testing.T) {
			require.NoError(t, c.Wipe(ctx))
			require.NoError(t, a.Bootstrap(ctx, key, 3, 0))
			_, err := a.AcquireLease(ctx, key, "worker-A", ttl, 2, 0)
			require.ErrorIs(t, err, world.ErrEpochMismatch)
			grant, err := a.AcquireLease(ctx, key, "worker-A", ttl, 3, 0)
			require.NoError(t, err)
			require.Equal(t, int64(1), grant.Token, "a new epoch starts a new token space")
		})

		t.Run("bootstrap never lowers the counter", func(t *testing.T) {
			require.NoError(t, c.Wipe(ctx))
			require.NoError(t, a.Bootstrap(ctx, key, 2, 40))
			require.NoError(t, a.Bootstrap(ctx, key, 2, 5))
			grant, err := a.AcquireLease(ctx, key, "worker-A", ttl, 2, 0)
			require.NoError(t, err)
			require.Equal(t, int64(41), grant.Token)
		})

		t.Run("leader lease holds an owner id", func(t *testing.T) {
			require.NoError(t, c.Wipe(ctx))
			grant, err := a.AcquireLeader(ctx, "daily-summary", "worker-A", ttl)
			require.NoError(t, err)
			require.Equal(t, world.LeaseAcquired, grant.Outcome)
			grant, err = b.AcquireLeader(ctx, "daily-summary", "worker-B", ttl)
			require.NoError(t, err)
			require.Equal(t, world.LeaseGrant{Outcome: world.LeaseContended, Holder: "worker-A"}, grant)
			status, err := b.ReleaseLeader(ctx, "daily-summary", "worker-B")
			require.NoError(t, err)
			require.Equal(t, world.LeaseLost, status)
			status, err = a.ReleaseLeader(ctx, "daily-summary", "worker-A")
			require.NoError(t, err)
			require.Equal(t, world.LeaseDone, status)
		})

		t.Run("keys are listed with TTLs and expire as time passes", func(t *testing.T) {
			require.NoError(t, c.Wipe(ctx))
			require.NoError(t, a.Bootstrap(ctx, key, 2, 40))
			_, err := a.AcquireLease(ctx, key, "worker-A", 50*time.Millisecond, 2, 0)
			require.NoError(t, err)
			keys, err := c.Keys(ctx)
			require.NoError(t, err)
			require.Len(t, keys, 3)
			var lease engine.RedisKey
			for _, k := range keys {
				require.True(t, strings.HasPrefix(k.Key, c.Prefix()+"{"), k.Key)
				if k.TTL > 0 {
					lease = k
				}
			}
			require.Equal(t, "worker-A|41", lease.Value)
			require.NoError(t, c.Elapse(ctx, 60*time.Millisecond))
			keys, err = c.Keys(ctx)
			require.NoError(t, err)
			require.Len(t, keys, 2, "the lease expired, counter and epoch stay")
		})
	})
}

// A lease value that is not owner|token is refused, not parsed as a holder.
func TestCorruptLease(t *testing.T) {
	storetest.Redises(t, func(t *testing.T, c *redisstore.Coordination) {
		ctx := context.Background()
		require.NoError(t, c.Wipe(ctx))
		a := c.Client("A").(world.RedisClient)
		require.NoError(t, a.Bootstrap(ctx, key, 2, 40))
		// Take a lease, then overwrite it through the admin path a script
		// would never use.
		_, err := a.AcquireLease(ctx, key, "worker-A", time.Minute, 2, 0)
		require.NoError(t, err)
		keys, err := c.Keys(ctx)
		require.NoError(t, err)
		var leaseKey string
		for _, k := range keys {
			if k.TTL > 0 {
				leaseKey = k.Key
			}
		}
		require.NoError(t, redisstore.SetRaw(ctx, c, leaseKey, "garbage"))
		_, err = a.AcquireLease(ctx, key, "worker-B", time.Minute, 2, 0)
		require.ErrorIs(t, err, world.ErrLeaseCorrupt)
	})
}

// Wipe deletes the lab's keys and nothing else on the server.
func TestWipeTouchesOnlyLabKeys(t *testing.T) {
	storetest.Redises(t, func(t *testing.T, c *redisstore.Coordination) {
		ctx := context.Background()
		require.NoError(t, redisstore.SetRaw(ctx, c, "someone:else", "keep me"))
		require.NoError(t, c.Client("A").(world.RedisClient).Bootstrap(ctx, key, 2, 40))
		require.NoError(t, c.Wipe(ctx))
		keys, err := c.Keys(ctx)
		require.NoError(t, err)
		require.Empty(t, keys)
		v, err := redisstore.GetRaw(ctx, c, "someone:else")
		require.NoError(t, err)
		require.Equal(t, "keep me", v)
	})
}

// Two runs on one real server each have a namespace of their own: neither
// sees, wipes or collides with the other's keys, and closing a run deletes
// its keys and nothing else.
func TestRunsOnOneServerAreApart(t *testing.T) {
	ctx := context.Background()
	url := storetest.RealRedisURL(t)
	first, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	second, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	require.NotEqual(t, first.Prefix(), second.Prefix())
	require.NoError(t, redisstore.SetRaw(ctx, first, "someone:else", "keep me"))

	for _, c := range []*redisstore.Coordination{first, second} {
		require.NoError(t, c.Client("A").(world.RedisClient).Bootstrap(ctx, key, 2, 40))
		grant, err := c.Client("A").(world.RedisClient).AcquireLease(ctx, key, "worker-A", time.Minute, 2, 0)
		require.NoError(t, err)
		require.Equal(t, int64(41), grant.Token, "each run counts from its own seed")
	}
	require.NoError(t, second.Wipe(ctx))
	keys, err := first.Keys(ctx)
	require.NoError(t, err)
	require.Len(t, keys, 3, "the other run's wipe left this run's keys")

	require.NoError(t, first.Close())
	require.NoError(t, second.Close())
	observer, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	defer observer.Close()
	for _, run := range []*redisstore.Coordination{first, second} {
		left, err := redisstore.ScanRaw(ctx, observer, run.Prefix()+"*")
		require.NoError(t, err)
		require.Empty(t, left, "a closed run left keys behind")
	}
	left, err := redisstore.ScanRaw(ctx, observer, redisstore.Prefix+"alive:*")
	require.NoError(t, err)
	require.Len(t, left, 1, "only the observer is alive")
	v, err := redisstore.GetRaw(ctx, observer, "someone:else")
	require.NoError(t, err)
	require.Equal(t, "keep me", v)
}

// A run killed outright leaves its keys; the next run to connect deletes
// them, and only them: a live run's keys stay.
func TestKilledRunsKeysAreSwept(t *testing.T) {
	ctx := context.Background()
	url := storetest.RealRedisURL(t)
	killed, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	live, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	defer live.Close()
	for _, c := range []*redisstore.Coordination{killed, live} {
		require.NoError(t, c.Client("A").(world.RedisClient).Bootstrap(ctx, key, 2, 40))
	}
	require.NoError(t, redisstore.Abandon(ctx, killed))
	require.NotEmpty(t, storetest.ServerKeys(t, url, killed.Prefix()+"*"))

	next, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	defer next.Close()
	require.Empty(t, storetest.ServerKeys(t, url, killed.Prefix()+"*"), "the killed run's keys stay")
	require.Len(t, storetest.ServerKeys(t, url, live.Prefix()+"*"), 2, "the live run lost its keys")
}

// The process's own clients reach the embedded server over in-memory
// pipes; a restart of the server closes them, and the next call goes on a
// new one (as over a socket the server closed), finding the history gone.
func TestEmbeddedRestartClosesThePipesAndTheNextCallReconnects(t *testing.T) {
	ctx := context.Background()
	c := storetest.Embedded(t)
	a := c.Client("A").(world.RedisClient)
	require.NoError(t, a.Bootstrap(ctx, key, 2, 40))
	_, err := a.AcquireLease(ctx, key, "worker-A", time.Minute, 2, 0)
	require.NoError(t, err)

	restarted, err := c.Restart(ctx)
	require.NoError(t, err)
	require.True(t, restarted)
	_, err = a.AcquireLease(ctx, key, "worker-A", time.Minute, 2, 0)
	require.ErrorIs(t, err, world.ErrHistoryLost, "a new connection to the emptied server")
}

// A restart whose port another listener took while the server was down
// comes back on another port: the calls go on, and the address it shows
// is the new one.
func TestEmbeddedRestartWhosePortWasTakenComesBackElsewhere(t *testing.T) {
	ctx := context.Background()
	c := storetest.Embedded(t)
	a := c.Client("A").(world.RedisClient)
	require.NoError(t, a.Bootstrap(ctx, key, 2, 40))
	addr := redisstore.StopEmbedded(c)
	taken, err := net.Listen("tcp", addr)
	require.NoError(t, err)
	defer taken.Close()

	restarted, err := c.Restart(ctx)
	require.NoError(t, err)
	require.True(t, restarted)
	require.NotEqual(t, "redis://"+addr, c.Endpoint().URL)
	_, err = a.AcquireLease(ctx, key, "worker-A", time.Minute, 2, 0)
	require.ErrorIs(t, err, world.ErrHistoryLost, "a new connection to the emptied server")
	options, err := redis.ParseURL(c.Endpoint().URL)
	require.NoError(t, err)
	outside := redis.NewClient(options) // as redis-cli or a worker process
	defer outside.Close()
	require.NoError(t, outside.Ping(ctx).Err())
}

// A long pipeline to the embedded server — Wipe unlinks its keys 500 to a
// round trip — goes through its in-memory pipe: the server's replies wait
// in memory while the client is still sending, as a socket's buffers would
// let them.
func TestALongPipelineReachesTheEmbeddedServer(t *testing.T) {
	ctx := context.Background()
	c := storetest.Embedded(t)
	for i := range 1200 {
		require.NoError(t, redisstore.SetRaw(ctx, c, fmt.Sprintf("%sjunk:%d", redisstore.Prefix, i), "x"))
	}
	require.NoError(t, c.Wipe(ctx))
	left, err := redisstore.ScanRaw(ctx, c, redisstore.Prefix+"junk:*")
	require.NoError(t, err)
	require.Empty(t, left)
}
