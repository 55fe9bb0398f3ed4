package tui_test

import (
	"context"
	tea "github.com/charmbracelet/bubbletea"
	"os"
	"regexp"
	"strings"
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

// The live-coding loop: a scenario file saved again takes the place of the
// old version, and the lab replays the actions taken so far on it; a
// version that does not compile leaves the lab as it was, with the file's
// line in the status line, and the next good one recovers.
func TestAScenarioFileReloadsAndReplays(t *testing.T) {
	src, err := os.ReadFile("../scenarios/testdata/three-workers.toml")
	require.NoError(t, err)
	const file = "x.toml"
	load := func(text string) *engine.Scenario {
		s, err := scenarios.Parse(file, []byte(text))
		require.NoError(t, err)
		s.File = file
		return s
	}
	first := load(string(src))
	tm := exploreOn(t, tui.Options{Catalog: append(scenarios.All(), first), Scenario: first.ID}, 120, 40, false)
	waitFor(t, tm, "three-workers in SAFE mode, from its seeded state")
	press(tm, "nnn")
	waitFor(t, tm, "guided 3/13")

	tm.Send(tui.ReloadMsg{File: file, Scenario: load(strings.Replace(string(src), "Three workers, one pause", "Retitled on stage", 1))})
	waitForAll(t, tm, "x.toml reloaded; 3 actions replayed", "Retitled on stage")

	// A version whose actors changed replays as far as it can: A has one
	// step now, and the second "step A" no longer applies.
	shorter := strings.Replace(string(src), `program = ["acquire-leader", "acquire-lease", "write-summary"]`, `program = ["acquire-leader"]`, 1)
	shorter = strings.Replace(shorter, `guided = ["A", "A",`, `guided = ["A",`, 1)
	shorter = strings.Replace(shorter, "13 = ", "12 = ", 2)
	tm.Send(tui.ReloadMsg{File: file, Scenario: load(shorter)})
	waitFor(t, tm, "x.toml reloaded; 1 of 3 actions replayed — the next no longer applies")
	_, bad := scenarios.Parse(file, []byte(strings.Replace(string(src), `"acquire-lease"`, `"aquire-lease"`, 1)))
	require.Error(t, bad)
	tm.Send(tui.ReloadMsg{File: file, Err: bad})
	waitFor(t, tm, `x.toml:11: unknown step "aquire-lease" (did you mean acquire-lease?) — the last good version runs`)
	press(tm, "n") // the explorer goes on with the last good version, and says so
	waitFor(t, tm, "guided 2/12")

	press(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
	require.Contains(t, final, "guided 2/12")
	require.Contains(t, final, "the last good version runs", "a broken save stays said after a step")
}

// waitForAll waits for a frame that shows every text.
func waitForAll(t *testing.T, tm *teatest.TestModel, texts ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(out []byte) bool {
		for _, text := range texts {
			if !strings.Contains(string(out), text) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
}

// A file with a catalog id is an entry of its own in the picker, named by
// its path.
func TestThePickerNamesAFileByItsPath(t *testing.T) {
	s, err := scenarios.Parse("mine.toml", mustRead(t, "../scenarios/testdata/three-workers.toml"))
	require.NoError(t, err)
	s.File = "mine.toml"
	tm := exploreOn(t, tui.Options{Catalog: append(scenarios.All(), s), Scenario: "lease-overrun"}, 120, 80, false) // tall enough for the whole list
	waitFor(t, tm, "lease-overrun in SAFE mode, from its seeded state")
	press(tm, "s")
	waitFor(t, tm, "three-workers — Three workers, one pause (mine.toml)")
	press(tm, "q")
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}

// exploreOn opens an explorer with opts, on backends of the test's own,
// in SAFE and English unless opts say otherwise; split gives the split
// screen backends of their own too.
func exploreOn(t *testing.T, opts tui.Options, width, height int, split bool) *teatest.TestModel {
	t.Helper()
	// Made here, in the test's goroutine: the explorer asks for them in
	// commands of its own.
	backends := func() func(context.Context) (engine.Backends, error) {
		b := engine.Backends{Coordination: storetest.Embedded(t), Database: storetest.Database(t), HoldTTL: 30 * time.Second}
		return func(context.Context) (engine.Backends, error) { return b, nil }
	}
	opts.AllowUnsafe, opts.Lang, opts.Start = true, lang.En, backends()
	if split {
		opts.StartOther = backends()
	}
	m := tui.New(context.Background(), opts)
	t.Cleanup(m.Close)
	return teatest.NewTestModel(t, m, teatest.WithInitialTermSize(width, height))
}

// A file checked with c, saved again: the new version replays and is
// checked in its turn, so the shares beside the timeline are the new
// code's, not gone (a live-coding talk asks for them again no more).
func TestAReloadChecksTheNewVersionWhenTheOldWasChecked(t *testing.T) {
	src, err := os.ReadFile("../examples/counter.toml")
	require.NoError(t, err)
	const file = "counter.toml"
	load := func(text string) *engine.Scenario {
		s, err := scenarios.Parse(file, []byte(text))
		require.NoError(t, err)
		s.File = file
		return s
	}
	first := load(string(src))
	tm := exploreOn(t, tui.Options{Catalog: append(scenarios.All(), first), Scenario: first.ID, Mode: engine.Unsafe, Check: checkOnALab(t)}, 160, 48, false)
	waitFor(t, tm, "counter in UNSAFE mode, from its seeded state")
	press(tm, "c")
	waitFor(t, tm, "futures here: ")
	tm.Send(tui.ReloadMsg{File: file, Scenario: load(strings.Replace(string(src), `title = "A read-modify-write counter`, `title = "Retitled on stage`, 1))})
	waitFor(t, tm, "Retitled on stage")
	// The header's share is back, for the new version: the status line
	// said the reload, then the check.
	waitFor(t, tm, "futures here: ")
	press(tm, "L")
	waitForAll(t, tm, "counter.toml reloaded; 0 actions replayed", "checking")
	press(tm, "q")
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
}

// A file's actor, whose label is its name, is named once in the Workers
// pane: "1 A  ready", not "1 A  A  ready"; and a file of its own code
// shows no Outbox & provider pane.
func TestAFilesActorIsNamedOnceInTheWorkersPane(t *testing.T) {
	src, err := os.ReadFile("../examples/lock-fence.toml")
	require.NoError(t, err)
	s, err := scenarios.Parse("lock-fence.toml", src)
	require.NoError(t, err)
	s.File = "lock-fence.toml"
	tm := exploreOn(t, tui.Options{Catalog: append(scenarios.All(), s), Scenario: s.ID, Mode: engine.Safe}, 160, 48, false)
	waitFor(t, tm, "1 A  ready")
	press(tm, "ffff") // the panes, and back to the timeline: no outbox's among them
	press(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
	require.NotContains(t, final, "Outbox", "a file of its own code has no outbox pane")
}

// A save whose code no longer takes the actions so far keeps the place:
// the save that mends it replays every one of them again, not only those
// the broken one could.
func TestAMendedSaveComesBackToThePlace(t *testing.T) {
	src, err := os.ReadFile("../scenarios/testdata/three-workers.toml")
	require.NoError(t, err)
	const file = "x.toml"
	load := func(text string) *engine.Scenario {
		s, err := scenarios.Parse(file, []byte(text))
		require.NoError(t, err)
		s.File = file
		return s
	}
	tm := exploreOn(t, tui.Options{Catalog: append(scenarios.All(), load(string(src))), Scenario: "three-workers"}, 120, 40, false)
	waitFor(t, tm, "three-workers in SAFE mode, from its seeded state")
	press(tm, "nnnn")
	waitFor(t, tm, "guided 4/13")
	shorter := strings.Replace(string(src), `program = ["acquire-leader", "acquire-lease", "write-summary"]`, `program = ["acquire-leader"]`, 1)
	shorter = strings.Replace(shorter, `guided = ["A", "A",`, `guided = ["A",`, 1)
	shorter = strings.Replace(shorter, "13 = ", "12 = ", 2)
	tm.Send(tui.ReloadMsg{File: file, Scenario: load(shorter)})
	waitFor(t, tm, "x.toml reloaded; 1 of 4 actions replayed — the next no longer applies")
	tm.Send(tui.ReloadMsg{File: file, Scenario: load(string(src))})
	waitForAll(t, tm, "x.toml reloaded; 4 actions replayed", "guided 4/13")
	press(tm, "q")
	tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second))
}

// What a file's actor saved is its belief, in the Workers pane beside
// the stores' panes: after A's read, "saved: read = 0".
func TestTheWorkersPaneShowsWhatAFilesActorSaved(t *testing.T) {
	src, err := os.ReadFile("../examples/counter.toml")
	require.NoError(t, err)
	s, err := scenarios.Parse("counter.toml", src)
	require.NoError(t, err)
	s.File = "counter.toml"
	tm := exploreOn(t, tui.Options{Catalog: append(scenarios.All(), s), Scenario: s.ID, Mode: engine.Unsafe}, 160, 48, false)
	waitFor(t, tm, "1 A  ready")
	press(tm, "nn") // A's BEGIN, then its read
	waitFor(t, tm, "saved: read = 0")
	press(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
	require.NotContains(t, final, "B  ready · saved", "B saved nothing yet")
}

// g lists a file's guards, by its names and in its words, and takes its
// own out; the invariant bar names its invariants as it does.
func TestAFilesOwnGuardsInTheExplorer(t *testing.T) {
	s, err := scenarios.Load("../scenarios/testdata/own-guard.toml")
	require.NoError(t, err)
	tm := exploreOn(t, tui.Options{Catalog: append(scenarios.All(), s), Scenario: s.ID, Mode: engine.Safe}, 140, 70, false)
	waitFor(t, tm, "invariants  edit-lost ✓")
	press(tm, "nnnn")
	waitFor(t, tm, "verdict REJECTED by version check")
	press(tm, "g")
	waitFor(t, tm, "[✓] version check   the row still has the version the edit read")
	press(tm, " ")
	waitFor(t, tm, "version check removed: the 4 actions so far replayed without it")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc}) // the list closes
	waitFor(t, tm, "invariants  edit-lost ✗ at #4")
	press(tm, "?")
	waitForAll(t, tm, "11. edit-lost: every edit that committed", "version check: the row still has the version the edit read (taken out)")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc}) // help closes
	waitFor(t, tm, "• ? help • q quit")
	press(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
	require.Contains(t, final, "PostgreSQL  ")
	require.NotContains(t, final, "Redis  miniredis", "a file of SQL alone has no Redis pane")
}

// A file that names no value shows its verdict alone in the result strip.
func TestAFileWithoutAValueShowsItsVerdictAlone(t *testing.T) {
	src, err := os.ReadFile("../examples/lock-fence.toml")
	require.NoError(t, err)
	text := regexp.MustCompile(`(?m)^(expected|final) = .*\n`).ReplaceAllString(string(src), "")
	s, err := scenarios.Parse("lock-fence.toml", []byte(text))
	require.NoError(t, err)
	s.File = "lock-fence.toml"
	tm := exploreOn(t, tui.Options{Catalog: append(scenarios.All(), s), Scenario: s.ID, Mode: engine.Safe}, 120, 40, false)
	waitFor(t, tm, "result  verdict pending")
	press(tm, "nnnnnnnnn")
	waitFor(t, tm, "result  verdict STALE_FENCE")
	press(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
	require.NotContains(t, final, "expected 0")
}

// A save PostgreSQL refuses as the lab opens (a column that is not there)
// is no version to run: the last good one runs on, at the same place, and
// the next action works; the mended save replays to the place.
func TestASaveTheServerRefusesKeepsTheLastGoodVersion(t *testing.T) {
	src, err := os.ReadFile("../scenarios/testdata/own-guard.toml")
	require.NoError(t, err)
	const file = "edit.toml"
	load := func(text string) *engine.Scenario {
		s, err := scenarios.Parse(file, []byte(text))
		require.NoError(t, err)
		s.File = file
		return s
	}
	tm := exploreOn(t, tui.Options{Catalog: append(scenarios.All(), load(string(src))), Scenario: "own-guard"}, 120, 40, false)
	waitFor(t, tm, "own-guard in SAFE mode, from its seeded state")
	press(tm, "nn")
	waitFor(t, tm, "guided 2/4")
	typo := strings.Replace(string(src), "WHERE id = 1 {{version check}}", "WHERE idd = 1 {{version check}}", 1)
	tm.Send(tui.ReloadMsg{File: file, Scenario: load(typo)})
	waitForAll(t, tm, `column "idd" does not exist`, "the last good version runs")
	press(tm, "n")
	waitForAll(t, tm, "guided 3/4", "A: write answered 1 row")
	tm.Send(tui.ReloadMsg{File: file, Scenario: load(string(src))})
	waitFor(t, tm, "edit.toml reloaded; 3 actions replayed")
	press(tm, "q")
	final := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View()
	require.Contains(t, final, "guided 3/4", "the place")
}
