package tui

import (
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/fencelab/fencelab/engine"
)

// Talk mode: the explorer plays a talk script, scene by scene. The keys a
// presenter remote sends move through it — space, '.', →, PageDown on;
// ←, PageUp back — 'b' blanks the screen, and the script's captions show
// large where the narration goes. Every other key is the explorer's, so a
// speaker can leave the script to answer a question.

// Talk is a talk script bound to the catalog.
type Talk struct {
	Title  string
	Scenes []TalkScene
	// Minutes is the talk's length as its script gives it (0: not given):
	// the header shows the time spoken against it.
	Minutes int
}

// TalkScene is one scenario in one mode, its schedule as the guided order.
type TalkScene struct {
	Scenario *engine.Scenario
	Mode     engine.Mode
	// Caption shows before the first action.
	Caption string
	// Steps are the notes after the k-th action (1-based).
	Steps map[int]TalkStep
	// Watch: the scene's scenario file is reloaded when it is saved (a
	// live-coding scene), as fencelab --watch does.
	Watch bool
	// Split: the scene opens with the split screen, the other mode beside
	// it taking the same actions (v).
	Split bool
	// Why: the scene checks its scenario when it opens (c), so the
	// timeline shows each action's share of broken futures and the header
	// the point of no return.
	Why bool
}

// TalkStep is what the speaker says after an action: a caption, and a
// question for the room shown as a card before the talk goes on.
type TalkStep struct{ Caption, Turn string }

// talkState is where the talk is.
type talkState struct {
	Talk
	scene int
	// card is the turn card on screen ("" none); cardFor the action count
	// it was shown after, so going on does not show it again.
	card    string
	cardFor int
	blank   bool
	// pending counts the advances pressed while a step ran, backs the
	// backs pressed while a scene opened: each is taken when the one
	// before has ended, so a quick speaker loses none.
	pending, backs int
	// replay is how many actions of a scene opened from its end are
	// still to take (going back into a scene lands on its last screen).
	replay int
	// began is when the talk opened: the header counts from it.
	began time.Time
}

// talkTickMsg moves the talk's clock on: one a second while a talk plays.
type talkTickMsg struct{}

func talkTick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return talkTickMsg{} })
}

// talkClock is the time spoken, against the script's minutes if it gives
// them: "4:07 of 20:00", in the warning's colour once past them.
func (m *Model) talkClock() string {
	t := m.talk
	spoken := time.Since(t.began).Truncate(time.Second)
	text := engine.FormatClock(spoken)
	if t.Minutes == 0 {
		return m.styles.dim.Render(text)
	}
	length := time.Duration(t.Minutes) * time.Minute
	text = m.styles.T("%s of %s", text, engine.FormatClock(length))
	if spoken > length {
		return m.styles.warn.Render(text)
	}
	return m.styles.dim.Render(text)
}

func (t *talkState) current() TalkScene { return t.Scenes[t.scene] }

// talkKeyOf says what a key does in a talk: go on, go back, blank the
// screen; none of them for the explorer's own keys.
func talkKeyOf(k string) (advance, back, blank bool) {
	switch k {
	case " ", ".", "right", "pgdown", "n":
		return true, false, false
	case "left", "pgup":
		return false, true, false
	case "b":
		return false, false, true
	}
	return false, false, false
}

func isTalkKey(k string) bool {
	advance, back, blank := talkKeyOf(k)
	return advance || back || blank
}

// handleTalkKey takes the talk's own keys; handled is false for the
// explorer's.
func (m *Model) handleTalkKey(msg tea.KeyMsg) (handled bool, cmd tea.Cmd) {
	t := m.talk
	advance, back, blank := talkKeyOf(msg.String())
	switch {
	case blank:
		t.blank = !t.blank
		return true, nil
	case !advance && !back:
		return false, nil
	}
	switch {
	case t.blank:
		t.blank = false
	case t.card != "" && back:
		t.card, t.cardFor = "", -1 // going on shows it again
	case t.card != "":
		t.card = "" // and on: the card was the pause before the next step
		return true, m.talkForward()
	case advance:
		return true, m.talkForward()
	case back:
		t.pending = 0 // back cancels what was pressed ahead
		if m.busy {
			t.backs++
			return true, nil
		}
		return true, m.talkBack()
	}
	return true, nil
}

// talkForward is the next thing of the talk: forward in time travel, the
// turn card after this action, the next action, the next scene.
func (m *Model) talkForward() tea.Cmd {
	t := m.talk
	if _, past := m.history.Past(); past {
		m.history.Update(tea.KeyMsg{Type: tea.KeyRight})
		m.timeline.Follow()
		return nil
	}
	if m.busy || m.snap == nil {
		if t.pending < 32 {
			t.pending++ // taken when the running step ends
		}
		return nil
	}
	done := m.snap.Actions
	if step, ok := t.current().Steps[done]; ok && step.Turn != "" && t.cardFor != done {
		t.card, t.cardFor = step.Turn, done
		return nil
	}
	if m.snap.GuidedNext != "" {
		return m.next()
	}
	if t.scene+1 < len(t.Scenes) {
		t.scene, t.cardFor = t.scene+1, -1
		m.timeline.Follow()
		return m.openLab(t.current().Scenario, t.current().Mode)
	}
	m.setStatus(m.styles.T("the end of the talk — ← goes back, q quits"), true)
	return nil
}

