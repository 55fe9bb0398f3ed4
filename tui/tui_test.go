package tui_test

import (
	"bytes"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/export"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
	"github.com/fencelab/fencelab/tui"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

// start opens the explorer on fresh backends of the test's own, at a size,
// and waits until it is interactive.
func start(t *testing.T, width, height int) *teatest.TestModel {
	t.Helper()
	return startOn(t, width, height, "lease-overrun", engine.Safe)
}

// startOn opens the explorer on a scenario in a mode.
func startOn(t *testing.T, width, height int, scenario string, mode engine.Mode) *teatest.TestModel {
	t.Helper()
	return startWith(t, width, height, scenario, mode, nil)
}

// startWith opens the explorer with an export of the test's own.
func startWith(t *testing.T, width, height int, scenario string, mode engine.Mode,
	exportTo func(string, export.Session) (string, error)) *teatest.TestModel {
	t.Helper()
	return startIn(t, width, height, scenario, mode, exportTo, lang.En)
}

// startIn opens the explorer with its narration in a language.
func startIn(t *testing.T, width, height int, scenario string, mode engine.Mode,
	exportTo func(string, export.Session) (string, error), l lang.Lang) *teatest.TestModel {
	t.Helper()
	return startModel(t, width, height, scenario, mode, l, explorer(t, scenario, mode, exportTo, l))
}

// startModel runs a model of the explorer (perhaps wrapped) on a terminal
// and waits for the scenario's seeded state.
func startModel(t *testing.T, width, height int, scenario string, mode engine.Mode, l lang.Lang, m tea.Model) *teatest.TestModel {
	t.Helper()
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(width, height))
	waitFor(t, tm, l.T("%s in %s mode, from its seeded state", scenario, mode))
	return tm
}

// explorer is the explorer's model on the test's backends.
func explorer(t *testing.T, scenario string, mode engine.Mode, exportTo func(string, export.Session) (string, error), l lang.Lang) *tui.Model {
	t.Helper()
	redis := storetest.Embedded(t)
	db := storetest.Database(t)
	m := tui.New(context.Background(), tui.Options{
		Catalog:     scenarios.All(),
		Scenario:    scenario,
		Mode:        mode,
		Starting:    "starting PostgreSQL (test)…",
		AllowUnsafe: true,
		Export:      exportTo,
		Lang:        l,
		Start: func(context.Context) (engine.Backends, error) {
			return engine.Backends{Coordination: redis, Database: db, HoldTTL: 30 * time.Second, Lang: l}, nil
		},
	})
	t.Cleanup(m.Close)
	return m
}

func waitFor(t *testing.T, tm *teatest.TestModel, text string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(out []byte) bool { return bytes.Contains(out, []byte(text)) },
		teatest.WithDuration(10*time.Second), teatest.WithCheckInterval(5*time.Millisecond))
}

func press(tm *teatest.TestModel, keys string) {
	for _, r := range keys {
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
}

func finalView(t *testing.T, tm *teatest.TestModel) string {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).View()
}

// Goldens of lease-overrun after the whole guided order, SAFE and UNSAFE,
// at the smallest and a large terminal.
func TestGuidedLeaseOverrunGolden(t *testing.T) {
	for _, size := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		for _, mode := range []string{"SAFE", "UNSAFE"} {
			name := mode + "_" + itoa(size.w) + "x" + itoa(size.h)
			t.Run(name, func(t *testing.T) {
				tm := start(t, size.w, size.h)
				if mode == "UNSAFE" {
					press(tm, "m")
					waitFor(t, tm, "lease-overrun in UNSAFE mode")
				}
				press(tm, "nnnnnnnnn")
				waitFor(t, tm, "guided order complete")
				view := finalView(t, tm)
				teatest.RequireEqualOutput(t, []byte(view))
				if size.w >= 160 {
					// With room to spare nothing is cut (the key line
					// elides its own tail).
					lines := strings.Split(view, "\n")
					for _, line := range lines[:len(lines)-1] {
						require.NotContains(t, line, "…", "cut at %dx%d", size.w, size.h)
					}
				}
			})
		}
	}
}

