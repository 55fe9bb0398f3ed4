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

// On a Redis Cluster every script's keys share a hash tag, so each script
// runs on one node; what reads or deletes many keys reaches every master.
// A cluster is found from its list of nodes, or from one node alone.
func TestOnARedisCluster(t *testing.T) {
	ctx := context.Background()
	for name, url := range map[string]string{"nodes": storetest.RedisClusterURL(t), "one node": storetest.ClusterNodeURL(t)} {
		t.Run(name, func(t *testing.T) {
			c, err := redisstore.Connect(ctx, url)
			require.NoError(t, err)
			defer c.Close()
			require.True(t, strings.HasPrefix(c.Describe(), "cluster redis://"), c.Describe())
			require.True(t, c.Endpoint().Cluster)

			keys := []string{"summary:tenant-a:2026-07", "summary:tenant-b:2026-07", "summary:tenant-c:2026-07", "other"}
			a := c.Client("A").(world.RedisClient)
			for _, k := range keys {
				require.NoError(t, a.Bootstrap(ctx, k, 2, 40))
				grant, err := a.AcquireLease(ctx, k, "worker-A", time.Minute, 2, 0)
				require.NoError(t, err)
				require.Equal(t, world.LeaseGrant{Outcome: world.LeaseAcquired, Token: 41}, grant)
			}
			grant, err := c.Client("B").(world.RedisClient).AcquireLease(ctx, keys[0], "worker-B", time.Minute, 2, 0)
			require.NoError(t, err)
			require.Equal(t, world.LeaseContended, grant.Outcome)
			for _, target := range []string{"t1", "t2", "t3"} {
				job, err := a.AcquireJob(ctx, target, "job-1", 3, time.Now(), time.Hour, time.Hour)
				require.NoError(t, err)
				require.False(t, job.Reused)
			}

			all, err := c.Keys(ctx)
			require.NoError(t, err)
			require.Len(t, all, 4*3+3*2, "every master's keys")
			jobs, err := c.Jobs(ctx)
			require.NoError(t, err)
			require.Len(t, jobs.Jobs, 3)

			// A copy of the keys goes back whole (check on a real server).
			var relative []engine.RedisKey
			for _, k := range all {
				k.Key = k.Key[len(c.Prefix()):]
				relative = append(relative, k)
			}
			require.NoError(t, c.Wipe(ctx))
			none, err := c.Keys(ctx)
			require.NoError(t, err)
			require.Empty(t, none)
			require.NoError(t, c.Restore(ctx, nil, relative))
			back, err := c.Keys(ctx)
			require.NoError(t, err)
			require.Len(t, back, len(all))
		})
	}
	// Nothing of the runs is left on any master.
	require.Empty(t, storetest.ClusterKeys(t, "fencelab:*"))
}

func TestClusterURLs(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"redis://127.0.0.1:7000,127.0.0.1:7001,127.0.0.1:7002", true},
		{"redis://user:secret@h1:7000,h2:7001/0?dial_timeout=1s", true},
		{"redis://h1:7000,h2:7001/3", false},
		{"redis://h1:7000,,h2:7001", false},
		{"redis://h1:7000", true},
		{"http://h1:7000,h2:7001", false},
	} {
		err := redisstore.ValidateURL(tc.url)
		require.Equal(t, tc.ok, err == nil, "%s: %v", tc.url, err)
	}
}

// Whether a server is a cluster's node is asked with HELLO, which any user
// may send; INFO, which an ACL that keeps a user to its keys denies, only
// of a server whose HELLO does not say — and a user denied INFO there is
// taken for one server's.
func TestClusterProbeAsAUserKeptToItsKeys(t *testing.T) {
	ctx := context.Background()
	rules := []string{"~fencelab:*", "+@all", "-@dangerous"}
	for name, tc := range map[string]struct {
		url     func(t *testing.T) string
		cluster bool
		denied  []string
	}{
		"one server":       {func(t *testing.T) string { return storetest.RedisUser(t, rules...) }, false, nil},
		"a cluster's node": {func(t *testing.T) string { return storetest.ClusterNodeUser(t, rules...) }, true, nil},
		"a server without HELLO": {func(t *testing.T) string {
			return storetest.RedisUserOn(t, []string{"--rename-command", "HELLO", ""}, rules...)
		}, false, []string{"command info ×1"}},
	} {
		t.Run(name, func(t *testing.T) {
			url := tc.url(t)
			c, err := redisstore.Connect(ctx, url)
			require.NoError(t, err)
			require.Equal(t, tc.cluster, c.Endpoint().Cluster)
			require.NoError(t, c.Client("A").(world.RedisClient).Bootstrap(ctx, key, 2, 40))
			grant, err := c.Client("A").(world.RedisClient).AcquireLease(ctx, key, "worker-A", time.Minute, 2, 0)
			require.NoError(t, err)
			require.Equal(t, world.LeaseAcquired, grant.Outcome)
			require.NoError(t, c.Close())
			require.Equal(t, tc.denied, storetest.ACLDenials(t, url))
		})
	}
}
