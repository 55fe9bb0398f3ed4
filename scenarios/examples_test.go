package scenarios_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
)

// The examples people copy (examples/, docs/code.md) run as
// their files predict in both modes, and check: SAFE holds on every
// schedule, UNSAFE breaks, and SAFE without each guard its steps hold
// breaks too — each fragment is needed.
func TestTheExamples(t *testing.T) {
	files, err := filepath.Glob("../examples/*.toml")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 3)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			s, err := scenarios.Load(path)
			require.NoError(t, err)
			for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
				_, r := guidedRun(t, s, mode)
				require.True(t, r.AsPredicted(), "%s %s ended %s with %d, not as its file predicts", s.ID, mode, r.Verdict, r.Final)
			}
			safe := checkFile(t, s, engine.Safe, 0)
			require.True(t, safe.Holds(), "%s SAFE does not hold: %v", s.ID, safe.Anomalies)
			require.NotZero(t, safe.Consulted, "%s: no step consults a guard", s.ID)
			unsafe := checkFile(t, s, engine.Unsafe, 0)
			require.True(t, unsafe.Holds(), "%s UNSAFE does not show its predicted anomaly: %v", s.ID, unsafe.Verdicts)
			require.NotEmpty(t, unsafe.Broken, "%s UNSAFE breaks no invariant", s.ID)
			for _, g := range safe.Consulted.List() {
				without := checkFile(t, s, engine.Safe, engine.Guards(g))
				require.False(t, without.Holds(), "%s SAFE −%s still holds: the fragment is not needed", s.ID, g)
			}
		})
	}
}

func checkFile(t *testing.T, s *engine.Scenario, mode engine.Mode, without engine.GuardSet) engine.CheckReport {
	t.Helper()
	labs := checkLabsWithout(t, s, mode, 2, without)
	report, err := engine.Check(context.Background(), labs, engine.CheckOptions{})
	require.NoError(t, err)
	require.True(t, report.Exhaustive, "%s %s: the check was cut short", s.ID, mode)
	return report
}

