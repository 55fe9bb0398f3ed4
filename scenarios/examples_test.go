package scenarios_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
)

// The examples people copy (examples/, README "Your own code") run as
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
	for _, c := range []struct{ name, from, to, says string }{
		{"a parameter nobody saves", "SET value = $token", "SET value = $tokn", "uses $tokn, which no step before it"},
		{"a guard with no fragment", "{{fence}}", "{{fence}} {{owner}}", "which its guards do not define"},
		{"a fragment with no place", "{{fence}} RETURNING", "RETURNING", "has no place in step write"},
		{"a guard fencelab has not", `guards = { fence =`, `guards = { fense =`, `unknown guard "fense"`},
		{"a command that is not a step's", `redis = ["DEL", "lock"]`, `redis = ["FLUSHALL"]`, "FLUSHALL is not a command a step sends"},
		{"a script's command not named", `redis.call("INCR", KEYS[2])`, `redis.call(cmd, KEYS[2])`, "names each command it calls as a string"},
		{"a script's server command", `redis.call("INCR", KEYS[2])`, `redis.call("CONFIG", "SET", "x", "y")`, "calls CONFIG"},
		{"search_path", `"INSERT INTO report VALUES (1, 0, 0)",`, `"SET search_path TO public",`, "may not use search_path"},
		{"fencelab's schema", `"INSERT INTO report VALUES (1, 0, 0)",`, `"DELETE FROM fencelab.resources",`, "does not name fencelab's own"},
		{"drop schema", `"INSERT INTO report VALUES (1, 0, 0)",`, `"DROP SCHEMA public CASCADE",`, "may not DROP SCHEMA"},
		{"DDL in a step", "WITH w AS (UPDATE", "DROP TABLE report; WITH w AS (UPDATE", "a step changes rows, not tables"},
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

	script := strings.Replace(string(base), `return redis.call("INCR", KEYS[2])`, `return redis.call("INCR", KEYS[2]) +`, 1)
	s, err = scenarios.Parse("mine.toml", []byte(script))
	require.NoError(t, err)
	lab, err := engine.NewLab(context.Background(), backendsFor(t), s, engine.Safe)
	require.NoError(t, err)
	defer lab.Close(context.Background())
	err = lab.Next(context.Background())
	require.Error(t, err)
	require.Contains(t, err.Error(), "mine.toml:")
	require.Contains(t, err.Error(), "step acquire of A")
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
