package tui

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/redact"
)

// The smallest terminal the explorer draws in; below it, it says so.
const (
	minWidth  = 80
	minHeight = 24
	// wideWidth is where the timeline moves to a column of its own.
	wideWidth = 150
)

func (m *Model) View() string {
	if m.width < minWidth || m.height < minHeight {
		return strings.Join(fit([]string{
			m.styles.T("fencelab needs at least %d×%d;", minWidth, minHeight),
			m.styles.T("this terminal is %d×%d.", m.width, m.height),
			m.styles.T("Enlarge it, or q to quit."),
		}, max(m.width, 1)), "\n")
	}
	if m.fatal != nil {
		// The error wrapped, not cut: it is all the user has to go on.
		lines := []string{m.styles.rejected.Render(m.styles.T("fencelab could not start its backends:"))}
		lines = append(lines, wrap(engine.OneLine(m.fatal), m.width)...)
		lines = append(lines, "", m.styles.T("q to quit"))
		return strings.Join(fit(lines, m.width), "\n")
	}
	if m.snap == nil {
		waiting := m.opts.Starting
		if m.backends != nil {
			waiting = m.styles.T("opening %s…", m.scenario.ID)
		}
		// What the start waits for may be long (another run holding the
		// database): wrapped, not cut.
		lines := []string{m.styles.title.Render("fencelab") + m.styles.dim.Render(" · job safety in distributed systems"), ""}
		lines = append(lines, strings.Split(ansi.Wrap(m.spinner.View()+" "+waiting, m.width, " "), "\n")...)
		if len(m.held) > 0 {
			var pressed []string
			for _, k := range m.held {
				pressed = append(pressed, k.String())
			}
			lines = append(lines, "", m.styles.dim.Render(m.styles.T("pressed: %s — taken as soon as the lab is open", strings.Join(pressed, " "))))
		}
		return strings.Join(fit(lines, m.width), "\n")
	}
	if m.picking {
		return m.picker.View()
	}
	if m.showHelp {
		return m.helpView()
	}
	if m.showLog {
		return m.logView()
	}
	if m.guarding {
		return m.guardsView()
	}
	if m.why.branching {
		return m.branchesView()
	}
	if m.talk != nil && m.talk.blank {
		return strings.Repeat("\n", m.height-1)
	}
	if m.talk != nil && m.talk.card != "" {
		return m.cardView()
	}
	if m.split != nil {
		return m.splitView()
	}
	return m.labView()
}

