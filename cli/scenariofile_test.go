package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A catalog scenario shown as a file and run from it gives the catalog's
// results exactly; the file's trace carries the file and replays where
// the file is gone.
func TestAScenarioFileRunsAsItsCatalogScenario(t *testing.T) {
	dir := t.TempDir()
	code, shown, stderr := call(t, "scenario", "show", "lease-overrun")
	require.Equal(t, 0, code, stderr)
	file := filepath.Join(dir, "x.toml")
	require.NoError(t, os.WriteFile(file, []byte(shown), 0o644))

	code, fromCatalog, stderr := call(t, "run", "lease-overrun", "--mode", "both", "--json")
	require.Equal(t, 0, code, stderr)
	code, fromFile, stderr := call(t, "run", file, "--mode", "both", "--json")
	require.Equal(t, 0, code, stderr)
	var a, b []map[string]any
	require.NoError(t, json.Unmarshal([]byte(fromCatalog), &a))
	require.NoError(t, json.Unmarshal([]byte(fromFile), &b))
	require.Equal(t, a, b)

	trace := filepath.Join(dir, "x.trace.json")
	code, _, stderr = call(t, "run", file, "--mode", "unsafe", "--save-trace", trace)
	require.Equal(t, 0, code, stderr)
	require.NoError(t, os.Remove(file))
	code, stdout, stderr := call(t, "replay", trace)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "STALE_OVERWRITE")
}

// A file of one's own, predictions and all: run says it ended as its file
// predicts, check that both modes came out so.
func TestAnOwnScenarioFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tenant.toml")
	require.NoError(t, os.WriteFile(file, []byte(`format = "fencelab-scenario/1"
id = "late-tenant"
title = "A tenant removed under a job"
story = "the operator removes the tenant before A writes"
expected = 0
guided = ["A", "remove-tenant", "A"]

[[actor]]
name = "A"
job = "daily-summary"
program = ["acquire-lease", "write-summary"]

[[actor]]
name = "OP"
kind = "operator"
program = ["remove-tenant"]

[predict.safe]
final = 0
verdict = "STALE_MEMBERSHIP"

[predict.unsafe]
final = 41
fence = 41
verdict = "STALE_WRITE"
`), 0o644))
	code, stdout, stderr := call(t, "run", file, "--mode", "both")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, 2, strings.Count(stdout, "— as its file predicts"), stdout)

	code, stdout, stderr = call(t, "check", file, "--mode", "both", "--out", dir)
	require.Equal(t, 0, code, stderr+stdout)
	require.Equal(t, 2, strings.Count(stdout, "  as its file predicts"), stdout)

	code, stdout, stderr = call(t, "scenario", "check", file)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "late-tenant · actors: 2 · guided entries: 3 in SAFE, 3 in UNSAFE · predicts SAFE STALE_MEMBERSHIP, UNSAFE STALE_WRITE")
}

// Every mistake in a file is its one line and exit 2, before any backend
// starts, from every command that takes a scenario.
func TestAScenarioFileWithAMistake(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bad.toml")
	src, err := os.ReadFile("../scenarios/testdata/three-workers.toml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, []byte(strings.Replace(string(src), `"acquire-lease"`, `"aquire-lease"`, 1)), 0o644))
	want := file + `:11: unknown step "aquire-lease" (did you mean acquire-lease?)`
	for _, args := range [][]string{
		{"run", file}, {"check", file}, {"matrix", file}, {"export", file, "--to", "md"}, {file}, {"--watch", file},
		{"scenario", "check", file},
	} {
		start := time.Now()
		code, _, stderr := call(t, args...)
		require.Equal(t, exitUsage, code, "%v: %s", args, stderr)
		requireOneLine(t, stderr, want)
		require.Less(t, time.Since(start), 5*time.Second, "%v refused before any backend starts", args)
	}

	code, _, stderr := call(t, "run", filepath.Join(dir, "missing.toml"))
	require.Equal(t, exitUsage, code)
	requireOneLine(t, stderr, "no such file")
	code, _, stderr = call(t, "run", "lease-overun")
	require.Equal(t, exitUsage, code)
	requireOneLine(t, stderr, `unknown scenario "lease-overun"`)
	code, _, stderr = call(t, "scenario", "show", "nosuch")
	require.Equal(t, exitUsage, code)
	requireOneLine(t, stderr, `unknown scenario "nosuch"`)
	code, _, stderr = call(t, "--watch")
	require.Equal(t, exitUsage, code)
	requireOneLine(t, stderr, "--watch reloads a scenario file")
}

// A talk scene can open a scenario file, from the script's directory, and
// watch it; a file with a mistake stops the talk with the file's line.
func TestATalkSceneOfAScenarioFile(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../scenarios/testdata/three-workers.toml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "three.toml"), src, 0o644))
	script := filepath.Join(dir, "talk.toml")
	require.NoError(t, os.WriteFile(script, []byte(`title = "live"
[[scene]]
scenario = "three.toml"
watch = true
split = true
why = true
`), 0o644))
	talk, err := loadTalk(script, "en")
	require.NoError(t, err)
	require.True(t, talk.Scenes[0].Watch)
	require.True(t, talk.Scenes[0].Split)
	require.True(t, talk.Scenes[0].Why)
	require.Equal(t, "three-workers", talk.Scenes[0].Scenario.ID)
	require.Equal(t, filepath.Join(dir, "three.toml"), talk.Scenes[0].Scenario.File)

	require.NoError(t, os.WriteFile(filepath.Join(dir, "three.toml"), []byte(strings.Replace(string(src), "expected = 43", "expected = x", 1)), 0o644))
	_, err = loadTalk(script, "en")
	require.ErrorContains(t, err, script+":3: scene 1: "+filepath.Join(dir, "three.toml")+":5: not TOML")

	require.NoError(t, os.WriteFile(script, []byte("title = \"t\"\n[[scene]]\nscenario = \"lease-overrun\"\nwhy = \"yes\"\n"), 0o644))
	_, err = loadTalk(script, "en")
	require.ErrorContains(t, err, script+":4: scene 1: why: want true or false")

	require.NoError(t, os.WriteFile(script, []byte("title = \"t\"\n[[scene]]\nscenario = \"lease-overrun\"\nwatch = true\n"), 0o644))
	_, err = loadTalk(script, "en")
	require.ErrorContains(t, err, "watch = true reloads a scenario file")
}

