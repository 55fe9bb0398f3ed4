package scenarios

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/untrusted"

	luaparse "github.com/yuin/gopher-lua/parse"
)

// A scenario file's own code (docs/code.md): [setup] seeds its
// tables and keys, each [[step]] is a Lua script, one Redis command or SQL
// statements of the file's, [[invariant]]s are its queries, and expected
// may say how to read the business value. A step runs on its actor's own
// connections, so every command and statement is a round trip the checker
// interleaves, as fencelab's own steps are.

// kindCode is the actor kind of a file whose steps are its own: the
// default kind when the file has [[step]]s.
const kindCode = "code"

// codeBuiltins are the parameters every step may use.
var codeBuiltins = []string{"actor", "now_ms", "ttl_ms"}

// paramPattern is a parameter in a step's text: $name.
var paramPattern = regexp.MustCompile(`\$([A-Za-z_][A-Za-z0-9_]*)`)

// guardPattern is a guard's place in a step's text: {{fence}},
// {{version-check}}. Between the braces may be any name the step's guards
// define; what is not one is code ({{"a"}}, {{1, 2}}: Lua's tables of
// tables) unless it reads as a plain name (plainGuardName), which then is
// a guard the step forgot to define.
var guardPattern = regexp.MustCompile(`\{\{\s*([^{}\n]*?)\s*\}\}`)

// plainGuardName is a name as people write one: letters, digits, and
// _ . - and spaces between them.
var plainGuardName = regexp.MustCompile(`^[\p{L}\p{N}_.-]+(?: [\p{L}\p{N}_.-]+)*$`)

// guardAt is the guard a place names, where the step defines it.
func (s *codeStep) guardAt(place string) (engine.Guard, bool) {
	name := guardPattern.FindStringSubmatch(place)[1]
	g, err := engine.ParseGuard(name)
	if err != nil {
		return 0, false
	}
	_, ok := s.guards[g]
	return g, ok
}

var invariantNamePattern = regexp.MustCompile(`^[^\x00-\x20\x7f](?:[^\x00-\x1f\x7f]{0,38}[^\x00-\x20\x7f])?$`)

// saveName is a name save may give a reply.
var saveName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// codeStep is one [[step]] of a file.
type codeStep struct {
	name, path string
	// lang is "lua", "redis" or "sql".
	lang  string
	lua   string
	keys  []string
	args  []string
	words []string
	keyAt []int
	sql   []codeStatement
	// codePath and at are where the file writes the step's code (its lua,
	// redis or sql key): a mistake in it is said there.
	codePath, at string
	// luaLine is the file's line of the script's first line: a script's
	// error is said at the line it names.
	luaLine int
	// connection is the connection the file names that the step's SQL
	// goes on (engine's session.go); empty: the actor's own.
	connection string
	// reply is what save, wait_if and rejected_if of the step apply to:
	// the script's, the command's, or the last statement's that is not
	// COMMIT or ROLLBACK.
	reply replyRules
	// guards are the fragments by guard, and their order in the text;
	// guardsAt is where the file writes them ("mine.toml:15").
	guards   map[engine.Guard]fragment
	order    []engine.Guard
	guardsAt string
}

// codeStatement is one statement of a sql step, with its own rules when
// it is written as a table.
type codeStatement struct {
	text  string
	path  string // where the file writes it, as a path and as "mine.toml:14"
	at    string
	rules replyRules
	// own: the statement was a table with rules of its own.
	own bool
}

// replyRules say what a reply means.
type replyRules struct {
	save       string
	waitIf     []string
	rejectedIf []string
}

// fragment is a guard's text in a step, and what stands in its place
// when the guard is taken out.
type fragment struct{ text, without string }

// codeFile is what a file brings of its own, as compiled.
type codeFile struct {
	steps map[string]map[string]*codeStep // by name, by mode key ("" both, "safe", "unsafe")
	code  *engine.Code
	// verdicts are the anomalies of the file's invariants.
	verdicts []string
	// used are the steps some program takes.
	used map[string]bool
}

// allStepsUsed refuses a [[step]] no actor takes: a step written and
// never run is a mistake a person wants to hear of.
func (f *file) allStepsUsed(actors []*fileActor) error {
	for _, name := range f.code.names() {
		if !f.code.used[name] {
			for _, s := range f.code.steps[name] {
				return f.wrong(s.path, "step %s is in no actor's program", name)
			}
		}
	}
	return nil
}

// unknownOwnStep is a code actor's program entry that names no step of
// the file's.
func (f *file) unknownOwnStep(path string, entry any, mode engine.Mode) error {
	name, ok := entry.(string)
	if !ok {
		return f.wrong(path, "a code actor's program names the file's steps: [\"acquire\", \"write\"]")
	}
	name = strings.TrimSpace(name)
	if variants, ok := f.code.steps[name]; ok && len(variants) > 0 {
		return f.wrong(path, "step %s has no variant for %s (mode = %q, or one for both)", name, mode, modeKey(mode))
	}
	if near := nearest(name, f.code.names()); near != "" {
		return f.wrong(path, "unknown step %q (did you mean %s?)", untrusted.Line(name), near)
	}
	return f.wrong(path, "unknown step %q (the file's steps: %s)", untrusted.Line(name), strings.Join(f.code.names(), ", "))
}

func (f *file) hasCode(doc map[string]any) bool {
	_, steps := doc["step"]
	_, setup := doc["setup"]
	return steps || setup
}

