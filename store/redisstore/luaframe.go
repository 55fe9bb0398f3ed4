package redisstore

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/replybound"

	"github.com/yuin/gopher-lua/parse"
)

// A file's script is sent in a frame of fencelab's: a budget on how long
// it runs, and a guard on what it calls.
//
// The guard: the script's redis.call and redis.pcall are checked as they
// are made — the command is one of engine.RedisCommands, and each of its
// keys is one the script was given in KEYS (as the call began: a script
// that writes into KEYS adds no key), below the run's namespace — so a key
// built from a string (a key of fencelab's own among them), or a
// command reached through an alias the file's check could not see, is
// refused before it is sent. The frame hides the ways a script would
// find the unguarded functions (_G, getfenv, loadstring, debug, the
// guard's metatable). It is a check in the script's own language, not
// the server's: on a Redis of yours, an ACL user kept to ~fencelab:*
// (docs/backends.md) is the server's own rule.
//
// The budget: a file's Lua script runs on the embedded server inside fencelab's own
// process, and that server has no SCRIPT KILL: a script that loops for
// ever would hold the server's lock, and with it every lab, for ever. So
// on the embedded server a file's script goes with a budget written into
// it: each loop iteration, function call and goto counts one tick, and
// from the tick past the budget on, every tick returns from the function
// it is in, so the script unwinds whatever it was doing (an error would
// do too, but a pcall could catch it, and the Lua VM writes one line of
// its traceback for each tail call made), and its reply is replaced by
// an error fencelab recognises. The ticks are inserted on
// the lines they count, so the server's line numbers stay the file's.
// A real Redis gets the same budget, and past the call's deadline
// fencelab stops a script there that the server shows is its own
// (functions.go). What neither reaches — one call of a C function that
// runs long, a pattern match that backtracks — the frame refuses where it
// can see it (stringGuardOf, unguardedMethods).
//
// The strings a script builds: on the embedded server they are built in
// fencelab's own process, and a script that doubles a string thirty times
// or asks string.rep for gigabytes would take its memory (on a real Redis
// the memory is the server's, and so is the limit). So on the embedded
// server the frame counts the bytes of every string the script builds by
// concatenation (each .. of the script goes through the frame's check: the
// scanner finds them, and the frame puts a table of its own between the two
// operands, whose __concat counts and joins them), string.rep,
// string.format, string.gsub, table.concat and cjson.encode — before the
// string is made where its size can be known first. Past stringBudget in
// all, the call that would pass it fails, and so does every later one (a
// pcall cannot buy the script more), and the script's reply is replaced
// by an error fencelab recognises. What a string is built from in other
// ways (string.upper, string.sub: never longer than what they are given)
// is not counted.

// The frame's own state — its counters, the unguarded redis, the string
// functions it wraps, the functions its checks call — is in locals of
// the chunk, which a script in the same chunk could name. So every name
// of the frame's carries a random part chosen when the process starts
// (ownNames): a local is reached only by a name written in the script's
// text, which was written before that part was chosen, and a script has
// no way to make code from a string (loadstring, load, getfenv and debug
// are closed). And what the checks call is taken into those locals
// before the script runs, so a script that replaces string.lower, type
// or redis.error_reply changes nothing of them.

// framePrefix starts every name of the frame's; the frame is written with
// "__fencelab_" and ownNames gives each its random part.
var framePrefix = func() string {
	var raw [12]byte
	rand.Read(raw[:])
	return "__fencelab_" + hex.EncodeToString(raw[:]) + "_"
}()

// ownNames is a piece of the frame with its names made the process's own.
func ownNames(frame string) string { return strings.ReplaceAll(frame, "__fencelab_", framePrefix) }

// scriptBudget is how many ticks a script may take: far more than a
// step's script needs, and reached in a tenth of a second (a second under
// the race detector) — well within the call's deadline (CallTimeout).
const scriptBudget = 1_000_000

// overBudgetMark is in the error a script past its budget ends with.
const overBudgetMark = "fencelab: past its budget"

// stringBudget is how many bytes of strings a script may build on the
// embedded server, in all: far more than a step's script builds, and far
// less than would trouble the process that runs it. (A variable only for
// the tests, which spend less.)
var stringBudget = 256 << 20

// stringBudgetMark is in the error of a script past its string budget.
const stringBudgetMark = "fencelab: past its string budget"