// talkPending takes an advance pressed while a step ran, now that it has
// ended.
func (m *Model) talkPending() tea.Cmd {
	t := m.talk
	switch {
	case m.busy:
		return nil
	case t.replay > 0:
		t.replay--
		return m.next()
	case t.backs > 0:
		t.backs--
		return m.talkBack()
	case t.pending > 0:
		t.pending--
		return m.talkForward()
	}
	return nil
}

// talkSceneDone is the status line at the end of a scene.
func (m *Model) talkSceneDone() string {
	t := m.talk
	if t.scene+1 < len(t.Scenes) {
		next := t.Scenes[t.scene+1]
		return m.styles.T("end of scene %d/%d — space goes on to %s (%s)", t.scene+1, len(t.Scenes), next.Scenario.ID, next.Mode)
	}
	return m.styles.T("end of the last scene — the talk is over; ← goes back, q quits")
}

// talkBack goes back: a recorded screen of this scene, else the start of
// the scene before.
func (m *Model) talkBack() tea.Cmd {
	t := m.talk
	if at, newest := m.history.Position(); at > 0 || at < 0 && newest > 0 {
		m.history.Update(tea.KeyMsg{Type: tea.KeyLeft})
		m.timeline.Follow()
		return nil
	}
	if t.scene > 0 && !m.busy {
		// The scene before, at its last screen: opened, then played to
		// its end (every screen recorded, so ← goes on back through it).
		t.scene = t.scene - 1
		t.replay = len(t.current().Scenario.Guided(t.current().Mode))
		t.cardFor = t.replay // its last turn card was seen on the way
		return m.openLab(t.current().Scenario, t.current().Mode)
	}
	return nil
}

// talkKeys are the keys a speaker needs, for the key line.
func talkKeys(k keyMap) []key.Binding {
	return []key.Binding{
		key.NewBinding(key.WithKeys(" "), key.WithHelp("space/./→/PgDn", k.lang.T("on"))),
		key.NewBinding(key.WithKeys("left"), key.WithHelp("←/PgUp", k.lang.T("back"))),
		key.NewBinding(key.WithKeys("b"), key.WithHelp("b", k.lang.T("blank"))),
		key.NewBinding(key.WithKeys("o"), key.WithHelp("o", k.lang.T("what can happen next"))),
		k.Help, k.Quit,
	}
}

// talkHeader is the header's second line in a talk: where it is, and the
// keys a speaker needs.
func (m *Model) talkHeader(s engine.Snapshot) string {
	t := m.talk
	return m.styles.T("talk · scene %d/%d · action %d/%d", t.scene+1, len(t.Scenes), s.Actions, s.GuidedTotal) +
		m.styles.dim.Render(" · ") + m.talkClock() +
		m.styles.dim.Render(" · "+m.styles.T("space/→ on · ← back · b blank")+" · "+t.Title)
}

// talkCaption is the script's caption for the screen on view: the scene's
// before its first action, the note's after the k-th.
func (m *Model) talkCaption(s engine.Snapshot) string {
	if s.Actions == 0 {
		return m.talk.current().Caption
	}
	return m.talk.current().Steps[s.Actions].Caption
}

// captionLines shows a caption large — bold, behind a bar — with the
// step's narration under it where there is room.
//
// Large, as a terminal can: the caption on a band across the screen, a
// band's line above and below it where the height allows, so it reads
// from the back of the room.
func captionLines(st styles, caption string, narration []string, width, height int) []string {
	band := func(text string) string {
		return st.caption.Render(text + strings.Repeat(" ", max(0, width-ansi.StringWidth(text))))
	}
	var lines []string
	for _, line := range wrap(caption, width-6) {
		lines = append(lines, band("  ▌ "+line))
	}
	if len(lines)+2 <= height {
		lines = append(append([]string{band("")}, lines...), band(""))
	}
	if len(lines) > height {
		lines = lines[:height]
	}
	for _, n := range narration {
		if len(lines) >= height {
			break
		}
		lines = append(lines, st.dim.Render(ansi.Strip(n)))
	}
	return fit(lines, width)
}

// cardView is a turn card: the question for the room, large, in the middle
// of the screen.
func (m *Model) cardView() string {
	st, w := m.styles, m.width
	body := []string{st.warn.Render(st.T("turn to the room")), ""}
	for _, line := range wrap(m.talk.card, min(w-8, 70)) {
		body = append(body, st.title.Render(line))
	}
	body = append(body, "", st.dim.Render(st.T("space goes on · ← back")))
	lines := make([]string, m.height)
	top := max(0, (m.height-len(body))/2)
	for i, line := range body {
		if top+i < len(lines) {
			pad := max(0, (w-ansi.StringWidth(line))/2)
			lines[top+i] = strings.Repeat(" ", pad) + line
		}
	}
	return strings.Join(fit(lines, w), "\n")
}
