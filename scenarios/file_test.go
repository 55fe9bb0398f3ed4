package scenarios_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/scenarios/world"
)

// base is a small valid scenario file; the error cases change one thing.
const base = `format = "fencelab-scenario/1"
id = "two-workers"
title = "Two workers"
story = "A pauses, B commits, A writes"
expected = 42
guided = ["A", "A", "pause A", "expire", "B", "B", "B", "resume A", "A"]

[[actor]]
name = "A"
job = "daily-summary"
program = ["acquire-leader", "acquire-lease", "write-summary"]

[[actor]]
name = "B"
job = "daily-summary"
program = ["acquire-leader", "acquire-lease", "write-summary"]

[predict.safe]
final = 42
fence = 42
verdict = "STALE_FENCE"
`

func TestTheBaseFileCompiles(t *testing.T) {
	s, err := scenarios.Parse("base.toml", []byte(base))
	require.NoError(t, err)
	require.Equal(t, "two-workers", s.ID)
	require.Len(t, s.Guided(engine.Unsafe), 9)
	_, predictsUnsafe := s.Predicted[engine.Unsafe]
	require.False(t, predictsUnsafe)
}

// Every mistake is one line, FILE:LINE: what, naming the line to change.
func TestFileMistakesAreOneLineWithTheirLine(t *testing.T) {
	cases := []struct{ name, from, to, want string }{
		{"unknown step", `"acquire-lease", "write-summary"]`, `"aquire-lease", "write-summary"]`,
			`f.toml:11: unknown step "aquire-lease" (did you mean acquire-lease?)`},
		{"unknown key", "expected = 42\n", "expected = 42\nexpectd = 1\n", `f.toml:6: unknown key "expectd" (did you mean expected?)`},
		{"unknown actor key", `job = "daily-summary"` + "\nprogram", `job = "daily-summary"` + "\njobs = 1\nprogram", `f.toml:11: unknown key "jobs" (did you mean job?)`},
		{"guided names no actor", `"resume A", "A"]`, `"resume A", "Z"]`, `f.toml:6: guided entry 9 "Z" names no actor (actors: "A", "B")`},
		{"guided misspells an actor", `"resume A", "A"]`, `"resume A", "AA"]`, `f.toml:6: guided entry 9 "AA" names no actor (did you mean A?)`},
		{"a step the kind cannot take", `program = ["acquire-leader", "acquire-lease", "write-summary"]` + "\n\n[predict",
			`program = ["acquire-leader", "restart-redis"]` + "\n\n[predict",
			`f.toml:16: restart-redis is a step of the operator kind; B is of kind worker`},
		{"unknown verdict", `verdict = "STALE_FENCE"`, `verdict = "STALE_FENSE"`, `f.toml:21: verdict "STALE_FENSE" is none fencelab knows (did you mean STALE_FENCE?)`},
		{"verdict nobody knows", `verdict = "STALE_FENCE"`, `verdict = "WHATEVER"`, `f.toml:21: verdict "WHATEVER" is none fencelab knows (one of: MATCH`},
		{"never resumed", `"resume A", "A"]`, `"B"]`, `f.toml:6: the guided order of SAFE ends with A paused: it could never finish its program`},
		{"stepped while paused", `"expire", "B"`, `"expire", "A"`, `f.toml:6: guided entry 5 steps A, which is paused: resume it first`},
		{"resumed, not paused", `"pause A", "expire"`, `"resume B", "expire"`, `f.toml:6: guided entry 3 resumes B, which is not paused`},
		{"bad advance", `"expire"`, `"advance 3 days"`, `f.toml:6: advance "3 days": want a duration above 0 and at most 24h0m0s, like 30s or 10m`},
		{"a step's parameter", `"write-summary"]` + "\n\n[[actor]]", `"add ten"]` + "\n\n[[actor]]", `f.toml:11: add ten: want a whole number`},
		{"retry before a write", `"acquire-lease", "write-summary"]` + "\n\n[[actor]]", `"acquire-lease", "retry-write"]` + "\n\n[[actor]]",
			`f.toml:11: retry-write sends the actor's last write again: write-summary or add must come before it`},
		{"wrong format", `format = "fencelab-scenario/1"`, `format = "fencelab-scenario/9"`, `f.toml:1: format "fencelab-scenario/9": want "fencelab-scenario/1"`},
		{"not TOML", `expected = 42`, `expected = = 42`, `f.toml:5: not TOML:`},
		{"a wrong type", `expected = 42`, `expected = "42"`, `f.toml:5: expected must be a whole number`},
		{"no program", `program = ["acquire-leader", "acquire-lease", "write-summary"]` + "\n\n[predict", "\n[predict",
			`f.toml:13: actor B has no program for SAFE`},
		{"an operator past its program", `guided = ["A"`, `guided = ["restart-redis", "A"`, `f.toml:6: guided entry 1 "restart-redis": no operator's next step in SAFE is restart-redis`},
		{"a misspelt required key", "expected = 42\n", "expectd = 42\n", `f.toml:5: unknown key "expectd" (did you mean expected?)`},
		{"a misspelt required actor key", `job = "daily-summary"` + "\nprogram", `jbo = "daily-summary"` + "\nprogram", `f.toml:10: unknown key "jbo" (did you mean job?)`},
		{"a lease too short for a real Redis", "expected = 42\n", "expected = 42\nlease-ttl = \"1ns\"\n", `f.toml:6: lease-ttl "1ns": want a duration from 500ms to 24h0m0s`},
		{"guided inside an actor", "\n[[actor]]\nname = \"B\"", "\nguided = [\"A\"]\n[[actor]]\nname = \"B\"", `f.toml:13: guided is read here as a key of the [[actor]] above it: write it above the first [[actor]]`},
		{"narration of a per-mode order", `guided = ["A", "A", "pause A"`, `unsafe.guided = ["A"]` + "\n" + `narration.1 = "x"` + "\n" + `safe.guided = ["A", "A", "pause A"`,
			`f.toml:7: [narration] numbers the entries of guided, and there is none: write [safe.narration] for safe.guided`},
		{"narration of no entry", "[predict.safe]", "[narration]\n10 = \"nothing\"\n\n[predict.safe]", `f.toml:19: narration "10": want the number of a guided entry, 1 to 9`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Contains(t, base, c.from)
			_, err := scenarios.Parse("f.toml", []byte(strings.Replace(base, c.from, c.to, 1)))
			require.Error(t, err)
			require.NotContains(t, err.Error(), "\n")
			require.True(t, strings.HasPrefix(err.Error(), c.want), "got  %s\nwant %s", err, c.want)
		})
	}
}

