package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/replybound"
	"github.com/fencelab/fencelab/store/storetest"
)

// oneStepFile is a file whose one actor A takes one step, written as the
// step's TOML body (lua or sql, with what goes with it).
func oneStepFile(t *testing.T, dir, id, setup, step string) string {
	t.Helper()
	text := `format = "fencelab-scenario/1"
id = "` + id + `"
title = "t"
story = "s"
expected = { value = 1, redis = "done" }
guided = ["A"]
` + setup + `
[[step]]
name = "spin"
` + step + `

[[actor]]
name = "A"
program = ["spin"]
`
	path := filepath.Join(dir, id+".toml")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

// A file's script that loops for ever is stopped by its budget, on the
// embedded server and on a real one: one line with the file's line, the
// step, and exit 2; the server answers on after it. (On the embedded
// server in a process of its own: a script that ran past the deadline
// instead, as one could on a machine slow enough, would keep its server,
// and a core, for the rest of this process.)
func TestAScriptThatLoopsForEverIsStopped(t *testing.T) {
	dir := t.TempDir()
	file := oneStepFile(t, dir, "loop", "", `lua = "local n = 0 while true do n = n + 1 end return n"
keys = ["done"]`)
	const said = "loop.toml:10: step spin of A: the script ran past fencelab's budget of 1,000,000 loop iterations and function calls"
	cache := cacheDir(t)
	for _, mode := range []string{"safe", "unsafe"} {
		code, stderr := inAProcess(t, cache, "run", file, "--mode", mode, "--allow-unsafe")
		require.Equal(t, exitUsage, code, stderr)
		requireOneLine(t, stderr, said)
		code, _, stderr = call(t, "run", file, "--mode", mode, "--allow-unsafe", "--redis", storetest.RealRedisURL(t))
		require.Equal(t, exitUsage, code, stderr)
		requireOneLine(t, stderr, said)
	}
}

// inAProcess runs fencelab as a process of its own, on a cache
// directory (its ephemeral PostgreSQL), and gives its exit code and
// standard error; a run that does not end within two minutes fails the
// test.
func inAProcess(t *testing.T, cache string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), args...)
	cmd.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+cache)
	// A run that does not end is asked for its goroutines' stacks first
	// (SIGQUIT), so the failure says where it waits.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGQUIT) }
	cmd.WaitDelay = 5 * time.Second
	var stderr lockedBuffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	require.NoError(t, ctx.Err(), "fencelab %s did not end: %s", strings.Join(args, " "), stderr.String())
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode(), stderr.String()
	}
	require.NoError(t, err)
	return 0, stderr.String()
}

// A script stuck in one long call, which no budget counts, ends the run
// at the call's deadline, on the embedded server too (which cannot stop
// it): the process exits rather than wait for the script.
func TestAScriptStuckInOneCallEndsTheRunAtItsDeadline(t *testing.T) {
	dir := t.TempDir()
	cache := cacheDir(t)
	file := oneStepFile(t, dir, "pattern", "", `lua = "local s = string.rep('a', 60) return string.find(s, string.rep('a*', 40) .. 'b') and 1 or 0"
keys = ["done"]`)
	code, stderr := inAProcess(t, cache, "run", file)
	require.Equal(t, exitUsage, code, stderr)
	requireOneLine(t, stderr, "pattern.toml:10: step spin of A: the script did not end within 3s, and the embedded Redis cannot stop a script")
}

// A statement that runs for ever ends at the statement_timeout, named.
func TestAStatementThatRunsForEverIsStoppedAtItsTimeout(t *testing.T) {
	dir := t.TempDir()
	file := oneStepFile(t, dir, "slow", `
[setup]
sql = ["CREATE TABLE t (x bigint)"]
`, `sql = "INSERT INTO t SELECT count(*) FROM generate_series(1, 100000000000)"`)
	code, stdout, stderr := call(t, "run", file, "--pg", storetest.NewDatabaseDSN(t, false))
	require.Equal(t, exitUsage, code, stderr+stdout)
	requireOneLine(t, stderr, "slow.toml:13: step spin of A: error: canceling statement due to statement timeout (SQLSTATE 57014) — past fencelab's statement_timeout of 4.5s per statement — in: INSERT INTO t")
}