// A mistake in a file's code is one line with its line, before anything
// runs.
func TestCodeMistakesAreSaidAtTheirLine(t *testing.T) {
	base, err := os.ReadFile("../examples/lock-fence.toml")
	require.NoError(t, err)
	src := strings.Replace(string(base), "SET value = $token", "SET value = $tokn", 1)
	_, err = scenarios.Parse("mine.toml", []byte(src))
	require.Error(t, err)
	require.True(t, strings.HasPrefix(err.Error(), "mine.toml:"+lineOf(t, src, `sql = """`)+": "), "a parameter is said where the code uses it: %v", err)
	for _, c := range []struct{ name, from, to, says string }{
		{"a parameter nobody saves", "SET value = $token", "SET value = $tokn", "uses $tokn, which no step before it"},
		{"a guard with no fragment", "{{fence}}", "{{fence}} {{owner}}", "which its guards do not define"},
		{"a guard of the file's own with no place", `guards = { fence =`, `guards = { fense =`, `step write has {{fence}}, which its guards do not define`},
		{"a command that is not a step's", `redis = ["DEL", "lock"]`, `redis = ["FLUSHALL"]`, "FLUSHALL is not a command a step sends"},
		{"a key of fencelab's own", `redis = ["DEL", "lock"]`, `redis = ["DEL", "leader:daily-summary"]`, "has the shape of one of fencelab's own"},
		{"a lease of fencelab's own", `keys = ["lock", "fence"]`, `keys = ["{2fb8da84d0ac57885270c50a}:lease", "fence"]`, "has the shape of one of fencelab's own"},
		{"a script's command not named", `redis.call("INCR", KEYS[2])`, `redis.call(cmd, KEYS[2])`, "names each command it calls as a string"},
		{"a script's server command", `redis.call("INCR", KEYS[2])`, `redis.call("CONFIG", "SET", "x", "y")`, "calls CONFIG"},
		{"search_path", `"INSERT INTO report VALUES (1, 0, 0)",`, `"SET search_path TO public",`, "may not use search_path"},
		{"fencelab's schema", `"INSERT INTO report VALUES (1, 0, 0)",`, `"DELETE FROM fencelab.resources",`, "does not name fencelab's own"},
		{"drop schema", `"INSERT INTO report VALUES (1, 0, 0)",`, `"DROP SCHEMA public CASCADE",`, "may not DROP SCHEMA"},
		{"a function", `"INSERT INTO report VALUES (1, 0, 0)",`, `"CREATE OR REPLACE FUNCTION f() RETURNS void LANGUAGE plpgsql AS $$ BEGIN EXECUTE 'DR' || 'OP SCHEMA fen' || 'celab CASCADE'; END $$",`, "may not create a function"},
		{"a procedure", `"INSERT INTO report VALUES (1, 0, 0)",`, `"CREATE PROCEDURE p() LANGUAGE sql AS 'SELECT 1'",`, "may not create a function or procedure"},
		{"a library", `"INSERT INTO report VALUES (1, 0, 0)",`, `"LOAD 'libevil'",`, "may not use LOAD"},
		{"everything a role owns", `"INSERT INTO report VALUES (1, 0, 0)",`, `"DROP OWNED BY fencelab_x CASCADE",`, "may not DROP OWNED"},
		{"another owner", `"INSERT INTO report VALUES (1, 0, 0)",`, `"ALTER TABLE report OWNER TO postgres",`, "may not OWNER TO"},
		{"a catalog", "UPDATE report SET value = $token,", "UPDATE pg_authid SET rolsuper = true WHERE false; UPDATE report SET value = $token,", "may not use pg_authid"},
		{"a tablespace", `"INSERT INTO report VALUES (1, 0, 0)",`, `"CREATE TABLESPACE t LOCATION '/tmp'",`, "may not CREATE TABLESPACE"},
		{"another server", `"INSERT INTO report VALUES (1, 0, 0)",`, `"CREATE SUBSCRIPTION s CONNECTION 'host=x' PUBLICATION p",`, "may not CREATE SUBSCRIPTION"},
		{"a name in escapes", "UPDATE report SET value = $token,", `UPDATE report SET value = length(U&"pg\\005Fread\\005Ffile"('/etc/hostname'))::bigint + $token,`, "may not use U& escapes"},
		{"code between dollar quotes", "UPDATE report SET value = $token,", "UPDATE report SET value = length($$'$$ || pg_read_file('/etc/hostname') || $$'$$)::bigint + $token,", "may not use pg_read_file"},
		{"code after an escaped quote", "UPDATE report SET value = $token,", `UPDATE report SET value = length(E'\\'' || pg_read_file('/etc/hostname'))::bigint + $token,`, "may not use pg_read_file"},
		{"a statistics view", "UPDATE report SET value = $token,", "UPDATE report SET value = (SELECT count(*) FROM pg_stat_activity) + $token,", "may not use pg_stat_activity"},
		{"a setting", "UPDATE report SET value = $token,", "UPDATE report SET value = length(current_setting('data_directory')) + $token,", "may not use current_setting"},
		{"a query in a string", "UPDATE report SET value = $token,", "UPDATE report SET value = length(query_to_xml('SELECT 1', true, true, ''))::bigint + $token,", "may not use query_to_xml"},
		{"a query in a string for ts_stat", "UPDATE report SET value = $token,", "UPDATE report SET value = (SELECT count(*) FROM ts_stat('SELECT 1'))::bigint + $token,", "may not use ts_stat: it runs a query given to it as text"},
		{"a query in a string for ts_rewrite", "UPDATE report SET value = $token,", "UPDATE report SET value = length(ts_rewrite('a'::tsquery, 'SELECT 1')::text)::bigint + $token,", "may not use ts_rewrite"},
		{"code after a quote in a name", "UPDATE report SET value = $token,", `UPDATE report SET value = (SELECT 1 AS "'") + length(pg_read_file('/etc/hostname'))::bigint + (SELECT 1 AS "'") + $token,`, "may not use pg_read_file"},
		{"a function named in quotes", "UPDATE report SET value = $token,", `UPDATE report SET value = length("pg_read_file"('/etc/hostname'))::bigint + $token,`, "may not use pg_read_file"},
		{"code after a nested comment", "UPDATE report SET value = $token,", `UPDATE report SET value = /* /* */ ' */ length(pg_read_file('/etc/hostname'))::bigint + $token, -- '`, "may not use pg_read_file"},
		{"a large object", `"INSERT INTO report VALUES (1, 0, 0)",`, `"SELECT lo_from_bytea(0, 'x'::bytea)",`, "large objects live outside the file's schema"},
		{"a table by name in a string", "UPDATE report SET value = $token,", "UPDATE report SET value = length(table_to_xml('report'::regclass, true, true, ''))::bigint + $token,", "may not use table_to_xml"},
		{"DDL in a step", "WITH w AS (UPDATE", "DROP TABLE report; WITH w AS (UPDATE", "a step changes rows, not tables"},
		{"EXPLAIN ANALYZE, which runs what it explains", "WITH w AS (UPDATE", "EXPLAIN ANALYZE CREATE TABLE t2 AS SELECT 42; WITH w AS (UPDATE", "may not use EXPLAIN"},
		{"the server's clock by name", "UPDATE report SET value = $token,", "UPDATE report SET value = extract(epoch FROM 'now'::timestamptz)::bigint,", "'now', 'today' and their kin"},
		{"a table made by SELECT INTO in a step", "WITH w AS (UPDATE", "SELECT * INTO made FROM report; WITH w AS (UPDATE", "SELECT … INTO makes one"},
		{"fencelab's own quote", `sql = "SELECT (SELECT value`, `sql = "SELECT true))$fencelab_value$; CREATE TABLE t (x int); SELECT $fencelab_value$ AND (SELECT value`, "($fencelab…)"},
		{"a guard's fragment is code", `guards = { fence = "AND fence < $token" }`, `guards = { fence = "AND fence < $token; CREATE TABLE made (x int)" }`, "one statement per string"},
		{"a guard's else is code", `guards = { fence = "AND fence < $token" }`, `guards = { fence = { text = "AND fence < $token", else = "AND pg_read_file('/etc/hostname') IS NOT NULL" } }`, "may not use pg_read_file"},
		{"rows as a table", `rejected_if = "rows = 0"`, `rejected_if = { rows = 0 }`, `the string "rows = N": rejected_if = "rows = 0"`},
		{"the server's clock", "UPDATE report SET value = $token,", "UPDATE report SET value = extract(epoch FROM now())::bigint,", "use $now_ms, the lab clock"},
		{"a waiting advisory lock", "UPDATE report SET value = $token,", "UPDATE report SET value = pg_advisory_lock(1)::text::bigint,", "take it with pg_try_advisory_lock"},
		{"a session's sequence value", "UPDATE report SET value = $token,", "UPDATE report SET value = currval('s'),", "save what nextval answered"},
		{"an advisory lock in setup", `"INSERT INTO report VALUES (1, 0, 0)",`, `"SELECT pg_try_advisory_lock(1)",`, "runs on the lab's own connection"},
		{"a connection of a redis step", `redis = ["DEL", "lock"]`, `redis = ["DEL", "lock"]` + "\nconnection = \"pool-1\"", "only a sql step has one"},
		{"a connection's name", `rejected_if = "rows = 0"`, `rejected_if = "rows = 0"` + "\nconnection = \"Pool 1\"", `connection "Pool 1"`},
		{"a transaction left open", `rejected_if = "rows = 0"`, `rejected_if = "rows = 0"` + "\n" + `[[step]]` + "\n" + `name = "open"` + "\n" + `sql = ["BEGIN", "SELECT 1"]`, "begins and ends in the step"},
	} {
		t.Run(c.name, func(t *testing.T) {
			require.Contains(t, string(base), c.from)
			src := strings.Replace(string(base), c.from, c.to, 1)
			_, err := scenarios.Parse("mine.toml", []byte(src))
			require.Error(t, err)
			require.Regexp(t, `^mine\.toml:\d+: `, err.Error())
			require.Contains(t, err.Error(), c.says)
		})
	}
}