// `fencelab ID` and `fencelab FILE` are the explorer's; --scenarios DIR
// adds a directory's files to its picker, and refuses a directory with a
// broken one.
func TestTheExplorerOpensAScenario(t *testing.T) {
	for _, args := range [][]string{{"lease-overrun"}, {"../scenarios/testdata/three-workers.toml"}, {"--scenarios", "../scenarios/testdata"}} {
		code, _, stderr := call(t, args...)
		require.Equal(t, exitUsage, code, "%v: %s", args, stderr)
		requireOneLine(t, stderr, "the explorer needs a terminal")
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.toml"), []byte("format = 1\n"), 0o644))
	code, _, stderr := call(t, "--scenarios", dir)
	require.Equal(t, exitUsage, code)
	requireOneLine(t, stderr, filepath.Join(dir, "a.toml")+`:1: format must be a string`)
	code, _, stderr = call(t, "lease-overrun", "stale-read")
	require.Equal(t, exitUsage, code)
	requireOneLine(t, stderr, "the explorer opens one scenario")
}

// A guided order the compiler cannot see is wrong (an actor whose steps
// can wait, stepped once too often) is said at the entry's line, exit 2.
func TestAGuidedOrderThatCannotBeFollowedIsSaidAtItsLine(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("../scenarios/testdata/three-workers.toml")
	require.NoError(t, err)
	file := filepath.Join(dir, "g.toml")
	require.NoError(t, os.WriteFile(file, []byte(strings.Replace(string(src), `"resume A", "A"]`, `"resume A", "A", "A"]`, 1)), 0o644))
	for _, args := range [][]string{{"run", file}, {"export", file, "--to", "md"}} {
		code, _, stderr := call(t, args...)
		require.Equal(t, exitUsage, code, stderr)
		requireOneLine(t, stderr, file+":23: guided entry 14 of SAFE (step A) cannot be taken: A has finished its program")
	}
}

// A file with the most actors a file may have is checked on as many labs
// as usual: the server is started with the connections they need. And
// check holds SAFE's guided order to the file's prediction.
func TestCheckOfAFileWithNineActors(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("format = \"fencelab-scenario/1\"\nid = \"nine\"\ntitle = \"Nine\"\nstory = \"nine writers\"\nexpected = 49\nguided = [")
	for _, n := range "ABCDEFGHI" {
		b.WriteString(`"` + string(n) + `", "` + string(n) + `", "expire", `)
	}
	b.WriteString("]\n")
	for _, n := range "ABCDEFGHI" {
		b.WriteString("\n[[actor]]\nname = \"" + string(n) + "\"\njob = \"j" + string(n) + "\"\nprogram = [\"acquire-lease\", \"write-summary\"]\n")
	}
	b.WriteString("\n[predict.safe]\nfinal = 49\nfence = 49\nverdict = \"MATCH\"\n")
	file := filepath.Join(dir, "nine.toml")
	require.NoError(t, os.WriteFile(file, []byte(b.String()), 0o644))
	labs := checkLabs
	checkLabs = func() int { return 8 } // as on an eight-core machine: 80 connections
	defer func() { checkLabs = labs }()
	code, stdout, stderr := call(t, "check", file, "--max-schedules", "40", "--allow-bounded", "--out", dir)
	require.Equal(t, 0, code, stderr+stdout)
	// Said before the search: nine actors of three calls (acquire-lease is
	// one, write-summary two), four places each.
	require.Contains(t, stderr, "fencelab: nine SAFE: its 9 actors' places alone combine 262,144 ways")

	wrong := strings.Replace(b.String(), "final = 49", "final = 48", 1)
	require.NoError(t, os.WriteFile(file, []byte(wrong), 0o644))
	code, stdout, stderr = call(t, "check", file, "--max-schedules", "40", "--allow-bounded", "--out", dir)
	require.Equal(t, exitUnexpected, code, stderr+stdout)
	require.Contains(t, stdout, "NOT as its file predicts: the guided order ended 49 MATCH, predicted 48 MATCH")
}

// A guard --without takes out that no step asks for (lock-fence's steps
// never name owner) is said once, on a run that passed: SAFE ran as it
// does with it. A guard a step asks for is not.
func TestAGuardNoStepAsksForIsSaid(t *testing.T) {
	t.Setenv("FENCELAB_CACHE_DIR", cacheDir(t))
	code, _, stderr := call(t, "run", "lease-overrun", "--mode", "safe", "--without", "terminal")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, "fencelab: warning: --without terminal: no step asked for it in the guided order, so SAFE ran as it does with it\n", stderr)
	// A file's guards are its own: one it does not define is no guard of
	// its to take out.
	code, _, stderr = call(t, "run", "../examples/lock-fence.toml", "--without", "owner")
	require.Equal(t, exitUsage, code, stderr)
	requireOneLine(t, stderr, `lock-fence.toml has no guard "owner"; its guards: fence`)
	code, _, stderr = call(t, "run", "lease-overrun", "--without", "membership")
	require.Equal(t, 0, code, stderr)
	require.Empty(t, stderr, "lease-overrun's SAFE asks for membership")
}
