package tui_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/export"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/storetest"
	"github.com/fencelab/fencelab/tui"
)

// v splits the screen: UNSAFE beside SAFE, on backends of its own, taking
// the same actions; both step together to the end of the story, and an
// undo takes the other side back too. At 160×48 and at 100×30.
func TestTheSplitScreenStepsBothModesTogether(t *testing.T) {
	for _, size := range [][2]int{{160, 48}, {100, 30}} {
		t.Run(strings.Join([]string{itoa(size[0]), itoa(size[1])}, "x"), func(t *testing.T) {
			tm := exploreOn(t, tui.Options{Catalog: scenarios.All(), Scenario: "lease-overrun"}, size[0], size[1], true)
			waitFor(t, tm, "lease-overrun in SAFE mode, from its seeded state")
			press(tm, "v")
			waitFor(t, tm, "split screen: UNSAFE beside SAFE, the same actions — v closes it")
			press(tm, "nnnnnnnnn")
			bothAt(t, tm, 9)
			press(tm, "u")
			bothAt(t, tm, 8)
			press(tm, "q")
			final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).View()
			require.Equal(t, 2, strings.Count(final, "actions 8 · guided 8/9"), "both sides one action back:\n%s", final)
			require.Contains(t, final, " SAFE ")
			require.Contains(t, final, " UNSAFE ")
		})
	}
}

// bothAt waits for a frame whose split line says both sides took n actions.
func bothAt(t *testing.T, tm *teatest.TestModel, n int) {
	t.Helper()
	want := fmt.Sprintf("actions %d · guided %d/9", n, n)
	teatest.WaitFor(t, tm.Output(), func(out []byte) bool {
		for _, line := range strings.Split(string(out), "\n") {
			if strings.Count(line, want) == 2 {
				return true
			}
		}
		return false
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
}

// A talk scene with split = true opens with the other mode beside it.
func TestATalkSceneOpensSplit(t *testing.T) {
	s, _ := scenarios.ByID("lease-overrun")
	tm := exploreOn(t, tui.Options{Catalog: scenarios.All(), Talk: &tui.Talk{Title: "t", Scenes: []tui.TalkScene{{Scenario: s, Mode: engine.Safe, Split: true, Steps: map[int]tui.TalkStep{}}}}}, 160, 48, true)
	bothAt(t, tm, 0)
	press(tm, "q")
}

// Going back in time shows both sides as they were after as many actions.
func TestTheSplitScreenTravelsBackOnBothSides(t *testing.T) {
	tm := exploreOn(t, tui.Options{Catalog: scenarios.All(), Scenario: "lease-overrun"}, 160, 48, true)
	waitFor(t, tm, "lease-overrun in SAFE mode, from its seeded state")
	press(tm, "v")
	press(tm, "nnnn")
	bothAt(t, tm, 4)
	press(tm, "hh")
	bothAt(t, tm, 2)
	press(tm, "q")
}

// In the split screen, x then m (or d) exports the two runs as a diff of
// the explorer's schedule: this side's mode beside the other's.
func TestTheSplitScreenExportsADiff(t *testing.T) {
	b := engine.Backends{Coordination: storetest.Embedded(t), Database: storetest.Database(t), HoldTTL: 30 * time.Second}
	exportDiff := func(ctx context.Context, format string, s *engine.Scenario, schedule []engine.Action, sides [2]engine.DiffSpec) (string, error) {
		d, err := engine.RunDiff(ctx, b, s, schedule, sides)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("%s %s|%s, %d actions, diverged at %d, decided by %s", format, sides[0].Mode, sides[1].Mode, len(schedule), d.Diverged+1, d.Decided), nil
	}
	exportOne := func(format string, _ export.Session) (string, error) { return "one side as " + format, nil }
	tm := exploreOn(t, tui.Options{Catalog: scenarios.All(), Scenario: "lease-overrun", Export: exportOne, ExportDiff: exportDiff}, 160, 48, true)
	waitFor(t, tm, "lease-overrun in SAFE mode, from its seeded state")
	press(tm, "v")
	press(tm, "nnnnnnnnn")
	bothAt(t, tm, 9)
	press(tm, "x")
	waitFor(t, tm, "m Markdown, d Mermaid (both sides, a diff)")
	press(tm, "m")
	waitFor(t, tm, "md written: md SAFE|UNSAFE, 9 actions, diverged at 9, decided by fence")
	press(tm, "xc") // a cast is of the side in front
	waitFor(t, tm, "cast written: one side as cast")
	press(tm, "q")
	tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second))
}

