package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
)

// A guard shows in the pane of the store that evaluated it: a Lua script's
// with Redis, a transaction's with PostgreSQL.
func TestGuardsShowWithTheirStore(t *testing.T) {
	s, _ := scenarios.ByID("terminal-transition")
	snap := engine.Snapshot{Scenario: s, Events: []engine.Event{
		{Actor: "A", Layer: engine.LayerDatabase, State: "COMMITTED", Guard: "incoming 41 > last accepted none → true"},
		{Actor: "W1", Layer: engine.LayerCoordination, State: "REJECTED", Guard: "job-1 is FAILED, not RUNNING → false"},
	}}
	st := newStyles()
	redis := strings.Join(redisPane(st, snap, 100, 8), "\n")
	postgres := strings.Join(postgresPane(st, snap, 100, 8), "\n")
	require.Contains(t, redis, "W1: job-1 is FAILED, not RUNNING → false")
	require.NotContains(t, redis, "incoming 41")
	require.Contains(t, postgres, "A: incoming 41 > last accepted none → true")
	require.NotContains(t, postgres, "job-1 is FAILED")
}

// A Redis pane too small for its keys says how many it leaves out.
func TestRedisPaneSaysWhatItLeavesOut(t *testing.T) {
	s, _ := scenarios.ByID("async-job-acquire")
	snap := engine.Snapshot{Scenario: s}
	for i := range 12 {
		snap.Keys = append(snap.Keys, engine.RedisKey{Key: "fencelab:job:{evaluation-17}:job-" + string(rune('a'+i)),
			Type: "string", Value: strings.Repeat("v", 20), TTL: time.Hour})
	}
	lines := redisPane(newStyles(), snap, 60, 4)
	require.LessOrEqual(t, len(lines), 4)
	require.Contains(t, strings.Join(lines, "\n"), "+9 more")
}

// The timeline's columns line up whatever is in them: a state as long as
// NOT_APPLIED keeps a space before the detail, a time with milliseconds
// widens the time column for every row, and a detail too long for its row
// wraps under itself with the actor and layer still on the row.
func TestTimelineColumnsLineUp(t *testing.T) {
	s, _ := scenarios.ByID("terminal-transition")
	long := "job-1 is FAILED, so the late SUCCESS is refused: a terminal state never changes, whoever asks and however late"
	snap := engine.Snapshot{Scenario: s, Events: []engine.Event{
		{Sequence: 1, At: 0, Actor: "W1", Layer: engine.LayerCoordination, Code: "W1_TRANSITION", State: "NOT_APPLIED", Detail: long},
		{Sequence: 2, At: 841 * time.Millisecond, Actor: "W2", Layer: engine.LayerDatabase, Code: "W2_APPLY", State: "COMMITTED", Detail: "applied"},
	}}
	st := newStyles()
	for _, width := range []int{80, 120} {
		lines, _ := timelineLines(st, snap, width)
		text := strings.Join(lines, "\n")
		require.NotContains(t, text, "NOT_APPLIEDjob-1", "width %d", width)
		require.Contains(t, text, "0:00.841", "width %d", width)
		var rows []string
		for _, line := range lines {
			if strings.Contains(line, "_TRANSITION") || strings.Contains(line, "_APPLY") {
				rows = append(rows, line)
			}
		}
		require.Len(t, rows, 2, "width %d: a row for each event:\n%s", width, text)
		require.Contains(t, rows[0], "coordination", "width %d: the layer column stays", width)
		require.Contains(t, rows[1], "database", "width %d", width)
		require.Contains(t, rows[0], " W1 ", "width %d: the actor column stays", width)
		require.Equal(t, strings.Index(rows[0], "W1"), strings.Index(rows[1], "W2"), "width %d: the actor column lines up:\n%s", width, text)
		require.Equal(t, strings.Index(rows[0], "NOT_APPLIED"), strings.Index(rows[1], "COMMITTED"), "width %d: the state column lines up", width)
		for _, line := range lines {
			require.LessOrEqual(t, len([]rune(line)), width, "width %d", width)
		}
	}
}

// In the job scenarios every guard is a Lua script's: it shows under
// Redis, and the PostgreSQL pane does not say that none was evaluated.
func TestAGuardIsSaidOnce(t *testing.T) {
	s, _ := scenarios.ByID("terminal-transition")
	snap := engine.Snapshot{Scenario: s, Events: []engine.Event{
		{Actor: "W1", Layer: engine.LayerCoordination, State: "REJECTED", Guard: "job-1 is FAILED, not RUNNING → false"},
	}}
	st := newStyles()
	require.Contains(t, strings.Join(redisPane(st, snap, 100, 8), "\n"), "job-1 is FAILED, not RUNNING")
	require.NotContains(t, strings.Join(postgresPane(st, snap, 100, 8), "\n"), "not evaluated yet")
	// A worker's own check (the deadline) is not contradicted either.
	own := engine.Snapshot{Scenario: s, Events: []engine.Event{
		{Actor: "P", Layer: engine.LayerAPI, State: "EXPIRED", Guard: "now 10:00 ≥ createdAt + 10m → true"},
	}}
	require.NotContains(t, strings.Join(postgresPane(st, own, 100, 8), "\n"), "not evaluated yet")
	// Before any guard, the PostgreSQL pane still says none was.
	require.Contains(t, strings.Join(postgresPane(st, engine.Snapshot{Scenario: s}, 100, 8), "\n"), "not evaluated yet")
}