func itoa(n int) string {
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}

// A paused actor cannot step, and says so; resuming lets it step again.
func TestPauseBlocksStepping(t *testing.T) {
	tm := start(t, 120, 40)
	press(tm, "p")
	waitFor(t, tm, "PAUSED (paused by you)")
	press(tm, "1")
	waitFor(t, tm, "A is paused (paused by you): selected — p resumes it")
	press(tm, "p1")
	waitFor(t, tm, "A_LEADER")
	finalView(t, tm)
}

// The overrun by hand (the README's recipe), every key pressed at once: the
// keys queue, and each p decides pause or resume on the lab as it is when
// its turn comes, not on the screen of the moment it was pressed. A digit
// selects its actor: the 1 after B's steps selects the paused A (and says
// it is paused), and p resumes it.
func TestKeysPressedAtOnceActInTurn(t *testing.T) {
	tm := start(t, 120, 40)
	press(tm, "11pt2221p1")
	waitFor(t, tm, "worker-A  token 41   REJECTED STALE_FENCE")
	finalView(t, tm)
}

// A digit steps its actor and selects it, so p pauses the actor just
// stepped; r selects the first actor again, as the scenario starts.
func TestADigitSelectsItsActor(t *testing.T) {
	tm := start(t, 120, 40)
	press(tm, "2")
	waitFor(t, tm, "B_LEADER")
	press(tm, "p")
	waitFor(t, tm, "B is frozen mid-job")
	press(tm, "r")
	waitFor(t, tm, "nothing has happened yet")
	press(tm, "p")
	waitFor(t, tm, "A is frozen mid-job")
	finalView(t, tm)
}

// m opens the same scenario in the other mode, from its seeded state.
func TestModeSwitchResets(t *testing.T) {
	tm := start(t, 120, 40)
	press(tm, "nn")
	waitFor(t, tm, "guided 2/9")
	press(tm, "m")
	waitFor(t, tm, "lease-overrun in UNSAFE mode")
	view := finalView(t, tm)
	for _, want := range []string{" UNSAFE ", "guided 0/9", "no executions yet", "nothing has happened yet"} {
		if !bytes.Contains([]byte(view), []byte(want)) {
			t.Errorf("after m the view lacks %q:\n%s", want, view)
		}
	}
}

// u undoes exactly one action.
func TestUndoOneAction(t *testing.T) {
	tm := start(t, 120, 40)
	press(tm, "nnn")
	waitFor(t, tm, "guided 3/9")
	press(tm, "u")
	waitForAll(t, tm, "guided 2/9", "undone: back to after action 2") // the status line says it
	view := finalView(t, tm)
	if !bytes.Contains([]byte(view), []byte("token 41")) || bytes.Contains([]byte(view), []byte("PAUSED")) {
		t.Errorf("undo should leave A holding token 41, not paused:\n%s", view)
	}
}

// The picker lists the catalog and opens the chosen scenario.
func TestPickerSwitchesScenario(t *testing.T) {
	tm := start(t, 120, 40)
	press(tm, "s")
	waitFor(t, tm, "cross-job-collision")
	tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "cross-job-collision in SAFE mode")
	press(tm, "nnnn")
	waitFor(t, tm, "CONTENDED")
	finalView(t, tm)
}

// When the guided order is over, n says so instead of doing nothing.
func TestNextAfterTheEnd(t *testing.T) {
	tm := start(t, 120, 40)
	press(tm, "nnnnnnnnnn")
	waitFor(t, tm, "the guided order is over")
	finalView(t, tm)
}

// Below the smallest usable size the explorer says how big it must be.
func TestTinyTerminal(t *testing.T) {
	tm := start(t, 120, 40)
	tm.Send(tea.WindowSizeMsg{Width: 60, Height: 15})
	waitFor(t, tm, "needs at least 80×24")
	// Keys act on nothing the user cannot see; resizing brings it back.
	press(tm, "nnm1")
	tm.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	waitFor(t, tm, "guided 0/9 · next: step A")
	view := finalView(t, tm)
	require.Contains(t, view, "lease-overrun in SAFE mode", "m did not switch the mode")
	require.Contains(t, view, "Timeline  0 events", "neither n nor 1 stepped")
}