// code reads [setup], [[step]] and [[invariant]].
func (f *file) codeOf(top *table, s *engine.Scenario) (*codeFile, error) {
	cf := &codeFile{steps: map[string]map[string]*codeStep{}, code: &engine.Code{At: map[string]string{}}, used: map[string]bool{}}
	schema := "fencelab_code_" + strings.ReplaceAll(s.ID, "-", "_")
	if setup, ok, err := top.sub("setup"); err != nil {
		return nil, err
	} else if ok {
		if err := f.setup(setup, cf.code); err != nil {
			return nil, err
		}
	}
	l, ok, err := top.list("step")
	if err != nil {
		return nil, err
	}
	usesSQL := len(cf.code.SetupSQL) > 0
	if ok {
		for i, v := range l {
			t, err := f.table("step."+strconv.Itoa(i), v)
			if err != nil {
				return nil, err
			}
			step, mode, err := f.step(t)
			if err != nil {
				return nil, err
			}
			if cf.steps[step.name] == nil {
				cf.steps[step.name] = map[string]*codeStep{}
			}
			if _, twice := cf.steps[step.name][mode]; twice {
				return nil, f.wrong(t.path, "two [[step]]s are named %q%s", step.name, modeSuffix(mode))
			}
			cf.steps[step.name][mode] = step
			cf.prepare(step)
			for _, g := range step.order {
				cf.code.Guards |= engine.Guards(g)
				if g.Own() && !slices.Contains(cf.verdicts, RejectedBy(g)) {
					cf.verdicts = append(cf.verdicts, RejectedBy(g))
				}
			}
			if v := refusalOf(step.order); len(step.order) > 1 && !slices.Contains(cf.verdicts, v) {
				cf.verdicts = append(cf.verdicts, v)
			}
			usesSQL = usesSQL || step.lang == "sql"
			if c := step.connection; c != "" && !slices.Contains(cf.code.Connections, c) {
				cf.code.Connections = append(cf.code.Connections, c)
			}
			for _, st := range step.sql {
				cf.code.Sessions = cf.code.Sessions || sqlAdvisory.MatchString(stripSQL(st.text))
			}
		}
	}
	inv, ok, err := top.list("invariant")
	if err != nil {
		return nil, err
	}
	if ok {
		if len(inv) > engine.MostCodeInvariants {
			return nil, f.wrong("invariant", "%d invariants: at most %d", len(inv), engine.MostCodeInvariants)
		}
		for i, v := range inv {
			t, err := f.table("invariant."+strconv.Itoa(i), v)
			if err != nil {
				return nil, err
			}
			ci, err := f.invariant(t, cf)
			if err != nil {
				return nil, err
			}
			usesSQL = usesSQL || ci.SQL != ""
			cf.code.At["invariant."+strconv.Itoa(i)] = f.where(t.path)
			cf.code.Invariants = append(cf.code.Invariants, ci)
			cf.verdicts = append(cf.verdicts, ci.Name)
		}
	}
	if usesSQL {
		cf.code.Schema = schema
	}
	cf.code.UsesRedis = len(cf.code.SetupRedis) > 0
	for _, variants := range cf.steps {
		for _, step := range variants {
			cf.code.UsesRedis = cf.code.UsesRedis || step.lang != "sql"
		}
	}
	for _, inv := range cf.code.Invariants {
		cf.code.UsesRedis = cf.code.UsesRedis || inv.SQL == ""
	}
	return cf, nil
}

// prepare adds a sql step's statements to what the server parses before a
// lab's first action (engine.Code.Prepare): with every parameter NULL
// (which takes whatever type its place needs), with its guards in and,
// where that differs, out.
func (cf *codeFile) prepare(step *codeStep) {
	if step.lang != "sql" {
		return
	}
	nulls := map[string]string{}
	for _, p := range append(step.params(), codeBuiltins...) {
		nulls[p] = "null"
	}
	if cf.code.Prepare == nil {
		cf.code.Prepare = map[string]string{}
	}
	for _, st := range step.sql {
		for _, withGuards := range []bool{true, false} {
			filled := guardPattern.ReplaceAllStringFunc(st.text, func(place string) string {
				g, ok := step.guardAt(place)
				switch {
				case !ok:
					return place
				case withGuards:
					return step.guards[g].text
				}
				return step.guards[g].without
			})
			text := bind(filled, nulls, true)
			key := "prepare." + st.path
			at := st.at
			if !withGuards {
				if text == cf.code.Prepare[key] {
					continue
				}
				// What differs from the guarded text is the guards'
				// else: a mistake only here is theirs.
				key, at = key+".unguarded", step.guardsAt
			}
			cf.code.Prepare[key] = text
			cf.code.At[key] = at
			if withGuards && step.guardsAt != "" {
				// A mistake the unguarded text has not: the guards'.
				cf.code.At[key+".guards"] = step.guardsAt
			}
		}
	}
}

func modeSuffix(mode string) string {
	if mode == "" {
		return ""
	}
	return " for " + mode
}

// where is a path of the file as an error names it: "mine.toml:12".
func (f *file) where(path string) string {
	return untrusted.Line(f.name) + ":" + strconv.Itoa(f.at.lineOf(path))
}

// firstLineOf is the line a string value's text starts on: its key's, or
// the next one when the key's line ends with the quotes that open a
// multi-line string (TOML drops the newline right after them).
func (f *file) firstLineOf(path string) int {
	n := f.at.lineOf(path)
	if n < 1 || n > len(f.lines) {
		return n
	}
	line := strings.TrimSpace(f.lines[n-1])
	if strings.HasSuffix(line, "'''") || strings.HasSuffix(line, `"""`) {
		if _, value, ok := strings.Cut(line, "="); ok && (strings.TrimSpace(value) == "'''" || strings.TrimSpace(value) == `"""`) {
			return n + 1
		}
	}
	return n
}

// luaSyntaxLine finds the line in a Lua compiler's error: "script line:4(column:7)".
var luaSyntaxLine = regexp.MustCompile(`line:(\d+)\(column:\d+\)(?: near '([^']*)')?:\s*(.*)$`)

// compileLua compiles a script as Lua before anything runs, so a typo is
// said at the file's line it is on (first is the file's line of the
// script's first line), not when the step runs.
func (f *file) compileLua(path, script string, first int) error {
	if strings.HasPrefix(script, "#!") {
		// Redis's #!lua flags=… line is no Lua: read as blanks.
		if nl := strings.IndexAny(script, "\r\n"); nl >= 0 {
			script = strings.Repeat(" ", nl) + script[nl:]
		}
	}
	_, err := luaparse.Parse(strings.NewReader(script), "script")
	if err == nil {
		return nil
	}
	said := strings.TrimSpace(err.Error())
	line := f.at.lineOf(path)
	if m := luaSyntaxLine.FindStringSubmatch(said); m != nil {
		if n, perr := strconv.Atoi(m[1]); perr == nil && first > 0 {
			line = first + n - 1
		}
		said = m[3]
		if m[2] != "" {
			said += " near " + m[2]
		}
	} else if rest, ok := strings.CutPrefix(said, "script at EOF:"); ok && first > 0 {
		// The script ended in the middle of something: said at its last
		// line of code, where it stops.
		line = first + strings.Count(strings.TrimRight(script, " \t\r\n"), "\n")
		said = strings.TrimSpace(rest) + " at the script's end"
	}
	return &FileError{File: f.name, Line: line, What: lang.P("the script does not compile: %s", untrusted.Line(said))}
}

// scriptError is a script's error reply as both servers write it — a
// line of the script, and what went wrong there — without what follows
// (gopher-lua's stack traceback, Redis's script hash).
var scriptError = regexp.MustCompile(`(?:^|[^0-9A-Za-z_]):(\d+): (.+?)(?:\s+stack traceback:.*| script: [0-9a-f]+, on @user_script:\d+\.?)?$`)