// ErrStringBudget is a file's script that built more than stringBudget
// bytes of strings on the embedded server.
var ErrStringBudget = fmt.Errorf("the script built more than %d MiB of strings, fencelab's budget for a script on the embedded Redis (a string doubled in a loop, a huge string.rep?)", stringBudget>>20)

// ErrScriptBudget is a file's script that ran past scriptBudget.
var ErrScriptBudget = fmt.Errorf("the script ran past fencelab's budget of %s loop iterations and function calls (a loop that never ends?)", thousands(scriptBudget))

// The names the budget adds: locals of the chunk, outside the script's
// own function.
const (
	ticksName = "__fencelab_ticks"
	overName  = "__fencelab_over"
)

// tick is the statement inserted where a tick counts.
var tick = fmt.Sprintf(` %[1]s = %[1]s + 1 if %[1]s > %[3]d then %[2]s = true return end; `,
	ticksName, overName, scriptBudget)

// framed is the script in its frame: its guard on the keys of
// namespace, its budget written in. A script the Lua scanner cannot read
// is not sent at all: unframed, it would run unguarded on a real Redis,
// whose Lua may read what gopher-lua's scanner does not.
func framed(script, namespace string, gopherLua bool) (string, error) {
	// The chunk's first line may be a shebang (#!lua flags=…), which must
	// stay first: the prefix goes after it, on the next line. The scanner
	// reads it as blanks.
	start, scanned := 0, script
	if strings.HasPrefix(script, "#!") {
		nl := strings.IndexAny(script, "\r\n")
		if nl < 0 {
			return "", errors.New("the script is only its #! line")
		}
		start, scanned = nl+1, strings.Repeat(" ", nl)+script[nl:]
	}
	places, err := tickPlaces(scanned, gopherLua)
	if err != nil {
		var refused *methodRefused
		if errors.As(err, &refused) {
			return "", err
		}
		return "", fmt.Errorf("fencelab cannot read the script as Lua, so it does not send it: %s", strings.TrimSpace(err.Error()))
	}
	var b strings.Builder
	b.WriteString(script[:start])
	b.WriteString(ownNames(guardFor(namespace)))
	b.WriteString(ownNames(stringGuardOf(stringBudget, !gopherLua)))
	b.WriteString(ownNames(globalsView))
	b.WriteString(ownNames(fmt.Sprintf("local %s, %s = 0, false local __fencelab_reply = (function(...) ", ticksName, overName)))
	from := start
	for _, p := range places {
		if p.at < start {
			continue
		}
		b.WriteString(script[from:p.at])
		if p.concat {
			b.WriteString(ownNames(".. " + catName + " .."))
			from = p.at + len("..")
			continue
		}
		b.WriteString(ownNames(tick))
		from = p.at
	}
	b.WriteString(script[from:])
	var end strings.Builder
	fmt.Fprintf(&end, "\nend)(...) if %s then return __fencelab_error_reply(%q) end ", overName, overBudgetMark)
	fmt.Fprintf(&end, "if %s then return __fencelab_error_reply(%q) end ", fullName, stringBudgetMark)
	// The reply's size, counted before the server sends it: a script's
	// 100 MB string is refused where it was made, not carried to fencelab
	// to be cut at replybound.Limit().
	// A reply nested deeper than a few tables is refused before the server
	// turns it into a reply, one level at a time.
	fmt.Fprintf(&end, `local function __fencelab_deep(v, depth) if __fencelab_type(v) ~= "table" then return false end if depth > 8 then return true end `+
		`for _, x in __fencelab_pairs(v) do if __fencelab_deep(x, depth + 1) then return true end end return false end `+
		`if __fencelab_deep(__fencelab_reply, 0) then return __fencelab_error_reply(%q) end `, deepMark)
	fmt.Fprintf(&end, `local function __fencelab_size(v, depth) if __fencelab_type(v) == "string" then return #v end `+
		`if __fencelab_type(v) ~= "table" or depth > 8 then return 16 end local n = 0 `+
		`for _, x in __fencelab_pairs(v) do n = n + 16 + __fencelab_size(x, depth + 1) if n > %[1]d then return n end end return n end `+
		`if __fencelab_size(__fencelab_reply, 0) > %[1]d then return __fencelab_error_reply(%[2]q) end return __fencelab_reply`,
		replybound.Limit(), replyMark)
	b.WriteString(ownNames(end.String()))
	return b.String(), nil
}

