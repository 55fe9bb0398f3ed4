package redisstore_test

import (
	"context"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
)

// The frame's guard: a script's calls name only the run's keys and the
// commands a step may send, however the script reaches redis.call; a key
// of someone else's on the server is neither read nor changed.
func TestAScriptReachesOnlyTheRunsKeys(t *testing.T) {
	ctx := context.Background()
	servers := map[string]string{"embedded": miniredis.RunT(t).Addr()}
	url, err := redis.ParseURL(storetest.RealRedisURL(t))
	require.NoError(t, err)
	servers["redis-server"] = url.Addr
	for name, addr := range servers {
		rdb := redis.NewClient(&redis.Options{Addr: addr})
		defer rdb.Close()
		require.NoError(t, rdb.Set(ctx, "theirs", "kept", 0).Err())
		run := func(script string) (any, error) {
			return redis.NewScript(redisstore.Framed(script, "run:", name == "embedded")).Run(ctx, rdb, []string{"run:k"}).Result()
		}
		got, err := run("redis.call('SET', KEYS[1], 'v') return redis.call('GET', 'run:' .. 'k')")
		require.NoError(t, err, name)
		require.Equal(t, "v", got, name)
		got, err = run("return redis.status_reply('fine')")
		require.NoError(t, err, name)
		require.Equal(t, "fine", got, name)
		for _, script := range []string{
			"return redis.call('GET', 'theirs')",
			"return redis.call('DEL', KEYS[1], 'theirs')",
			"return redis.call('MSET', KEYS[1], 'v', 'theirs', 'v')",
			"return redis.pcall('DEL', 'theirs')",
			"local c = redis.call return c('DEL', 'theirs')",
			"local c = redis.call return c('FLUSHALL')",
			"return redis['call']('KEYS', '*')",
			"return _G.redis.call('DEL', 'theirs')",
			"return rawget(_G, 'redis').call('DEL', 'theirs')",
			"return server.call('DEL', 'theirs')",
			// below the namespace, but not given: a key of fencelab's own
			"return redis.call('SET', 'run:' .. 'leader:x', 'v')",
			"KEYS[2] = 'run:other' return redis.call('SET', KEYS[2], 'v')",
		} {
			_, err := run(script)
			require.Error(t, err, name+": "+script)
			require.True(t, redisstore.RefusedByGuard(err.Error()), "%s: %s: %v", name, script, err)
		}
		// The frame's own names are not the script's: the unguarded redis
		// by its name in the frame, and the functions its checks call,
		// replaced by the script's own (Redis 7 refuses that itself).
		for _, script := range []string{
			"string.lower = function() return 'get' end return redis.call('DEL', 'theirs')",
			"type = function() return 'string' end string.sub = function() return 'run:' end return redis.call('DEL', 'theirs')",
			"tostring = function() return 'x' end select = function() return 0 end return redis.call('DEL', 'theirs')",
			"return __fencelab_redis.call('DEL', 'theirs')",
			"return __fencelab_call('DEL', 'theirs')",
			"__fencelab_given['theirs'] = true return redis.call('DEL', 'theirs')",
			"__fencelab_keyed['flushall'] = 'none' return redis.call('FLUSHALL')",
			"return getmetatable(redis).__index.call('DEL', 'theirs')",
			"return getfenv(0).redis.call('DEL', 'theirs')",
			"return loadstring(\"return redis.call('DEL', 'theirs')\")()",
			"return debug.getregistry()",
		} {
			_, err := run(script)
			require.Error(t, err, name+": "+script)
		}
		theirs, err := rdb.Get(ctx, "theirs").Result()
		require.NoError(t, err, name)
		require.Equal(t, "kept", theirs, name)
		rdb.Del(ctx, "theirs", "run:k")
	}
}