// Keys typed faster than the terminal is read come as one message with
// several runes; every one of them counts.
func TestBurstOfKeys(t *testing.T) {
	tm := start(t, 120, 40)
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("nnnnnnnnn")})
	waitFor(t, tm, "guided order complete")
	finalView(t, tm)
}

// The timeline follows the newest event; ↑ scrolls back, and the next step
// follows again.
func TestTimelineScrolls(t *testing.T) {
	tm := start(t, 80, 24)
	press(tm, "nnnnnnnnn")
	waitFor(t, tm, "guided order complete")
	for range 3 {
		tm.Send(tea.KeyMsg{Type: tea.KeyUp})
	}
	waitFor(t, tm, "scrolled up 3")
	press(tm, "r")
	waitFor(t, tm, "guided 0/9")
	view := finalView(t, tm)
	if bytes.Contains([]byte(view), []byte("scrolled up")) {
		t.Errorf("after a reset the timeline should follow again:\n%s", view)
	}
}

// In the picker a "/" read together with the filter text still opens the
// filter, and a q typed next is filter text, not quit (on main the "/" was
// lost and q quit).
func TestPickerFilterTypedInOneBurst(t *testing.T) {
	tm := start(t, 120, 40)
	press(tm, "s")
	waitFor(t, tm, "counter-loss")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/counter")})
	waitFor(t, tm, "Filter: counter")
	press(tm, "q")
	waitFor(t, tm, "Filter: counterq")
	tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	waitFor(t, tm, "Filter: counter ")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "counter-loss in SAFE mode")
	finalView(t, tm)
}

// The picker filters as the keys come: its list's own filtering answers in
// a command, and an Enter typed before that answer came (a paste, a busy
// machine: CI saw it under -race) opened the catalog's first scenario.
// Here the answers never come.
func TestPickerFilterDoesNotWaitForItsCommand(t *testing.T) {
	m := explorer(t, "lease-overrun", engine.Safe, nil, lang.En)
	tm := startModel(t, 120, 40, "lease-overrun", engine.Safe, lang.En, withoutFilterAnswers{m})
	press(tm, "s")
	waitFor(t, tm, "counter-loss")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/counterq")})
	tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "counter-loss in SAFE mode")
	finalView(t, tm)
}

// withoutFilterAnswers is the explorer with the answers of its picker's
// filtering command lost.
type withoutFilterAnswers struct{ tea.Model }

func (w withoutFilterAnswers) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(list.FilterMatchesMsg); ok {
		return w, nil
	}
	m, cmd := w.Model.Update(msg)
	return withoutFilterAnswers{m}, cmd
}