// A [setup] that fails half-way leaves nothing: not its tables, not its
// schema.
func TestASetupThatFailsHalfWayLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	file := oneStepFile(t, dir, "halfway", `
[setup]
sql = ["CREATE TABLE kept (x int)", "INSERT INTO kept VALUES (1)", "INSERT INTO nosuch VALUES (1)"]
`, `sql = "UPDATE kept SET x = 2"`)
	dsn := storetest.NewDatabaseDSN(t, false)
	code, stdout, stderr := call(t, "run", file, "--pg", dsn)
	require.Equal(t, exitUsage, code, stderr+stdout)
	requireOneLine(t, stderr, `halfway.toml:9: error: relation "nosuch" does not exist (SQLSTATE 42P01)`)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var left int
	require.NoError(t, conn.QueryRow(ctx, `SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'fencelab_code_%'`).Scan(&left))
	require.Zero(t, left, "the failed setup's schema is gone")
}

// Two files with the same tables, run at once on one database: each in
// a schema of its own, both as their files predict.
func TestTwoFilesWithTheSameTablesRunAtOnce(t *testing.T) {
	dir := t.TempDir()
	counter, err := os.ReadFile("../examples/counter.toml")
	require.NoError(t, err)
	dsn := storetest.NewDatabaseDSN(t, false)
	var wg sync.WaitGroup
	results := make([]string, 2)
	codes := make([]int, 2)
	for i, id := range []string{"counter-one", "counter-two"} {
		file := filepath.Join(dir, id+".toml")
		require.NoError(t, os.WriteFile(file, []byte(strings.Replace(string(counter), `id = "counter"`, `id = "`+id+`"`, 1)), 0o644))
		wg.Add(1)
		go func() {
			defer wg.Done()
			var stdout, stderr string
			codes[i], stdout, stderr = call(t, "run", file, "--mode", "both", "--allow-unsafe", "--pg", dsn)
			results[i] = stdout + stderr
		}()
	}
	wg.Wait()
	for i := range codes {
		require.Equal(t, 0, codes[i], results[i])
		require.Equal(t, 2, strings.Count(results[i], "as its file predicts"), results[i])
	}
}

// A reply larger than fencelab reads of one (a script's 100 MB string, a
// statement's) ends the run with exit 2 at the step, not with fencelab's
// memory filled. The script's is measured in its frame, in a process of
// its own; the statement's is cut on the connection, in this process
// with the bound lowered to 1 MiB (64 MiB from PostgreSQL can take more
// than a call's deadline on a loaded machine).
func TestAHugeReplyIsNotReadWhole(t *testing.T) {
	dir, cache := t.TempDir(), cacheDir(t)
	file := oneStepFile(t, dir, "huge", "", "lua = \"return string.rep('x', 100000000)\"\nkeys = [\"done\"]")
	code, stderr := inAProcess(t, cache, "run", file)
	require.Equal(t, exitUsage, code, stderr)
	requireOneLine(t, stderr, "huge.toml:10: step spin of A: the server's reply passed 64 MiB, more than fencelab reads of one reply")

	defer replybound.SetLimit(1 << 20)()
	file = oneStepFile(t, dir, "huge", "", "sql = \"SELECT repeat('x', 2000000)\"")
	code, stdout, stderr := call(t, "run", file, "--pg", storetest.NewDatabaseDSN(t, false))
	require.Equal(t, exitUsage, code, stderr+stdout)
	requireOneLine(t, stderr, "huge.toml:10: step spin of A: the server's reply passed 64 MiB, more than fencelab reads of one reply")
}

// A key a script builds from a string, past the file's check, is refused
// as the script calls it: at the step, exit 2.
func TestAKeyAScriptBuildsIsRefusedAsItIsCalled(t *testing.T) {
	dir := t.TempDir()
	cache := cacheDir(t)
	file := oneStepFile(t, dir, "built", "", `lua = "return redis.call('DEL', 'the' .. 'irs')"
keys = ["done"]`)
	code, stderr := inAProcess(t, cache, "run", file)
	require.Equal(t, exitUsage, code, stderr)
	requireOneLine(t, stderr, "built.toml:10: step spin of A: the script names the key theirs, which is not one it was given: name every key in keys")

	// A key below the run's namespace, but not given: one of fencelab's
	// own (the run's namespace is fencelab: on the embedded server).
	file = oneStepFile(t, dir, "own", "", `lua = "return redis.call('SET', 'fencelab:' .. 'leader:daily-summary', 'pwned')"
keys = ["done"]`)
	code, stderr = inAProcess(t, cache, "run", file)
	require.Equal(t, exitUsage, code, stderr)
	requireOneLine(t, stderr, "own.toml:10: step spin of A: the script names the key fencelab:leader:daily-summary, which is not one it was given: name every key in keys")
}

