package scenarios_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/storetest"
)

// checkBound keeps the suite's check of the biggest scenarios to seconds
// under -race: 19 of the 24 scenarios × modes are explored whole within it
// (not counter-loss, async-job-acquire UNSAFE, pointer-ownership UNSAFE,
// worker-start-failure UNSAFE). `fencelab check --all` explores every one
// whole.
const checkBound = 2000

// The catalog's claim, checked the way `fencelab check` checks it: SAFE
// breaks no invariant on any schedule explored, and UNSAFE reaches the
// catalog's own anomaly (not merely some invariant) on one of them.
func TestCheckCatalog(t *testing.T) {
	for _, s := range scenarios.All() {
		for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
			t.Run(s.ID+"/"+mode.String(), func(t *testing.T) {
				labs := checkLabs(t, s, mode, 2)
				report, err := engine.Check(context.Background(), labs, engine.CheckOptions{MaxSchedules: checkBound})
				require.NoError(t, err)
				require.Positive(t, report.Schedules)
				if mode == engine.Safe {
					require.Empty(t, report.Broken, "SAFE broke an invariant; shortest: %v", report.Counterexample)
					require.Empty(t, report.GuidedErr)
					require.Equal(t, s.Expected, report.GuidedFinal, "the guided order does the work")
					if report.Exhaustive {
						require.Positive(t, report.Reached, "some complete schedule does the work")
					}
					return
				}
				require.True(t, report.Holds(), "UNSAFE never ended %s: %v", s.Predicted[engine.Unsafe].Verdict, report.Verdicts)
				require.NotNil(t, report.Counterexample)
				// The invariant the catalog's verdict names (a bounded search
				// may stop before a guided run's later breaks).
				if want := catalog[s.ID][engine.Unsafe].broken; len(want) > 0 {
					require.Positive(t, report.Broken[want[0]], "some schedule breaks the catalog's invariant %d", want[0])
				}
			})
		}
	}
}

// The exploration is exhaustive and the counts are stable: a scenario has a
// known number of distinct states, whatever the labs' interleaving. The
// numbers are the full search's (every call a step of its own, moments
// relative to the clock), which the reduced search must equal
// (TestTheReductionReachesEveryState): a state copied or restored wrong, or
// a footprint that says too little, would change them.
func TestCheckIsExhaustiveAndStable(t *testing.T) {
	known := []struct {
		id     string
		mode   engine.Mode
		states int
	}{
		{"lease-overrun", engine.Unsafe, 106},
		{"cross-job-collision", engine.Safe, 437},
		{"non-fenceable-effect", engine.Safe, 24},
		{"stale-read", engine.Unsafe, 233},
		{"terminal-transition", engine.Unsafe, 932},
		{"worker-start-failure", engine.Safe, 2693},
		// Two receipts, recorded at moments the state key leaves out: their
		// order once made the count depend on which lab got where first.
		{"claim-expiry", engine.Safe, 3381},
	}
	for _, k := range known {
		t.Run(k.id+"/"+k.mode.String(), func(t *testing.T) {
			s, _ := scenarios.ByID(k.id)
			for _, n := range []int{1, 3} {
				report, err := engine.Check(context.Background(), checkLabs(t, s, k.mode, n), engine.CheckOptions{})
				require.NoError(t, err)
				require.True(t, report.Exhaustive)
				require.Equal(t, k.states, report.States, "distinct states on %d lab(s)", n)
				if k.id == "lease-overrun" {
					requireShortestOverrun(t, report.Counterexample)
				}
			}
		})
	}
}

// The reduction leaves out schedules, never states: with the sleep sets on
// and off the search reaches the same states, and finds the same broken
// invariants and the same progress — for every scenario small enough to
// search twice, in both modes and with a guard removed. A call whose
// footprint says less than it touches shows up here as a state the
// reduced search missed.
func TestTheReductionReachesEveryState(t *testing.T) {
	t.Parallel()
	for _, s := range scenarios.All() {
		if s.ID == "counter-loss" || s.ID == "worker-start-failure" || s.ID == "stale-release" {
			continue // searched whole by the catalog's check tests; too big to search twice here
		}
		for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
			t.Run(s.ID+"/"+mode.String(), func(t *testing.T) {
				labs := checkLabs(t, s, mode, 2)
				full, err := engine.Check(context.Background(), labs, engine.CheckOptions{NoReduction: true})
				require.NoError(t, err)
				reduced, err := engine.Check(context.Background(), labs, engine.CheckOptions{})
				require.NoError(t, err)
				require.Equal(t, full.States, reduced.States, "states")
				require.Equal(t, keysOf(full.Broken), keysOf(reduced.Broken), "broken invariants")
				require.Equal(t, full.Reached > 0, reduced.Reached > 0, "progress")
			})
		}
	}
}