// A file too large or nested too deep is refused before it is decoded.
func TestFilesTooLargeOrTooDeepAreRefusedBeforeDecoding(t *testing.T) {
	dir := t.TempDir()
	deep := dir + "/deep.toml"
	require.NoError(t, os.WriteFile(deep, []byte("a = "+strings.Repeat("[", 100000)), 0o644))
	_, err := scenarios.Load(deep)
	require.ErrorContains(t, err, "deep.toml:1: nested more than 8 deep")
	dotted := dir + "/dotted.toml"
	require.NoError(t, os.WriteFile(dotted, []byte(strings.Repeat("a.", 100000)+"a = 1\n"), 0o644))
	_, err = scenarios.Load(dotted)
	require.Error(t, err)
	big := dir + "/big.toml"
	require.NoError(t, os.WriteFile(big, []byte("# "+strings.Repeat("x", 300<<10)+"\n"), 0o644))
	_, err = scenarios.Load(big)
	require.ErrorContains(t, err, "larger than")
}

// `scenario show` is a starting point: every catalog scenario's file
// compiles on its own to the same scenario.
func TestCatalogSourcesCompileToThemselves(t *testing.T) {
	for _, s := range scenarios.All() {
		again, err := scenarios.Parse(s.ID+".toml", s.Source)
		require.NoError(t, err)
		require.Equal(t, s.ID, again.ID)
		for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
			require.Equal(t, s.Guided(mode), again.Guided(mode))
			require.Equal(t, s.Predicted[mode], again.Predicted[mode])
		}
	}
}

// The example: three workers, one paused, written only as a file,
// with its guided order after the last [[actor]] as a person writes it.
// Its runs end as it predicts, its narration replaces the steps' own,
// and its check holds in both modes.
func TestThreeWorkersFromAFile(t *testing.T) {
	s, err := scenarios.Load("testdata/three-workers.toml")
	require.NoError(t, err)
	for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
		lab, r := guidedRun(t, s, mode)
		require.True(t, r.Predicts)
		require.True(t, r.MatchesPrediction(), "%s: final %d fence %d verdict %s", mode, r.Final, r.Mark, r.Verdict)
		var narrated bool
		for _, e := range lab.Events() {
			narrated = narrated || e.Narration == "A stops for a long GC pause, holding token 41."
		}
		require.True(t, narrated, "the file's narration of entry 3")
		if raceEnabled {
			continue // 2,000 states a mode: checked whole without -race
		}
		report, err := engine.Check(context.Background(), checkLabs(t, s, mode, 2), engine.CheckOptions{})
		require.NoError(t, err)
		require.True(t, report.Holds(), "%s check", mode)
	}
}