// On a real Redis the lab clock's keeper renews TTLs on a timer while keys
// step the lab; every access to the lab goes through its owner, so under
// -race nothing touches the lab or its connections from two goroutines at
// once — here with a key every few milliseconds, switching mode and
// quitting in the middle of it all.
func TestKeysOnARealRedis(t *testing.T) {
	m, tm, _ := onARealRedis(t, 120, 40)
	for _, k := range "n1n2nrnn+mnn1r2nn" {
		press(tm, string(k))
		time.Sleep(4 * time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	require.NoError(t, tm.Quit())
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	m.Close() // waits for a step still running, then closes
	m.Close() // twice is harmless
}

// Every scenario's final screen at 80×24, in both modes, is a golden; and
// whatever the story turns on is whole on it: the verdict, the stale-belief
// marker of an actor that believes a lease it lost, and the last guard each
// store evaluated.
func TestEveryFinalScreenAt80x24(t *testing.T) {
	eachFinalScreen(t, 80, 24, func(t *testing.T, screen string, snap engine.Snapshot) {
		teatest.RequireEqualOutput(t, []byte(screen))
		requireStoryWhole(t, screen, snap)
	})
}

// eachFinalScreen checks the explorer's screen at a size after every
// scenario's guided order in both modes, beside the snapshot the same run
// gives headless (what the screen must show).
func eachFinalScreen(t *testing.T, width, height int, check func(t *testing.T, screen string, snap engine.Snapshot)) {
	for _, s := range scenarios.All() {
		for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
			t.Run(s.ID+"_"+mode.String(), func(t *testing.T) {
				snap := guidedSnapshot(t, s, mode)
				tm := startOn(t, width, height, s.ID, mode)
				press(tm, strings.Repeat("n", snap.GuidedTotal))
				waitFor(t, tm, "guided order complete")
				check(t, finalView(t, tm), snap)
			})
		}
	}
}

// guidedSnapshot is the snapshot after a scenario's whole guided order,
// run headless on backends of the test's own.
func guidedSnapshot(t *testing.T, s *engine.Scenario, mode engine.Mode) engine.Snapshot {
	t.Helper()
	ctx := context.Background()
	lab, err := engine.NewLab(ctx, engine.Backends{Coordination: storetest.Embedded(t), Database: storetest.Database(t),
		HoldTTL: 30 * time.Second}, s, mode)
	require.NoError(t, err)
	defer lab.Close(ctx)
	require.NoError(t, lab.RunGuided(ctx))
	snap, err := lab.Snapshot(ctx)
	require.NoError(t, err)
	return snap
}

// requireStoryWhole holds a screen to what the story turns on being whole
// on it: the verdict, the last step's narration, the stale-belief marker
// of an actor that believes a lease it lost, the last guard each store
// evaluated, and the way to help.
func requireStoryWhole(t *testing.T, screen string, snap engine.Snapshot) {
	t.Helper()
	words := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	flat := words(screen)
	require.Contains(t, flat, "verdict "+snap.Result.Verdict)
	require.Contains(t, flat, "? help")
	if n := len(snap.Events); n > 0 && snap.Events[n-1].Narration != "" {
		// Without any spaces: a line may break after a hyphen.
		nospace := func(s string) string { return strings.Join(strings.Fields(s), "") }
		require.Contains(t, nospace(screen), nospace(snap.Events[n-1].Narration), "the last narration")
	}
	for _, a := range snap.Actors {
		if a.Deceived {
			require.Contains(t, flat, "stale belief: "+a.Belief, "actor %s", a.Name)
		}
	}
	for _, layer := range []engine.Layer{engine.LayerDatabase, engine.LayerCoordination} {
		if g := snap.LastGuard(layer); g != nil {
			// In its store's pane, or — when the pane gave way to the
			// timeline — in the last event's entry, the step's own row.
			inPane := strings.Contains(flat, words(g.Actor+": "+g.Guard))
			last := snap.Events[len(snap.Events)-1]
			inEntry := last.Guard == g.Guard && last.Actor == g.Actor && strings.Contains(flat, words("guard: "+g.Guard))
			require.True(t, inPane || inEntry, "the %s guard %q is not on the screen", layer, g.Actor+": "+g.Guard)
		}
	}
}

// A projector's size between the smallest and the wide layout: every
// scenario's final screen keeps its story whole and cuts no pane's line.
func TestEveryFinalScreenAt100x30(t *testing.T) {
	eachFinalScreen(t, 100, 30, func(t *testing.T, screen string, snap engine.Snapshot) {
		requireStoryWhole(t, screen, snap)
		lines := strings.Split(screen, "\n")
		require.Len(t, lines, 30)
		for _, line := range lines[2 : len(lines)-2] { // the header and key lines elide their tails
			require.NotContains(t, line, "…", "a cut line")
		}
	})
}

// f focuses the panes in turn: the focused one grows and scrolls over its
// whole body — here the rollout and checkpoint rows a short PostgreSQL pane
// counts in its title — while the others keep a line each; esc goes back
// to the timeline.
func TestFocusShowsAPaneWhole(t *testing.T) {
	tm := start(t, 80, 24)
	press(tm, strings.Repeat("n", 9))
	waitFor(t, tm, "guided order complete")
	press(tm, "ff")
	waitFor(t, tm, "▸ PostgreSQL · lines 1–6 of 7")
	press(tm, "j")
	waitFor(t, tm, "▸ PostgreSQL · lines 2–7 of 7")
	press(tm, "f")
	waitFor(t, tm, "▸ Redis")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	view := finalView(t, tm)
	require.NotContains(t, view, "▸")
	require.Contains(t, view, "PostgreSQL  +3 lines (f)")
	require.Contains(t, view, "Outbox & provider")
}

// The timeline shows whole entries, each with its number, and scrolls by
// entries; an entry opened with Enter closes when the next step comes, so
// the narration is the new step's.
func TestTimelineShowsWholeEntries(t *testing.T) {
	s, _ := scenarios.ByID("stale-read")
	guided := len(s.Guided(engine.Unsafe))
	tm := startOn(t, 80, 24, "stale-read", engine.Unsafe)
	press(tm, strings.Repeat("n", guided-1))
	waitFor(t, tm, fmt.Sprintf("guided %d/%d", guided-1, guided))
	press(tm, "kkk")
	waitFor(t, tm, "scrolled up 3")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	press(tm, "n")
	waitFor(t, tm, "guided order complete")
	view := finalView(t, tm)
	require.NotContains(t, view, "scrolled up", "a step follows the newest again")
	require.NotContains(t, view, "  #", "the opened entry closed with the step")
	lines := strings.Split(view, "\n")
	at := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "Timeline") })
	require.GreaterOrEqual(t, at, 0)
	entry := regexp.MustCompile(`^[ !]\s*\d+ \d+:\d\d`)
	for _, line := range lines[at+1:] {
		if strings.TrimSpace(line) == "" {
			continue
		}
		require.Regexp(t, entry, line, "the timeline's first line is an entry's, with its number")
		break
	}
}