// helpView lists every binding of the keymap (the same one the short help
// line uses) — two to a row where both fit whole, else one, wrapped — then
// the invariants the lab checks. Taller than the screen, it scrolls.
func (m *Model) helpView() string {
	var bindings []key.Binding
	for _, group := range m.keys.FullHelp() {
		bindings = append(bindings, group...)
	}
	cell := func(b key.Binding, width int) []string {
		h := b.Help()
		var out []string
		for i, line := range wrap(h.Desc, width-13) {
			k := ""
			if i == 0 {
				k = h.Key
			}
			out = append(out, "  "+m.styles.title.Render(fmt.Sprintf("%-9s", k))+" "+line)
		}
		return out
	}
	column := m.width / 2
	twoColumns := true
	for _, b := range bindings {
		twoColumns = twoColumns && 13+ansi.StringWidth(b.Help().Desc) < column
	}
	lines := []string{m.styles.title.Render(m.styles.T("fencelab keys")), ""}
	for i := 0; i < len(bindings); i++ {
		if !twoColumns {
			lines = append(lines, cell(bindings[i], m.width)...)
			continue
		}
		left := cell(bindings[i], column)[0]
		if i+1 < len(bindings) {
			left += strings.Repeat(" ", max(1, column-ansi.StringWidth(left))) + cell(bindings[i+1], column)[0]
			i++
		}
		lines = append(lines, left)
	}
	lines = append(lines, "", m.styles.T("Invariants checked after every step:"))
	for _, i := range m.scenario.InvariantNumbers() {
		for j, line := range wrap(fmt.Sprintf("%d. %s", i, m.styles.T(m.scenario.InvariantText(i))), m.width-6) {
			indent := "  "
			if j > 0 {
				indent = "     "
			}
			lines = append(lines, indent+line)
		}
	}
	if m.scenario.Code != nil {
		// A file's guards, in its words (the catalog's fourteen are g's).
		lines = append(lines, "", m.styles.T("SAFE's guards (g takes one out):"))
		without := withoutOf(m.snap)
		for _, g := range m.scenario.GuardList() {
			text := g.String() + ": " + g.What().In(m.styles.lang)
			if without.Has(g) {
				text = m.styles.T("%s (taken out)", text)
			}
			for j, line := range wrap(text, m.width-6) {
				indent := "  "
				if j > 0 {
					indent = "     "
				}
				lines = append(lines, indent+line)
			}
		}
		if len(m.scenario.GuardList()) == 0 {
			lines = append(lines, "  "+m.styles.T("the file's steps define no guards: SAFE and UNSAFE run the same code"))
		}
	}
	footer := m.styles.dim.Render(m.styles.T("any key to go back"))
	room := m.height - 1
	if len(lines) > room {
		m.helpScroll = min(m.helpScroll, len(lines)-room)
		footer = m.styles.dim.Render(m.styles.T("lines %d–%d of %d · ↑/↓ scroll · any other key goes back", m.helpScroll+1, m.helpScroll+room, len(lines)))
		lines = lines[m.helpScroll : m.helpScroll+room]
	} else {
		lines = append(lines, "")
	}
	return strings.Join(fit(append(lines, footer), m.width), "\n")
}

// logView is every message the status line has shown, oldest first and
// each whole, wrapped: the newest at the bottom, scrolled back with ↑.
func (m *Model) logView() string {
	st := m.styles
	var lines []string
	for _, text := range m.messages {
		for i, line := range wrap(text, m.width-4) {
			lead := "  · "
			if i > 0 {
				lead = "    "
			}
			lines = append(lines, lead+line)
		}
	}
	if len(lines) == 0 {
		lines = []string{"  " + st.dim.Render(st.T("no message yet"))}
	}
	head := []string{st.title.Render(st.T("messages")) + st.dim.Render(" · "+st.T("the status line's, oldest first")), ""}
	room := m.height - len(head) - 1
	footer := st.dim.Render(st.T("any key to go back"))
	if len(lines) > room {
		m.logScroll = min(m.logScroll, len(lines)-room)
		last := len(lines) - m.logScroll
		footer = st.dim.Render(st.T("lines %d–%d of %d · ↑/↓ scroll · any other key goes back", last-room+1, last, len(lines)))
		lines = lines[last-room : last]
	}
	return strings.Join(fit(append(append(head, lines...), footer), m.width), "\n")
}

