package scenarios

import (
	"regexp"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/untrusted"
)

// What a file's code may do. Its keys are put below the run's namespace
// and its tables in a schema of their own; what could reach past them —
// another schema, the server's settings, other sessions, every key — is
// refused before anything runs, each at its line.

// command checks a step's Redis command and says which words are keys.
func (f *file) command(path string, words []string) ([]int, error) {
	name := strings.ToLower(words[0])
	where, ok := engine.RedisCommands[name]
	if !ok {
		return nil, f.wrong(path, "%s is not a command a step sends (strings, hashes and keys only: GET, SET, INCR, HSET, DEL, EXPIRE, …); a script can do more", untrusted.Line(words[0]))
	}
	if len(words) < 2 {
		return nil, f.wrong(path, "%s needs its key", untrusted.Line(words[0]))
	}
	var at []int
	switch where {
	case "first":
		at = []int{1}
	case "all":
		for i := 1; i < len(words); i++ {
			at = append(at, i)
		}
	case "pairs":
		for i := 1; i < len(words); i += 2 {
			at = append(at, i)
		}
	}
	for _, i := range at {
		if !strings.Contains(words[i], "$") {
			if err := f.keyName(path, words[i]); err != nil {
				return nil, err
			}
		}
	}
	return at, nil
}

// luaCall is a script's call of a Redis command.
var luaCall = regexp.MustCompile(`redis\s*\.\s*p?call\s*\(\s*`)

// luaString is a Lua string literal at the start of a text.
var luaString = regexp.MustCompile(`^(?:"([^"\\]*)"|'([^'\\]*)')`)

// refuseLua holds a script to the commands a step may send: each call
// names its command as a string literal, so what it sends can be known.
func (f *file) refuseLua(path, script string) error {
	for _, loc := range luaCall.FindAllStringIndex(script, -1) {
		rest := script[loc[1]:]
		m := luaString.FindStringSubmatch(rest)
		if m == nil {
			return f.wrong(path, "a script names each command it calls as a string: redis.call(\"GET\", KEYS[1])")
		}
		name := m[1] + m[2]
		if _, ok := engine.RedisCommands[strings.ToLower(name)]; !ok {
			return f.wrong(path, "the script calls %s, which is not a command fencelab lets a script send (strings, hashes and keys only)", untrusted.Line(name))
		}
	}
	for _, word := range []string{"redis.setresp", "redis.set_repl", "redis.replicate_commands", "redis.breakpoint", "redis.debug"} {
		if strings.Contains(script, word) {
			return f.wrong(path, "the script uses %s, which a step may not", word)
		}
	}
	return nil
}

// sqlRefused are words a file's SQL may not hold, outside its string
// constants: what reaches past the file's schema or its own session.
var sqlRefused = []string{"search_path", "pg_terminate_backend", "pg_cancel_backend", "pg_reload_conf", "pg_read_file",
	"pg_read_binary_file", "pg_ls_dir", "pg_stat_file", "lo_import", "lo_export", "dblink", "pg_sleep", "set_config"}

// sqlQueryInText are functions that run a query given to them as text,
// which these rules never see.
var sqlQueryInText = []string{"ts_stat", "ts_rewrite", "query_to_xml", "query_to_xmlschema", "query_to_xml_and_xmlschema",
	"cursor_to_xml", "cursor_to_xmlschema"}