// region-partition's two key spaces are told apart: region-b's own lease,
// counter and epoch are named as region-b's, so its "epoch 2" is not read
// as the authoritative one.
func TestRegionBKeysAreNamed(t *testing.T) {
	tm := startOn(t, 160, 48, "region-partition", engine.Safe)
	press(tm, "nnn")
	waitFor(t, tm, "guided order complete")
	view := finalView(t, tm)
	for _, line := range strings.Split(view, "\n") {
		if strings.Contains(line, ":lease ") || strings.Contains(line, "}:counter ") && strings.Contains(line, "100 ") {
			require.Contains(t, line, "region-b", line)
		}
	}
	require.Regexp(t, `\}:lease +worker-B\|100 +ttl 30s +region-b`, view)
}

// For talks: autoplay plays the guided order at a pace the speaker sets and
// stops at its end; PageDown, which presenter remotes send, is next; the
// invariant bar shows every invariant held, then the one that broke.
func TestAutoplayPageDownAndTheInvariantBar(t *testing.T) {
	tm := start(t, 120, 40)
	tm.Send(tea.KeyMsg{Type: tea.KeyPgDown})
	waitFor(t, tm, "guided 1/9")
	press(tm, "m")
	waitFor(t, tm, "lease-overrun in UNSAFE mode")
	press(tm, ">>>")
	waitFor(t, tm, "every 500ms")
	press(tm, "a")
	waitFor(t, tm, "▶ autoplay 500ms")
	waitFor(t, tm, "guided order complete")
	view := finalView(t, tm)
	require.Contains(t, view, "invariants  1 ✗ at #9  2 ✓  3 ✓  4 ✓  5 ✓  6 ✓  7 ✓")
	require.NotContains(t, view, "▶ autoplay", "autoplay stops at the end")
}

// Time travel: ← shows the snapshot recorded after an earlier action, at
// once and labelled; → goes forward to live; an action from a past point
// replays the lab to it and drops the later steps.
func TestTimeTravel(t *testing.T) {
	tm := start(t, 120, 40)
	press(tm, "nnnn") // A leads, takes 41, pauses; its lease expires
	waitFor(t, tm, "guided 4/9")
	press(tm, "h")
	waitFor(t, tm, "◀ recorded after action 3 of 4")
	press(tm, "hh")
	waitFor(t, tm, "◀ recorded after action 1 of 4")
	press(tm, "l")
	waitFor(t, tm, "◀ recorded after action 2 of 4")
	press(tm, "ll")
	waitFor(t, tm, "guided 4/9 · next: step B")
	// Back to after A took 41, then n from there: A pauses again (the
	// guided order's third action), and the expiry is gone from the story.
	press(tm, "hh")
	waitFor(t, tm, "◀ recorded after action 2 of 4")
	press(tm, "n")
	waitFor(t, tm, "guided 3/9 · next: advance clock")
	view := finalView(t, tm)
	require.NotContains(t, view, "◀ recorded")
	require.Contains(t, view, "Timeline  3 events")
}

