package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// docsMatrix is the matrix docs/guards.md shows: scenario → guard → cell.
func docsMatrix(t *testing.T) map[string]map[string]string {
	t.Helper()
	data, err := os.ReadFile("../docs/guards.md")
	require.NoError(t, err)
	_, table, found := strings.Cut(string(data), matrixSignature+"\n")
	require.True(t, found, "docs/guards.md shows the matrix as fencelab matrix -o wrote it")
	cells := func(line string) []string {
		parts := strings.Split(strings.Trim(line, "| "), "|")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		return parts
	}
	lines := strings.Split(table, "\n")
	header := cells(lines[0])
	out := map[string]map[string]string{}
	for _, line := range lines[2:] {
		if !strings.HasPrefix(line, "| `") {
			break
		}
		row := cells(line)
		scenario := strings.Trim(row[0], "`")
		out[scenario] = map[string]string{}
		for i := 2; i < len(row); i++ {
			out[scenario][header[i]] = strings.Trim(row[i], "`")
		}
	}
	return out
}

// Each guard removed through the switch, in the scenarios that are cheap
// to search whole: every cell of their rows is the one docs/guards.md
// shows, and every guard but counter-loss's two is needed by one of them.
// counter-loss's (namespace, history) are checked by a search cut short,
// which finds the invariant and progress failure docs/guards.md shows on
// the guided order's schedule.
func TestEachGuardBreaksWhatTheDocsShow(t *testing.T) {
	want := docsMatrix(t)
	cheap := []string{"retry-same-token", "dynamic-tenant", "region-partition", "mixed-version-rollout", "stale-read",
		"non-fenceable-effect", "async-job-acquire", "terminal-transition", "pointer-split"}
	code, stdout, stderr := call(t, append(append([]string{"matrix"}, cheap...), "--json", "--out", t.TempDir())...)
	require.Equal(t, 1, code, "%s\n%s", stdout, stderr)
	requireOneLine(t, stderr, "none of these scenarios needs namespace, history")
	var report matrixReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &report))
	require.Len(t, report.Rows, len(cheap))
	for _, row := range report.Rows {
		require.Equal(t, cellHeld, row.Safe, row.Scenario)
		for _, cell := range row.Cells {
			require.Equal(t, want[row.Scenario][cell.Guard], cellText(cell), "%s without %s", row.Scenario, cell.Guard)
			if cell.Status == cellBroken {
				require.FileExists(t, cell.Trace)
			}
		}
	}
	for guard, needed := range report.Needed {
		require.Equal(t, guard != "namespace" && guard != "history", needed, guard)
	}

	code, stdout, stderr = call(t, "check", "counter-loss", "--without", "namespace", "--max-schedules", "300", "--allow-bounded", "--out", t.TempDir())
	require.Equal(t, 1, code, "%s\n%s", stdout, stderr)
	require.Contains(t, want["counter-loss"]["namespace"], "inv 2")
	requireOneLine(t, stderr, "counter-loss SAFE −namespace (invariant ")
	require.Contains(t, stderr, "2)")
	code, stdout, stderr = call(t, "check", "counter-loss", "--without", "history", "--max-schedules", "300", "--allow-bounded", "--out", t.TempDir())
	require.Equal(t, 1, code, "%s\n%s", stdout, stderr)
	require.Equal(t, "progress", want["counter-loss"]["history"])
	requireOneLine(t, stderr, "counter-loss SAFE −history (progress)")
}

// A search cut short proves nothing: it says so, and SAFE exits 1 unless
// --allow-bounded.
func TestABoundedCheckIsNotAProof(t *testing.T) {
	code, stdout, stderr := call(t, "check", "cross-job-collision", "--max-schedules", "20", "--out", t.TempDir())
	require.Equal(t, 1, code, "%s\n%s", stdout, stderr)
	require.Contains(t, stdout, "no break found in 20 schedules (bounded): not a proof; exit 1")
	require.NotContains(t, stdout, "as the catalog claims")
	requireOneLine(t, stderr, "cross-job-collision SAFE (bounded)")
	code, stdout, _ = call(t, "check", "cross-job-collision", "--max-schedules", "20", "--allow-bounded", "--out", t.TempDir())
	require.Equal(t, 0, code, stdout)
}

// Guards by name: the list, and the refusals of a name that is not one.
func TestGuardsAndWithout(t *testing.T) {
	code, stdout, _ := call(t, "guards")
	require.Equal(t, 0, code)
	for _, g := range []string{"fence", "read-in-tx", "operation-id", "atomic-acquire", "deadline"} {
		require.Contains(t, stdout, g+" ")
	}
	requireRefused(t, []refusal{
		{"unknown guard", []string{"run", "lease-overrun", "--without", "fense"}, exitUsage, `unknown guard "fense" (did you mean fence?)`},
		{"no guard", []string{"run", "lease-overrun", "--without", ","}, exitUsage, "--without names no guard"},
		{"unsafe has none", []string{"check", "lease-overrun", "--mode", "unsafe", "--without", "fence"}, exitUsage, "UNSAFE is the naive code"},
		{"race asks none", []string{"race", "--without", "fence"}, exitUsage, "race does not take --without"},
		{"stress never asks terminal", []string{"stress", "--without", "terminal"}, exitUsage, "a stress worker never asks it"},
		{"guards takes one", []string{"guards", "fence", "owner"}, exitUsage, "guards takes one scenario at most"},
		{"matrix scenario", []string{"matrix", "no-such"}, exitUsage, `unknown scenario "no-such"`},
	})
	code, stdout, _ = call(t, "run", "lease-overrun", "--without", "fence")
	require.Equal(t, 1, code)
	require.Contains(t, stdout, "lease-overrun · SAFE −fence")
	require.Contains(t, stdout, "SAFE's promise broken without fence: an invariant broke")
}