// A check-only guard that never refused on any of SAFE's schedules changes
// nothing when it is taken out (the matrix says ✓ without a search): the
// search without it reaches the same states, breaks nothing, does the
// work — and one that did refuse is needed somewhere.
func TestACheckThatNeverRefusedChangesNothing(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	// One lab at a time, closed as soon as it is done with: a lab holds a
	// connection per actor.
	check := func(s *engine.Scenario, without engine.GuardSet) engine.CheckReport {
		backends := backendsFor(t)
		backends.Without = without
		lab, err := engine.NewLab(ctx, backends, s, engine.Safe)
		require.NoError(t, err)
		defer lab.Close(ctx)
		r, err := engine.Check(ctx, []*engine.Lab{lab}, engine.CheckOptions{})
		require.NoError(t, err)
		return r
	}
	for _, id := range []string{"lease-overrun", "dynamic-tenant", "stale-read"} {
		s, _ := scenarios.ByID(id)
		safe := check(s, 0)
		require.True(t, safe.Holds(), id)
		skipped := 0
		for _, g := range engine.AllGuards() {
			if !g.CheckOnly() || !safe.Consulted.Has(g) {
				continue
			}
			without := check(s, engine.Guards(g))
			if safe.Refused.Has(g) {
				require.False(t, safe.States == without.States && maps.Equal(safe.Verdicts, without.Verdicts) && maps.Equal(safe.Broken, without.Broken),
					"%s −%s: it refused, yet nothing changed", id, g)
				continue
			}
			skipped++
			require.Equal(t, safe.States, without.States, "%s −%s", id, g)
			require.Equal(t, safe.Schedules, without.Schedules, "%s −%s", id, g)
			require.True(t, without.Holds(), "%s −%s", id, g)
		}
		require.Positive(t, skipped, "%s: a check-only guard that never refused", id)
	}
}

func keysOf(m map[int]int) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// requireShortestOverrun: the catalog's story and nothing else, cut at the
// break, with A, which holds its lease when the clock moves on, shown
// paused across it.
func requireShortestOverrun(t *testing.T, trace *engine.Trace) {
	t.Helper()
	var told []string
	for _, a := range trace.Schedule {
		told = append(told, strings.TrimSpace(a.Action+" "+a.Actor))
	}
	require.Equal(t, []string{"step A", "step A", "pause A", "advance-to-expiry", "step B", "step B", "step B",
		"resume A", "step A"}, told)
	require.Equal(t, "STALE_OVERWRITE", trace.Result.Verdict)
}

// The check finds the stale read the reviewer found by hand, on exactly
// that schedule or a shorter one, and its trace replays to the same events
// and verdict.
func TestCheckFindsTheStaleReadAndItsTraceReplays(t *testing.T) {
	ctx := context.Background()
	s, _ := scenarios.ByID("stale-read")
	report, err := engine.Check(ctx, checkLabs(t, s, engine.Unsafe, 2), engine.CheckOptions{})
	require.NoError(t, err)
	trace := report.Counterexample
	require.NotNil(t, trace)
	require.Equal(t, engine.VerdictLostUpdate, trace.Result.Verdict)
	require.Equal(t, 7, trace.Result.Broken[0].Invariant)

	schedule, err := trace.Bind(s)
	require.NoError(t, err)
	lab := checkLabs(t, s.WithSchedule(engine.Unsafe, schedule, &trace.Result), engine.Unsafe, 1)[0]
	require.NoError(t, lab.RunGuided(ctx))
	again, err := lab.Trace(ctx)
	require.NoError(t, err)
	require.Empty(t, trace.Differences(again))
	result, err := lab.Result(ctx)
	require.NoError(t, err)
	require.True(t, result.AsPredicted(), "as the trace recorded")
}

// The path rapid once found: a job whose keys expired (the clock passed
// their hour) before its worker reported SUCCESS. The late SUCCESS finds no
// job, and nothing is applied or broken.
func TestJobWhoseKeysExpiredBeforeItsSuccess(t *testing.T) {
	ctx := context.Background()
	s, _ := scenarios.ByID("terminal-transition")
	lab := newLab(t, storetest.Embedded(t), s, engine.Safe)
	require.NoError(t, lab.Do(ctx, engine.Do("R1")))
	require.NoError(t, lab.Do(ctx, engine.Do("W1")))
	require.NoError(t, lab.Do(ctx, engine.AdvanceToNextExpiry()))
	keys, err := lab.Backends().Coordination.Keys(ctx)
	require.NoError(t, err)
	for _, k := range keys {
		require.NotContains(t, k.Key, "job-1", "the job's keys expired")
	}
	w1, err := lab.Actor("W1")
	require.NoError(t, err)
	for !w1.Done() {
		require.NoError(t, lab.Do(ctx, engine.Do("W1")))
	}
	require.NoError(t, lab.Do(ctx, engine.Do("AP")))
	require.Empty(t, lab.Breaks())
	result, err := lab.Result(ctx)
	require.NoError(t, err)
	require.Zero(t, result.Final, "no results applied")
}

// A check still going after engine.GrowAfter takes more labs while they
// make it faster: started on one lab, a search of a few seconds asks for
// more, explores on them, and reaches the very states the fixed labs
// reach (a lab started late is waited for, and its states counted).
func TestACheckGrowsItsLabs(t *testing.T) {
	t.Parallel()
	s, _ := scenarios.ByID("counter-loss")
	labs := checkLabs(t, s, engine.Unsafe, 5)
	asked := 0
	report, err := engine.Check(context.Background(), labs[:1], engine.CheckOptions{
		Grow: func(context.Context) (*engine.Lab, error) {
			asked++
			if asked >= len(labs) {
				return nil, nil
			}
			return labs[asked], nil
		}})
	require.NoError(t, err)
	require.True(t, report.Exhaustive)
	require.Equal(t, 3281, report.States)
	require.GreaterOrEqual(t, report.Labs, 3, "one lab, then two more at the first step")
	require.Equal(t, report.Labs, min(asked, len(labs)-1)+1)
}