// What only the servers can find — a setup statement PostgreSQL refuses,
// a script Redis cannot run — is said at the file's line, in the server's
// own words.
func TestCodeTheServersRefuse(t *testing.T) {
	base, err := os.ReadFile("../examples/lock-fence.toml")
	require.NoError(t, err)
	setup := strings.Replace(string(base), "INSERT INTO report VALUES (1, 0, 0)", "INSERT INTO reprot VALUES (1, 0, 0)", 1)
	s, err := scenarios.Parse("mine.toml", []byte(setup))
	require.NoError(t, err)
	_, err = engine.NewLab(context.Background(), backendsFor(t), s, engine.Safe)
	require.Error(t, err)
	require.Regexp(t, `^mine\.toml:\d+: error: relation "reprot" does not exist`, err.Error())

	// A script that compiles and fails as it runs: said at its line.
	script := strings.Replace(string(base), `return redis.call("INCR", KEYS[2])`, `return redis.call("INCR", KEYS[2]) + {}`, 1)
	s, err = scenarios.Parse("mine.toml", []byte(script))
	require.NoError(t, err)
	lab, err := engine.NewLab(context.Background(), backendsFor(t), s, engine.Safe)
	require.NoError(t, err)
	defer lab.Close(context.Background())
	err = lab.Next(context.Background())
	require.Error(t, err)
	require.Contains(t, err.Error(), "mine.toml:"+lineOf(t, script, "+ {}")+": ", "said at the script's line")
	require.Contains(t, err.Error(), "step acquire of A")

	// A statement's mistake — a typo, a column that is not there, in
	// either mode's variant of its guards — is said at its line before
	// the first action: the server parses every statement at the lab's
	// setup.
	for _, typo := range []struct{ from, to, want, at string }{
		{"WITH w AS (UPDATE", "WITH w AS (UPDTE", "syntax error", `sql = """`},
		{"WITH w AS (UPDATE report SET value", "WITH w AS (UPDATE report SET valeu", `column "valeu" of relation "report" does not exist`, `sql = """`},
		// In a guard's text: at the guards, where the typo is.
		{`"AND fence < $token"`, `"AND fenec < $token"`, `column "fenec" does not exist`, "guards = {"},
	} {
		statement := strings.Replace(string(base), typo.from, typo.to, 1)
		require.NotEqual(t, string(base), statement, typo.from)
		s, err = scenarios.Parse("mine.toml", []byte(statement))
		require.NoError(t, err)
		_, err := engine.NewLab(context.Background(), backendsFor(t), s, engine.Safe)
		require.Error(t, err, typo.to)
		require.Contains(t, err.Error(), "mine.toml:"+lineOf(t, statement, typo.at)+": ", "said where the mistake is")
		require.Contains(t, err.Error(), typo.want)
	}
}

