package scenarios_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/storetest"
)

// One schedule, SAFE beside UNSAFE: the runs part where the guard that
// decides it — found by running SAFE without each guard — fires, and not
// before.
func TestDiffFindsTheGuardThatDecided(t *testing.T) {
	b := engine.Backends{Coordination: storetest.Embedded(t), Database: storetest.Database(t), HoldTTL: 30 * time.Second}
	cases := []struct {
		id       string
		right    engine.DiffSpec
		diverged int
		guard    engine.Guard
	}{
		{"lease-overrun", engine.DiffSpec{Mode: engine.Unsafe}, 8, world.GuardFence}, // A's write
		{"lease-overrun", engine.DiffSpec{Mode: engine.Safe, Without: engine.Guards(world.GuardFence)}, 8, world.GuardFence},
		{"stale-read", engine.DiffSpec{Mode: engine.Unsafe}, 8, world.GuardReadInTx},  // B's write
		{"counter-loss", engine.DiffSpec{Mode: engine.Unsafe}, 6, world.GuardHistory}, // C's acquire
	}
	for _, c := range cases {
		t.Run(c.id+"/"+engine.ModeLabel(c.right.Mode, c.right.Without), func(t *testing.T) {
			s := byID(t, c.id)
			d, err := engine.RunDiff(context.Background(), b, s, s.Guided(engine.Safe), [2]engine.DiffSpec{{Mode: engine.Safe}, c.right})
			require.NoError(t, err)
			require.Equal(t, c.diverged, d.Diverged)
			require.True(t, d.DecidedOK)
			require.Equal(t, c.guard, d.Decided)
			require.Equal(t, s.Predicted[engine.Safe].Verdict, d.Sides[0].Result.Verdict)
		})
	}
	// The same side twice never parts.
	s := byID(t, "lease-overrun")
	d, err := engine.RunDiff(context.Background(), b, s, s.Guided(engine.Safe), [2]engine.DiffSpec{{Mode: engine.Safe}, {Mode: engine.Safe}})
	require.NoError(t, err)
	require.Equal(t, -1, d.Diverged)
}

func byID(t *testing.T, id string) *engine.Scenario {
	t.Helper()
	s, ok := scenarios.ByID(id)
	require.True(t, ok, id)
	return s
}