// luaFailure says a script's error at the file's line it happened on,
// when the reply names one.
func (s *codeStep) luaFailure(actor, reply, sent string) error {
	m := scriptError.FindStringSubmatch(reply)
	if m == nil || s.luaLine < 1 {
		return nil
	}
	n, err := strconv.Atoi(m[1])
	if err != nil {
		return nil
	}
	file, _, _ := strings.Cut(s.at, ":")
	if i := strings.LastIndexByte(s.at, ':'); i >= 0 {
		file = s.at[:i]
	}
	return &engine.CodeFailure{Err: lang.Error("%s:%d: step %s of %s: the script failed at its line %d: %s — in: %s",
		file, s.luaLine+n-1, s.name, actor, n, untrusted.Line(m[2]), untrusted.Line(sent))}
}

func (f *file) setup(t *table, c *engine.Code) error {
	if v, ok := t.get("sql"); ok {
		stmts, err := f.strings(t.key("sql"), v)
		if err != nil {
			return err
		}
		if text, one := v.(string); one {
			// One string holds statements as psql takes them: each ends
			// at a ; of its code (not one in a constant, a name or a
			// comment).
			stmts = splitStatements(text)
			if len(stmts) == 0 {
				return f.wrong(t.key("sql"), "an empty statement")
			}
		}
		for i, stmt := range stmts {
			path := t.key("sql")
			if _, list := v.([]any); list {
				path += "." + strconv.Itoa(i)
			}
			if err := f.refuseSQL(path, stmt, false); err != nil {
				return err
			}
			if err := f.refuseAdvisory(path, stmt); err != nil {
				return err
			}
			c.At["setup."+strconv.Itoa(i)] = f.where(path)
			c.SetupSQL = append(c.SetupSQL, stmt)
		}
	}
	if r, ok, err := t.sub("redis"); err != nil {
		return err
	} else if ok {
		for _, name := range slices.Sorted(maps.Keys(r.m)) {
			r.used[name] = true
			if err := f.keyName(r.key(name), name); err != nil {
				return err
			}
			switch v := r.m[name].(type) {
			case string:
				c.SetupRedis = append(c.SetupRedis, engine.RedisKey{Key: name, Type: "string", Value: v, TTL: -1})
			case int64:
				c.SetupRedis = append(c.SetupRedis, engine.RedisKey{Key: name, Type: "string", Value: strconv.FormatInt(v, 10), TTL: -1})
			case map[string]any:
				fields := map[string]string{}
				for field, fv := range v {
					switch fv := fv.(type) {
					case string:
						fields[field] = fv
					case int64:
						fields[field] = strconv.FormatInt(fv, 10)
					default:
						return f.wrong(r.key(name)+"."+field, "a hash field's value is a string or a whole number")
					}
				}
				if len(fields) == 0 {
					return f.wrong(r.key(name), "a hash needs a field: Redis keeps no empty hash")
				}
				c.SetupRedis = append(c.SetupRedis, engine.RedisKey{Key: name, Type: "hash", Fields: fields, TTL: -1})
			default:
				return f.wrong(r.key(name), "a key's value is a string, a whole number, or a table of fields (a hash)")
			}
		}
	}
	return t.done("sql", "redis")
}

// keyName refuses a key name a file may not use.
func (f *file) keyName(path, name string) error {
	if name == "" || len(name) > 200 || strings.ContainsAny(name, " \t\r\n*?[") {
		return f.wrong(path, "key %q: a key's name has no spaces or glob characters, and at most 200 bytes", untrusted.Line(name))
	}
	if world.OwnKeyName(name) {
		return f.wrong(path, "key %q has the shape of one of fencelab's own (its leases, counters, epochs, leaders and jobs): name yours otherwise", untrusted.Line(name))
	}
	return nil
}

// notOwnKeys refuses a script's keys, as written, that name one of
// fencelab's own (a key given by a parameter is the store's to refuse, at
// the step).
func (f *file) notOwnKeys(path string, keys []string) error {
	for i, k := range keys {
		if world.OwnKeyName(k) {
			return f.wrong(path+"."+strconv.Itoa(i), "key %q has the shape of one of fencelab's own (its leases, counters, epochs, leaders and jobs): name yours otherwise", untrusted.Line(k))
		}
	}
	return nil
}