// lineOf is the number of the first line of src that holds text.
func lineOf(t *testing.T, src, text string) string {
	t.Helper()
	for i, line := range strings.Split(src, "\n") {
		if strings.Contains(line, text) {
			return strconv.Itoa(i + 1)
		}
	}
	t.Fatalf("no line holds %q", text)
	return ""
}

// A file's keys seeded by [setup] and its value read from a key: two
// INCRs of a counter seeded at 5 end at 7.
func TestAValueReadFromAKey(t *testing.T) {
	s, err := scenarios.Parse("mine.toml", []byte(`format = "fencelab-scenario/1"
id = "redis-counter"
title = "t"
story = "s"
expected = { value = 7, redis = "counter" }
guided = ["A", "B"]

[setup]
redis = { counter = 5, owner = { name = "nobody" } }

[[step]]
name = "add"
redis = ["INCR", "counter"]
save = "now"

[[actor]]
name = "A"
program = ["add"]

[[actor]]
name = "B"
program = ["add"]
`))
	require.NoError(t, err)
	_, r := guidedRun(t, s, engine.Safe)
	require.Equal(t, int64(7), r.Final)
	require.Equal(t, engine.VerdictMatch, r.Verdict)
}

// A session's advisory locks are part of a lab's state, counted: the
// pooler example's two takes of one lock on pool-1 read as such, and a
// return to that state takes the lock back twice — so one release later
// pool-1 still holds it.
func TestASessionsLocksArePartOfTheState(t *testing.T) {
	ctx := context.Background()
	s, err := scenarios.Load("../examples/advisory-pooler.toml")
	require.NoError(t, err)
	lab := checkLabs(t, s, engine.Unsafe, 1)[0]
	held := func() string {
		t.Helper()
		snap, err := lab.Snapshot(ctx)
		require.NoError(t, err)
		var out []string
		for _, ss := range snap.Sessions {
			if len(ss.Locks) > 0 {
				out = append(out, ss.Connection+": "+ss.Says())
			}
		}
		return strings.Join(out, "; ")
	}
	require.NoError(t, lab.Do(ctx, engine.Do("A")))
	require.Equal(t, "pool-1: 42", held())
	require.NoError(t, lab.Do(ctx, engine.Do("B")))
	require.Equal(t, "pool-1: 42 ×2", held(), "B's take is A's lock taken again, on the session that holds it")
	twice, err := lab.Bookmark(ctx)
	require.NoError(t, err)
	for _, a := range []string{"B", "B", "A", "A"} {
		require.NoError(t, lab.Do(ctx, engine.Do(a)))
	}
	require.Empty(t, held(), "both released")
	gone, err := lab.Bookmark(ctx)
	require.NoError(t, err)
	require.NotEqual(t, twice.ID(), gone.ID(), "the sessions are in the state key")

	require.NoError(t, lab.Return(ctx, twice))
	require.Equal(t, "pool-1: 42 ×2", held())
	require.NoError(t, lab.Do(ctx, engine.Do("B"))) // write
	require.NoError(t, lab.Do(ctx, engine.Do("B"))) // release: one of two
	require.Equal(t, "pool-1: 42", held(), "the return took the lock back twice")
	require.NoError(t, lab.Return(ctx, gone))
	require.Empty(t, held())
}