// guardsView is the guard list: each of SAFE's guards, on or removed,
// with what it checks; the cursor's is the one space toggles.
func (m *Model) guardsView() string {
	st := m.styles
	without := withoutOf(m.snap)
	taken := st.T("%s, %d actions taken", m.scenario.ID, m.snap.Actions)
	if m.snap.Actions == 1 {
		taken = st.T("%s, 1 action taken", m.scenario.ID)
	}
	title := st.title.Render(st.T("SAFE's guards")) + st.dim.Render(" · "+taken)
	var body []string
	// A file's own names may be longer than fencelab's: the column is
	// the widest's.
	nameWidth := 15
	for _, g := range m.scenario.GuardList() {
		nameWidth = max(nameWidth, ansi.StringWidth(g.String()))
	}
	nameWidth = min(nameWidth, max(15, m.width/3))
	for i, g := range m.scenario.GuardList() {
		mark := st.accepted.Render("[✓]")
		if without.Has(g) {
			mark = st.rejected.Render("[−]")
		}
		pointer := "  "
		name := ansi.Truncate(g.String(), nameWidth, "…")
		name += strings.Repeat(" ", nameWidth-ansi.StringWidth(name))
		if i == m.guardCursor {
			pointer, name = "> ", st.selected.Render(name)
		}
		for j, line := range wrap(g.What().In(st.lang), max(20, m.width-nameWidth-11)) {
			if j == 0 {
				body = append(body, pointer+mark+" "+name+" "+line)
			} else {
				body = append(body, strings.Repeat(" ", nameWidth+7)+line)
			}
		}
	}
	if len(body) == 0 {
		body = append(body, st.dim.Render("  "+st.T("the file's steps define no guards: SAFE and UNSAFE run the same code")))
	}
	// The title, the status (what the last toggle did, or why it could
	// not) and the keys stay; the list scrolls between them.
	footer := append(append([]string{""}, m.statusLines(m.width)...), st.dim.Render(st.T("↑/↓ choose · space/enter takes it out or puts it back, and the actions so far replay · any other key goes back")))
	room := m.height - 2 - len(footer)
	if len(body) > room {
		if room < 1 {
			// Too small a terminal for a list: the cursor's line alone.
			room = 1
		}
		// Keep the cursor's line in view.
		first := 0
		for i, line := range body {
			if strings.HasPrefix(line, "> ") {
				first = max(0, min(i-room/2, len(body)-room))
			}
		}
		body = body[first : first+room]
	}
	lines := append(append([]string{title, ""}, body...), footer...)
	if len(lines) > m.height {
		lines = lines[:max(m.height, 1)]
	}
	return strings.Join(fit(lines, m.width), "\n")
}

// withoutOf is the set of guards a snapshot's lab removed.
func withoutOf(s *engine.Snapshot) engine.GuardSet {
	if s == nil {
		return 0
	}
	return s.Result.Without
}

// labView lays the panes out: stacked below wideWidth, with the timeline in
// its own column from there on. Header, narration, result and the key line
// always show; the panes share what is left.
func (m *Model) labView() string {
	m.frame++ // what the panes drew for the last frame is stale
	s, st, w := m.viewed(), m.styles, m.width
	m.timeline.shares = m.timelineShares(s)
	header := m.header(s)
	// A sentence cut short misleads: the narration takes up to three
	// lines (four on a tall screen) from the panes when it needs them.
	narration := narrationLines(st, s, w, 3+min(1, max(0, m.height-29)))
	if e, ok := m.timeline.Opened(s); ok {
		narration = entryLines(st, e, w, 6)
	} else if m.talk != nil {
		if len(s.Events) == 0 {
			narration = nil // the explorer's hint is not the speaker's
		}
		if caption := m.talkCaption(s); caption != "" {
			narration = captionLines(st, caption, narration, w, 4+min(1, max(0, m.height-29)))
		}
	}
	// The strip and the first broken invariant (the invariant bar says
	// which others broke), wrapped on a tall screen.
	resultHeight := 2
	if m.height >= 30 || len(s.Result.Breaks) > 0 {
		resultHeight = 3 // a broken invariant's line wraps rather than being cut
	}
	result := resultLines(st, s, w, resultHeight)
	result = append(result, invariantBar(st, s, w))
	footer := m.footer()
	fixed := len(header) + len(narration) + len(result) + len(footer) + 1 // +1: the narration's rule
	room := m.height - fixed

	var middle []string
	if w >= wideWidth {
		// The panes get the width their lines need, so they cut nothing
		// while the timeline, which wraps, has room; at least 11/20.
		left := max(w*11/20-1, min(m.naturalWidth(s), w-60))
		right := w - left - 2 // sideBySide puts " │" between
		column, hidden := m.stack(s, left, room, false)
		timeline := m.timeline.View(m.styles, s, right, room, hidden)
		middle = sideBySide(column, timeline, left, room)
	} else {
		middle, _ = m.stack(s, w, room, true)
	}

	lines := append(header, middle...)
	lines = append(lines, st.dim.Render(strings.Repeat("─", w)))
	lines = append(lines, narration...)
	lines = append(lines, result...)
	lines = append(lines, footer...)
	return strings.Join(fit(lines, w), "\n")
}

