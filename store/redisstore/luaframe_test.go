package redisstore

import (
	"context"
	"strings"
	"testing"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

// A script that never ends, however it loops, ends on the embedded server
// with its budget's error; one that ends answers as it did without it,
// and its errors keep the file's line numbers.
func TestAScriptRunsOnTheEmbeddedServerWithinItsBudget(t *testing.T) {
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr()})
	defer rdb.Close()
	ctx := context.Background()
	run := func(script string) (any, error) {
		framedScript, err := framed(script, "", true)
		if err != nil {
			return nil, err
		}
		return redis.NewScript(framedScript).Run(ctx, rdb, []string{"k"}).Result()
	}
	for name, script := range map[string]string{
		"while":            "while true do end return 1",
		"repeat":           "repeat local x = 1 until false",
		"numeric for":      "for i = 1, 1e18 do end",
		"generic for":      "local function it() return 1 end for x in it do end",
		"tail call":        "local function f() return f() end return f()",
		"mutual recursion": "local g\nlocal function f() return g() end\ng = function() return f() end\nreturn f()",
		"goto":             "::top:: goto top",
		"pcall hides it":   "local ok = pcall(function() while true do end end) return 1",
		"pcall in a loop":  "while true do pcall(function() while true do end end) end",
		"a method":         "local t = {} function t:spin(n) return self:spin(n) end return t:spin(1)",
		"CRLF lines":       "local x = 1\r\nwhile x do\r\nx = x + 0 end",
	} {
		_, err := run(script)
		require.Error(t, err, name)
		require.True(t, overBudget(err.Error()), "%s: %v", name, err)
	}
	for script, want := range map[string]any{
		"return redis.call('SET', KEYS[1], 'v')":                           "OK",
		"local n = 0 for i = 1, 10 do n = n + i end return n":              int64(55),
		"local s = 'do repeat function goto' -- do\nreturn #s":             int64(23),
		"local function f(...) return select('#', ...) end return f(1, 2)": int64(2),
		"return": nil,
	} {
		got, err := run(script)
		if want == nil {
			require.ErrorIs(t, err, redis.Nil, script)
			continue
		}
		require.NoError(t, err, script)
		require.Equal(t, want, got, script)
	}
	_, err := run("local x = 1\n\nerror('on line three')")
	require.ErrorContains(t, err, ":3: on line three")
	require.False(t, overBudget(err.Error()))
	withShebang, err := framed("#!lua\nreturn 1", "", false)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(withShebang, "#!lua\n"))
	_, err = framed("return 'unfinished", "", false)
	require.ErrorContains(t, err, "fencelab cannot read the script as Lua")
}
