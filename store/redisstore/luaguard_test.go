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
			"return _G._G.redis.call('DEL', 'theirs')",
			"return _G._G._G.redis.call('DEL', 'theirs')",
			"return _G.getfenv(0).redis.call('DEL', 'theirs')",
			"return _G.loadstring(\"return redis\")().call('DEL', 'theirs')",
			"return _G.require('debug').getlocal(1, 1)",
			"return _G.debug.getlocal(1, 1)",
			"return _G.dofile('/etc/hostname')",
			"return _G.package.loaded._G.redis.call('DEL', 'theirs')",
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

// On a Redis of the user's a script builds strings within the same budget
// as on the embedded one, through every way the frame can see (string.rep
// called as a method is refused where the script is framed: it would
// reach the server's own string table), and matches no pattern: a pattern
// that backtracks runs inside one call of the server's, where nothing
// stops it.
func TestAScriptOnARealRedisIsBoundedInWhatItBuildsAndMatches(t *testing.T) {
	ctx := context.Background()
	defer redisstore.SetStringBudget(16 << 20)()
	url, err := redis.ParseURL(storetest.RealRedisURL(t))
	require.NoError(t, err)
	rdb := redis.NewClient(&redis.Options{Addr: url.Addr})
	defer rdb.Close()
	run := func(script string) (any, error) {
		return redis.NewScript(redisstore.Framed(script, "run:", false)).Run(ctx, rdb, []string{"run:k"}).Result()
	}
	for _, script := range []string{
		"local s = 'x' for i = 1, 40 do s = s .. s end return #s",
		"return #string.rep('x', 2^40)",
		"return #_G.string.rep('x', 2^40)",
		"local s = string.rep('y', 2^20) local t = {} for i = 1, 40 do t[i] = s end return #table.concat(t)",
		"local s = 'x' for i = 1, 40 do s = string.format('%s%s', s, s) end return #s",
	} {
		_, err := run(script)
		require.Error(t, err, script)
		require.True(t, redisstore.OverStringBudget(err.Error()), "%s: %v", script, err)
	}
	for _, script := range []string{
		"return string.match(string.rep('a', 30), string.rep('a?', 30) .. string.rep('a', 30))",
		"return string.find('aaa', 'a*')",
		"for w in string.gmatch('a b', '%a+') do end return 1",
		"return (string.gsub('abc', 'b', 'x'))",
	} {
		_, err := run(script)
		require.ErrorContains(t, err, "matches a pattern", script)
	}
	_, err = run("return string.dump(redis.call)")
	require.ErrorContains(t, err, "string.dump is not open to a file's script", "the frame's own bytecode stays its own")
	_, err = run("local mt = getmetatable('') return mt.__index")
	require.ErrorContains(t, err, "attempt to index")
	// The server's string table reached through a string's own fields.
	for _, script := range []string{
		"return ('x').rep('x', 2^40)",
		"local s = 'a' return s.find(string.rep('a', 30), '(a*)*b')",
		"return ('x')['gsub']('abc', 'b', 'x')",
		"local S = string return S.match('a', 'a')",
		"return ('x').dump(redis.call)",
	} {
		require.ErrorContains(t, redisstore.FramedError(script, "run:", false), "not s:", script)
	}
	require.ErrorContains(t, redisstore.FramedError("return ('x'):rep(2^40)", "run:", false), "call string.rep(s, …), not s:rep(…)")
	require.NoError(t, redisstore.FramedError("return ('x'):rep(2^40)", "run:", true), "the embedded server's string table is the frame's")
	got, err := run("return string.find('a.b', '.', 1, true) .. string.upper('x') .. ('y'):upper() .. string.rep('z', 2) .. table.concat({1, 2}, ',')")
	require.NoError(t, err)
	require.Equal(t, "2XYzz1,2", got)
}
