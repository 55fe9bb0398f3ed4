package tui_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/storetest"
	"github.com/fencelab/fencelab/tui"
)

// onAServerToFreeze opens the explorer on lease-overrun SAFE with a
// PostgreSQL cluster of the test's own, which it may freeze without
// stopping the other tests; it returns the cluster's postmaster.
func onAServerToFreeze(t *testing.T, width, height int) (*teatest.TestModel, int) {
	t.Helper()
	ctx := context.Background()
	c, db := storetest.OwnCluster(t, "postgres (to freeze)")
	redis := storetest.Embedded(t)
	m := tui.New(ctx, tui.Options{
		Catalog: scenarios.All(), Scenario: "lease-overrun", Mode: engine.Safe,
		Start: func(context.Context) (engine.Backends, error) {
			return engine.Backends{Coordination: redis, Database: db, HoldTTL: 30 * time.Second}, nil
		},
	})
	t.Cleanup(m.Close) // before the cluster stops: cleanups run last first
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(width, height))
	waitFor(t, tm, "lease-overrun in SAFE mode, from its seeded state")
	return tm, c.PID()
}

// freezeAndPress freezes the server, presses a key, waits until the
// explorer says the connection is lost, and thaws the server 6.5 s after
// it froze it (the freeze).
func freezeAndPress(t *testing.T, tm *teatest.TestModel, postmaster int, key string) {
	t.Helper()
	frozen := time.Now()
	thaw := storetest.Freeze(t, postmaster)
	press(tm, key)
	waitFor(t, tm, "PostgreSQL connection lost; the next key reconnects: PostgreSQL:")
	time.Sleep(time.Until(frozen.Add(6500 * time.Millisecond)))
	thaw()
}

// Row 6 of issue 21: a short PostgreSQL freeze. The key pressed while the
// server is frozen fails when it does not answer (and the driver gives its
// connection up); once the server is back, the next key reconnects, puts
// the lab back as it was after its last action (on main A's first call had
// counted although its check failed, and n soon said "A has finished its
// program" at 1/9), says so, and takes nothing else; the key after it
// works. The same for r, which on main failed for good ("seed: failed to
// deallocate cached statement(s): conn closed").
func TestExplorerReconnectsAfterAPostgreSQLFreeze(t *testing.T) {
	tm, postmaster := onAServerToFreeze(t, 200, 40)
	reconnected := "PostgreSQL connection lost: reconnected; the step was not taken"

	freezeAndPress(t, tm, postmaster, "n")
	press(tm, "n")
	waitFor(t, tm, reconnected)
	press(tm, "n")
	waitFor(t, tm, "guided 1/9")
	press(tm, "n")
	waitFor(t, tm, "guided 2/9")

	freezeAndPress(t, tm, postmaster, "r")
	press(tm, "r")
	waitFor(t, tm, reconnected)
	press(tm, "u") // the lab is as it was after its 2 actions: u takes back the second
	waitFor(t, tm, "guided 1/9")
	press(tm, "r")
	waitFor(t, tm, "nothing has happened yet")
	press(tm, "nn")
	waitFor(t, tm, "guided 2/9")

	view := finalView(t, tm)
	require.Equal(t, 1, strings.Count(view, "A_LEADER"), "one A_LEADER, the reset's:\n%s", view)
	require.Equal(t, 1, strings.Count(view, "A_ACQUIRE"), view)
	require.NotContains(t, view, "finished its program")
	lines := strings.Split(view, "\n")
	require.NotContains(t, lines[len(lines)-2], "PostgreSQL", "the status line after steps that worked:\n%s", view)
}