// A key that takes no action at a past point (1 on the paused A) drops
// nothing: the screen stays on the recorded step, and every later step is
// still there to go forward to.
func TestAKeyThatTakesNothingInThePastDropsNothing(t *testing.T) {
	tm := start(t, 120, 40)
	press(tm, "nnnnn")
	waitFor(t, tm, "guided 5/9")
	press(tm, "hh")
	waitFor(t, tm, "◀ recorded after action 3 of 5")
	press(tm, "1")
	waitFor(t, tm, "A is paused (GC pause): selected")
	press(tm, "ll")
	view := finalView(t, tm)
	require.Contains(t, view, "guided 5/9", "the later steps are kept")
}

// Enter opens the timeline's last shown entry whole — detail, guard and
// narration — where a row of an 80-column timeline cuts it.
func TestEnterOpensATimelineEntryWhole(t *testing.T) {
	tm := start(t, 80, 24)
	press(tm, "n")
	waitFor(t, tm, "guided 1/9")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	view := finalView(t, tm)
	flat := strings.Join(strings.Fields(view), " ")
	require.Contains(t, flat, "#1 0:00 A A_LEADER ACQUIRED — A leads job daily-summary for 30s (an owner id, no order) · A now leads daily-summary")
}

// At 160×48 no pane cuts text, in any scenario's final screen (the key
// line elides its own tail).
func TestNothingCutAt160x48(t *testing.T) {
	for _, s := range scenarios.All() {
		for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
			t.Run(s.ID+"_"+mode.String(), func(t *testing.T) {
				tm := startOn(t, 160, 48, s.ID, mode)
				press(tm, strings.Repeat("n", len(s.Guided(mode))))
				waitFor(t, tm, "guided order complete")
				lines := strings.Split(finalView(t, tm), "\n")
				for _, line := range lines[:len(lines)-1] {
					require.NotContains(t, line, "…", "a cut line")
				}
			})
		}
	}
}

// x then a format exports the run so far: the session handed over is a
// step per action taken — guided or not — each with the events it made and
// the screen's snapshot after it; any other key cancels.
func TestExportKey(t *testing.T) {
	var got []export.Session
	tm := startWith(t, 100, 30, "lease-overrun", engine.Unsafe, func(format string, s export.Session) (string, error) {
		got = append(got, s)
		return "here." + format, nil
	})
	press(tm, "nn1") // two guided steps, then A steps off the path
	waitFor(t, tm, "guided order left at 2/9")
	press(tm, "x")
	waitFor(t, tm, "export as: m Markdown")
	press(tm, "d")
	waitFor(t, tm, "mermaid written: here.mermaid")
	press(tm, "xz")
	waitFor(t, tm, "export cancelled")
	finalView(t, tm)

	require.Len(t, got, 1)
	s := got[0]
	require.Len(t, s.Steps, 4)
	require.Equal(t, engine.Do("A"), s.Steps[3].Action)
	var events []engine.Event
	for _, step := range s.Steps[1:] {
		require.NotEmpty(t, step.Events, "%s made events", step.Action)
		events = append(events, step.Events...)
	}
	require.Equal(t, s.Final().Events, events)
	require.Len(t, s.Trace.Schedule, 3)
}

