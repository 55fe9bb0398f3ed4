package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// `fencelab diff lease-overrun`: the two runs side by side, parting at A's
// write, which the fence guard decided; both results. --to md is a
// two-column table; --json carries the same.
func TestDiffOfLeaseOverrun(t *testing.T) {
	code, stdout, stderr := call(t, "diff", "lease-overrun")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "lease-overrun: SAFE beside UNSAFE, the same 9 actions (the guided order of SAFE)")
	marked := ""
	for _, line := range strings.Split(stdout, "\n") {
		if strings.HasPrefix(line, "▶") {
			marked = line
		}
	}
	require.Contains(t, marked, "9  step A")
	require.Contains(t, marked, "A_WRITE REJECTED")
	require.Contains(t, marked, "│ A_WRITE COMMITTED")
	require.Contains(t, stdout, "first divergence: the fence guard decided it — incoming 41 > last accepted 42 → false")
	require.Contains(t, stdout, "verdict STALE_FENCE")
	require.Contains(t, stdout, "verdict STALE_OVERWRITE")

	code, stdout, stderr = call(t, "diff", "lease-overrun", "--to", "md")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "| # | action | SAFE | UNSAFE |")
	require.Contains(t, stdout, "| **9** | **step A** — first divergence: the fence guard decided it — incoming 41 &gt; last accepted 42 → false |")
	require.Equal(t, 2, strings.Count(stdout, "```mermaid\nsequenceDiagram\n"), "each side's diagram")
	require.Contains(t, stdout, "title lease-overrun · UNSAFE · STALE_OVERWRITE")

	code, stdout, stderr = call(t, "diff", "lease-overrun", "--without", "fence", "--json")
	require.Equal(t, 0, code, stderr)
	var d struct {
		Sides []struct {
			Mode    string   `json:"mode"`
			Without []string `json:"without"`
			Verdict string   `json:"verdict"`
		} `json:"sides"`
		DivergedAt int    `json:"divergedAt"`
		DecidedBy  string `json:"decidedBy"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &d))
	require.Equal(t, 9, d.DivergedAt)
	require.Equal(t, "fence", d.DecidedBy)
	require.Equal(t, []string{"fence"}, d.Sides[1].Without)
	require.Equal(t, "STALE_OVERWRITE", d.Sides[1].Verdict)

	for _, args := range [][]string{{"diff"}, {"diff", "nosuch"}, {"diff", "lease-overrun", "--to", "gif"}, {"diff", "lease-overrun", "--mode", "both"}} {
		code, _, stderr := call(t, args...)
		require.Equal(t, exitUsage, code, "%v", args)
		require.Len(t, strings.Split(strings.TrimSpace(stderr), "\n"), 1, stderr)
	}
}