// sqlRefusedWhy are functions a file's SQL may not call, each with why:
// what a lab could not check if it did (engine's session.go).
var sqlRefusedWhy = map[string]string{
	"pg_advisory_lock":             "waits for an advisory lock: take it with pg_try_advisory_lock and wait_if = \"false\" (a lab reads a session's locks by letting go of them for a moment, which a waiting session would take)",
	"pg_advisory_lock_shared":      "waits for an advisory lock: take it with pg_try_advisory_lock_shared and wait_if = \"false\" (a lab reads a session's locks by letting go of them for a moment, which a waiting session would take)",
	"pg_advisory_xact_lock":        "waits for an advisory lock: take it with pg_try_advisory_xact_lock and wait_if = \"false\" (a lab reads a session's locks by letting go of them for a moment, which a waiting session would take)",
	"pg_advisory_xact_lock_shared": "waits for an advisory lock: take it with pg_try_advisory_xact_lock_shared and wait_if = \"false\" (a lab reads a session's locks by letting go of them for a moment, which a waiting session would take)",
	"currval":                      "reads its session's last sequence value, which a lab does not keep: save what nextval answered (save = \"id\") and use $id",
	"lastval":                      "reads its session's last sequence value, which a lab does not keep: save what nextval answered (save = \"id\") and use $id",
}

func init() {
	// The server's clock is the host's, not the lab's: a check's states
	// would then hang on the hour it runs at.
	for _, w := range []string{"now", "current_timestamp", "clock_timestamp", "localtimestamp", "transaction_timestamp",
		"statement_timestamp", "current_date", "current_time", "localtime", "timeofday"} {
		sqlRefusedWhy[w] = "reads the server's clock, which is the host's: use $now_ms, the lab clock (to_timestamp($now_ms / 1000.0))"
	}
}

// sqlClockWords finds the special time inputs that read the server's
// clock when cast ('now'::timestamptz).
var sqlClockWords = regexp.MustCompile(`(?i)'\s*(now|today|tomorrow|yesterday|allballs)\s*'`)

// sqlAdvisory finds an advisory lock function in a statement.
var sqlAdvisory = regexp.MustCompile(`(?i)\bpg_(try_)?advisory`)

// sqlRefusedPairs are two words a file's SQL may not hold one after the
// other.
var sqlRefusedPairs = [][2]string{
	{"alter", "system"}, {"create", "schema"}, {"drop", "schema"}, {"alter", "schema"}, {"create", "extension"},
	{"create", "role"}, {"alter", "role"}, {"drop", "role"}, {"create", "user"}, {"create", "database"},
	{"drop", "database"}, {"create", "event"}, {"security", "definer"},
	// What reaches past the schema on the server as a whole: other roles'
	// objects, the file system, other servers, the server's own code.
	{"drop", "owned"}, {"owner", "to"}, {"alter", "database"}, {"alter", "default"}, {"alter", "user"},
	{"drop", "user"}, {"create", "group"}, {"alter", "group"}, {"create", "tablespace"}, {"alter", "tablespace"},
	{"create", "subscription"}, {"alter", "subscription"}, {"create", "publication"}, {"create", "server"},
	{"alter", "server"}, {"create", "foreign"}, {"alter", "foreign"}, {"create", "language"},
	{"create", "trusted"}, {"create", "procedural"}, {"create", "access"}, {"alter", "large"},
}

// sqlCatalogs are the system catalogs a superuser could write: a file's
// SQL runs as fencelab's role, which on the ephemeral server is one.
var sqlCatalogs = []string{"pg_catalog", "information_schema", "pg_authid", "pg_shadow", "pg_auth_members",
	"pg_database", "pg_db_role_setting", "pg_tablespace", "pg_namespace", "pg_class", "pg_proc", "pg_attribute",
	"pg_language", "pg_largeobject", "pg_largeobject_metadata", "pg_extension", "pg_trigger", "pg_rewrite",
	"pg_policy", "pg_user_mapping", "pg_foreign_server", "pg_subscription", "pg_statistic", "pg_type", "pg_index"}

// sqlPGAllowed are the pg_ functions a file may call; every other pg_
// name (the catalogs, the statistics views with other sessions' queries,
// the settings, the server's files) reaches past the file's schema.
var sqlPGAllowed = []string{"pg_try_advisory_lock", "pg_try_advisory_lock_shared", "pg_try_advisory_xact_lock",
	"pg_try_advisory_xact_lock_shared", "pg_advisory_unlock", "pg_advisory_unlock_shared", "pg_advisory_unlock_all",
	"pg_typeof", "pg_column_size"}