// A step on a connection the file names holds it from its first
// statement to its last: another actor's step on the same connection is
// not enabled meanwhile (a pooler makes it wait for a server
// connection), and asked for, it says so.
func TestASharedConnectionIsHeldByTheStepUsingIt(t *testing.T) {
	ctx := context.Background()
	s, err := scenarios.Parse("mine.toml", []byte(`format = "fencelab-scenario/1"
id = "pooled"
title = "t"
story = "s"
expected = { value = 2, sql = "SELECT value FROM counters WHERE id = 1" }
guided = ["A", "B"]

[setup]
sql = ["CREATE TABLE counters (id int PRIMARY KEY, value bigint NOT NULL)", "INSERT INTO counters VALUES (1, 0)"]

[[step]]
name = "add"
connection = "pool-1"
sql = ["BEGIN", "UPDATE counters SET value = value + 1 WHERE id = 1", "COMMIT"]

[[actor]]
name = "A"
program = ["add"]

[[actor]]
name = "B"
program = ["add"]
`))
	require.NoError(t, err)
	lab := checkLabs(t, s, engine.Safe, 1)[0]
	require.NoError(t, lab.Do(ctx, engine.DoCall("A"))) // BEGIN
	moves, err := lab.Moves(ctx)
	require.NoError(t, err)
	require.Equal(t, []engine.Action{engine.DoCall("A")}, moves, "B waits for pool-1")
	err = lab.Do(ctx, engine.DoCall("B"))
	require.ErrorIs(t, err, engine.ErrConnectionHeld)
	require.Contains(t, err.Error(), "pool-1")
	require.NoError(t, lab.Do(ctx, engine.Do("A")))
	require.NoError(t, lab.Do(ctx, engine.Do("B")))
	r, err := lab.Result(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(2), r.Final)

	report := checkFile(t, s, engine.Safe, 0)
	require.True(t, report.Holds())
}

// Two states alike but for which session holds a lock are two: A's try
// on pool-1 and B's on pool-2 leave nothing else behind, and whoever
// tried first holds the lock.
func TestStatesThatDifferOnlyInASessionAreTwo(t *testing.T) {
	s, err := scenarios.Parse("mine.toml", []byte(`format = "fencelab-scenario/1"
id = "sessions"
title = "t"
story = "s"
expected = { value = 0, sql = "SELECT 0" }
guided = ["A", "B"]

[[step]]
name = "try-here"
connection = "pool-1"
sql = "SELECT pg_try_advisory_lock(7)"

[[step]]
name = "try-there"
connection = "pool-2"
sql = "SELECT pg_try_advisory_lock(7)"

[[actor]]
name = "A"
program = ["try-here"]

[[actor]]
name = "B"
program = ["try-there"]
`))
	require.NoError(t, err)
	report := checkFile(t, s, engine.Safe, 0)
	// The start, A's try, B's try, then both: A first (pool-1 holds the
	// lock) and B first (pool-2 does).
	require.Equal(t, 5, report.States)
}

// A file names its invariants in its own words (edit-lost,
// tokens-increase), and its predictions and verdicts say them as written;
// a name on two lines, blank at an end, or past 40 characters is refused.
func TestAnInvariantIsNamedInTheFilesOwnWords(t *testing.T) {
	base, err := os.ReadFile("../examples/lock-fence.toml")
	require.NoError(t, err)
	named := strings.ReplaceAll(string(base), "OLDER_TOKEN_WON", "tokens-increase")
	s, err := scenarios.Parse("mine.toml", []byte(named))
	require.NoError(t, err)
	require.Equal(t, "tokens-increase", s.Code.Invariants[0].Name)
	require.Equal(t, "tokens-increase", s.Predicted[engine.Unsafe].Verdict)
	for _, name := range []string{"two\\nlines", " leading", "trailing ", strings.Repeat("x", 41), ""} {
		_, err := scenarios.Parse("mine.toml", []byte(strings.Replace(named, `name = "tokens-increase"`, `name = "`+name+`"`, 1)))
		require.Error(t, err, name)
	}
}

// A typo in a file's Lua is found before anything runs, at the file's
// line it is on, first on the line.
func TestALuaTypoIsSaidAtItsLine(t *testing.T) {
	base, err := os.ReadFile("../examples/lock-fence.toml")
	require.NoError(t, err)
	src := strings.Replace(string(base), "return 0\n'''", "return 0 0\n'''", 1)
	_, err = scenarios.Parse("mine.toml", []byte(src))
	require.Error(t, err)
	require.Equal(t, "mine.toml:"+lineOf(t, src, "return 0 0")+": the script does not compile: syntax error near 0", err.Error())

	// A script that ends in the middle of an expression: at its last line.
	src = strings.Replace(string(base), "return 0\n'''", "return 0 +\n\n'''", 1)
	_, err = scenarios.Parse("mine.toml", []byte(src))
	require.Error(t, err)
	require.Equal(t, "mine.toml:"+lineOf(t, src, "return 0 +")+": the script does not compile: syntax error at the script's end", err.Error())
}

