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

	// One diagram with both: the eight actions alike drawn once, the ninth
	// once per side, each in its side's box, the divergence noted.
	code, stdout, stderr = call(t, "diff", "lease-overrun", "--to", "mermaid")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, 1, strings.Count(stdout, "sequenceDiagram\n"))
	require.Contains(t, stdout, "title lease-overrun · SAFE | UNSAFE\n")
	require.Equal(t, 1, strings.Count(stdout, "rect rgba(0, 160, 0, 0.12)\n    Note over a1,a2: SAFE\n    a1-xpostgres: #35;9 A_WRITE"))
	require.Equal(t, 1, strings.Count(stdout, "rect rgba(220, 0, 0, 0.12)\n    Note over a1,a2: UNSAFE\n    a1->>postgres: #35;9 A_WRITE"))
	require.Equal(t, 1, strings.Count(stdout, "#35;7 B_WRITE"), "an action both sides did alike is drawn once")
	require.Contains(t, stdout, "Note over a1,a2: ▶ action 9: step A — first divergence: the fence<br/>guard decided it")

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

// check --why prints the shares along the counterexample and marks the
// point of no return; --json carries the numbers; SAFE has no broken
// future; a bounded check says so and shows no share.
func TestCheckWhy(t *testing.T) {
	code, stdout, stderr := call(t, "check", "stale-read", "--mode", "both", "--why", "--out", t.TempDir())
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, "why: none of the 776 ways to run it to its end from the seed (every order of calls) breaks an invariant")
	require.Contains(t, stdout, "why: of the 776 ways to run it to its end from the seed (every order of calls), 228 (29.4%) break an invariant (invariant 7: 228)")
	require.Contains(t, stdout, "▶   8   100%  step A")
	require.Contains(t, stdout, "point of no return: from action 8 on, every schedule breaks invariant 7 (LOST_UPDATE)")

	code, stdout, stderr = call(t, "check", "stale-read", "--mode", "unsafe", "--why", "--json", "--out", t.TempDir())
	require.Equal(t, exitOK, code, stderr)
	var out []struct {
		Why struct {
			Exact          bool           `json:"exact"`
			Schedules      int            `json:"schedules"`
			Broken         map[string]int `json:"brokenSchedules"`
			Counterexample struct {
				Point int   `json:"pointOfNoReturn"`
				All   []int `json:"inevitable"`
				Steps []struct {
					Share     float64        `json:"share"`
					Schedules int            `json:"schedules"`
					Broken    map[string]int `json:"brokenSchedules"`
				} `json:"steps"`
			} `json:"counterexample"`
		} `json:"why"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &out))
	why := out[0].Why
	require.True(t, why.Exact)
	require.Equal(t, 776, why.Schedules)
	require.Equal(t, 228, why.Broken["7"])
	require.Equal(t, 8, why.Counterexample.Point)
	require.Equal(t, []int{7}, why.Counterexample.All)
	require.InDelta(t, 228.0/776, why.Counterexample.Steps[0].Share, 1e-9)
	require.Equal(t, 1.0, why.Counterexample.Steps[8].Share)
	// After the break the run's futures all count as broken, as the share.
	last := why.Counterexample.Steps[len(why.Counterexample.Steps)-1]
	require.Equal(t, last.Schedules, last.Broken["any"])
	require.Equal(t, last.Schedules, last.Broken["7"])

	// At 80 columns the point of no return wraps; it is never cut.
	t.Setenv("COLUMNS", "80")
	code, stdout, stderr = call(t, "check", "stale-read", "--mode", "unsafe", "--why", "--out", t.TempDir())
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, "point of no return: from action 8 on, every schedule breaks invariant\n          7 (LOST_UPDATE)\n")

	code, stdout, stderr = call(t, "check", "stale-read", "--why", "--max-schedules", "5", "--allow-bounded", "--out", t.TempDir())
	require.Equal(t, exitOK, code, stderr)
	require.Contains(t, stdout, "why: no shares — the check was bounded: not every schedule was explored, so no share is exact")
}

// --why names a file's own invariant at the point of no return, as the
// file names it: the sentence does not stop at "invariant".
func TestWhyNamesAFilesOwnInvariant(t *testing.T) {
	code, stdout, stderr := call(t, "check", "../examples/lock-fence.toml", "--mode", "safe", "--without", "fence", "--why", "--out", t.TempDir())
	require.Equal(t, 1, code, stderr)
	require.Contains(t, stdout, "every schedule breaks invariant 11 (OLDER_TOKEN_WON)")
	require.NotRegexp(t, `breaks invariant\s*\n`, stdout)
}
