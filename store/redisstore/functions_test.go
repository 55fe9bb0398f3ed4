package redisstore_test

import (
	"context"
	"fmt"
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

// rawRedis is a client of the test's server as its default user, outside
// fencelab.
func rawRedis(t *testing.T, url string) *redis.Client {
	t.Helper()
	options, err := redis.ParseURL(url)
	require.NoError(t, err)
	rdb := redis.NewClient(options)
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// libraries are the server's function libraries of fencelab's.
func libraries(t *testing.T, rdb *redis.Client) []string {
	t.Helper()
	list, err := rdb.FunctionList(context.Background(), redis.FunctionListQuery{LibraryNamePattern: "fencelab_code_*"}).Result()
	require.NoError(t, err)
	var names []string
	for _, l := range list {
		names = append(names, l.Name)
	}
	return names
}

// slowScript runs for tens of seconds on a real Redis within the frame's
// budget of ticks (900,000 iterations, each a plain find through 2 MB),
// and writes nothing: FUNCTION KILL may stop it.
const slowScript = "local s = string.rep('a', 2000000) local n = 0 for i = 1, 900000 do if string.find(s, 'b', 1, true) then n = n + 1 end end return n"

// A file's script that keeps a Redis of the user's busy past the call's
// deadline is stopped by fencelab, which proves it its own first: the
// server names the run's function and the call's nonce as what it runs.
// The server then answers at once, and the run's function goes with the
// run.
func TestAScriptThatHoldsARealRedisIsStoppedAsFencelabsOwn(t *testing.T) {
	ctx := context.Background()
	url := storetest.RealRedisURL(t)
	raw := rawRedis(t, url)
	// The server counts a script as busy (and answers FUNCTION STATS)
	// from this on; 5 s by default.
	require.NoError(t, raw.ConfigSet(ctx, "busy-reply-threshold", "300").Err())
	c, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	code := c.Client("A").(world.RedisClient)

	said, err := code.RunCode(ctx, engine.RedisCall{Script: "return redis.call('SET', KEYS[1], ARGV[1])", Keys: []string{"k"}, Args: []string{"v"}})
	require.NoError(t, err)
	require.Equal(t, "OK", said.Text)
	require.Len(t, libraries(t, raw), 1, "the script runs as a function of the run's")

	began := time.Now()
	_, err = code.RunCode(ctx, engine.RedisCall{Script: slowScript, Keys: []string{"k"}})
	require.ErrorContains(t, err, "fencelab stopped it with FUNCTION KILL")
	require.Less(t, time.Since(began), 15*time.Second)
	require.NoError(t, raw.Ping(ctx).Err(), "the server answers again")

	// A script's error still names the script's own line.
	said, err = code.RunCode(ctx, engine.RedisCall{Script: "local a = 1\nreturn a + nil", Keys: []string{"k"}})
	require.NoError(t, err)
	require.True(t, said.Error)
	require.Contains(t, said.Text, "user_script:2:", said.Text)
	require.NotContains(t, said.Text, "fencelab_code_")

	require.NoError(t, c.Close())
	require.Empty(t, libraries(t, raw), "the run's functions outlived it")

	// A killed run's library is deleted by the next run that loads one.
	killed, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	_, err = killed.Client("A").(world.RedisClient).RunCode(ctx, engine.RedisCall{Script: "return 1"})
	require.NoError(t, err)
	require.NoError(t, redisstore.Abandon(ctx, killed))
	require.Len(t, libraries(t, raw), 1)
	next, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	_, err = next.Client("A").(world.RedisClient).RunCode(ctx, engine.RedisCall{Script: "return 2"})
	require.NoError(t, err)
	left := libraries(t, raw)
	require.Len(t, left, 1)
	require.NoError(t, next.Close())
	require.Empty(t, libraries(t, raw))
}

// What another client runs is never fencelab's to stop: a script of
// someone else's that holds the server — a function, even one called
// with the same words — is left running.
func TestFencelabKillsNoScriptItCannotProveItsOwn(t *testing.T) {
	ctx := context.Background()
	url := storetest.RealRedisURL(t)
	raw := rawRedis(t, url)
	require.NoError(t, raw.ConfigSet(ctx, "busy-reply-threshold", "200").Err())
	require.NoError(t, raw.FunctionLoad(ctx, "#!lua name=theirs\nredis.register_function('theirs', function(keys, args) local i = 0 while true do i = i + 1 end end)").Err())
	c, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	defer c.Close()

	theirs := rawRedis(t, url)
	done := make(chan error, 1)
	go func() { done <- theirs.FCall(ctx, "theirs", nil, "the-nonce").Err() }()
	time.Sleep(500 * time.Millisecond)

	for _, guess := range [][2]string{{"theirs", "another-nonce"}, {"fencelab_code_x", "the-nonce"}} {
		require.Equal(t, "another's", redisstore.StopOwnScript(c, guess[0], guess[1]), "%v", guess)
	}
	select {
	case err := <-done:
		t.Fatalf("their script was stopped: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	// Theirs to stop: the test's.
	require.NoError(t, raw.FunctionKill(ctx).Err())
	err = <-done
	require.Error(t, err)
	require.True(t, strings.Contains(err.Error(), "killed"), err.Error())
}

// On the embedded server, fencelab's own memory, what the run's keys hold
// is bounded across steps: a script within its string budget that
// APPENDs to a key step after step is stopped once they pass it.
func TestTheEmbeddedServersKeysAreBoundedAcrossSteps(t *testing.T) {
	ctx := context.Background()
	defer redisstore.SetStoredBudget(4 << 20)()
	c := storetest.Embedded(t)
	code := c.Client("A").(world.RedisClient)
	step := engine.RedisCall{Script: "redis.call('APPEND', KEYS[1], string.rep('x', 1048576)) return redis.call('STRLEN', KEYS[1])", Keys: []string{"k"}}
	for i := 1; i <= 3; i++ {
		said, err := code.RunCode(ctx, step)
		require.NoError(t, err, "step %d", i)
		require.Equal(t, fmt.Sprint(i<<20), said.Text)
	}
	_, err := code.RunCode(ctx, step)
	require.ErrorIs(t, err, redisstore.ErrStoredBudget)
	_, err = code.RunCode(ctx, engine.RedisCall{Words: []string{"APPEND", "k", "x"}, KeyAt: []int{1}})
	require.ErrorIs(t, err, redisstore.ErrStoredBudget, "a command as well as a script")
}

// A server busy with another client's script when fencelab would make the
// run's code user refused nothing: the step fails as the server's state
// says (not as a want of ACL rights), and once the server answers again
// the user is made and the code runs.
func TestABusyServerIsNoRefusalOfACodeUser(t *testing.T) {
	ctx := context.Background()
	url := storetest.RealRedisURL(t)
	raw := rawRedis(t, url)
	require.NoError(t, raw.ConfigSet(ctx, "busy-reply-threshold", "100").Err())
	c, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	defer c.Close()

	theirs := rawRedis(t, url)
	done := make(chan error, 1)
	go func() { done <- theirs.Eval(ctx, "local i = 0 while true do i = i + 1 end", nil).Err() }()
	probe := rawRedis(t, url)
	require.Eventually(t, func() bool {
		err := probe.Ping(ctx).Err()
		return err != nil && strings.HasPrefix(err.Error(), "BUSY")
	}, 30*time.Second, 20*time.Millisecond, "their script holds the server")
	_, err = c.Client("A").(world.RedisClient).RunCode(ctx, engine.RedisCall{Words: []string{"SET", "k", "1"}, KeyAt: []int{1}})
	require.Error(t, err)
	require.NotErrorIs(t, err, redisstore.ErrNoCodeUser)
	require.Contains(t, err.Error(), "BUSY")
	user, refused := c.CodeUser()
	require.Empty(t, user+refused)

	require.NoError(t, rawRedis(t, url).ScriptKill(ctx).Err())
	<-done
	said, err := c.Client("A").(world.RedisClient).RunCode(ctx, engine.RedisCall{Words: []string{"SET", "k", "1"}, KeyAt: []int{1}})
	require.NoError(t, err)
	require.Equal(t, "OK", said.Text)
	user, _ = c.CodeUser()
	require.NotEmpty(t, user)
}