// footer is the status line and the keys under the lab; on a short
// terminal, the status line when there is news, else the keys.
func (m *Model) footer() []string {
	keys := m.keys.ShortHelp()
	if m.talk != nil {
		keys = talkKeys(m.keys)
	}
	status := m.statusFitted(m.width, 2)
	footer := append(status, m.help.ShortHelpView(keys))
	if m.height < 30 {
		footer = footer[len(status):]
		// The status's text, not its line: an empty status still renders
		// its style's escape codes.
		if text, _ := m.statusText(); text != "" {
			help := " · ? " + m.styles.T("help")
			one := m.statusFitted(m.width-ansi.StringWidth(help), 1)
			footer = []string{one[0] + m.styles.dim.Render(help)}
		}
	}
	return footer
}

// naturalWidth is the width of the widest line the panes have when drawn
// whole with all the width they want. (Drawn short, a pane packs its
// lines to whatever width it gets.)
func (m *Model) naturalWidth(s engine.Snapshot) int {
	widest := 0
	for _, p := range m.panes {
		for _, line := range p.Whole(m.styles, s, 400, m.frame)[1:] {
			widest = max(widest, ansi.StringWidth(strings.TrimRight(line, " ")))
		}
	}
	return widest + 1
}

// stack fills height lines with the panes, each getting at least its
// minimum and then, in order of importance, up to what it needs. With
// withTimeline the timeline takes whatever is left.
func (m *Model) stack(s engine.Snapshot, width, height int, withTimeline bool) (lines []string, hidden string) {
	st := m.styles
	// Where the story is in Redis (the job scenarios), Redis grows first.
	// There PostgreSQL holds at most the applied results, and gives its
	// lines to Redis when they are short.
	pgGrow, redisGrow, pgMin, redisMin := 0, 2, 5, 2
	if len(world.SnapshotReading(s).Jobs.Jobs) > 0 && len(world.RowsOf(s.Ledger).Executions) == 0 {
		pgGrow, redisGrow, pgMin, redisMin = 2, 0, 2+len(world.RowsOf(s.Ledger).JobResults), 5
	}
	// An outbox with nothing in it gives its lines up when they are short.
	outboxMin := 3
	if len(world.RowsOf(s.Ledger).Outbox) == 0 && len(world.SnapshotReading(s).Applications) == 0 {
		outboxMin = 0
	}
	// Each pane wants the lines of its whole body.
	panes := [paneCount]struct {
		min, want int
		grow      int // order in which panes grow past their minimum
	}{
		paneWorkers:  {1 + len(s.Actors), 0, 1},
		panePostgres: {pgMin, 0, pgGrow},
		paneRedis:    {redisMin, 0, redisGrow},
		paneOutbox:   {outboxMin, 0, 3},
	}
	for i, p := range m.panes {
		panes[i].want = len(p.Whole(st, s, width, m.frame))
	}
	for i := range panes {
		if !m.shows(i) {
			panes[i].min, panes[i].want = 0, 0 // a file of its own code has none
		}
	}
	timelineMin := 0
	if withTimeline {
		timelineMin = 4
	}
	if f := m.focus; f != focusTimeline {
		// The focused pane is being read: it grows first, to its whole
		// body; the other stores keep a line each (the workers, whose
		// story it is, keep theirs), so nothing vanishes.
		for i := panePostgres; i < paneCount; i++ {
			panes[i].min = min(panes[i].min, 2)
		}
		panes[f].min, panes[f].grow = 2, -1
		timelineMin = min(timelineMin, 2)
	}
	heights := make([]int, len(panes))
	left := height - timelineMin
	for i, p := range panes {
		heights[i] = min(p.min, max(0, left))
		left -= heights[i]
	}
	for order := -1; order < len(panes); order++ {
		for i, p := range panes {
			if p.grow == order {
				grow := min(p.want-heights[i], max(0, left))
				heights[i] += grow
				left -= grow
			}
		}
	}
	var notShown []string
	for i, p := range m.panes {
		if heights[i] < 2 {
			// A title with nothing under it: its line goes to the timeline,
			// which says the pane is there to focus.
			if !m.shows(i) {
				continue
			}
			if panes[i].min > 0 || i == m.focus {
				notShown = append(notShown, paneName(st, p.name))
			}
			continue
		}
		lines = append(lines, p.View(st, s, width, heights[i], m.frame, m.focus == i)...)
	}
	if len(notShown) > 0 {
		hidden = st.T("%s: f shows", strings.Join(notShown, ", "))
	}
	if withTimeline {
		lines = append(lines, m.timeline.View(st, s, width, height-len(lines), hidden)...)
	}
	for len(lines) < height {
		lines = append(lines, "")
	}
	return lines[:height], hidden
}