// What a file's code answers is drawn, never acted on: an escape sequence
// in a reply reaches no terminal, from a statement or from a script.
func TestAnEscapeInAReplyIsShownNotActedOn(t *testing.T) {
	dir := t.TempDir()
	for _, step := range []string{
		`sql = "SELECT chr(27) || ']0;TITLE' || chr(7)"`,
		"lua = \"return string.char(27) .. ']0;TITLE' .. string.char(7)\"\nkeys = [\"done\"]",
	} {
		file := oneStepFile(t, dir, "escape", "", step)
		_, stdout, stderr := call(t, "run", file)
		require.Contains(t, stdout, "]0;TITLE", stdout+stderr)
		require.NotContains(t, stdout, "\x1b", "a raw escape in: %q", stdout)
		require.NotContains(t, stdout, "\a")
	}
}

// A file's SQL runs as a role of its own; on a database whose user may
// not make roles, none of it runs: the run stops before the file's setup
// with one line that says what the user needs (exit 2).
func TestAFilesSQLRunsAsItsOwnRoleOrSaysItCannot(t *testing.T) {
	dir := t.TempDir()
	file := oneStepFile(t, dir, "who", `
[setup]
sql = ["CREATE TABLE seen (who text NOT NULL)"]
`, `sql = ["INSERT INTO seen SELECT current_user", { sql = "SELECT current_user" }]`)
	code, stdout, stderr := call(t, "run", file, "--pg", storetest.NewDatabaseDSN(t, false))
	require.Equal(t, 0, code, stderr+stdout)
	require.Regexp(t, `answered fencelab_code_[0-9a-f]{12} \(1 row\)`, stdout)
	require.NotContains(t, stderr, "would not make the role")

	// A user that owns its database but may not make roles.
	ctx := context.Background()
	dsn := storetest.NewDatabaseDSN(t, false)
	admin, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer admin.Close(ctx)
	var database string
	require.NoError(t, admin.QueryRow(ctx, "SELECT current_database()").Scan(&database))
	plain := "plain_" + database
	for _, stmt := range []string{"CREATE ROLE " + plain + " LOGIN", "ALTER DATABASE " + database + " OWNER TO " + plain} {
		_, err := admin.Exec(ctx, stmt)
		require.NoError(t, err, stmt)
	}
	code, stdout, stderr = call(t, "run", file, "--mode", "both", "--allow-unsafe", "--pg", strings.Replace(dsn, "user=fencelab", "user="+plain, 1))
	require.Equal(t, exitUsage, code, stderr+stdout)
	require.NotContains(t, stdout, "answered "+plain)
	requireOneLine(t, stderr, "PostgreSQL would not let fencelab make the role a file's SQL runs as (error: permission denied to create role (SQLSTATE 42501)): a file's SQL runs only as a role of its own; give "+plain+" CREATEROLE")
}

// A script's error is said at the file's line it happened on, in the
// server's words without its stack traceback; what a script may not call
// says so.
func TestAScriptsErrorIsSaidAtItsLine(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ body, want string }{
		{"local x = 1\nlocal y = nil\nlocal z = y.field\nreturn z", "the script failed at its line 3: attempt to index a non-table object(nil) with key 'field'"},
		{"local env = getfenv(1)\nreturn 1", "the script failed at its line 1: getfenv is not open to a file's script"},
		// print would write to fencelab's own output on the embedded Redis.
		{"print('\\27[2J result  verdict MATCH')\nreturn 1", "the script failed at its line 1: print is not open to a file's script"},
		{"_G.print('x')\nreturn 1", "the script failed at its line 1: print is not open to a file's script"},
	} {
		file := oneStepFile(t, dir, "luaerr", "", "lua = '''\n"+tc.body+"\n'''\nkeys = [\"done\"]")
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		first := strings.Count(string(src[:strings.Index(string(src), "lua = '''")]), "\n") + 2 // the script's first line
		code, stdout, stderr := call(t, "run", file)
		require.Equal(t, exitUsage, code, stderr+stdout)
		line := first
		if strings.Contains(tc.want, "its line 3") {
			line = first + 2
		}
		requireOneLine(t, stderr, "luaerr.toml:"+strconv.Itoa(line)+": step spin of A: "+tc.want)
		require.NotContains(t, stderr, "stack traceback")
	}
}