// replyMark is in the error of a script whose reply passed the bound,
// deepMark of one whose reply is nested more than 8 tables deep.
const (
	replyMark = "fencelab: past the reply bound"
	deepMark  = "fencelab: a reply nested too deep"
)

// ErrDeepReply is a script's reply nested more than 8 tables deep.
var ErrDeepReply = errors.New("the script's reply is nested more than 8 tables deep, more than fencelab reads")

// overBudget says whether a script's error reply is its budget's.
func overBudget(reply string) bool { return strings.Contains(reply, overBudgetMark) }

// overStringBudget says whether a script's error reply is its string
// budget's.
func overStringBudget(reply string) bool { return strings.Contains(reply, stringBudgetMark) }

// The names the string budget adds, and what it runs before the script:
// spend counts n bytes about to be built and fails past the budget (for
// good: full stays set); the table cat stands between the operands of
// each .. and its __concat joins them once they are counted; the string
// functions that build are replaced, for this run of the script, by ones
// that count first (the embedded server makes a Lua state for each). An
// error the frame raises for the script names the script's line: level 3
// is its caller's, as gopher-lua counts levels (error's own frame first).
const (
	catName  = "__fencelab_cat"
	fullName = "__fencelab_full"
)

// shadow: the server is a Redis of the user's, whose string and table
// libraries are read-only and shared by every script: the frame's
// functions then stand in them as locals of the script's (string, table,
// cjson, and _G's view of them), and pattern matching (string.find but a
// plain one, string.match, string.gmatch, string.gsub) is refused, since
// a pattern that backtracks runs inside one call of the server's, where
// no budget and not even FUNCTION KILL reaches it.
func stringGuardOf(budget int, shadow bool) string {
	guard := fmt.Sprintf(`local %[2]s, __fencelab_built = false, 0 `+
		`local __fencelab_floor, __fencelab_tonumber, __fencelab_find, __fencelab_gmatch = math.floor, tonumber, string.find, string.gmatch `+
		`local function __fencelab_spend(n) __fencelab_built = __fencelab_built + n `+
		`if %[2]s or __fencelab_built > %[3]d then %[2]s = true __fencelab_error(%[4]q, 3) end end `+
		`local __fencelab_text = function(v) local t = __fencelab_type(v) return t == "string" or t == "number" end `+
		`local __fencelab_joining = { __metatable = false } local %[1]s = __fencelab_setmetatable({}, __fencelab_joining) `+
		`local function __fencelab_joins(a, b) `+
		`if a == %[1]s then return __fencelab_setmetatable({ v = b }, __fencelab_joining) end `+
		`local v = b.v if __fencelab_text(a) and __fencelab_text(v) then __fencelab_spend(#__fencelab_tostring(a) + #__fencelab_tostring(v)) return a .. v end `+
		`local plain = { string = true, number = true, boolean = true, ["nil"] = true } `+
		`if plain[__fencelab_type(a)] and plain[__fencelab_type(v)] then __fencelab_error("cannot perform concat operation between " .. __fencelab_type(a) .. " and " .. __fencelab_type(v), 3) end `+
		`return a .. v end __fencelab_joining.__concat = __fencelab_joins `+
		`local __fencelab_rep, __fencelab_format, __fencelab_gsub, __fencelab_tconcat = string.rep, string.format, string.gsub, table.concat `+
		`local __fencelab_string_rep = function(s, n, ...) local k = __fencelab_floor(__fencelab_tonumber(n) or 0) if k > 0 then __fencelab_spend(#__fencelab_tostring(s) * k) end return __fencelab_rep(s, n, ...) end `+
		`local __fencelab_string_format = function(f, ...) local n, x = #__fencelab_tostring(f), 0 `+
		`for i = 1, __fencelab_select("#", ...) do local v = (__fencelab_select(i, ...)) if __fencelab_text(v) then n = n + #__fencelab_tostring(v) end end `+
		`for _ in __fencelab_gmatch(__fencelab_tostring(f), "%%%%") do x = x + 1 end __fencelab_spend(n + 100 * x) `+
		`return __fencelab_format(f, ...) end `+
		`local __fencelab_reverse, __fencelab_upper, __fencelab_lower_s = string.reverse, string.upper, string.lower `+
		`local __fencelab_string_reverse = function(s, ...) __fencelab_spend(#__fencelab_tostring(s)) return __fencelab_reverse(s, ...) end `+
		`local __fencelab_string_upper = function(s, ...) __fencelab_spend(#__fencelab_tostring(s)) return __fencelab_upper(s, ...) end `+
		`local __fencelab_string_lower = function(s, ...) __fencelab_spend(#__fencelab_tostring(s)) return __fencelab_lower_s(s, ...) end `+
		`local __fencelab_string_gsub = function(s, pattern, repl, ...) local text = __fencelab_tostring(s) __fencelab_spend(#text) `+
		`if __fencelab_type(repl) == "string" then local worst = (#text + 1) * #repl if __fencelab_find(repl, "%%", 1, true) then worst = worst * (#text + 1) end __fencelab_spend(worst) `+
		`elseif __fencelab_type(repl) == "function" or __fencelab_type(repl) == "table" then local given = repl `+
		`repl = function(...) local r if __fencelab_type(given) == "table" then r = given[(...)] else r = given(...) end if __fencelab_text(r) then __fencelab_spend(#__fencelab_tostring(r)) end return r end end `+
		`return __fencelab_gsub(s, pattern, repl, ...) end `+
		`local __fencelab_table_concat = function(t, sep, i, j) local n, first, last = 0, i or 1, j or #t `+
		`for x = first, last do local v = t[x] if __fencelab_text(v) then n = n + #__fencelab_tostring(v) + #(sep or "") end end __fencelab_spend(n) `+
		`return __fencelab_tconcat(t, sep, i, j) end `+
		`local function __fencelab_json_size(v, depth) local t = __fencelab_type(v) if t == "string" then return 6 * #v + 2 end `+
		`if t ~= "table" or depth > 1000 then return 32 end local n = 2 for k, x in __fencelab_pairs(v) do n = n + 8 + __fencelab_json_size(k, depth + 1) + __fencelab_json_size(x, depth + 1) `+
		`if n > %[3]d then return n end end return n end `+
		`local __fencelab_encode = cjson ~= nil and cjson.encode local __fencelab_cjson_encode = __fencelab_encode and function(v, ...) __fencelab_spend(__fencelab_json_size(v, 0)) return __fencelab_encode(v, ...) end `,
		catName, fullName, budget, stringBudgetMark)
	if !shadow {
		// The embedded server makes a Lua state for each script: its
		// libraries are the script's own to have replaced, methods too.
		return guard + `string.rep, string.format, string.gsub, table.concat = __fencelab_string_rep, __fencelab_string_format, __fencelab_string_gsub, __fencelab_table_concat ` +
			`string.reverse, string.upper, string.lower = __fencelab_string_reverse, __fencelab_string_upper, __fencelab_string_lower ` +
			`if __fencelab_encode then cjson.encode = __fencelab_cjson_encode end `
	}
	return guard + `local function __fencelab_no_pattern(name) return function() __fencelab_error(name .. " matches a pattern, which on a Redis of yours runs in one call of the server's that nothing can stop: fencelab runs it only on the embedded Redis (string.find with plain = true is fine)", 2) end end ` +
		`local __fencelab_string_find = function(s, pattern, init, plain) if not plain then __fencelab_no_pattern("string.find")() end return __fencelab_find(s, pattern, init, plain) end ` +
		`local string = __fencelab_setmetatable({ rep = __fencelab_string_rep, format = __fencelab_string_format, find = __fencelab_string_find, ` +
		`reverse = __fencelab_string_reverse, upper = __fencelab_string_upper, lower = __fencelab_string_lower, ` +
		`gsub = __fencelab_no_pattern("string.gsub"), match = __fencelab_no_pattern("string.match"), gmatch = __fencelab_no_pattern("string.gmatch"), ` +
		// string.dump would show a function's bytecode: the frame's own.
		`dump = __fencelab_closed("string.dump") }, { __index = string, __metatable = false }) ` +
		`local table = __fencelab_setmetatable({ concat = __fencelab_table_concat }, { __index = table, __metatable = false }) ` +
		`local cjson = cjson and __fencelab_setmetatable({ encode = __fencelab_cjson_encode }, { __index = cjson, __metatable = false }) `
}

