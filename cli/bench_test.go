package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

// fencelab bench, run as a user runs it: every pair beside its floor, with
// the ratio of the two; a flag it does not measure with is refused.
func TestBenchPrintsEveryPairBesideItsFloor(t *testing.T) {
	cmd := exec.Command(binary(t), "bench", "--runs", "1", "--json")
	cmd.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+cacheDir(t))
	out, err := cmd.Output()
	require.NoError(t, err, "%s", out)
	var pairs []benchPair
	require.NoError(t, json.Unmarshal(out, &pairs))
	var names []string
	for _, p := range pairs {
		names = append(names, p.Name)
		require.Positive(t, p.Value, p.Name)
		require.Positive(t, p.FloorValue, p.Name)
		require.InDelta(t, p.Value/p.FloorValue, p.Ratio, 1e-9, p.Name)
		require.NotEmpty(t, p.What, p.Name)
		require.NotEmpty(t, p.Floor, p.Name)
	}
	require.Equal(t, []string{"start", "explorer first frame", "explorer first step", "explorer step",
		"check lease-overrun", "check stale-read", "check cross-job-collision", "check stale-read, in flight",
		"stress 1 worker", "stress 1 worker, bare loop", "stress 8 workers", "stress 32 workers"}, names)

	// The search with statements in flight beside the same search one
	// statement at a time: the same figure as its check's, and the before.
	require.True(t, pairs[7].Before)
	require.Equal(t, pairs[5].Value, pairs[7].Value)
	require.False(t, pairs[5].Before)

	code, _, stderr := call(t, "bench", "--pg", "postgres://x@localhost/x")
	require.Equal(t, exitUsage, code)
	requireOneLine(t, stderr, "bench measures fencelab's own backends: leave out --pg and --redis")
	code, _, stderr = call(t, "bench", "--runs", "0")
	require.Equal(t, exitUsage, code)
	requireOneLine(t, stderr, "--runs must be 1 to 100, got 0")
}