// Korean narration at 80×24: wide characters take two cells, and still no
// line runs past the edge and the story stays whole.
func TestKoreanAt80x24(t *testing.T) {
	for _, tc := range []struct {
		id   string
		mode engine.Mode
	}{{"lease-overrun", engine.Safe}, {"pointer-ownership", engine.Unsafe}, {"counter-loss", engine.Safe}} {
		t.Run(tc.id+"_"+tc.mode.String(), func(t *testing.T) {
			s, _ := scenarios.ByID(tc.id)
			tm := startIn(t, 80, 24, tc.id, tc.mode, nil, lang.Ko)
			press(tm, strings.Repeat("n", len(s.Guided(tc.mode))))
			waitFor(t, tm, "안내 순서 끝")
			screen := finalView(t, tm)
			teatest.RequireEqualOutput(t, []byte(screen))
			lines := strings.Split(screen, "\n")
			require.Len(t, lines, 24)
			for _, line := range lines {
				require.LessOrEqual(t, ansi.StringWidth(line), 80, "%q", line)
			}
			snap := guidedSnapshot(t, s, tc.mode)
			require.Contains(t, screen, "판정 "+snap.Result.Verdict)
			require.Regexp(t, "[가-힣]", screen, "Korean narration")
		})
	}
}

// g lists SAFE's guards; taking the fence out replays the run so far
// without it, and the stale write that PostgreSQL refused now commits.
// Putting it back replays it as SAFE again.
func TestGuardListReplaysWithoutAGuard(t *testing.T) {
	tm := start(t, 120, 40)
	press(tm, "nnnnnnnnn")
	waitFor(t, tm, "guided order complete")
	press(tm, "g")
	waitFor(t, tm, "SAFE's guards · lease-overrun, 9 actions taken")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) // the cursor starts on the fence
	waitFor(t, tm, "fence removed: the 9 actions so far replayed without it")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "−fence")
	view := finalView(t, tm)
	require.Contains(t, view, "STALE_OVERWRITE", "without the fence A's stale write should commit")
}

// At a height too small for the whole list the title, the status and the
// keys stay on screen while the list scrolls to the cursor; on a real
// Redis, kept on the lab clock, the guards change after the first action
// too: the run so far is replayed, as on the embedded one.
func TestGuardListOnARealRedisAndSmallTerminal(t *testing.T) {
	_, tm, _ := onARealRedis(t, 80, 24)
	press(tm, "g")
	waitFor(t, tm, "SAFE's guards")
	for range engine.AllGuards() {
		tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "deadline removed: the run starts as SAFE −deadline")
	press(tm, "x") // any other key goes back
	press(tm, "n")
	waitFor(t, tm, "guided 1/")
	press(tm, "g")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "deadline back: the action so far replayed with it")
	view := finalView(t, tm)
	lines := strings.Split(view, "\n")
	require.LessOrEqual(t, len(lines), 24)
	require.Contains(t, lines[0], "SAFE's guards", "the title scrolled away")
	require.Contains(t, view, "> [✓] deadline", "the cursor's guard is out of view")
}

// A lease deleted behind the lab's back on a real Redis: the next action
// tells of it, and the status line keeps the loss in view after the
// action's own narration.
func TestALostKeyStaysInView(t *testing.T) {
	_, tm, redis := onARealRedis(t, 120, 40)
	press(tm, "11")
	waitFor(t, tm, "A_ACQUIRE")
	keys, err := redis.Keys(context.Background())
	require.NoError(t, err)
	for _, k := range keys {
		if k.Role == world.RoleLease {
			storetest.DeleteOnServer(t, redis, k.Key)
		}
	}
	press(tm, "2")
	waitFor(t, tm, "KEYS_LOST")
	view := finalView(t, tm)
	lines := strings.Split(view, "\n")
	status := strings.Join(lines[len(lines)-3:len(lines)-1], " ") // two lines: it wraps before it cuts
	require.Contains(t, status, "Redis dropped", "the status line:\n%s", view)
}

// onARealRedis opens the explorer on lease-overrun SAFE (UNSAFE allowed),
// on a real redis-server kept on the lab clock, at width×height.
func onARealRedis(t *testing.T, width, height int) (*tui.Model, *teatest.TestModel, *redisstore.Coordination) {
	t.Helper()
	redis := storetest.RealRedis(t)
	redis.FollowLabClock()
	db := storetest.Database(t)
	m := tui.New(context.Background(), tui.Options{
		Catalog: scenarios.All(), Scenario: "lease-overrun", Mode: engine.Safe, AllowUnsafe: true,
		Start: func(context.Context) (engine.Backends, error) {
			return engine.Backends{Coordination: redis, Database: db, HoldTTL: 30 * time.Second}, nil
		},
	})
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(width, height))
	waitFor(t, tm, "lease-overrun in SAFE mode")
	return m, tm, redis
}

