package redisstore_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
)

// serverUsers lists the server's users, as its default user sees them.
func serverUsers(t *testing.T, url string) []string {
	t.Helper()
	options, err := redis.ParseURL(url)
	require.NoError(t, err)
	rdb := redis.NewClient(options)
	defer rdb.Close()
	users, err := rdb.Do(context.Background(), "acl", "users").StringSlice()
	require.NoError(t, err)
	return users
}

// On a server of yours, a file's code runs as the run's own Redis user:
// the server itself refuses it any key outside the run's namespace and
// any command a file may not send, whatever fencelab's own checks (the
// scenario's parse, the script's frame) let through. The user goes when
// the run ends; a killed run's, when the next run makes its own.
func TestAFilesRedisCodeRunsAsAUserKeptToTheRunsKeys(t *testing.T) {
	ctx := context.Background()
	url := storetest.RealRedisURL(t)
	c, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	code := c.Client("A").(world.RedisClient)

	said, err := code.RunCode(ctx, engine.RedisCall{Words: []string{"SET", "k", "1"}, KeyAt: []int{1}})
	require.NoError(t, err)
	require.Equal(t, "OK", said.Text)
	user, refused := c.CodeUser()
	require.Empty(t, refused)
	require.True(t, strings.HasPrefix(user, "fencelab-code-"), user)
	require.Contains(t, serverUsers(t, url), user)

	// What fencelab's checks would have refused first, sent past them:
	// the server's rule holds on its own.
	for _, words := range [][]string{
		{"GET", "someone-elses-key"},
		{"GET", "fencelab:another-run:k"},
		{"KEYS", "*"},
		{"CONFIG", "GET", "*"},
		{"FLUSHALL"},
		{"ACL", "SETUSER", "me", "on", "+@all"},
	} {
		said, err := code.RunCode(ctx, engine.RedisCall{Words: words})
		require.NoError(t, err, "%v", words)
		require.True(t, said.Error, "%v answered %s", words, said.Text)
		require.Contains(t, said.Text, "NOPERM", "%v", words)
	}
	said, err = code.RunCode(ctx, engine.RedisCall{Script: "return redis.call('GET', KEYS[1])", Keys: []string{"k"}})
	require.NoError(t, err)
	require.Equal(t, "1", said.Text, "a script on the run's keys runs")

	require.NoError(t, c.Close())
	require.NotContains(t, serverUsers(t, url), user, "the run's user outlived it")

	killed, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	_, err = killed.Client("A").(world.RedisClient).RunCode(ctx, engine.RedisCall{Words: []string{"SET", "k", "1"}, KeyAt: []int{1}})
	require.NoError(t, err)
	left, _ := killed.CodeUser()
	require.NoError(t, redisstore.Abandon(ctx, killed))
	require.Contains(t, serverUsers(t, url), left)
	next, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	defer next.Close()
	_, err = next.Client("A").(world.RedisClient).RunCode(ctx, engine.RedisCall{Words: []string{"SET", "k", "1"}, KeyAt: []int{1}})
	require.NoError(t, err)
	require.NotContains(t, serverUsers(t, url), left, "the next run to make a user sweeps a killed run's")
}

// Where fencelab's own user may not make users, a file's code does not
// run, and the error says what the user needs; trusted (--trust-code), it
// runs as fencelab's own user, and CodeUser says why, for the run to say
// so.
func TestAFilesRedisCodeRunsNowhereButAsItsOwnUserUnlessTrusted(t *testing.T) {
	ctx := context.Background()
	c, err := redisstore.Connect(ctx, storetest.RedisUser(t, "~fencelab:*", "+@all", "-@dangerous"))
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Client("A").(world.RedisClient).RunCode(ctx, engine.RedisCall{Words: []string{"SET", "k", "1"}, KeyAt: []int{1}})
	require.ErrorIs(t, err, redisstore.ErrNoCodeUser)
	require.ErrorContains(t, err, "--trust-code")
	user, refused := c.CodeUser()
	require.Empty(t, user+refused, "nothing ran as fencelab's user")

	c.TrustCode(true)
	said, err := c.Client("A").(world.RedisClient).RunCode(ctx, engine.RedisCall{Words: []string{"SET", "k", "1"}, KeyAt: []int{1}})
	require.NoError(t, err)
	require.Equal(t, "OK", said.Text)
	user, refused = c.CodeUser()
	require.Empty(t, user)
	require.Contains(t, refused, "NOPERM")
	said, err = c.Client("A").(world.RedisClient).RunCode(ctx, engine.RedisCall{Script: "return redis.call('GET', KEYS[1])", Keys: []string{"k"}})
	require.NoError(t, err)
	require.Equal(t, "1", said.Text)
}

// A fencelab user that may not load functions runs a trusted file's
// scripts with EVAL: the same answers, without a stuck script's kill.
func TestAFilesScriptRunsWithEvalWhereFencelabMayNotLoadFunctions(t *testing.T) {
	ctx := context.Background()
	c, err := redisstore.Connect(ctx, storetest.RedisUser(t, "~fencelab:*", "+@all", "-@dangerous", "-function"))
	require.NoError(t, err)
	defer c.Close()
	c.TrustCode(true)
	for _, want := range []string{"OK", "1"} {
		said, err := c.Client("A").(world.RedisClient).RunCode(ctx, engine.RedisCall{Script: "if ARGV[1] == 'set' then return redis.call('SET', KEYS[1], '1') end return redis.call('GET', KEYS[1])",
			Keys: []string{"k"}, Args: []string{map[string]string{"OK": "set", "1": "get"}[want]}})
		require.NoError(t, err)
		require.Equal(t, want, said.Text)
	}
	said, err := c.Client("A").(world.RedisClient).RunCode(ctx, engine.RedisCall{Script: "local a = 1\nreturn a + nil"})
	require.NoError(t, err)
	require.Contains(t, said.Text, "user_script:2:")
}

// On a Redis Cluster each node keeps its own users: the run's is made on
// every one, a script runs on the node of its keys' slot as it, and it
// goes from every node when the run ends.
func TestAFilesRedisCodeRunsAsItsUserOnEveryNodeOfACluster(t *testing.T) {
	ctx := context.Background()
	url := storetest.RedisClusterURL(t)
	c, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	code := c.Client("A").(world.RedisClient)
	said, err := code.RunCode(ctx, engine.RedisCall{Script: "return redis.call('SET', KEYS[1], '1')", Keys: []string{"k"}})
	require.NoError(t, err)
	require.Equal(t, "OK", said.Text)
	user, refused := c.CodeUser()
	require.Empty(t, refused)
	said, err = code.RunCode(ctx, engine.RedisCall{Words: []string{"GET", "someone-elses-key"}})
	require.NoError(t, err)
	require.Contains(t, said.Text, "NOPERM")
	require.NoError(t, c.Close())
	cluster := redis.NewClusterClient(&redis.ClusterOptions{Addrs: strings.Split(strings.TrimPrefix(url, "redis://"), ",")})
	defer cluster.Close()
	require.NoError(t, cluster.ForEachShard(ctx, func(ctx context.Context, node *redis.Client) error {
		users, err := node.Do(ctx, "acl", "users").StringSlice()
		if err == nil && slices.Contains(users, user) {
			return fmt.Errorf("%s still has %s", node, user)
		}
		if libraries, err := node.FunctionList(ctx, redis.FunctionListQuery{LibraryNamePattern: "fencelab_code_*"}).Result(); err != nil || len(libraries) > 0 {
			return fmt.Errorf("%s still has the run's functions %v (%v)", node, libraries, err)
		}
		return err
	}))
}