// globalsView is the script's _G, after the frame's locals: what it reads
// there is the frame's (redis, server, and on a Redis of the user's its
// string, table and cjson; the closed functions, closed; _G itself), and
// the rest is the server's, read only through it. getmetatable keeps a
// string's (the server's string table) to itself.
const globalsView = `local __fencelab_getmetatable = getmetatable ` +
	`local getmetatable = function(v) if __fencelab_type(v) == "string" then return nil end return __fencelab_getmetatable(v) end ` +
	`local __fencelab_globals = _G ` +
	`local __fencelab_hidden = { package = true, debug = true, _G = true } ` +
	`local _G = __fencelab_setmetatable({ redis = redis, server = redis, string = string, table = table, cjson = cjson, getmetatable = getmetatable, ` +
	`getfenv = getfenv, setfenv = setfenv, loadstring = loadstring, load = load, dofile = dofile, loadfile = loadfile, require = require, module = module, print = print }, ` +
	`{ __metatable = false, __newindex = function(t, k, v) __fencelab_error("a script does not set globals", 2) end, ` +
	`__index = function(t, k) if k == "_G" then return t end if __fencelab_hidden[k] then return nil end return __fencelab_globals[k] end }) `

// place is where the frame writes into a script: a tick, or (concat)
// the string budget's table between the two dots of a .. and its right
// operand.
type place struct {
	at     int
	concat bool
}