// Taking {{fence}} out of the code is the whole edit: the guards entry
// left behind is a warning, not a mistake, and SAFE runs without it.
func TestAGuardWithNoPlaceIsAWarning(t *testing.T) {
	base, err := os.ReadFile("../examples/lock-fence.toml")
	require.NoError(t, err)
	s, err := scenarios.Parse("mine.toml", []byte(strings.Replace(string(base), "{{fence}} RETURNING", "RETURNING", 1)))
	require.NoError(t, err)
	require.Len(t, s.Warnings, 1)
	require.Contains(t, s.Warnings[0].In(lang.En), "warning: guard fence has no place in step write")
}

// A file's guard is shown as the decision only where the file says the
// reply was its refusal: a step that went on may never have reached the
// comparison (the lock already gone), so it carries no guard line.
func TestAFilesGuardLineIsOnlyItsRefusal(t *testing.T) {
	s, err := scenarios.Load("../examples/release.toml")
	require.NoError(t, err)
	lab, _ := guidedRun(t, s, engine.Safe)
	refusals := 0
	for _, e := range lab.Events() {
		switch e.State {
		case "REJECTED":
			refusals++
			require.Equal(t, "owner: holder == ARGV[1]", e.Guard, "%+v", e)
		default:
			require.Empty(t, e.Guard, "%+v", e)
		}
	}
	require.Equal(t, 1, refusals)
}

// A file names its own guard as it likes, with a sentence of its own:
// the guard is listed, consulted, refused and taken out by that name,
// and its refusal's verdict says which guard it was. fencelab's own
// names still mean fencelab's guards.
func TestAFileNamesItsOwnGuard(t *testing.T) {
	s, err := scenarios.Load("testdata/own-guard.toml")
	require.NoError(t, err)
	g, err := engine.ParseGuard("version check")
	require.NoError(t, err)
	require.True(t, g.Own())
	require.Equal(t, []engine.Guard{g}, s.GuardList(), "the file's guards, not fencelab's fourteen")
	require.Equal(t, "the row still has the version the edit read", g.What().In(lang.En))

	lab, r := guidedRun(t, s, engine.Safe)
	require.Equal(t, "REJECTED by version check", r.Verdict)
	var refused []string
	for _, e := range lab.Events() {
		if e.State == "REJECTED" {
			refused = append(refused, e.Guard)
		}
	}
	require.Equal(t, []string{"version check: AND version = 0"}, refused)
	require.True(t, checkFile(t, s, engine.Safe, 0).Holds())
	without := checkFile(t, s, engine.Safe, engine.Guards(g))
	require.False(t, without.Holds(), "SAFE without its own guard loses an edit")
	require.True(t, without.Consulted.Has(g))

	fence, err := engine.ParseGuard("fence")
	require.NoError(t, err)
	require.False(t, fence.Own())
	lf, err := scenarios.Load("../examples/lock-fence.toml")
	require.NoError(t, err)
	require.Equal(t, []engine.Guard{fence}, lf.GuardList())
}

// A guard's name may be anything its places and --without can hold; what
// between double braces is no name is code (a Lua table of tables).
func TestAGuardsNameIsTheFilesToChoose(t *testing.T) {
	src, err := os.ReadFile("testdata/own-guard.toml")
	require.NoError(t, err)
	for _, c := range []struct{ name, from, to, want string }{
		{"a comma", `"version check" = {`, `"version, check" = {`, "holds no brace, comma or line break"},
		{"too long", `"version check" = {`, `"` + strings.Repeat("v", 41) + `" = {`, "at most 40 characters"},
		{"a sentence for fencelab's guard", `{{version check}}`, `{{fence}}`, "fence is fencelab's guard, which says what it checks itself"},
		{"a place no entry defines", `{{version check}}`, `{{versoin check}}`, "mine.toml:25: step write has {{versoin check}}, which its guards do not define (did you mean {{version check}}?)"},
		{"an escape code", `"version check" = {`, `"version\u001b[2J check" = {`, "a guard's name is text a reader sees as it is"},
		{"a zero-width space", `"version check" = {`, `"version\u200b check" = {`, "a guard's name is text a reader sees as it is"},
		{"a direction mark", `"version check" = {`, `"version\u202e check" = {`, "a guard's name is text a reader sees as it is"},
		{"a variation selector", `"version check" = {`, `"version\ufe00 check" = {`, "a guard's name is text a reader sees as it is"},
		{"a grapheme joiner", `"version check" = {`, `"version\u034f check" = {`, "a guard's name is text a reader sees as it is"},
		{"a Hangul filler", `"version check" = {`, `"version\u3164 check" = {`, "a guard's name is text a reader sees as it is"},
		{"an invariant's name", `name = "edit-lost"`, `name = "edit\u034flost"`, "invariant name"},
	} {
		text := strings.Replace(string(src), c.from, c.to, 1)
		if c.name == "a sentence for fencelab's guard" {
			text = strings.Replace(text, `"version check" = {`, `fence = {`, 1)
		}
		_, err := scenarios.Parse("mine.toml", []byte(text))
		require.ErrorContains(t, err, c.want, c.name)
	}
	lua := strings.Replace(string(src), `[[invariant]]`, "[[step]]\nname = \"tables\"\nlua = '''local t = {{\"a\"}, {1, 2}} return #t'''\n\n[[invariant]]", 1)
	lua = strings.Replace(lua, `program = ["read", "write"]`, `program = ["read", "write", "tables"]`, 1)
	s, err := scenarios.Parse("mine.toml", []byte(lua))
	require.NoError(t, err, "{{\"a\"}} is Lua, not a guard's place")
	_, r := guidedRun(t, s, engine.Safe)
	require.Equal(t, "REJECTED by version check", r.Verdict)
}