// A file's Redis code runs, on a server of yours, as a user made for the
// run and gone after it; where fencelab's own user may not make users, it
// does not run (exit 2, one line saying what the user needs) unless the
// run trusts it (--trust-code): then it runs as that user, and run says so
// once on stderr.
func TestAFilesRedisCodeRunsAsItsOwnUserOrNotAtAll(t *testing.T) {
	file := oneStepFile(t, t.TempDir(), "mine", "", `redis = ["SET", "done", "1"]`)
	url := storetest.RealRedisURL(t)
	code, stdout, stderr := call(t, "run", file, "--redis", url)
	require.Equal(t, 0, code, stderr+stdout)
	require.NotContains(t, stderr, "would not make the user")
	options, err := redis.ParseURL(url)
	require.NoError(t, err)
	admin := redis.NewClient(options)
	defer admin.Close()
	users, err := admin.Do(context.Background(), "acl", "users").StringSlice()
	require.NoError(t, err)
	require.Equal(t, []string{"default"}, users, "the run's user outlived it")

	// A user kept from ACL: the file's code does not run there, unless
	// the run is told to trust it, and then the run says so once.
	kept := storetest.RedisUser(t, "~fencelab:*", "+@all", "-@dangerous")
	code, stdout, stderr = call(t, "run", file, "--mode", "both", "--allow-unsafe", "--redis", kept)
	require.Equal(t, exitUsage, code, stderr+stdout)
	requireOneLine(t, stderr, "Redis would not let fencelab make the user a file's code runs as (NOPERM")
	require.Contains(t, stderr, "pass --trust-code")
	require.NotContains(t, stdout+stderr, storetest.ACLPassword)
	code, stdout, stderr = call(t, "run", file, "--mode", "both", "--allow-unsafe", "--trust-code", "--redis", kept)
	require.Equal(t, 0, code, stderr+stdout)
	require.Equal(t, 1, strings.Count(stderr, "Redis would not make the user a file's Redis code runs as (NOPERM"), stderr)
	require.NotContains(t, stdout+stderr, storetest.ACLPassword)
}

// A long reply is printed cut, with its size: run never prints a
// megabyte of it.
func TestALongReplyIsShownCutWithItsSize(t *testing.T) {
	file := oneStepFile(t, t.TempDir(), "long", "", `sql = "SELECT repeat('x', 1000000)"`)
	code, stdout, stderr := call(t, "run", file)
	require.Equal(t, 0, code, stderr+stdout)
	require.Contains(t, stdout, strings.Repeat("x", 200)+"… (976.6 KiB) (1 row)")
	require.Less(t, len(stdout), 20000)
}

// expected's query that answers no whole number is the file's mistake,
// said at its line (exit 2), not a value of 0.
func TestAnExpectedThatIsNoWholeNumberIsTheFilesMistake(t *testing.T) {
	for _, answer := range []string{"'text'", "0.5", "'NaN'::float8", "1e30::float8"} {
		file := filepath.Join(t.TempDir(), "zero.toml")
		require.NoError(t, os.WriteFile(file, []byte(`format = "fencelab-scenario/1"
id = "zero"
title = "t"
story = "s"
expected = { value = 0, sql = "SELECT `+answer+`" }
guided = ["A"]

[setup]
sql = ["CREATE TABLE c (v int)"]

[[step]]
name = "write"
sql = "INSERT INTO c VALUES (1)"

[[actor]]
name = "A"
program = ["write"]
`), 0o644))
		code, stdout, stderr := call(t, "run", file)
		require.Equal(t, exitUsage, code, answer+": "+stderr+stdout)
		requireOneLine(t, stderr, "zero.toml:5: expected's query answered")
	}
}