// tickPlaces are the byte offsets where a tick goes: after each do and
// repeat (a loop's body; a plain do block counts too, harmlessly), after
// the parameter list of each function (recursion, tail calls included),
// and before each goto (gopher-lua's; in Redis's Lua 5.1 goto is a name).
// On gopher-lua, each .. is a place too (the string budget's).
func tickPlaces(script string, gopherLua bool) ([]place, error) {
	lines := lineStarts(script)
	offset := func(line, column int) (int, error) {
		if line < 1 || line > len(lines) || column < 1 {
			return 0, errors.New("a position outside the script")
		}
		return lines[line-1] + column - 1, nil
	}
	sc := parse.NewScanner(strings.NewReader(script), "script")
	lexer := &parse.Lexer{}
	var places []place
	inFunction, inParameters := false, false
	// prev is the token before this one, prevName its text; before is the
	// name before prev, where there is one (string in string.rep).
	prev, prevName, before := 0, "", ""
	for {
		tok, err := sc.Scan(lexer)
		if err != nil {
			return nil, err
		}
		lexer.PrevTokenType = tok.Type
		if tok.Type == parse.EOF {
			break
		}
		at, err := offset(tok.Pos.Line, tok.Pos.Column)
		if err != nil {
			return nil, err
		}
		switch {
		case tok.Type == parse.TDo || tok.Type == parse.TRepeat:
			places = append(places, place{at: at + len(tok.Str)})
		case tok.Type == parse.TGoto && gopherLua:
			places = append(places, place{at: at})
		case tok.Type == parse.T2Comma:
			places = append(places, place{at: at, concat: true})
		case !gopherLua && prev == ':' && tok.Type == parse.TIdent && unguardedMethods[tok.Str]:
			return nil, &methodRefused{line: tok.Pos.Line, name: tok.Str}
		case !gopherLua && prev == '.' && tok.Type == parse.TIdent && unguardedMethods[tok.Str] && before != "string",
			!gopherLua && prev == '[' && tok.Type == parse.TString && unguardedMethods[tok.Str]:
			// ("x").rep, s.find, s["gsub"]: the server's string table
			// reached through a string's metatable.
			return nil, &methodRefused{line: tok.Pos.Line, name: tok.Str}
		case tok.Type == parse.TFunction:
			inFunction = true
		case inFunction && tok.Type == '(':
			inFunction, inParameters = false, true
		case inParameters && tok.Type == ')':
			inParameters = false
			places = append(places, place{at: at + 1})
		}
		before = ""
		if prev == parse.TIdent {
			before = prevName
		}
		prev, prevName = tok.Type, tok.Str
	}
	sort.SliceStable(places, func(i, j int) bool { return places[i].at < places[j].at })
	return places, nil
}

// unguardedMethods are the string functions a script on a Redis of the
// user's may not call as methods (s:rep(n)): a method call reaches the
// server's own string table, which the frame cannot replace there
// (Redis 7 keeps it read-only), so what it builds, or how long its
// pattern match runs, would not be counted. Called as string.rep(s, n),
// it goes through the frame.
var unguardedMethods = map[string]bool{"rep": true, "format": true, "gsub": true, "find": true, "match": true, "gmatch": true, "dump": true}