// shows says whether the scenario has what a pane shows: a file whose
// every actor runs its own code has no outbox, and no Redis (or
// PostgreSQL) where none of its code is Redis's (or SQL).
func (m *Model) shows(pane int) bool {
	s := m.scenario
	if s == nil || !s.OwnCodeOnly || s.Code == nil {
		return true
	}
	switch pane {
	case paneOutbox:
		return false
	case paneRedis:
		return s.Code.UsesRedis
	case panePostgres:
		return s.Code.Schema != ""
	}
	return true
}

// lastPane is the last of the stacked panes f visits.
func (m *Model) lastPane() int {
	for i := paneCount - 1; i > paneWorkers; i-- {
		if m.shows(i) {
			return i
		}
	}
	return paneWorkers
}

func sideBySide(left, right []string, leftWidth, height int) []string {
	out := make([]string, height)
	for i := range out {
		l, r := "", ""
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			r = right[i]
		}
		pad := max(0, leftWidth-ansi.StringWidth(l))
		out[i] = l + strings.Repeat(" ", pad) + " │" + r
	}
	return out
}

func (m *Model) header(s engine.Snapshot) []string {
	st := m.styles
	mode := st.safe.Render(" SAFE ")
	if s.Mode == engine.Unsafe {
		mode = st.unsafe.Render(" UNSAFE ")
	}
	if without := s.Result.Without; without != 0 {
		// The guards taken out, as --without names them.
		mode += st.warn.Render(strings.TrimPrefix(engine.ModeLabel(s.Mode, without), "SAFE"))
	}
	// The clock before the title: a narrow terminal cuts the title.
	first := fmt.Sprintf("%s %s  %s  %s  %s", st.title.Render("fencelab"), st.title.Render(s.Scenario.ID), mode, st.T("clock %s", engine.FormatClock(s.Clock)),
		st.dim.Render(st.T(s.Scenario.Title)))
	// Where the story is comes first, so a narrow terminal cuts the
	// backends' names rather than it.
	backends := st.dim.Render(fmt.Sprintf(" · redis %s · postgres %s", s.RedisName, s.DatabaseName))
	second := st.T("guided %d/%d", s.GuidedDone, s.GuidedTotal)
	switch {
	case s.OffPath:
		second = st.T("free · guided order left at %d/%d", s.GuidedDone, s.GuidedTotal) +
			st.dim.Render(" · "+st.T("r starts it again, u takes back your last action"))
	case s.GuidedNext != "":
		next := s.GuidedAction.Words().In(st.lang)
		if s.GuidedAction.Caption != "" {
			next += " — " + s.GuidedAction.Caption
		}
		second += st.dim.Render(" · " + st.T("next:") + " " + next)
	}
	second += backends
	if s.Scenario.From != "" {
		// A trace plays: its schedule is the guided order.
		second = st.warn.Render(st.T("▶ trace %s", filepath.Base(s.Scenario.From))) + st.dim.Render(" · ") + second
	}
	if m.playing {
		second = st.T("▶ autoplay %s · ", m.pace) + second
	}
	if m.talk != nil {
		second = m.talkHeader(s)
	}
	if at, newest := m.history.Position(); at >= 0 {
		label := st.T("◀ recorded after action %d of %d", at, newest)
		if at == 0 {
			label = st.T("◀ the seeded state, before action 1 of %d", newest)
		}
		second = st.warn.Render(label) +
			st.dim.Render(st.T(" · → forward · an action continues from here and drops the later ones"))
	}
	if futures := m.whyHeader(s); futures != "" {
		second = futures + st.dim.Render(" · ") + second
	}
	lines := fit([]string{first}, m.width)
	if m.height >= 30 && ansi.StringWidth(second) > m.width {
		// Where the screen has room, the second line wraps once rather
		// than cutting the next step's caption or the backends' names.
		wrapped := strings.Split(ansi.Wrap(second, m.width, " ·"), "\n")
		lines = append(lines, fit(wrapped[:min(2, len(wrapped))], m.width)...)
	} else {
		lines = append(lines, fit([]string{second}, m.width)...)
	}
	if m.showDSN {
		// Wrapped, never cut: it is there to be copied.
		lines = append(lines, strings.Split(ansi.Hardwrap("psql "+redact.Shell(s.DSN), m.width, true), "\n")...)
	}
	return lines
}

