package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A run saved as a trace replays to the same events and result; a trace
// edited afterwards is reported as different (exit 1); a bad one is refused
// in one line (exit 2), and --save-trace never overwrites a file that is
// not a trace.
func TestTraceSaveReplayAndBadTraces(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "stale.json")
	code, _, stderr := call(t, "run", "stale-read", "--mode", "unsafe", "--save-trace", saved)
	require.Equal(t, 0, code, stderr)
	code, stdout, stderr := call(t, "replay", saved)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "verdict LOST_UPDATE  — as the trace recorded")

	data, err := os.ReadFile(saved)
	require.NoError(t, err)
	edited := filepath.Join(dir, "edited.json")
	require.NoError(t, os.WriteFile(edited, []byte(strings.Replace(string(data), `"final": 20`, `"final": 30`, 1)), 0o644))
	code, _, stderr = call(t, "replay", edited)
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stderr, "result: recorded final 30")

	notTrace := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(notTrace, []byte("mine"), 0o644))
	for _, tc := range []struct {
		name, body, contains string
	}{
		{"truncated", string(data[:len(data)/2]), "truncated"},
		{"not JSON", "hello", "not JSON"},
		{"future format", strings.Replace(string(data), "fencelab-trace/1", "fencelab-trace/9", 1), "newer than this fencelab reads"},
		{"unknown scenario", strings.Replace(string(data), `"stale-read"`, `"nope"`, 1), `unknown scenario "nope"`},
		{"unknown actor", strings.Replace(string(data), `"actor": "B"`, `"actor": "Q"`, 1), `actor "Q"`},
		{"unknown action", strings.Replace(string(data), `"action": "step"`, `"action": "dance"`, 1), `unknown action "dance"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".json")
			require.NoError(t, os.WriteFile(path, []byte(tc.body), 0o644))
			for _, args := range [][]string{{"replay", path}, {"--trace", path}} {
				code, _, stderr := call(t, args...)
				require.Equal(t, 2, code, stderr)
				requireOneLine(t, stderr, tc.contains)
			}
		})
	}
	code, _, stderr = call(t, "run", "stale-read", "--save-trace", notTrace)
	require.Equal(t, 2, code)
	requireOneLine(t, stderr, "not a fencelab trace; not overwritten")
	kept, err := os.ReadFile(notTrace)
	require.NoError(t, err)
	require.Equal(t, "mine", string(kept))
}

// check finds the stale read in UNSAFE, holds in SAFE, writes the shortest
// counterexample, and that trace replays to the same events and verdict.
func TestCheckStaleReadWritesAReplayableTrace(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := call(t, "check", "stale-read", "--mode", "both", "--out", out)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "stale-read · SAFE")
	require.Contains(t, stdout, "every invariant held on every schedule run")
	require.Contains(t, stdout, "invariant 7 broken on")
	trace := filepath.Join(out, "stale-read-unsafe.trace.json")
	require.Contains(t, stdout, "fencelab --trace "+trace)
	code, stdout, stderr = call(t, "replay", trace)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "verdict LOST_UPDATE")
}
