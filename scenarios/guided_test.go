package scenarios_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/storetest"
)

// The guided order is a cursor over a schedule. An action a user takes
// that is the cursor's next one moves it on, so keys and n mix freely while
// they tell the same story; any other action leaves the order, after which
// n refuses instead of running a step written for another state, until
// undo or reset brings the lab back onto it.
func TestGuidedPathFollowsTheUserAndRefusesOffIt(t *testing.T) {
	ctx := context.Background()
	s, _ := scenarios.ByID("lease-overrun")
	lab := newLab(t, storetest.Embedded(t), s, engine.Safe)

	t.Run("keys then n", func(t *testing.T) {
		require.NoError(t, lab.Reset(ctx))
		require.NoError(t, lab.Do(ctx, engine.Do("A")))
		require.NoError(t, lab.Do(ctx, engine.Do("A")))
		require.NoError(t, lab.Do(ctx, engine.Pause("A", "paused by you")))
		require.NoError(t, lab.RunGuided(ctx))
		done, total := lab.GuidedProgress()
		require.Equal(t, total, done)
		require.False(t, lab.OffPath())
		result, err := lab.Result(ctx)
		require.NoError(t, err)
		require.True(t, result.AsPredicted(), "%s", result.Verdict)
	})

	t.Run("the whole story by hand is the guided order", func(t *testing.T) {
		require.NoError(t, lab.Reset(ctx))
		for _, a := range []engine.Action{engine.Do("A"), engine.Do("A"), engine.Pause("A", "paused by you"),
			engine.AdvanceToNextExpiry(), engine.Do("B"), engine.Do("B"), engine.Do("B"), engine.Resume("A"), engine.Do("A")} {
			require.NoError(t, lab.Do(ctx, a))
		}
		done, total := lab.GuidedProgress()
		require.Equal(t, 9, done)
		require.Equal(t, 9, total)
		snap, err := lab.Snapshot(ctx)
		require.NoError(t, err)
		require.False(t, snap.OffPath)
		require.True(t, snap.Settled)
		require.Empty(t, snap.GuidedNext)
	})

	t.Run("off the path", func(t *testing.T) {
		require.NoError(t, lab.Reset(ctx))
		require.NoError(t, lab.Next(ctx))               // A leads
		require.NoError(t, lab.Do(ctx, engine.Do("B"))) // not the guided A: B waits for the leader
		require.True(t, lab.OffPath())
		before := len(lab.Events())
		err := lab.Next(ctx)
		require.ErrorIs(t, err, engine.ErrOffPath)
		require.ErrorContains(t, err, "at 1/9")
		require.Len(t, lab.Events(), before, "n took no step")
		snap, err := lab.Snapshot(ctx)
		require.NoError(t, err)
		require.True(t, snap.OffPath)
		require.Empty(t, snap.GuidedNext)
		require.False(t, snap.Settled, "the verdict is not final while actors have steps left")
		// Even the guided action, taken now, does not put it back.
		require.NoError(t, lab.Do(ctx, engine.Do("A")))
		require.True(t, lab.OffPath())

		require.NoError(t, lab.Undo(ctx))
		require.NoError(t, lab.Undo(ctx))
		require.False(t, lab.OffPath(), "undo took the departure back")
		require.NoError(t, lab.RunGuided(ctx))
		result, err := lab.Result(ctx)
		require.NoError(t, err)
		require.True(t, result.AsPredicted())
	})
}
