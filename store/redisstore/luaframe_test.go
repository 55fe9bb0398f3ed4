package redisstore

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"
)

// A script that never ends, however it loops, ends on the embedded server
// with its budget's error; one that ends answers as it did without it,
// and its errors keep the file's line numbers.
func TestAScriptRunsOnTheEmbeddedServerWithinItsBudget(t *testing.T) {
	run := framedOnEmbedded(t)
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
		// The frame's error reply is not the script's to replace.
		"replaces the error": "redis.error_reply = function() return 'fine' end while true do end",
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
	// The frame's counters are not the script's to reset: a name the
	// frame uses is one no script can write.
	for _, script := range []string{
		"while true do __fencelab_ticks = 0 end",
		"local function f() __fencelab_over = false __fencelab_ticks = -1e18 return f() end return f()",
		"rawset(_G, '__fencelab_ticks', 0) while true do __fencelab_ticks = 0 end",
	} {
		_, err := run(script)
		require.Error(t, err, script)
		require.False(t, strings.Contains(err.Error(), "i/o timeout"), "%s: %v", script, err)
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

// On the embedded server a script builds strings in fencelab's own
// process: past the string budget, however it builds them, it ends with
// the budget's error (a pcall buys it nothing), and fencelab's memory
// stays where it was. Scripts within the budget answer as they did, and
// .. keeps its meaning: numbers, a table's own __concat, nil's error on
// the file's line.
func TestAScriptBuildsStringsOnTheEmbeddedServerWithinItsBudget(t *testing.T) {
	run := framedOnEmbedded(t)
	// A sixteenth of the budget: the same checks, built sooner.
	defer func(budget int) { stringBudget = budget }(stringBudget)
	stringBudget = 16 << 20
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for name, script := range map[string]string{
		"doubling":          "local s = 'x' for i = 1, 40 do s = s .. s end return #s",
		"doubling, no gaps": "local s='x' for i=1,40 do s=s..s end return #s",
		"a chain":           "local s = 'x' for i = 1, 40 do s = s .. s .. '' end return #s",
		"string.rep":        "return #string.rep('x', 2^40)",
		"a method":          "return #(('abc'):rep(1e12))",
		"rep in a loop":     "local t = {} for i = 1, 1000 do t[i] = string.rep('x', 1e6) end return #t",
		"format":            "local s = 'x' for i = 1, 40 do s = string.format('%s%s', s, s) end return #s",
		"gsub":              "local s = string.rep('x', 1e5) return #s:gsub('x', s)",
		"gsub, a function":  "local s = string.rep('x', 1e5) return #s:gsub('x', function() return s end)",
		"table.concat":      "local t = {} for i = 1, 100 do t[i] = string.rep('y', 1e6) end local s = table.concat(t) return #table.concat({s, s, s, s})",
		"pcall buys none":   "local s = 'x' for i = 1, 40 do local ok, d = pcall(function() return s .. s end) if ok then s = d end end return #s",
		"cjson":             "local t = {} for i = 1, 30 do t[i] = string.rep('z', 1e7) end return #cjson.encode(t)",
		// What the frame counts with is not the script's to change.
		"restores rep":      "string.rep = rawget(_G, '__fencelab_rep') or string.rep return #string.rep('x', 2^40)",
		"replaces tostring": "tostring = function() return '' end local s = 'x' for i = 1, 40 do s = s .. s end return #s",
	} {
		_, err := run(script)
		require.Error(t, err, name)
		require.True(t, overStringBudget(err.Error()), "%s: %v", name, err)
	}
	// Nor its count to reset: no script can write a name the frame uses.
	_, err := run("local s = 'x' for i = 1, 40 do __fencelab_built = 0 __fencelab_full = false s = s .. s end return #s")
	require.Error(t, err)
	require.False(t, strings.Contains(err.Error(), "i/o timeout"), err.Error())
	var after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&after)
	require.Less(t, after.HeapAlloc, before.HeapAlloc+uint64(4*stringBudget), "what the refused scripts built is gone")

	for script, want := range map[string]any{
		"return 'a' .. 1 .. 'b'": "a1b",
		"return 1 .. 2":          "12",
		"local s = 'x' for i = 1, 20 do s = s .. s end return #s":                                     int64(1 << 20),
		"local t = setmetatable({}, {__concat = function(a, b) return 'joined' end}) return 'x' .. t": "joined",
		"local t = setmetatable({}, {__concat = function(a, b) return 'joined' end}) return t .. 'x'": "joined",
		"return ('%s-%s'):format('a', 'b') .. ('ab'):rep(2) .. table.concat({1, 2}, ',')":             "a-babab1,2",
		"return (('a.b.c'):gsub('%.', '/'))":                                                          "a/b/c",
		"return (('hello'):gsub('l', {l = 'L'}))":                                                     "heLLo",
		"return (('hello'):gsub('(l)', function(c) return c:upper() .. '!' end))":                     "heL!L!o",
		"return 'a' .. '...' .. 'b'":                                                                  "a...b",
		"local function f(...) return 'n' .. select('#', ...) end return f(1, 2)":                     "n2",
	} {
		got, err := run(script)
		require.NoError(t, err, script)
		require.Equal(t, want, got, script)
	}
	_, err = run("local x = 1\n\nreturn 'a' .. nil")
	require.ErrorContains(t, err, ":3: cannot perform concat operation between string and nil")
	require.False(t, overStringBudget(err.Error()))
}

// framedOnEmbedded runs a script in fencelab's frame on a miniredis of
// its own, with one key. The client waits long: building a sixteenth of
// a gigabyte takes a while under the race detector.
func framedOnEmbedded(t *testing.T) func(script string) (any, error) {
	mr := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: mr.Addr(), ReadTimeout: time.Minute})
	t.Cleanup(func() { rdb.Close() })
	return func(script string) (any, error) {
		framedScript, err := framed(script, "", true)
		if err != nil {
			return nil, err
		}
		return redis.NewScript(framedScript).Run(context.Background(), rdb, []string{"k"}).Result()
	}
}

// What a script builds by every string function that makes a string at
// least as long as what it is given counts, before it is built where its
// size can be known; a reply nested deeper than 8 tables is refused
// before the server turns it into one.
func TestEveryStringAScriptBuildsCounts(t *testing.T) {
	run := framedOnEmbedded(t)
	defer func(budget int) { stringBudget = budget }(stringBudget)
	stringBudget = 16 << 20
	for _, script := range []string{
		"local s = string.rep('x', 2^20) local t = {} for i = 1, 40 do t[i] = string.reverse(s) end return #t",
		"local s = string.rep('x', 2^20) local t = {} for i = 1, 40 do t[i] = s:upper() end return #t",
		"local s = string.rep('x', 2^20) local t = {} for i = 1, 40 do t[i] = string.lower(s) end return #t",
		"local s = string.rep('x', 2^20) local t = {} for i = 1, 20 do t[i] = s end return #string.format(string.rep('%s', 20), unpack(t))",
		"local s = string.rep('x', 2^20) local t = {} for i = 1, 20 do t[i] = s end return #cjson.encode(t)",
	} {
		_, err := run(script)
		require.Error(t, err, script)
		require.True(t, overStringBudget(err.Error()), "%s: %v", script, err)
	}
	_, err := run("local t = {} local c = t for i = 1, 900000 do local n = {} c[1] = n c = n end return t")
	require.ErrorContains(t, err, deepMark)
	got, err := run("return {{{1}}}")
	require.NoError(t, err)
	require.NotNil(t, got)
}