// On a short terminal the last line is the status when there is news, and
// the keys when there is none — never a bare "· ? help" (an empty status
// still renders its style's escape codes).
func TestTheShortFooterShowsTheKeysWhenNothingIsSaid(t *testing.T) {
	// Coloured, as on a terminal (no test of this package runs in
	// parallel with it).
	was := lipgloss.ColorProfile()
	lipgloss.SetColorProfile(termenv.ANSI256)
	t.Cleanup(func() { lipgloss.SetColorProfile(was) })
	tm := exploreOn(t, tui.Options{Catalog: scenarios.All(), Scenario: "lease-overrun"}, 80, 24, false)
	waitFor(t, tm, "lease-overrun in SAFE mode, from its seeded state")
	press(tm, "n")
	waitFor(t, tm, "guided 1/9")
	press(tm, "q")
	lines := strings.Split(strings.TrimRight(tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).View(), "\n"), "\n")
	last := ansi.Strip(lines[len(lines)-1])
	require.False(t, strings.HasPrefix(strings.TrimSpace(last), "·"), "last line: %q", last)
	require.Contains(t, last, "next guided step")
}

// Keys pressed right after m, in one burst or a few milliseconds apart,
// are held while the other mode's lab is made and taken on it, in order:
// none is dropped, none acts on the lab that was closed.
func TestKeysRightAfterAModeSwitchAreTaken(t *testing.T) {
	tm := start(t, 120, 40)
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("mnnnn")})
	press(tm, "nnnnn")
	waitFor(t, tm, "guided order complete")
	view := finalView(t, tm)
	require.Contains(t, view, " UNSAFE ")
	require.Contains(t, view, "guided 9/9")
}

// r, then h and n typed before the reset ends: h goes back on the lab as
// the reset left it (nothing before its seeded state) and n takes the
// first guided step, rather than a time-travel point set on the screens
// the reset forgot (which crashed the explorer).
func TestTimeTravelTypedDuringAResetActsOnTheReset(t *testing.T) {
	tm := start(t, 120, 40)
	press(tm, "nnnn")
	waitFor(t, tm, "guided 4/9")
	press(tm, "rhn")
	waitFor(t, tm, "guided 1/9")
	view := finalView(t, tm)
	require.NotContains(t, view, "◀ recorded")
	require.Contains(t, view, "Timeline  1 event")
}

// A scenario chosen in the picker while an action runs opens once that
// action ends, and the keys after it act on the scenario chosen.
func TestThePickersEnterWaitsForTheRunningAction(t *testing.T) {
	tm := start(t, 120, 40)
	press(tm, "n")
	press(tm, "s")
	tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	press(tm, "nnnn")
	waitFor(t, tm, "CONTENDED")
	view := finalView(t, tm)
	require.Contains(t, view, "cross-job-collision")
}

// Where a server would not make a file's code a user of its own, the
// explorer says so on the status line, as run and check say it on stderr.
func TestTheExplorerSaysAFilesCodeRunsAsFencelabsOwnUser(t *testing.T) {
	redis := storetest.Embedded(t)
	db := storetest.Database(t)
	told := false
	m := tui.New(context.Background(), tui.Options{
		Catalog: scenarios.All(), Scenario: "lease-overrun", Mode: engine.Safe, AllowUnsafe: true, Lang: lang.En,
		Start: func(context.Context) (engine.Backends, error) {
			return engine.Backends{Coordination: redis, Database: db, HoldTTL: 30 * time.Second, Lang: lang.En}, nil
		},
		CodeNote: func() string {
			if told {
				return ""
			}
			told = true
			return "Redis would not make the user a file's Redis code runs as (NOPERM)"
		},
	})
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 48))
	waitFor(t, tm, "Redis would not make the user a file's Redis code runs as")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