// A name of the file's own one letter from fencelab's is said: a typo
// would otherwise make a guard of the file's own, silently.
func TestAnOwnGuardNamedLikeFencelabsIsAWarning(t *testing.T) {
	base, err := os.ReadFile("../examples/lock-fence.toml")
	require.NoError(t, err)
	text := strings.Replace(strings.Replace(string(base), "{{fence}}", "{{fense}}", 1), "guards = { fence =", "guards = { fense =", 1)
	s, err := scenarios.Parse("mine.toml", []byte(text))
	require.NoError(t, err)
	require.Len(t, s.Warnings, 1)
	require.Contains(t, s.Warnings[0].In(lang.En), "warning: guard fense is the file's own, not fencelab's fence")
	own, err := scenarios.Load("testdata/own-guard.toml")
	require.NoError(t, err)
	require.Empty(t, own.Warnings, "version check is no typo of version")
}

// A file may name no business value (a lock service has none): a run is
// then judged on its invariants and on every actor finishing its
// program — UNFINISHED where one did not — and predicts no final value.
func TestAFileWithoutAnExpectedValue(t *testing.T) {
	base, err := os.ReadFile("../examples/lock-fence.toml")
	require.NoError(t, err)
	var kept []string
	for _, line := range strings.Split(string(base), "\n") {
		if !strings.HasPrefix(line, "expected =") && !strings.HasPrefix(line, "final =") {
			kept = append(kept, line)
		}
	}
	text := strings.Join(kept, "\n")
	s, err := scenarios.Parse("mine.toml", []byte(text))
	require.NoError(t, err)
	require.True(t, s.NoValue)
	_, r := guidedRun(t, s, engine.Safe)
	require.True(t, r.NoValue)
	require.Equal(t, "STALE_FENCE", r.Verdict)
	require.True(t, r.AsPredicted(), "the prediction's verdict, with no final")
	report := checkFile(t, s, engine.Safe, 0)
	require.True(t, report.Progressed(), "every actor finished in the guided order and in some schedule")
	require.True(t, report.Holds())

	// The guided order cut short: an actor left mid-program.
	short := regexp.MustCompile(`(?m)^guided = .*$`).ReplaceAllString(text, `guided = ["A"]`)
	s, err = scenarios.Parse("mine.toml", []byte(short))
	require.NoError(t, err)
	_, r = guidedRun(t, s, engine.Safe)
	require.Equal(t, engine.VerdictUnfinished, r.Verdict)

	_, err = scenarios.Parse("mine.toml", []byte(strings.Replace(text, `verdict = "STALE_FENCE"`, "final = 2\nverdict = \"STALE_FENCE\"", 1)))
	require.ErrorContains(t, err, "the file names no expected value, so a run has no final one to predict")
	_, err = scenarios.Parse("mine.toml", []byte("expcted = 2\n"+text))
	require.ErrorContains(t, err, "expected", "a key spelt nearly so is a typo")
}