// strings reads one string or a list of strings.
func (f *file) strings(path string, v any) ([]string, error) {
	switch v := v.(type) {
	case string:
		return []string{v}, nil
	case []any:
		var out []string
		for i, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, f.wrong(path+"."+strconv.Itoa(i), "%s must be strings", lastKey(path))
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, f.wrong(path, "%s must be a string or a list of strings", lastKey(path))
}

var stepKeys = []string{"name", "mode", "lua", "keys", "args", "redis", "sql", "save", "wait_if", "rejected_if", "guards", "connection"}

// connectionPattern is a connection's name: it names no actor (actors'
// names begin with a capital).
var connectionPattern = regexp.MustCompile(`^[a-z][a-z0-9-]{0,39}$`)

// step reads one [[step]].
func (f *file) step(t *table) (*codeStep, string, error) {
	step := &codeStep{path: t.path, guards: map[engine.Guard]fragment{}}
	var err error
	if step.name, err = t.str("name", true); err != nil {
		return nil, "", err
	}
	if !idPattern.MatchString(step.name) {
		return nil, "", f.wrong(t.key("name"), "step name %q: lower-case letters, digits and dashes, at most 40", step.name)
	}
	mode, err := t.choice("mode", "both", "safe", "unsafe")
	if err != nil {
		return nil, "", err
	}
	if mode == "both" {
		mode = ""
	}
	step.reply, err = f.rules(t)
	if err != nil {
		return nil, "", err
	}
	var langs []string
	for _, k := range []string{"lua", "redis", "sql"} {
		if _, ok := t.m[k]; ok {
			langs = append(langs, k)
		}
	}
	switch len(langs) {
	case 0:
		return nil, "", f.wrong(t.path, "step %s has no code: give it lua, redis or sql", step.name)
	case 1:
	default:
		return nil, "", f.wrong(t.key(langs[1]), "step %s has %s and %s: one of lua, redis or sql", step.name, langs[0], langs[1])
	}
	step.lang = langs[0]
	step.codePath = t.key(step.lang)
	step.at = f.where(step.codePath)
	var texts []string // every text a parameter or a guard may be in
	switch step.lang {
	case "lua":
		if step.lua, err = t.str("lua", true); err != nil {
			return nil, "", err
		}
		if err := f.refuseLua(t.key("lua"), step.lua); err != nil {
			return nil, "", err
		}
		step.luaLine = f.firstLineOf(step.codePath)
		if err := f.compileLua(t.key("lua"), step.lua, step.luaLine); err != nil {
			return nil, "", err
		}
		for _, k := range []string{"keys", "args"} {
			v, ok := t.get(k)
			if !ok {
				continue
			}
			words, err := f.words(t.key(k), v)
			if err != nil {
				return nil, "", err
			}
			if k == "keys" {
				if err := f.notOwnKeys(t.key(k), words); err != nil {
					return nil, "", err
				}
				step.keys = words
			} else {
				step.args = words
			}
		}
		texts = append(append([]string{step.lua}, step.keys...), step.args...)
	case "redis":
		v, _ := t.get("redis")
		if step.words, err = f.words(t.key("redis"), v); err != nil {
			return nil, "", err
		}
		if len(step.words) == 0 {
			return nil, "", f.wrong(t.key("redis"), "redis is a command as a list of words: [\"GET\", \"counter\"]")
		}
		if step.keyAt, err = f.command(t.key("redis"), step.words); err != nil {
			return nil, "", err
		}
		texts = step.words
	case "sql":
		v, _ := t.get("sql")
		if step.sql, err = f.statements(t.key("sql"), v); err != nil {
			return nil, "", err
		}
		for _, s := range step.sql {
			texts = append(texts, s.text)
		}
	}
	if step.connection, err = t.str("connection", false); err != nil {
		return nil, "", err
	}
	switch {
	case step.connection == "":
	case step.lang != "sql":
		return nil, "", f.wrong(t.key("connection"), "step %s names a connection, which is PostgreSQL's: only a sql step has one", step.name)
	case !connectionPattern.MatchString(step.connection):
		return nil, "", f.wrong(t.key("connection"), "connection %q: lower-case letters, digits and dashes, at most 40 (\"pool-1\")", untrusted.Line(step.connection))
	}
	if err := f.fragments(t, step, texts); err != nil {
		return nil, "", err
	}
	// A statement is held to the rules as it is sent: with every guard's
	// fragment in (SAFE), and with every guard's else (UNSAFE, or SAFE
	// --without): the words of a fragment are code too.
	for _, st := range step.sql {
		for _, withGuards := range []bool{true, false} {
			filled := guardPattern.ReplaceAllStringFunc(st.text, func(place string) string {
				g, ok := step.guardAt(place)
				if !ok {
					return place
				}
				if withGuards {
					return step.guards[g].text
				}
				return step.guards[g].without
			})
			if err := f.refuseSQL(st.path, filled, true); err != nil {
				return nil, "", err
			}
		}
	}
	return step, mode, t.done(stepKeys...)
}

// rules reads save, wait_if and rejected_if of a step or a statement.
func (f *file) rules(t *table) (replyRules, error) {
	var r replyRules
	var err error
	if r.save, err = t.str("save", false); err != nil {
		return r, err
	}
	if r.save != "" && (!saveName.MatchString(r.save) || slices.Contains(codeBuiltins, r.save)) {
		return r, f.wrong(t.key("save"), "save %q: a name of letters, digits and _, and none of %s", untrusted.Line(r.save), strings.Join(codeBuiltins, ", "))
	}
	for _, k := range []string{"wait_if", "rejected_if"} {
		v, ok := t.get(k)
		if !ok {
			continue
		}
		if _, table := v.(map[string]any); table {
			return r, f.wrong(t.key(k), "%s is a reply, a list of replies, or the string \"rows = N\": %s = \"rows = 0\"", k, k)
		}
		list, err := f.strings(t.key(k), v)
		if err != nil {
			return r, err
		}
		for _, s := range list {
			if strings.HasPrefix(strings.TrimSpace(s), "rows") {
				if _, ok := rowsRule(s); !ok {
					return r, f.wrong(t.key(k), "%s %q: a reply, or rows = N", k, untrusted.Line(s))
				}
			}
		}
		if k == "wait_if" {
			r.waitIf = list
		} else {
			r.rejectedIf = list
		}
	}
	return r, nil
}

var rowsPattern = regexp.MustCompile(`^\s*rows\s*=\s*(\d+)\s*$`)

// rowsRule reads "rows = N".
func rowsRule(s string) (int64, bool) {
	m := rowsPattern.FindStringSubmatch(s)
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	return n, err == nil
}

// matches reports whether a reply is one of a rule's.
func matches(rule []string, reply engine.CodeReply) bool {
	for _, r := range rule {
		if n, ok := rowsRule(r); ok {
			if reply.Rows == n && !reply.Error {
				return true
			}
			continue
		}
		if r == reply.Text || (reply.Nil && (r == "nil" || r == "null")) {
			return true
		}
	}
	return false
}

// words reads a list of words (keys, args, a command).
func (f *file) words(path string, v any) ([]string, error) {
	l, ok := v.([]any)
	if !ok {
		return nil, f.wrong(path, "%s is a list of strings", lastKey(path))
	}
	var out []string
	for i, e := range l {
		switch e := e.(type) {
		case string:
			out = append(out, e)
		case int64:
			out = append(out, strconv.FormatInt(e, 10))
		default:
			return nil, f.wrong(path+"."+strconv.Itoa(i), "%s is a list of strings", lastKey(path))
		}
	}
	return out, nil
}

// statements reads a sql step: one statement, or a list of statements
// (each a string or a table with rules of its own).
func (f *file) statements(path string, v any) ([]codeStatement, error) {
	var out []codeStatement
	add := func(at, text string, rules replyRules, own bool) error {
		if err := f.refuseSQL(at, text, true); err != nil {
			return err
		}
		out = append(out, codeStatement{text: text, path: at, at: f.where(at), rules: rules, own: own})
		return nil
	}
	switch v := v.(type) {
	case string:
		if err := add(path, v, replyRules{}, false); err != nil {
			return nil, err
		}
	case []any, []map[string]any:
		var list []any
		if l, ok := v.([]any); ok {
			list = l
		} else {
			for _, m := range v.([]map[string]any) {
				list = append(list, m)
			}
		}
		for i, e := range list {
			at := path + "." + strconv.Itoa(i)
			switch e := e.(type) {
			case string:
				if err := add(at, e, replyRules{}, false); err != nil {
					return nil, err
				}
			case map[string]any:
				t, _ := f.table(at, e)
				text, err := t.str("sql", true)
				if err != nil {
					return nil, err
				}
				rules, err := f.rules(t)
				if err != nil {
					return nil, err
				}
				if err := t.done("sql", "save", "wait_if", "rejected_if"); err != nil {
					return nil, err
				}
				if err := add(at, text, rules, true); err != nil {
					return nil, err
				}
			default:
				return nil, f.wrong(at, "a statement is a string, or a table { sql = \"…\", save = \"…\" }")
			}
		}
	default:
		return nil, f.wrong(path, "sql is a statement, or a list of them (BEGIN … COMMIT)")
	}
	if len(out) == 0 {
		return nil, f.wrong(path, "sql has no statement")
	}
	// A transaction a step begins ends in the step: the state between two
	// steps is the rows, keys and memories, which an open transaction's
	// locks and snapshot are not part of.
	begins := func(s string) bool { w := firstWord(s); return w == "begin" || w == "start" }
	ends := func(s string) bool { w := firstWord(s); return w == "commit" || w == "rollback" || w == "end" }
	for i, s := range out {
		at := path
		if len(out) > 1 {
			at += "." + strconv.Itoa(i)
		}
		switch {
		case begins(s.text) && i != 0:
			return nil, f.wrong(at, "BEGIN comes first in a step's list of statements")
		case ends(s.text) && i != len(out)-1:
			return nil, f.wrong(at, "COMMIT or ROLLBACK comes last in a step's list of statements")
		}
	}
	if begins(out[0].text) != ends(out[len(out)-1].text) {
		return nil, f.wrong(path, "a step's transaction begins and ends in the step: BEGIN first and COMMIT (or ROLLBACK) last, or neither")
	}
	return out, nil
}

func firstWord(s string) string {
	fields := strings.Fields(strings.ToLower(stripSQL(s)))
	if len(fields) == 0 {
		return ""
	}
	return strings.TrimSuffix(fields[0], ";")
}

// fragments reads a step's guards and holds them to the text: every
// {{NAME}} has a fragment, every fragment a place.
func (f *file) fragments(t *table, step *codeStep, texts []string) error {
	places := map[string]bool{}
	for _, text := range texts {
		for _, m := range guardPattern.FindAllStringSubmatch(text, -1) {
			places[m[1]] = true
		}
	}
	g, ok, err := t.sub("guards")
	if err != nil {
		return err
	}
	if ok {
		step.guardsAt = f.where(t.key("guards"))
		for _, name := range slices.Sorted(maps.Keys(g.m)) {
			g.used[name] = true
			if err := guardNameOK(name); err != nil {
				return f.wrong(g.key(name), "%s", err)
			}
			var fr fragment
			says := ""
			switch v := g.m[name].(type) {
			case string:
				fr.text = v
			case map[string]any:
				ft, _ := f.table(g.key(name), v)
				if fr.text, err = ft.str("text", true); err != nil {
					return err
				}
				if fr.without, err = ft.str("else", false); err != nil {
					return err
				}
				if says, err = ft.str("says", false); err != nil {
					return err
				}
				if err := ft.done("text", "else", "says"); err != nil {
					return err
				}
			default:
				return f.wrong(g.key(name), "a guard is its fragment of code, or { text = \"…\", else = \"…\", says = \"…\" }")
			}
			says = untrusted.Line(strings.TrimSpace(says))
			guard, err := engine.OwnGuard(strings.TrimSpace(name), says)
			if err != nil {
				return f.wrong(g.key(name), "%s", err)
			}
			if near := engine.NearFencelabGuard(name); guard.Own() && near != "" {
				f.warnings = append(f.warnings, lang.P("%s: warning: guard %s is the file's own, not fencelab's %s (a typo? fencelab's names mean fencelab's guards)",
					f.where(g.key(name)), name, near))
			}
			if says != "" && !guard.Own() {
				return f.wrong(g.key(name)+".says", "%s is fencelab's guard, which says what it checks itself: name the file's own guard otherwise to give it a sentence", guard)
			}
			if !places[strings.TrimSpace(name)] {
				// Taking {{NAME}} out of the code is the whole edit (on
				// stage, under --watch): the entry left behind is said,
				// not refused.
				f.warnings = append(f.warnings, lang.P("%s: warning: guard %s has no place in step %s: it is not used (write {{%s}} where its fragment goes, or take the entry out)",
					f.where(g.key(name)), name, step.name, name))
				continue
			}
			step.guards[guard] = fr
			step.order = append(step.order, guard)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(places)) {
		guard, err := engine.ParseGuard(name)
		if _, defined := step.guards[guard]; (err != nil || !defined) && plainGuardName.MatchString(name) {
			// Said at the step's code, where the place is; a name near
			// one its guards define is a typo of it.
			var defined []string
			if ok {
				defined = slices.Sorted(maps.Keys(g.m))
			}
			if near := nearest(name, defined); near != "" {
				return f.wrong(step.codePath, "step %s has {{%s}}, which its guards do not define (did you mean {{%s}}?)", step.name, untrusted.Line(name), near)
			}
			return f.wrong(step.codePath, "step %s has {{%s}}, which its guards do not define: guards = { %s = \"…\" }", step.name, untrusted.Line(name), tomlKey(name))
		}
	}
	return nil
}

// guardNameOK holds a guard's name to what its places and --without can
// say: any name, without braces, a comma or a line break, of at most 40
// characters.
func guardNameOK(name string) error {
	switch n := strings.TrimSpace(name); {
	case n == "":
		return lang.Error("a guard needs a name")
	case strings.ContainsAny(n, "{},\n\r"):
		return lang.Error("guard %q: a guard's name holds no brace, comma or line break (it goes in {{NAME}} and in --without A,B)", untrusted.Line(n))
	case len([]rune(n)) > 40:
		return lang.Error("guard %q: at most 40 characters", untrusted.Line(n))
	case !engine.VisibleName(n):
		return lang.Error("guard %q: a guard's name is text a reader sees as it is: no control character, invisible or direction mark", untrusted.Line(n))
	}
	return nil
}

// tomlKey is a name as a TOML key is written: bare where it may be.
func tomlKey(name string) string {
	if regexp.MustCompile(`^[A-Za-z0-9_-]+$`).MatchString(name) {
		return name
	}
	return strconv.Quote(name)
}

// params are the parameters a step uses, in its text and fragments.
func (s *codeStep) params() []string {
	var texts []string
	texts = append(texts, s.lua)
	texts = append(texts, s.keys...)
	texts = append(texts, s.args...)
	texts = append(texts, s.words...)
	for _, st := range s.sql {
		texts = append(texts, st.text)
	}
	for _, fr := range s.guards {
		texts = append(texts, fr.text, fr.without)
	}
	seen := map[string]bool{}
	var out []string
	for _, text := range texts {
		for _, m := range paramPattern.FindAllStringSubmatchIndex(text, -1) {
			if m[1] < len(text) && text[m[1]] == '$' {
				continue // a dollar quote: $body$
			}
			name := text[m[2]:m[3]]
			if !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
	}
	return out
}

// saves are the names the step saves, in order.
func (s *codeStep) saves() []string {
	var out []string
	if s.reply.save != "" {
		out = append(out, s.reply.save)
	}
	for _, st := range s.sql {
		if st.rules.save != "" {
			out = append(out, st.rules.save)
		}
	}
	return out
}

// invariant reads one [[invariant]].
func (f *file) invariant(t *table, cf *codeFile) (engine.CodeInvariant, error) {
	var ci engine.CodeInvariant
	var err error
	if ci.Name, err = t.str("name", true); err != nil {
		return ci, err
	}
	if !invariantNamePattern.MatchString(ci.Name) || !engine.VisibleName(ci.Name) {
		return ci, f.wrong(t.key("name"), "invariant name %q: the anomaly it stands for, in at most 40 characters on one line, no blank at either end — DOUBLE_SPEND, edit-lost", untrusted.Line(ci.Name))
	}
	if slices.Contains(knownVerdicts(), ci.Name) || slices.Contains(cf.verdicts, ci.Name) {
		return ci, f.wrong(t.key("name"), "invariant name %s is taken: name it otherwise", ci.Name)
	}
	if ci.Says, err = t.str("says", true); err != nil {
		return ci, err
	}
	_, hasSQL := t.m["sql"]
	_, hasLua := t.m["lua"]
	switch {
	case hasSQL && hasLua:
		return ci, f.wrong(t.key("lua"), "invariant %s has sql and lua: one of them", ci.Name)
	case hasSQL:
		if ci.SQL, err = f.query(t); err != nil {
			return ci, err
		}
		if firstWord(ci.SQL) != "select" && firstWord(ci.SQL) != "with" {
			return ci, f.wrong(t.key("sql"), "invariant %s: a query (SELECT …) returning one boolean", ci.Name)
		}
	case hasLua:
		if ci.Lua, err = t.str("lua", true); err != nil {
			return ci, err
		}
		if err := f.refuseLua(t.key("lua"), ci.Lua); err != nil {
			return ci, err
		}
		if err := f.compileLua(t.key("lua"), ci.Lua, f.firstLineOf(t.key("lua"))); err != nil {
			return ci, err
		}
		if v, ok := t.get("keys"); ok {
			if ci.Keys, err = f.words(t.key("keys"), v); err != nil {
				return ci, err
			}
			for i, k := range ci.Keys {
				if strings.Contains(k, "$") {
					return ci, f.wrong(t.key("keys")+"."+strconv.Itoa(i), "an invariant's keys are names, without parameters")
				}
			}
			if err := f.notOwnKeys(t.key("keys"), ci.Keys); err != nil {
				return ci, err
			}
		}
	default:
		return ci, f.wrong(t.path, "invariant %s has no check: sql (a query returning one boolean) or lua (a script returning 1 or 0)", ci.Name)
	}
	return ci, t.done("name", "says", "sql", "lua", "keys")
}

// expectedCode reads expected as a table: the value and how to read it.
func (f *file) expectedCode(top *table, s *engine.Scenario, cf *codeFile) error {
	if _, table := top.m["expected"].(map[string]any); !table {
		// Several values, each with what it should be: the run's final
		// is how many are not (engine.CodeMeasure).
		list, _, err := top.list("expected")
		if err != nil {
			return err
		}
		if len(list) < 2 || len(list) > 8 {
			return f.wrong("expected", "expected as a list names 2 to 8 values, each { name = \"…\", value = 2, sql = \"SELECT …\" }")
		}
		names := map[string]bool{}
		for i, v := range list {
			t, err := f.table("expected."+strconv.Itoa(i), v)
			if err != nil {
				return err
			}
			value, err := f.codeValue(t, s, cf, i, true)
			if err != nil {
				return err
			}
			if names[value.Label] {
				return f.wrong(t.key("name"), "two of expected's values are named %s: name each its own way", untrusted.Line(value.Label))
			}
			names[value.Label] = true
			cf.code.Values = append(cf.code.Values, value)
		}
		s.Expected = 0
		s.Measure = engine.CodeMeasure(cf.code)
		return nil
	}
	t, _, err := top.sub("expected")
	if err != nil {
		return err
	}
	value, err := f.codeValue(t, s, cf, 0, false)
	if err != nil {
		return err
	}
	cf.code.Values = []engine.CodeValue{value}
	s.Expected = value.Expected
	s.Measure = engine.CodeMeasure(cf.code)
	return nil
}

// query reads a table's sql, a query the state's read runs (an
// invariant's, a value's), held to the rules of a file's SQL.
func (f *file) query(t *table) (string, error) {
	q, err := t.str("sql", true)
	if err != nil {
		return "", err
	}
	if err := f.refuseAdvisory(t.key("sql"), q); err != nil {
		return "", err
	}
	return q, f.refuseSQL(t.key("sql"), q, true)
}

// codeValue reads one value of expected's: { value = 2, sql = "SELECT …" }
// or { value = 2, redis = "KEY" }, and in a list its name.
func (f *file) codeValue(t *table, s *engine.Scenario, cf *codeFile, i int, named bool) (engine.CodeValue, error) {
	var v engine.CodeValue
	var err error
	if _, ok := t.m["value"]; !ok {
		return v, f.wrong(t.path, "expected needs its value: expected = { value = 2, sql = \"SELECT …\" }")
	}
	if v.Expected, err = t.integer("value", 0, -1<<53, 1<<53); err != nil {
		return v, err
	}
	at := "value"
	if i > 0 {
		at = "value." + strconv.Itoa(i)
	}
	_, hasSQL := t.m["sql"]
	_, hasRedis := t.m["redis"]
	switch {
	case hasSQL && hasRedis:
		return v, f.wrong(t.key("redis"), "expected reads the value by sql or from a redis key, not both")
	case hasSQL:
		if cf == nil {
			return v, f.wrong(t.key("sql"), "expected.sql reads a file's own table: give the file a [setup] or [[step]]")
		}
		if v.SQL, err = f.query(t); err != nil {
			return v, err
		}
		cf.code.Schema = "fencelab_code_" + strings.ReplaceAll(s.ID, "-", "_")
		cf.code.At[at] = f.where(t.key("sql"))
		v.Label = "value"
	case hasRedis:
		if cf == nil {
			return v, f.wrong(t.key("redis"), "expected.redis reads a file's own key: give the file a [setup] or [[step]]")
		}
		if v.Key, err = t.str("redis", true); err != nil {
			return v, err
		}
		if err := f.keyName(t.key("redis"), v.Key); err != nil {
			return v, err
		}
		cf.code.At[at] = f.where(t.key("redis"))
		cf.code.UsesRedis = true
		v.Label = v.Key
	default:
		return v, f.wrong(t.path, "expected as a table says how to read the value: sql = \"SELECT …\" or redis = \"KEY\"")
	}
	if !named {
		return v, t.done("value", "sql", "redis")
	}
	name, err := t.str("name", false)
	if err != nil {
		return v, err
	}
	if name != "" {
		if !invariantNamePattern.MatchString(name) || !engine.VisibleName(name) {
			return v, f.wrong(t.key("name"), "value name %q: at most 40 characters on one line, no blank at either end", untrusted.Line(name))
		}
		v.Label = name
	} else if v.SQL != "" {
		v.Label = "value " + strconv.Itoa(i+1)
	}
	return v, t.done("name", "value", "sql", "redis")
}

// stepFor is the file's step of a name in a mode: the mode's own, or the
// one for both.
func (cf *codeFile) stepFor(name string, mode engine.Mode) (*codeStep, bool) {
	variants, ok := cf.steps[name]
	if !ok {
		return nil, false
	}
	if s, ok := variants[modeKey(mode)]; ok {
		return s, true
	}
	s, ok := variants[""]
	return s, ok
}

// names are the file's step names.
func (cf *codeFile) names() []string { return slices.Sorted(maps.Keys(cf.steps)) }

// build makes the engine's step of a file's step. saved are the names
// the actor's earlier steps save; a parameter none of them (nor the step
// itself, earlier) saves is a mistake said at the program's entry.
func (f *file) build(path, actor string, s *codeStep, saved map[string]bool) (engine.Step, error) {
	have := maps.Clone(saved)
	for _, b := range codeBuiltins {
		have[b] = true
	}
	if s.lang == "sql" {
		// A statement may use what an earlier statement of the step saved.
		for _, st := range s.sql {
			for _, p := range (&codeStep{sql: []codeStatement{st}}).params() {
				if !have[p] {
					return engine.Step{}, f.unsaved(st.path, path, actor, s, p)
				}
			}
			if st.rules.save != "" {
				have[st.rules.save] = true
			}
		}
	}
	for _, p := range s.params() {
		if !have[p] {
			return engine.Step{}, f.unsaved(s.paramPath(p), path, actor, s, p)
		}
	}
	run := func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) { return s.run(ctx, t) }
	return engine.Step{Name: s.name, Calls: []engine.Call{{Name: s.name, Run: run, Connection: s.connection}}}, nil
}

// paramPath is where a step's code writes $p: its script or command, or
// its keys or args.
func (s *codeStep) paramPath(p string) string {
	for _, k := range []struct {
		key   string
		texts []string
	}{{"keys", s.keys}, {"args", s.args}} {
		if !strings.Contains(s.lua, "$"+p) && slices.ContainsFunc(k.texts, func(t string) bool { return strings.Contains(t, "$"+p) }) {
			return s.path + "." + k.key
		}
	}
	return s.codePath
}

// unsaved is a parameter no memory holds, said where the code uses it,
// with the program (at its line) that takes the step without saving it.
func (f *file) unsaved(code, program, actor string, s *codeStep, p string) error {
	return f.wrong(code, "step %s uses $%s, which no step before it in %s's program (line %d) saves (save = %q), and which is none of %s",
		s.name, untrusted.Line(p), actor, f.at.lineOf(program), p, "$"+strings.Join(codeBuiltins, ", $"))
}

// run takes the step: its code with the guards of the run, its parameters
// bound, sent on the actor's connections.
func (s *codeStep) run(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
	at := s.at
	m := t.Memory()
	vars := map[string]string{
		"actor":  t.Actor.Name,
		"now_ms": strconv.FormatInt(t.Now().UnixMilli(), 10),
		"ttl_ms": strconv.FormatInt(t.HoldTTL().Milliseconds(), 10),
	}
	for k, v := range m.Vars {
		vars[k] = v
	}
	// Each guard is consulted, and in SAFE kept unless the run takes it
	// out; UNSAFE is the code without any of them.
	on := map[string]bool{}
	var guardTexts []string
	for _, g := range s.order {
		off := t.Off(g)
		if t.Mode() == engine.Safe && !off {
			on[g.String()] = true
		}
	}
	fill := func(text string, sql bool) string {
		text = guardPattern.ReplaceAllStringFunc(text, func(place string) string {
			g, defined := s.guardAt(place)
			if !defined {
				return place // code, not a guard's place
			}
			name := g.String()
			fr := s.guards[g]
			if on[name] {
				// Named, so a refusal says which of the file's guards
				// it was: "version-check: AND version = 0".
				guardTexts = append(guardTexts, name+": "+bind(fr.text, vars, sql))
				return fr.text
			}
			return fr.without
		})
		return bind(text, vars, sql)
	}
	layer := engine.LayerCoordination
	var (
		reply   engine.CodeReply
		rules   = s.reply
		sent    []string
		waits   bool
		refused bool
	)
	save := func(name string, r engine.CodeReply) {
		if name == "" {
			return
		}
		saved := maps.Clone(m.Vars)
		if saved == nil {
			saved = map[string]string{}
		}
		saved[name] = r.Text
		m.Vars = saved
		vars[name] = r.Text
	}
	failed := func(r engine.CodeReply, text string) error {
		return &engine.CodeFailure{Err: lang.Error("%s: step %s of %s: the server said: %s — in: %s", at, s.name, t.Actor.Name, untrusted.Line(r.Text), untrusted.Line(text))}
	}
	switch s.lang {
	case "lua", "redis":
		call := engine.RedisCall{TTLs: []time.Duration{t.HoldTTL()}}
		if s.lang == "lua" {
			call.Script = fill(s.lua, false)
			for _, k := range s.keys {
				call.Keys = append(call.Keys, fill(k, false))
			}
			for _, a := range s.args {
				call.Args = append(call.Args, fill(a, false))
			}
			sent = append(sent, "script "+s.name+" "+strings.Join(call.Keys, " ")+" "+strings.Join(call.Args, " "))
		} else {
			for _, w := range s.words {
				call.Words = append(call.Words, fill(w, false))
			}
			call.KeyAt = s.keyAt
			sent = append(sent, strings.Join(call.Words, " "))
		}
		for _, a := range append(slices.Clone(call.Args), call.Words...) {
			if n, err := strconv.ParseInt(a, 10, 64); err == nil && n > 0 && n < int64(time.Hour/time.Millisecond)*24*30 {
				call.TTLs = append(call.TTLs, time.Duration(n)*time.Millisecond)
			}
		}
		var err error
		if reply, err = t.Code().RunCode(ctx, call); err != nil {
			var overran *engine.CodeFailure
			if errors.As(err, &overran) {
				// The script's budget or deadline: said at the step.
				return 0, &engine.CodeFailure{Err: lang.Error("%s: step %s of %s: %s — in: %s", at, s.name, t.Actor.Name, overran, untrusted.Line(sent[0]))}
			}
			return 0, err
		}
		if reply.Error && !matches(rules.waitIf, reply) && !matches(rules.rejectedIf, reply) {
			if s.lang == "lua" {
				if err := s.luaFailure(t.Actor.Name, reply.Text, sent[0]); err != nil {
					return 0, err
				}
			}
			return 0, failed(reply, sent[0])
		}
		save(rules.save, reply)
	case "sql":
		layer = engine.LayerDatabase
		last := len(s.sql) - 1
		if w := firstWord(s.sql[last].text); len(s.sql) > 1 && (w == "commit" || w == "rollback" || w == "end") {
			last--
		}
		ledger := t.Ledger()
		for i, st := range s.sql {
			text := fill(st.text, true)
			sent = append(sent, text)
			r, err := ledger.Statement(ctx, text)
			if err != nil {
				if ledger.InTransaction() {
					ledger.Statement(engine.Housekeeping(ctx), "ROLLBACK")
				}
				said := lang.Error("%s: step %s of %s: %s — in: %s", st.at, s.name, t.Actor.Name, untrusted.Line(err.Error()), untrusted.Line(text))
				var mistake *engine.CodeError
				if errors.As(err, &mistake) || errors.Is(err, engine.ErrReplyTooLarge) {
					return 0, &engine.CodeFailure{Err: said} // the server refused it: the file's to change
				}
				return 0, said
			}
			r2 := st.rules
			if i == last && !st.own {
				r2 = rules
			}
			if i == last {
				reply = r
				rules = r2
			}
			save(r2.save, r)
			waits = waits || matches(r2.waitIf, r)
			refused = refused || matches(r2.rejectedIf, r)
		}
		if ledger.InTransaction() {
			ledger.Statement(engine.Housekeeping(ctx), "ROLLBACK")
			return 0, &engine.CodeFailure{Err: lang.Error("%s: step %s of %s left a transaction open: end it in the step (COMMIT or ROLLBACK)", at, s.name, t.Actor.Name)}
		}
	}
	waits = waits || matches(rules.waitIf, reply)
	refused = !waits && (refused || matches(rules.rejectedIf, reply))
	code := strings.ToUpper(strings.ReplaceAll(s.name, "-", "_"))
	// What the server answered is the file's data: shown, never acted on
	// by a terminal (an escape sequence in a row is drawn as text).
	shown := untrusted.Line(cutReply(reply.Text))
	if s.lang == "sql" {
		rows := lang.P("%d rows", reply.Rows)
		if reply.Rows == 1 {
			rows = lang.P("1 row")
		}
		shown = rows.In(lang.En)
		if !reply.Nil {
			shown = untrusted.Line(cutReply(reply.Text)) + " (" + shown + ")"
		}
		if s.connection != "" {
			shown += " on " + s.connection
		}
	}
	// The guards' text is the decision's only where the file says the
	// reply was their refusal (rejected_if): a step that went on may have
	// never reached its comparison (the lock already gone), and a guard
	// line there would say it held.
	guard := ""
	if refused {
		guard = strings.Join(guardTexts, " · ")
	}
	switch {
	case waits:
		t.Emit(layer, code, "WAITING", guard, "%s waits: %s answered %s", t.Actor.Name, s.name, shown)
		return engine.Wait, nil
	case refused:
		t.Emit(layer, code, "REJECTED", guard, "%s: %s answered %s — refused", t.Actor.Name, s.name, shown)
		// The guards in the code as it ran: none in UNSAFE, and not one
		// --without took out.
		var active []engine.Guard
		for _, g := range s.order {
			if on[g.String()] {
				active = append(active, g)
			}
		}
		t.Refuse(refusalOf(active))
		return engine.Advance, nil
	}
	t.Emit(layer, code, "OK", guard, "%s: %s answered %s", t.Actor.Name, s.name, shown)
	return engine.Advance, nil
}

// refusalOf is the verdict a refused step stands for: its guard's
// refusal, REJECTED for a guard that has none of its own. A step with
// several guards in its code says them all: which of the comparisons
// failed, the reply does not tell (rows = 0 is any of them).
func refusalOf(guards []engine.Guard) string {
	if len(guards) == 0 {
		return Rejected
	}
	if len(guards) > 1 {
		return rejectedByAny(guards)
	}
	switch guards[0] {
	case world.GuardFence:
		return world.StaleFence
	case world.GuardNamespace:
		return world.StaleNamespace
	case world.GuardMembership:
		return world.StaleMembership
	case world.GuardRegion:
		return world.WrongRegion
	case world.GuardVersion:
		return world.IncompatibleVersion
	case world.GuardTerminal:
		return world.IllegalTransition
	case world.GuardOwner, world.GuardPointer:
		return world.NotOwner
	}
	if guards[0].Own() {
		return RejectedBy(guards[0])
	}
	return Rejected
}

// Rejected is the verdict of a file's step refused by a guard of
// fencelab's that names no refusal of its own.
const Rejected = "REJECTED"

// RejectedBy is the verdict of a file's step refused by a guard of the
// file's own: it says which.
func RejectedBy(g engine.Guard) string { return Rejected + " by " + g.String() }

// rejectedByAny is the verdict of a step of several guards refused: by
// one of them, "REJECTED by page-open or revision-match".
func rejectedByAny(gs []engine.Guard) string {
	names := make([]string, len(gs))
	for i, g := range gs {
		names[i] = g.String()
	}
	return Rejected + " by " + strings.Join(names, " or ")
}

// bind puts the parameters' values in a text: in a statement as SQL
// literals, where the statement has code (sqlCode: not in a constant, a
// quoted name or a comment, which a value could end) and a token starts
// (x$v and E$v are names to PostgreSQL); elsewhere as they are.
func bind(text string, vars map[string]string, sql bool) string {
	var code []bool
	if sql {
		code = sqlCode(text)
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c == '$' && (!sql || code[i] && (i == 0 || !isWordByte(text[i-1]))) {
			if m := paramPattern.FindStringSubmatchIndex(text[i:]); m != nil && m[0] == 0 {
				end := i + m[1]
				if end >= len(text) || text[end] != '$' {
					name := text[i+m[2] : i+m[3]]
					if v, ok := vars[name]; ok {
						if sql {
							b.WriteString(sqlLiteral(v))
						} else {
							b.WriteString(v)
						}
						i = end - 1
						continue
					}
				}
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// sqlLiteral is a value as a statement writes it: a number as it is, any
// other value quoted (a string constant PostgreSQL gives the type its
// place needs).
func sqlLiteral(v string) string {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 || strings.HasPrefix(v, "+") {
			// In parentheses: after a minus, -1 would make "--", a comment
			// to the end of the line.
			return "(" + v + ")"
		}
		return v
	}
	if v == "null" || v == "nil" {
		return "NULL"
	}
	quoted := strings.ReplaceAll(v, "'", "''")
	if strings.Contains(v, "\\") {
		// An escape string, whose backslashes are escapes whatever the
		// session's standard_conforming_strings says: a value's trailing
		// backslash cannot end the constant early.
		return "E'" + strings.ReplaceAll(quoted, "\\", "\\\\") + "'"
	}
	return "'" + quoted + "'"
}

// shownReplyBytes is how much of a reply an event shows: a step's reply is
// a token, a row, a status, and what is past this is cut, with the
// reply's size, so a run prints (and a check keeps in every state's
// events) no megabytes of it.
const shownReplyBytes = 200

// cutReply is a reply as an event shows it: whole when short, else its
// start and its size.
func cutReply(text string) string {
	if len(text) <= shownReplyBytes {
		return text
	}
	cut := shownReplyBytes
	for cut > 0 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return text[:cut] + "… (" + byteSize(len(text)) + ")"
}

// byteSize is n bytes as a person reads it: 812 bytes, 4.0 KiB, 60.0 MiB.
func byteSize(n int) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d bytes", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
}
