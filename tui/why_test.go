package tui_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/storetest"
	"github.com/fencelab/fencelab/tui"
)

// checkOnALab is the explorer's check (c), as the command line wires it,
// on one lab of its own backends.
func checkOnALab(t *testing.T) func(ctx context.Context, s *engine.Scenario, mode engine.Mode, without engine.GuardSet, progress func(engine.CheckProgress)) (*engine.Why, error) {
	backends := engine.Backends{Coordination: storetest.Embedded(t), Database: storetest.Database(t), HoldTTL: 30 * time.Second}
	return func(ctx context.Context, s *engine.Scenario, mode engine.Mode, without engine.GuardSet, progress func(engine.CheckProgress)) (*engine.Why, error) {
		b := backends
		b.Without = without
		lab, err := engine.NewLab(ctx, b, s, mode)
		if err != nil {
			return nil, err
		}
		defer lab.Close(context.WithoutCancel(ctx))
		report, err := engine.Check(ctx, []*engine.Lab{lab}, engine.CheckOptions{Why: true, Progress: progress})
		return report.Why, err
	}
}

// c checks the scenario on screen in the background; then the timeline
// shows each action's share of broken futures, the header the point of no
// return, and b what can happen next with its shares — the numbers of
// `check --why` (stale-read UNSAFE: 29.4% from the seed, every future broken
// once A's stale write committed, at action 8).
func TestTheExplorerShowsTheShareOfBrokenFutures(t *testing.T) {
	tm := exploreOn(t, tui.Options{Catalog: scenarios.All(), Scenario: "stale-read", Mode: engine.Unsafe, Check: checkOnALab(t)}, 160, 48, false)
	waitFor(t, tm, "stale-read in UNSAFE mode, from its seeded state")
	press(tm, "b")
	waitFor(t, tm, "no check yet for UNSAFE: c runs it")
	press(tm, "x") // any key goes back
	press(tm, "c")
	waitFor(t, tm, "futures here: 29.4% break")
	press(tm, "nnnnnnn")
	waitForAll(t, tm, "guided 7/11", "futures here: 52.5% break", "21.1%")
	press(tm, "b")
	waitForAll(t, tm, "What can happen next", "100%  one call of A — write summary", "0%  one call of B — write summary", "50%  advance clock",
		"100%  A's write, B's statement before its commit")
	press(tm, "x")
	press(tm, "n")
	waitForAll(t, tm, "futures here: 100% break · no return since action 8")
	press(tm, "q")
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
}

// In SAFE, no future of any state breaks an invariant, and the header
// says so.
func TestTheExplorerSaysNoFutureBreaksInSafe(t *testing.T) {
	tm := exploreOn(t, tui.Options{Catalog: scenarios.All(), Scenario: "lease-overrun", Check: checkOnALab(t)}, 100, 30, false)
	waitFor(t, tm, "lease-overrun in SAFE mode, from its seeded state")
	press(tm, "c")
	waitFor(t, tm, "no future of this state breaks an invariant")
	// A second the check never takes: the state is outside its graph, and
	// the header claims nothing of it.
	press(tm, "+")
	waitFor(t, tm, "this state is outside the check's graph")
	press(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
	require.NotContains(t, final, "no future of this state breaks an invariant")
}

// One check at a time: c asked while another runs is queued, and runs
// when that one ends.
func TestTheExplorerQueuesACheckAskedForWhileOneRuns(t *testing.T) {
	release := make(chan struct{})
	var mu sync.Mutex
	var asked []string
	check := func(ctx context.Context, s *engine.Scenario, mode engine.Mode, without engine.GuardSet, progress func(engine.CheckProgress)) (*engine.Why, error) {
		mu.Lock()
		asked = append(asked, mode.String())
		first := len(asked) == 1
		mu.Unlock()
		if first {
			select {
			case <-release:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return nil, errors.New("stub: no graph for " + mode.String())
	}
	tm := exploreOn(t, tui.Options{Catalog: scenarios.All(), Scenario: "lease-overrun", Check: check}, 120, 40, false)
	waitFor(t, tm, "lease-overrun in SAFE mode, from its seeded state")
	press(tm, "c")
	waitFor(t, tm, "checking… 0 states")
	press(tm, "m")
	waitFor(t, tm, "lease-overrun in UNSAFE mode, from its seeded state")
	press(tm, "c")
	waitFor(t, tm, "queued: lease-overrun UNSAFE is checked once the check running ends")
	close(release)
	waitFor(t, tm, "the check of lease-overrun could not finish: stub: no graph for UNSAFE")
	press(tm, "q")
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
	require.Equal(t, []string{"SAFE", "UNSAFE"}, asked)
}

// Keys pressed while PostgreSQL starts are not lost: the waiting screen
// shows them, and they are taken in order once the lab is open.
func TestKeysPressedBeforeTheLabOpensWaitForIt(t *testing.T) {
	b := engine.Backends{Coordination: storetest.Embedded(t), Database: storetest.Database(t), HoldTTL: 30 * time.Second}
	release := make(chan struct{})
	m := tui.New(context.Background(), tui.Options{Catalog: scenarios.All(), Scenario: "lease-overrun", Lang: lang.En, Starting: "starting PostgreSQL 15…",
		Start: func(ctx context.Context) (engine.Backends, error) {
			select {
			case <-release:
				return b, nil
			case <-ctx.Done():
				return engine.Backends{}, ctx.Err()
			}
		}})
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40))
	waitFor(t, tm, "starting PostgreSQL 15…")
	press(tm, "nn")
	waitFor(t, tm, "pressed: n n — taken as soon as the lab is open")
	close(release)
	waitFor(t, tm, "guided 2/9")
	press(tm, "q")
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
}

// A talk scene with why = true checks itself when it opens, and o (a
// talk's b blanks the screen) lists what can happen next.
func TestATalkSceneChecksItselfAndOListsTheBranches(t *testing.T) {
	s, _ := scenarios.ByID("stale-read")
	talk := &tui.Talk{Title: "t", Scenes: []tui.TalkScene{{Scenario: s, Mode: engine.Unsafe, Why: true, Steps: map[int]tui.TalkStep{}}}}
	tm := exploreOn(t, tui.Options{Catalog: scenarios.All(), Talk: talk, Check: checkOnALab(t)}, 160, 48, false)
	waitFor(t, tm, "futures here: 29.4% break")
	press(tm, "o")
	waitForAll(t, tm, "What can happen next", "stale-read, at the seeded state", "one call of A")
	press(tm, "x")
	press(tm, "b") // blanks, as a talk's b does
	press(tm, "q")
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
}