// invariantBar is every invariant of DESIGN §7 on one line: held, or
// broken at the timeline's step N.
func invariantBar(st styles, s engine.Snapshot, width int) string {
	brokenAt := map[int]int{}
	for _, b := range s.Result.Breaks {
		if _, seen := brokenAt[b.Invariant]; !seen {
			brokenAt[b.Invariant] = b.Sequence
		}
	}
	parts := []string{"  " + st.T("invariants")}
	for _, n := range s.Scenario.InvariantNumbers() {
		label := s.Scenario.InvariantLabel(n)
		if at, broken := brokenAt[n]; broken {
			parts = append(parts, st.broken.Render(st.T("%s ✗ at #%d", label, at)))
		} else {
			parts = append(parts, st.accepted.Render(label+" ✓"))
		}
	}
	if len(parts) == 1 {
		parts = append(parts, st.dim.Render(st.T("none: the file names no invariant")))
	}
	line := strings.Join(parts, "  ")
	if ansi.StringWidth(line) > width {
		line = strings.Join(parts, " ")
	}
	return line
}

func (m *Model) statusLine() string {
	text, style := m.statusText()
	return style.Render(text)
}

// statusFitted is the status in at most lines lines of width: wrapped,
// and where even those cut it, its last line ends by saying L shows it
// whole (the message log).
func (m *Model) statusFitted(width, lines int) []string {
	text, style := m.statusText()
	wrapped := wrap(text, width)
	if len(wrapped) <= lines {
		if len(wrapped) > 1 && lines > 1 {
			for i, line := range wrapped {
				wrapped[i] = style.Render(line)
			}
			return wrapped
		}
		return []string{style.Render(text)}
	}
	more := " … " + m.styles.T("L shows it whole")
	kept := wrap(text, width)[:lines]
	last := kept[lines-1]
	room := max(width-ansi.StringWidth(more), 1)
	if ansi.StringWidth(last) > room {
		last = ansi.Truncate(last, room, "")
	}
	kept[lines-1] = last
	for i, line := range kept {
		kept[i] = style.Render(line)
	}
	kept[lines-1] += m.styles.dim.Render(more)
	return kept
}

// statusLines is the status wrapped to a width, each line styled.
func (m *Model) statusLines(width int) []string {
	text, style := m.statusText()
	if text == "" {
		return []string{""}
	}
	lines := wrap(text, width)
	for i, line := range lines {
		lines[i] = style.Render(line)
	}
	return lines
}

// statusText is the status line's text and its style: what the lab is
// doing, or what the last key did.
func (m *Model) statusText() (string, lipgloss.Style) {
	switch {
	case m.busy:
		return m.styles.T("working…"), m.styles.dim
	case m.statusOK:
		return m.status, m.styles.accepted
	default:
		return m.status, m.styles.warn
	}
}