// sqlUnicodeEscape finds a U& string or name.
var sqlUnicodeEscape = regexp.MustCompile(`(?i)u&\s*["']`)

// sqlHidden finds a CREATE [OR REPLACE] FUNCTION or PROCEDURE.
var sqlHidden = regexp.MustCompile(`^create\s+(or\s+replace\s+)?(function|procedure)\b`)

var sqlWord = regexp.MustCompile(`[a-z_][a-z0-9_$]*`)

// refuseSQL refuses a statement that may reach past the file's schema.
// A step's statement (step) changes rows only: the tables are the
// setup's, which a check's state assumes stay as they are.
// sqlPositional is a positional parameter in SQL's code: $1 at a token's
// start (x$1 is a name, and $1$ starts a dollar quote).
var sqlPositional = regexp.MustCompile(`(?:^|[^A-Za-z0-9_$])\$[0-9]+(?:[^A-Za-z0-9_$]|$)`)

func (f *file) refuseSQL(path, text string, step bool) error {
	if sqlUnicodeEscape.MatchString(stripSQL(text)) {
		// U&"…" spells a name in escapes (U&"pg\005Fread\005Ffile"): the
		// words these rules read would not be the server's.
		return f.wrong(path, "a file's SQL may not use U& escapes: write names as they are")
	}
	if sqlPositional.MatchString(stripSQL(text)) {
		// fencelab sends a statement with its parameters written in as
		// literals, and no positional ones: $1 would have no value.
		return f.wrong(path, "a file's SQL names its parameters ($token, $read): $1, $2 … have no value here")
	}
	if strings.Contains(strings.ToLower(text), "$fencelab") {
		// fencelab's own dollar quotes: one of the file's could end them.
		return f.wrong(path, "a file's SQL does not name fencelab's own schema or objects ($fencelab…)")
	}
	words := sqlWord.FindAllString(strings.ToLower(stripSQL(text)), -1)
	if len(words) == 0 {
		return f.wrong(path, "an empty statement")
	}
	for i, w := range words {
		if strings.Contains(w, "fencelab") {
			return f.wrong(path, "a file's SQL does not name fencelab's own schema or objects (%s)", untrusted.Line(w))
		}
		for _, r := range sqlRefused {
			if w == r {
				return f.wrong(path, "a file's SQL may not use %s", r)
			}
		}
		if slices.Contains(sqlQueryInText, w) {
			return f.wrong(path, "a file's SQL may not use %s: it runs a query given to it as text, which fencelab cannot hold to these rules", w)
		}
		if slices.Contains(sqlCatalogs, w) || w == "current_setting" ||
			strings.HasPrefix(w, "pg_") && !slices.Contains(sqlPGAllowed, w) && sqlRefusedWhy[w] == "" {
			return f.wrong(path, "a file's SQL may not use %s: it reaches past the file's schema", w)
		}
		if why, ok := sqlRefusedWhy[w]; ok {
			return f.wrong(path, "a file's SQL may not use %s: it %s", w, why)
		}
		if strings.HasPrefix(w, "lo_") || w == "loread" || w == "lowrite" {
			// Any role may make a large object: the server lets it, and it
			// lives outside the file's schema, where the state of a check
			// does not see it.
			return f.wrong(path, "a file's SQL may not use %s: large objects live outside the file's schema, where a check does not see them", w)
		}
		if strings.Contains(w, "_to_xml") {
			return f.wrong(path, "a file's SQL may not use %s: it reads tables it is given by name in a string", w)
		}
		if i+1 < len(words) {
			for _, p := range sqlRefusedPairs {
				if w == p[0] && words[i+1] == p[1] {
					return f.wrong(path, "a file's SQL may not %s %s", strings.ToUpper(p[0]), strings.ToUpper(p[1]))
				}
			}
		}
	}
	if sqlHidden.MatchString(strings.Join(words, " ")) {
		// A body is a string, and a string can be made into any statement
		// as the function runs: what these rules hold the file's text to
		// would not hold its code.
		return f.wrong(path, "a file's SQL may not create a function or procedure: its body is a string, which fencelab cannot hold to these rules (write its statements in the steps)")
	}
	switch words[0] {
	case "set", "reset":
		if len(words) < 2 || words[1] != "transaction" {
			return f.wrong(path, "a file's SQL sets nothing of its session but SET TRANSACTION: the lab's connections are shared with fencelab")
		}
	case "copy", "grant", "revoke", "vacuum", "cluster", "checkpoint", "load", "listen", "notify", "do", "call", "discard", "prepare", "execute", "deallocate", "savepoint", "release",
		"reassign", "security", "import", "reindex":
		if !step || words[0] != "savepoint" && words[0] != "release" {
			return f.wrong(path, "a file's SQL may not use %s", strings.ToUpper(words[0]))
		}
	case "create", "alter", "drop", "truncate", "comment":
		if step {
			return f.wrong(path, "a step changes rows, not tables: %s belongs in [setup]", strings.ToUpper(words[0]))
		}
	case "explain":
		// EXPLAIN ANALYZE runs the statement it explains, whatever it is.
		return f.wrong(path, "a file's SQL may not use EXPLAIN: ANALYZE runs the statement it explains")
	}
	if sqlClockWords.MatchString(text) {
		return f.wrong(path, "a file's SQL may not use 'now', 'today' and their kin: they read the server's clock, which is the host's: use $now_ms, the lab clock")
	}
	if step {
		// SELECT … INTO makes a table; INSERT INTO and MERGE INTO do not.
		for i, w := range words {
			if w == "into" && (i == 0 || words[i-1] != "insert" && words[i-1] != "merge") {
				return f.wrong(path, "a step changes rows, not tables: SELECT … INTO makes one, and belongs in [setup]")
			}
		}
	}
	if inner := strings.TrimSuffix(strings.TrimSpace(stripSQL(text)), ";"); strings.Contains(inner, ";") {
		return f.wrong(path, "one statement per string: a list (sql = [\"…\", \"…\"]) gives several")
	}
	return nil
}