// The split screen lines the two timelines up by action: what an action
// did in SAFE and in UNSAFE begins on the same row, as diff shows it —
// at 160×48, where the UNSAFE side's timeline has entries SAFE's has not.
func TestTheSplitScreenLinesUpItsTimelinesByAction(t *testing.T) {
	tm := exploreOn(t, tui.Options{Catalog: scenarios.All(), Scenario: "lease-overrun"}, 160, 48, true)
	waitFor(t, tm, "lease-overrun in SAFE mode, from its seeded state")
	press(tm, "v")
	waitFor(t, tm, "split screen: UNSAFE beside SAFE, the same actions — v closes it")
	press(tm, "nnnnnnnnn")
	bothAt(t, tm, 9)
	press(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).View()
	code := regexp.MustCompile(`\b[A-Z]_[A-Z_]+\b`)
	rows := func(from, to int) map[string]int {
		at := map[string]int{}
		for row, line := range strings.Split(final, "\n") {
			plain := []rune(ansi.Strip(line))
			half := string(plain[min(from, len(plain)):min(to, len(plain))])
			for _, c := range code.FindAllString(half, -1) {
				if _, seen := at[c]; !seen {
					at[c] = row
				}
			}
		}
		return at
	}
	safe, unsafe := rows(0, 79), rows(81, 160)
	shared := 0
	for c, row := range safe {
		if other, ok := unsafe[c]; ok {
			shared++
			require.Equal(t, row, other, "%s: row %d in SAFE, %d in UNSAFE:\n%s", c, row, other, final)
		}
	}
	require.GreaterOrEqual(t, shared, 5, "the codes both sides show:\n%s", final)
	// UNSAFE's broken invariant is read whole, wrapped under its result.
	var unsafeSide []string
	for _, line := range strings.Split(final, "\n") {
		plain := []rune(ansi.Strip(line))
		unsafeSide = append(unsafeSide, string(plain[min(81, len(plain)):]))
	}
	require.Contains(t, strings.Join(strings.Fields(strings.Join(unsafeSide, " ")), " "),
		"worker-A committed token 41 after token 42 was accepted", final)
}

// A talk's caption is large, as a terminal can make it: a band across the
// screen, with a band's line above and below it.
func TestATalkCaptionIsABandAcrossTheScreen(t *testing.T) {
	s, _ := scenarios.ByID("lease-overrun")
	tm := exploreOn(t, tui.Options{Catalog: scenarios.All(), Talk: &tui.Talk{Title: "t", Scenes: []tui.TalkScene{
		{Scenario: s, Mode: engine.Safe, Caption: "Read this from the back of the room", Steps: map[int]tui.TalkStep{}}}}}, 120, 40, false)
	waitFor(t, tm, "Read this from the back of the room")
	press(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).View()
	lines := strings.Split(final, "\n")
	for i, line := range lines {
		if !strings.Contains(line, "▌ Read this from the back of the room") {
			continue
		}
		require.Equal(t, 120, ansi.StringWidth(line), "the band spans the screen")
		require.Equal(t, strings.Repeat(" ", 120), ansi.Strip(lines[i-1]), "a band's line above")
		require.Equal(t, strings.Repeat(" ", 120), ansi.Strip(lines[i+1]), "and below")
		return
	}
	t.Fatalf("no caption:\n%s", final)
}

// A scenario whose modes tell their stories with guided orders of their
// own: while the explorer follows its mode's, the other side follows its
// own, and both end their stories together (UNSAFE cross-job-collision's
// workers take no lease, so SAFE's actions would stop it short).
func TestTheSplitScreenFollowsEachModesOwnGuidedOrder(t *testing.T) {
	tm := exploreOn(t, tui.Options{Catalog: scenarios.All(), Scenario: "cross-job-collision"}, 160, 48, true)
	waitFor(t, tm, "cross-job-collision in SAFE mode, from its seeded state")
	press(tm, "v")
	waitFor(t, tm, "each on its own guided order while you follow yours")
	press(tm, strings.Repeat("n", 11))
	waitForAll(t, tm, "actions 11 · guided 11/11", "actions 8 · guided 8/8", "LOST_UPDATE")
	press(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).View()
	require.NotContains(t, final, "not taken", final)
}