// A trace replays with the guards its run removed; --without names others,
// and the replay's differences are what taking them out changes. An UNSAFE
// trace has no guards to take out.
func TestReplayWithoutAGuard(t *testing.T) {
	dir := t.TempDir()
	safe, unsafe := filepath.Join(dir, "safe.json"), filepath.Join(dir, "unsafe.json")
	for path, mode := range map[string]string{safe: "safe", unsafe: "unsafe"} {
		code, _, stderr := call(t, "run", "lease-overrun", "--mode", mode, "--save-trace", path)
		require.Equal(t, 0, code, stderr)
	}
	code, stdout, stderr := call(t, "replay", safe, "--without", "fence")
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stderr, "this replay removes fence, so the differences below are what that changes")
	require.Contains(t, stderr, `now A_WRITE COMMITTED`)
	require.Contains(t, stdout, "verdict STALE_OVERWRITE")
	code, _, stderr = call(t, "replay", unsafe, "--without", "fence")
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, "the trace is UNSAFE")
}

// A user's own design that does without a guard its code consults gets
// that as the answer: its columns are its own guards, exit 0 and a line
// saying which it does not need; --strict makes it a failure, as it
// always is for the catalog.
func TestAFilesMatrixSaysWhatTheDesignDoesNotNeed(t *testing.T) {
	base, err := os.ReadFile("../examples/lock-fence.toml")
	require.NoError(t, err)
	src := strings.Replace(string(base), "{{fence}} RETURNING", "{{fence}} {{owner}} RETURNING", 1)
	src = strings.Replace(src, `guards = { fence = "AND fence < $token" }`, `guards = { fence = "AND fence < $token", owner = "AND true" }`, 1)
	// Refused, the write's two guards are named both: which refused, the
	// reply does not say.
	src = strings.Replace(src, `verdict = "STALE_FENCE"`, `verdict = "REJECTED by fence or owner"`, 1)
	path := filepath.Join(t.TempDir(), "mine.toml")
	require.NoError(t, os.WriteFile(path, []byte(src), 0o644))

	code, stdout, stderr := call(t, "matrix", path, "--json", "--out", t.TempDir())
	require.Equal(t, 0, code, "%s\n%s", stdout, stderr)
	var report matrixReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &report))
	require.Equal(t, []string{"fence", "owner"}, report.Guards, "the file's guards are the columns")
	require.True(t, report.Needed["fence"])
	require.False(t, report.Needed["owner"])

	code, stdout, _ = call(t, "matrix", path, "--out", t.TempDir())
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "your design does not need: owner")

	code, _, stderr = call(t, "matrix", path, "--strict", "--out", t.TempDir())
	require.Equal(t, 1, code)
	requireOneLine(t, stderr, "none of these scenarios needs owner")
}

// A file's own guard goes by its own name everywhere a guard is named:
// its guards list, --without, the verdict, the matrix's column and
// cell, and the trace a matrix writes, which replays.
func TestAFilesOwnGuardByItsName(t *testing.T) {
	const file = "../scenarios/testdata/own-guard.toml"
	code, stdout, stderr := call(t, "guards", file)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "version check   the row still has the version the edit read")
	require.NotContains(t, stdout, "fence ", "a file's list is its own guards")

	code, stdout, stderr = call(t, "run", file, "--mode", "safe")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "verdict REJECTED by version check")
	code, stdout, stderr = call(t, "run", file, "--mode", "safe", "--without", "version check")
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stdout, "own-guard · SAFE −version check")
	code, _, stderr = call(t, "run", file, "--without", "versoin check")
	require.Equal(t, exitUsage, code)
	require.Contains(t, stderr, `has no guard "versoin check" (did you mean version check?); its guards: version check`)
	code, _, stderr = call(t, "run", file, "--without", "fence")
	require.Equal(t, exitUsage, code, "fencelab's guards are none of the file's")
	require.Contains(t, stderr, `own-guard.toml has no guard "fence"; its guards: version check`)

	out := t.TempDir()
	code, stdout, stderr = call(t, "matrix", file, "--out", out)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "version check")
	require.Contains(t, stdout, "edit-lost · 4", "a file's invariant by its name")
	trace := filepath.Join(out, "own-guard-without-version-check.trace.json")
	require.FileExists(t, trace)
	code, stdout, stderr = call(t, "replay", trace)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "as the trace recorded")
}

// A matrix's searches are bounded by --max-memory as check's are: one cut
// short without a break proves nothing, so the matrix stops there, exit 1,
// in one line that says how to go further; a size that is none is refused.
func TestAMatrixStopsAtItsMemoryBound(t *testing.T) {
	code, stdout, stderr := call(t, "matrix", "stale-read", "--max-memory", "1MiB", "--out", t.TempDir())
	require.Equal(t, exitUnexpected, code, stderr+stdout)
	requireOneLine(t, stderr, "stale-read SAFE: cut short at ")
	require.Contains(t, stderr, "past --max-memory 1MiB: this proves nothing; a larger --max-memory goes further")

	code, _, stderr = call(t, "matrix", "stale-read", "--max-memory", "lots")
	require.Equal(t, exitUsage, code, stderr)
	requireOneLine(t, stderr, `--max-memory "lots": not a size from 1MiB up`)
}