// refuseAdvisory refuses an advisory lock in SQL that runs on fencelab's
// own connection ([setup], an invariant, the business value): the lock
// would be that connection's, held by no actor.
func (f *file) refuseAdvisory(path, text string) error {
	if sqlAdvisory.MatchString(stripSQL(text)) {
		return f.wrong(path, "an advisory lock is taken in a step: this SQL runs on the lab's own connection, whose session is no actor's")
	}
	return nil
}

// dollarQuote is the opening of a dollar-quoted string: $$ or $tag$.
var dollarQuote = regexp.MustCompile(`^\$([A-Za-z_][A-Za-z0-9_]*)?\$`)

// sqlPiece is what a stretch of a statement is to PostgreSQL's lexer.
type sqlPiece int

const (
	sqlCodeByte sqlPiece = iota // one byte of code
	sqlConstant                 // '…', E'…', $$…$$, $tag$…$tag$
	sqlComment                  // -- … and /* … */, which nest
	sqlName                     // "…"
)

// lexSQL walks a statement as PostgreSQL's lexer reads it, and hands each
// piece to visit: a byte of code at a time, or a whole constant, comment
// or quoted name (from start to end, the quotes in; open: unterminated,
// the rest of the text).
func lexSQL(text string, visit func(piece sqlPiece, start, end int, open bool)) {
	for i := 0; i < len(text); i++ {
		escapes := text[i] == '\'' && i > 0 && (text[i-1] == 'e' || text[i-1] == 'E') &&
			(i == 1 || !isWordByte(text[i-2]))
		switch {
		case text[i] == '$' && (i == 0 || !isWordByte(text[i-1])) && dollarQuote.MatchString(text[i:]):
			tag := dollarQuote.FindString(text[i:])
			end := strings.Index(text[i+len(tag):], tag)
			if end < 0 {
				visit(sqlConstant, i, len(text), true)
				return
			}
			visit(sqlConstant, i, i+len(tag)+end+len(tag), false)
			i += len(tag) + end + len(tag) - 1
		case strings.HasPrefix(text[i:], "--"):
			j := i
			for j < len(text) && text[j] != '\n' {
				j++
			}
			visit(sqlComment, i, j, false)
			i = j
		case strings.HasPrefix(text[i:], "/*"):
			// PostgreSQL's block comments nest: /* /* */ is still open.
			depth, j := 0, i
			for j < len(text) {
				if strings.HasPrefix(text[j:], "/*") {
					depth++
					j += 2
					continue
				}
				if strings.HasPrefix(text[j:], "*/") {
					depth--
					j += 2
					if depth == 0 {
						break
					}
					continue
				}
				j++
			}
			visit(sqlComment, i, j, depth > 0)
			if depth > 0 {
				return
			}
			i = j - 1
		case text[i] == '"':
			j := i + 1
			for j < len(text) && (text[j] != '"' || j+1 < len(text) && text[j+1] == '"') {
				if text[j] == '"' {
					j++
				}
				j++
			}
			visit(sqlName, i, min(j+1, len(text)), j >= len(text))
			i = j
		case text[i] == '\'':
			j := i + 1
			for j < len(text) {
				if escapes && text[j] == '\\' {
					j += 2
					continue
				}
				if text[j] == '\'' {
					if j+1 < len(text) && text[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			visit(sqlConstant, i, min(j+1, len(text)), j >= len(text))
			i = j
		default:
			visit(sqlCodeByte, i, i+1, false)
		}
	}
}

// stripSQL is a statement without its comments and string constants (a
// constant becomes an empty one), so what is left is its words. It reads the text
// as PostgreSQL's lexer does (lexSQL), so no word the server reads as
// code is taken for a constant's or a comment's, and none hides in a
// name: a quoted name is its words ("pg_read_file" is pg_read_file, and a
// ' inside one starts no constant).
func stripSQL(text string) string {
	var b strings.Builder
	lexSQL(text, func(piece sqlPiece, start, end int, open bool) {
		switch piece {
		case sqlCodeByte:
			b.WriteByte(text[start])
		case sqlConstant:
			b.WriteString("''")
		case sqlComment:
			if !open {
				b.WriteByte(' ')
			}
		case sqlName:
			// Its words are words, the quotes and whatever is not a
			// word's are spaces — but the quote of a U&"…" name stays, for
			// refuseSQL to find.
			if start >= 2 && text[start-1] == '&' && (text[start-2] == 'u' || text[start-2] == 'U') {
				b.WriteByte('"')
			} else {
				b.WriteByte(' ')
			}
			for _, c := range []byte(text[start+1 : end]) {
				if isWordByte(c) {
					b.WriteByte(c)
				} else {
					b.WriteByte(' ')
				}
			}
			b.WriteByte(' ')
		}
	})
	return b.String()
}

// sqlCode marks the bytes of a statement that are code (lexSQL): not
// inside a string constant, a quoted name or a comment. A parameter is
// bound only where the statement has code (bind): a value put into a
// constant, a name or a comment could end it and be read as code.
func sqlCode(text string) []bool {
	code := make([]bool, len(text))
	lexSQL(text, func(piece sqlPiece, start, _ int, _ bool) {
		if piece == sqlCodeByte {
			code[start] = true
		}
	})
	return code
}

// splitStatements is a text of statements, as psql takes them, one by
// one: each ends at a ; of its code (sqlCode), and those left empty
// (only blanks and comments) are dropped.
func splitStatements(text string) []string {
	code := sqlCode(text)
	var out []string
	start := 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) && !(text[i] == ';' && code[i]) {
			continue
		}
		stmt := strings.TrimSpace(text[start:i])
		if strings.TrimSpace(stripSQL(stmt)) != "" {
			out = append(out, stmt)
		}
		start = i + 1
	}
	return out
}

func isWordByte(c byte) bool {
	return c == '_' || c == '$' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}