// expected's key that holds no whole number is the file's mistake too.
func TestAnExpectedKeyThatIsNoWholeNumberIsTheFilesMistake(t *testing.T) {
	file := filepath.Join(t.TempDir(), "rk.toml")
	require.NoError(t, os.WriteFile(file, []byte(`format = "fencelab-scenario/1"
id = "rk"
title = "t"
story = "s"
expected = { value = 0, redis = "s" }
guided = ["A"]

[setup]
redis = { s = "abc" }

[[step]]
name = "g"
redis = ["GET", "s"]

[[actor]]
name = "A"
program = ["g"]
`), 0o644))
	code, stdout, stderr := call(t, "run", file)
	require.Equal(t, exitUsage, code, stderr+stdout)
	requireOneLine(t, stderr, "rk.toml:5: expected's key s holds abc, not a whole number")
}

// A failure's line quotes what the server said, cut to a readable size:
// an error a file's code raised with a huge value is one line of at most
// a few kilobytes, with its size said.
func TestAHugeErrorIsCutToOneReadableLine(t *testing.T) {
	dir := t.TempDir()
	for _, step := range []string{
		`sql = "SELECT (repeat('x', 1000000))::int"`,
		"lua = '''return redis.error_reply(string.rep('E', 1000000))'''\nkeys = [\"done\"]",
	} {
		file := oneStepFile(t, dir, "huge", "", step)
		code, stdout, stderr := call(t, "run", file)
		require.Equal(t, exitUsage, code, stdout)
		require.Less(t, len(stderr), 2200, "one line, cut")
		require.Contains(t, stderr, "bytes in all)")
		require.Equal(t, 1, strings.Count(stderr, "\n"))
	}
}

// A lock of the file's that keeps the state's read out past fencelab's
// limit is the file's to change (exit 2, said), not a server unreachable.
func TestAFilesLockThatKeepsTheReadOutIsTheFiles(t *testing.T) {
	file := oneStepFile(t, t.TempDir(), "locked", "[setup]\nsql = \"CREATE TABLE t (id int)\"\n",
		`sql = ["BEGIN", "LOCK TABLE t IN ACCESS EXCLUSIVE MODE", "SELECT 1", "COMMIT"]`)
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, []byte(strings.Replace(string(src), `guided = ["A"]`, `guided = ["call A", "call A", "call A"]`, 1)), 0o644))
	code, stdout, stderr := call(t, "run", file)
	require.Equal(t, exitUsage, code, stdout)
	requireOneLine(t, stderr, "could not be read within fencelab's limits")
	require.Contains(t, stderr, "lock_timeout")
}

// scenario check has PostgreSQL parse every statement of a file's steps
// against its setup's schema: a column that is not there is said at its
// line, first on the line, though no step ran — and a file without a
// mistake passes as before.
func TestScenarioCheckPreparesTheFilesStatements(t *testing.T) {
	src, err := os.ReadFile("../scenarios/testdata/own-guard.toml")
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "typo.toml")
	text := strings.Replace(string(src), "WHERE id = 1 {{version check}}", "WHERE idd = 1 {{version check}}", 1)
	require.NoError(t, os.WriteFile(file, []byte(text), 0o644))
	code, _, stderr := call(t, "scenario", "check", file)
	require.Equal(t, exitUsage, code, stderr)
	line := strings.Count(text[:strings.Index(text, "WHERE idd")], "\n") + 1
	requireOneLine(t, stderr, fmt.Sprintf("typo.toml:%d: error: column \"idd\" does not exist", line))
	require.True(t, strings.HasPrefix(stderr, file+":"), "FILE:LINE first on the line, as a compiler says it: %q", stderr)
	code, _, stderr = call(t, "run", file)
	require.Equal(t, exitUsage, code)
	require.True(t, strings.HasPrefix(stderr, fmt.Sprintf("%s:%d: error:", file, line)), "%q", stderr)
	require.Contains(t, stderr, "(own-guard SAFE)")
	code, _, stderr = call(t, "scenario", "check", "../scenarios/testdata/own-guard.toml", "../examples/counter.toml")
	require.Equal(t, 0, code, stderr)
}
