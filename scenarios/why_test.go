package scenarios_test

import (
	"context"
	"math/big"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
)

// bruteCount is every complete schedule from a lab's state, enumerated one
// by one, and how many of them broke each invariant (0: any) — counted
// from the runs' own breaks, not from the check's graph.
type bruteCount struct {
	complete int
	broken   [9]int
}

// enumerate walks every schedule from the lab's state to its end, taking
// every move at every state; a move that changes nothing is no step of a
// schedule, and a state where only such moves are left ends it.
func enumerate(t *testing.T, lab *engine.Lab) bruteCount {
	t.Helper()
	ctx := context.Background()
	var out bruteCount
	var walk func(at *engine.Bookmark)
	walk = func(at *engine.Bookmark) {
		require.NoError(t, lab.Return(ctx, at))
		moves, err := lab.Moves(ctx)
		require.NoError(t, err)
		went := false
		for _, m := range moves {
			require.NoError(t, lab.Return(ctx, at))
			// A pause is no part of a state (the check never pauses): the
			// explorer's paused actor may be resumed and go on.
			for _, name := range []string{m.Actor, m.With} {
				if a, err := lab.Actor(name); err == nil && a.Paused {
					require.NoError(t, lab.Do(ctx, engine.Resume(name)))
				}
			}
			require.NoError(t, lab.Do(ctx, m))
			next, err := lab.Bookmark(ctx)
			require.NoError(t, err)
			if next.ID() == at.ID() {
				continue
			}
			went = true
			walk(next)
		}
		if went {
			return
		}
		require.NoError(t, lab.Return(ctx, at))
		out.complete++
		past := lab.BrokenSoFar()
		for n := range out.broken {
			if past.Has(n) {
				out.broken[n]++
			}
		}
	}
	start, err := lab.Bookmark(ctx)
	require.NoError(t, err)
	walk(start)
	require.NoError(t, lab.Return(ctx, start))
	return out
}

// The shares of `check --why` are exact: along the counterexample, every
// state's count of complete schedules and of broken ones, per invariant,
// is what enumerating every schedule from that state finds; the point of
// no return is the first state from which every enumerated schedule
// broke; and in SAFE no state has a broken future.
func TestWhyCountsMatchEveryScheduleEnumerated(t *testing.T) {
	ctx := context.Background()
	for _, k := range []struct {
		id    string
		mode  engine.Mode
		point int // the counterexample's point of no return
	}{
		{"stale-read", engine.Unsafe, 8},
		{"lease-overrun", engine.Unsafe, 7},
		{"lease-overrun", engine.Safe, -1},
	} {
		t.Run(k.id+"/"+k.mode.String(), func(t *testing.T) {
			s, _ := scenarios.ByID(k.id)
			labs := checkLabs(t, s, k.mode, 2)
			report, err := engine.Check(ctx, labs, engine.CheckOptions{Why: true})
			require.NoError(t, err)
			why := report.Why
			require.True(t, why.Exact, "%s", why.Inexact)
			schedule := s.Guided(k.mode)
			if report.Counterexample != nil {
				schedule, err = report.Counterexample.Bind(s)
				require.NoError(t, err)
			}
			steps, err := why.Along(ctx, labs[0], schedule)
			require.NoError(t, err)
			require.Len(t, steps, len(schedule)+1)

			lab := labs[1]
			require.NoError(t, lab.Reset(ctx))
			brutePoint := -1
			for i, step := range steps {
				if i > 0 {
					require.NoError(t, lab.Do(ctx, schedule[i-1]))
				}
				require.True(t, step.Known, "step %d is a state the check reached", i)
				got := enumerate(t, lab)
				require.Positive(t, got.complete)
				require.Equal(t, int64(got.complete), step.Futures.Complete.Int64(), "complete schedules from step %d", i)
				// The run's own breaks count as the futures' (a broken run
				// stays broken), the graph's counts from the state on.
				for n, b := range got.broken {
					want := step.Futures.Broken[n]
					if step.Past.Has(n) {
						want = step.Futures.Complete
					}
					require.Equal(t, int64(b), want.Int64(), "schedules from step %d breaking invariant %d", i, n)
					require.Zero(t, step.Share(n).Cmp(big.NewRat(int64(b), int64(got.complete))), "share at step %d, invariant %d", i, n)
				}
				// A break belongs to the run: once broken, every schedule
				// that goes on from it is.
				if brutePoint < 0 && got.broken[0] == got.complete {
					brutePoint = i
				}
				if k.mode == engine.Safe {
					require.Zero(t, got.broken[0], "SAFE: no future breaks an invariant")
				}
			}
			point, _ := engine.PointOfNoReturn(steps)
			require.Equal(t, brutePoint, point)
			require.Equal(t, k.point, point)
		})
	}
}