// A key a prediction leaves out is not predicted: without fence, any
// last accepted fence matches (with fence, a wrong one does not).
func TestAPredictionWithoutAFence(t *testing.T) {
	for _, tc := range []struct {
		fence string
		as    bool
	}{{"", true}, {"fence = 7\n", false}, {"fence = 42\n", true}} {
		src := strings.Replace(base, "fence = 42\n", tc.fence, 1)
		s, err := scenarios.Parse("f.toml", []byte(src))
		require.NoError(t, err)
		_, r := guidedRun(t, s, engine.Safe)
		require.Equal(t, int64(42), r.Mark)
		require.Equal(t, tc.as, r.AsPredicted(), "prediction %q", tc.fence)
	}
}

// Without predictions a file is held to its invariants: SAFE must keep
// them, UNSAFE may end any way.
func TestAFileWithoutPredictions(t *testing.T) {
	src := strings.Split(base, "[predict.safe]")[0]
	s, err := scenarios.Parse("f.toml", []byte(src))
	require.NoError(t, err)
	for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
		_, r := guidedRun(t, s, mode)
		require.False(t, r.Predicts)
		require.True(t, r.AsPredicted(), mode.String())
	}
}

// A file's guards are what its SAFE keeps: without fence, two workers'
// stale write goes through.
func TestAFileThatLeavesAGuardOut(t *testing.T) {
	src := strings.Replace(base, "expected = 42\n", "expected = 42\nguards = [\"membership\", \"region\", \"version\", \"namespace\", \"read-in-tx\", \"outbox\", \"operation-id\", \"history\", \"owner\"]\n", 1)
	src = strings.Split(src, "[predict.safe]")[0]
	s, err := scenarios.Parse("f.toml", []byte(src))
	require.NoError(t, err)
	require.True(t, s.Removed.Has(world.GuardFence))
	_, r := guidedRun(t, s, engine.Safe)
	require.Equal(t, "STALE_OVERWRITE", r.Verdict, "SAFE without the fence lets A's 41 through")
}

// guidedRun runs a scenario's guided order in a mode on a lab of its own.
func guidedRun(t *testing.T, s *engine.Scenario, mode engine.Mode) (*engine.Lab, engine.Result) {
	t.Helper()
	lab := checkLabs(t, s, mode, 1)[0]
	require.NoError(t, lab.RunGuided(context.Background()))
	r, err := lab.Result(context.Background())
	require.NoError(t, err)
	return lab, r
}

// An UNSAFE add with no read-summary before it builds on 0: no mistake,
// but likely not meant, so the file says so at the add's line — unless
// the worker adds in place, which reads nothing.
func TestAnUnsafeAddWithoutAReadIsWarnedOf(t *testing.T) {
	src := `format = "fencelab-scenario/1"
id = "add-no-read"
title = "t"
story = "s"
expected = 10
guided = ["A", "A"]

[[actor]]
name = "A"
job = "daily-summary"
program = ["acquire-lease", "add 10"]
`
	s, err := scenarios.Parse("mine.toml", []byte(src))
	require.NoError(t, err)
	require.Len(t, s.Warnings, 1)
	require.True(t, strings.HasPrefix(s.Warnings[0].In(lang.En), "mine.toml:11: warning: A's UNSAFE add has no read-summary"), s.Warnings[0].In(lang.En))

	read, err := scenarios.Parse("mine.toml", []byte(strings.Replace(src, `"add 10"`, `"read-summary", "add 10"`, 1)))
	require.NoError(t, err)
	require.Empty(t, read.Warnings)
	inPlace, err := scenarios.Parse("mine.toml", []byte(strings.Replace(src, `job = "daily-summary"`, "job = \"daily-summary\"\nunsafe-write = \"add-in-place\"", 1)))
	require.NoError(t, err)
	require.Empty(t, inPlace.Warnings)
}

// Bytes that are no text are said to be no TOML file, whatever brackets
// they happen to begin with.
func TestBinaryIsNotATOMLFile(t *testing.T) {
	for _, src := range [][]byte{
		append([]byte("[[[[[[[[[[[[[[[[[[[["), 0xfb, 0xff, 0x00),
		[]byte("format = \"fencelab-scenario/1\"\x00"),
	} {
		_, err := scenarios.Parse("mine.toml", src)
		require.Error(t, err)
		require.Contains(t, err.Error(), "not a TOML file")
		path := filepath.Join(t.TempDir(), "mine.toml")
		require.NoError(t, os.WriteFile(path, src, 0o644))
		_, err = scenarios.Load(path)
		require.Error(t, err)
		require.Contains(t, err.Error(), "not a TOML file", "read from a file")
	}
}