// methodRefused is a script that calls one of unguardedMethods as a
// method, for a Redis of the user's.
type methodRefused struct {
	line int
	name string
}

func (m *methodRefused) Error() string {
	return fmt.Sprintf("line %d: on a Redis of yours, call string.%s(s, …), not s:%s(…) or a string's own .%s: fencelab counts what a script builds and matches only through string.%s", m.line, m.name, m.name, m.name, m.name)
}

// lineStarts are the offsets where the script's lines start, counted as
// the Lua scanner counts them: \n, \r, \r\n and \n\r each end one line.
func lineStarts(s string) []int {
	starts := []int{0}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\n' && c != '\r' {
			continue
		}
		if i+1 < len(s) && (s[i+1] == '\n' || s[i+1] == '\r') && s[i+1] != c {
			i++
		}
		starts = append(starts, i+1)
	}
	return starts
}

// thousands writes n with commas.
func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// guardMark begins the error of a call the guard refused.
const guardMark = "fencelab: refused"

// guardFor is the frame's guard, on one line: redis is a local whose call
// and pcall check the command and its keys before they send it.
func guardFor(namespace string) string {
	var table strings.Builder
	for _, name := range slices.Sorted(maps.Keys(engine.RedisCommands)) {
		fmt.Fprintf(&table, "[%q] = %q, ", name, engine.RedisCommands[name])
	}
	return fmt.Sprintf(`local __fencelab_redis, __fencelab_ns, __fencelab_keyed = redis, %[1]q, { %[2]s } `+
		`local __fencelab_type, __fencelab_tostring, __fencelab_error, __fencelab_ipairs, __fencelab_pairs, __fencelab_setmetatable = type, tostring, error, ipairs, pairs, setmetatable `+
		`local __fencelab_lower, __fencelab_sub, __fencelab_unpack, __fencelab_select = string.lower, string.sub, unpack, select `+
		`local __fencelab_call, __fencelab_pcall, __fencelab_error_reply = redis.call, redis.pcall, redis.error_reply `+
		`local __fencelab_given = {} for _, k in __fencelab_ipairs(KEYS) do __fencelab_given[k] = true end `+
		`local function __fencelab_guard(send) return function(command, ...) `+
		`local name = __fencelab_type(command) == "string" and __fencelab_lower(command) or "" local where = __fencelab_keyed[name] `+
		`if where == nil then __fencelab_error(%[3]q .. ": the script calls " .. __fencelab_tostring(command) .. ", which is not a command a step may send (strings, hashes and keys only)", 0) end `+
		`local last, by = __fencelab_select("#", ...), 1 if where == "first" then last = 1 elseif where == "pairs" then by = 2 end `+
		`for i = 1, last, by do local key = (__fencelab_select(i, ...)) if key ~= nil and (__fencelab_type(key) ~= "string" or __fencelab_sub(key, 1, #__fencelab_ns) ~= __fencelab_ns or not __fencelab_given[key]) then `+
		`__fencelab_error(%[3]q .. ": the script names the key " .. __fencelab_tostring(key) .. ", which is not one it was given: name every key in keys", 0) end end `+
		`return send(command, ...) end end `+
		`local redis = __fencelab_setmetatable({ call = __fencelab_guard(__fencelab_call), pcall = __fencelab_guard(__fencelab_pcall) }, { __index = __fencelab_redis, __metatable = false }) `+
		`local server = redis `+
		`local function __fencelab_closed(name) return function() __fencelab_error(name .. " is not open to a file's script", 2) end end `+
		`local getfenv, setfenv, loadstring, load, dofile, loadfile, require, module = __fencelab_closed("getfenv"), __fencelab_closed("setfenv"), `+
		`__fencelab_closed("loadstring"), __fencelab_closed("load"), __fencelab_closed("dofile"), __fencelab_closed("loadfile"), `+
		`__fencelab_closed("require"), __fencelab_closed("module") local package, debug = nil, nil `+
		// print writes to the process's own output on the embedded
		// server (gopher-lua's): a script's bytes would reach fencelab's
		// stdout, its --json and its exports. Redis has none.
		`local print = __fencelab_closed("print") `,
		namespace, table.String(), guardMark)
}

// refusedByGuard says whether a script's error reply is the guard's.
func refusedByGuard(reply string) bool { return strings.Contains(reply, guardMark) }
