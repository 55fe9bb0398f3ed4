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