// expected may name several values, each with what it should be: a run
// shows each, and its final is how many are not what they should be — a
// prediction names only its verdict.
func TestAFileWithSeveralExpectedValues(t *testing.T) {
	s, err := scenarios.Load("testdata/several-values.toml")
	require.NoError(t, err)
	_, r := guidedRun(t, s, engine.Safe)
	require.Equal(t, []engine.ValueResult{{Label: "edits", Expected: 1, Final: 1}, {Label: "version", Expected: 1, Final: 1}}, r.Values)
	require.True(t, r.AsPredicted())
	_, r = guidedRun(t, s, engine.Unsafe)
	require.Equal(t, []engine.ValueResult{{Label: "edits", Expected: 1, Final: 2}, {Label: "version", Expected: 1, Final: 2}}, r.Values)
	require.Equal(t, engine.VerdictWrongValue, r.Verdict)
	require.Equal(t, "edits: expected 1 · final 2 · version: expected 1 · final 2", r.ValuesSaid(lang.En))
	report := checkFile(t, s, engine.Safe, 0)
	require.True(t, report.Progressed())

	src, err := os.ReadFile("testdata/several-values.toml")
	require.NoError(t, err)
	for _, c := range []struct{ from, to, want string }{
		{`verdict = "REJECTED by version check"`, "final = 0\nverdict = \"REJECTED by version check\"", "a prediction names its verdict, not a final"},
		{`name = "version"`, `name = "edits"`, "two of expected's values are named edits"},
	} {
		_, err := scenarios.Parse("mine.toml", []byte(strings.Replace(string(src), c.from, c.to, 1)))
		require.ErrorContains(t, err, c.want)
	}
}

// Two transactions of a file's that each wait for the other's lock (a
// read FOR SHARE in both, then both write) are said to be in a deadlock:
// the actors' views and the refusal to step either name it.
func TestADeadlockBetweenAFilesTransactionsIsSaid(t *testing.T) {
	base, err := os.ReadFile("../examples/counter.toml")
	require.NoError(t, err)
	text := strings.Replace(string(base), `guards = { read-in-tx = "FOR UPDATE" }`, `guards = { read-in-tx = "FOR SHARE" }`, 1)
	text = regexp.MustCompile(`(?m)^guided = .*$`).ReplaceAllString(text, `guided = ["call A", "call A", "call B", "call B", "call A", "call B", "A", "B"]`)
	s, err := scenarios.Parse("share.toml", []byte(text))
	require.NoError(t, err)
	lab := checkLabs(t, s, engine.Safe, 1)[0]
	ctx := context.Background()
	for range 6 {
		require.NoError(t, lab.Next(ctx))
	}
	snap, err := lab.Snapshot(ctx)
	require.NoError(t, err)
	for _, a := range snap.Actors {
		require.True(t, a.Deadlocked, "%s: %s", a.Name, a.Waiting)
		require.Contains(t, a.Waiting, "wait for each other's locks, a deadlock")
	}
	err = lab.Next(ctx)
	require.ErrorIs(t, err, engine.ErrBlocked)
	require.ErrorContains(t, err, "a deadlock")
}

// A step with two guards in one statement is refused by one of them, and
// the reply does not say which: the verdict names both — and, with one
// taken out, the other alone.
func TestARefusalOfAStepOfTwoGuardsNamesBoth(t *testing.T) {
	src, err := os.ReadFile("testdata/own-guard.toml")
	require.NoError(t, err)
	text := strings.Replace(string(src), "WHERE id = 1 {{version check}}", "WHERE id = 1 {{version check}} {{page-open}}", 1)
	text = strings.Replace(text, `guards = { "version check" = {`, `guards = { page-open = "AND true", "version check" = {`, 1)
	text = strings.Replace(text, `verdict = "REJECTED by version check"`, `verdict = "REJECTED by page-open or version check"`, 1)
	s, err := scenarios.Parse("two.toml", []byte(text))
	require.NoError(t, err)
	_, r := guidedRun(t, s, engine.Safe)
	require.Equal(t, "REJECTED by page-open or version check", r.Verdict)
	require.True(t, r.AsPredicted())
	open, err := engine.ParseGuard("page-open")
	require.NoError(t, err)
	labs := checkLabsWithout(t, s, engine.Safe, 1, engine.Guards(open))
	require.NoError(t, labs[0].RunGuided(context.Background()))
	r, err = labs[0].Result(context.Background())
	require.NoError(t, err)
	require.Equal(t, "REJECTED by version check", r.Verdict)
}

// A positional parameter has no value where fencelab writes a statement's
// parameters in as literals: said at its line before anything runs.
func TestAPositionalParameterIsSaidAtItsLine(t *testing.T) {
	base, err := os.ReadFile("../examples/lock-fence.toml")
	require.NoError(t, err)
	src := strings.Replace(string(base), "WHERE id = 1 {{fence}}", "WHERE id = $1 {{fence}}", 1)
	_, err = scenarios.Parse("mine.toml", []byte(src))
	require.ErrorContains(t, err, "$1, $2 … have no value here")
	_, err = scenarios.Parse("mine.toml", []byte(strings.Replace(string(base), "WHERE id = 1 {{fence}}", "WHERE id = 1 AND '$1' <> '' {{fence}}", 1)))
	require.NoError(t, err, "in a string, $1 is text")
}
