package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"

	"github.com/fencelab/fencelab/engine"
)

// timeline is the event list. It follows the newest event unless the user
// scrolled up; any new step brings it back to the newest. It shows whole
// entries only — a detail without its number says nothing — and scrolls by
// entries.
type timeline struct {
	scroll int // entries scrolled up from the newest
	// opened: its focused entry shows whole in the narration area.
	opened bool
	// focused is the event on the pane's last line when it was last drawn:
	// the one Enter opens whole.
	focused int
	// shares, set before each frame once a check ran (why.go): beside the
	// last event of each action, the share of broken futures after it.
	shares map[int]string
}

// Follow shows the newest events again, and closes an opened entry (the
// narration is the new step's again).
func (tl *timeline) Follow() { tl.scroll, tl.opened = 0, false }

// Scroll moves up (positive) or down (negative) by entries.
func (tl *timeline) Scroll(entries int) { tl.scroll = max(0, tl.scroll+entries) }

// Update takes the timeline's own keys: scrolling, and Enter, which opens
// (and closes) the focused entry.
func (tl *timeline) Update(msg tea.KeyMsg) {
	switch msg.String() {
	case "up", "k":
		tl.Scroll(1)
	case "down", "j":
		tl.Scroll(-1)
	case "pgup":
		tl.Scroll(5)
	case "enter":
		tl.opened = !tl.opened
	}
}

// Opened is the entry to show whole, if one is open and s has it.
func (tl *timeline) Opened(s engine.Snapshot) (engine.Event, bool) {
	if !tl.opened || tl.focused < 0 || tl.focused >= len(s.Events) {
		return engine.Event{}, false
	}
	return s.Events[tl.focused], true
}

// View renders the entries that fit in height lines, title included; note
// goes in the title (what the panes above could not show, say).
func (tl *timeline) View(st styles, s engine.Snapshot, width, height int, note string) []string {
	if height <= 0 {
		return nil
	}
	// Only the entries that show are rendered, newest up, so a frame
	// costs the same after 5,000 events as after 5.
	room := height - 1
	tl.scroll = min(tl.scroll, max(0, len(s.Events)-1))
	last := len(s.Events) - 1 - tl.scroll
	var shown []string
	if len(s.Events) == 0 {
		shown = emptyTimeline(st, width)
		shown = shown[:min(room, len(shown))]
	}
	c, broken := columnsOf(s, width), brokenAt(s)
	if tl.shares != nil {
		c = c.withShares(tl.shares)
	}
	for i := last; i >= 0; i-- {
		entry := c.entry(st, s.Events[i], broken[s.Events[i].Sequence])
		if c.shares != nil {
			entry = c.withShare(entry, i)
		}
		if len(shown)+len(entry) > room {
			if len(shown) == 0 {
				// An entry taller than the pane: its head, which has its number.
				shown = entry[:min(room, len(entry))]
			}
			break
		}
		shown = append(entry, shown...)
	}
	tl.focused = -1
	if len(s.Events) > 0 {
		tl.focused = last // an entry per event
	}
	title := st.T("Timeline") + "  " + counted(st, len(s.Events), "%d event", "%d events")
	if tl.scroll > 0 {
		title += st.T(" · scrolled up %d (↓ to follow)", tl.scroll)
	}
	if note != "" {
		title += " · " + note
	}
	head := st.pane.Render(title) + " " + st.dim.Render(strings.Repeat("─", max(0, width-ansi.StringWidth(title)-1)))
	lines := []string{head}
	// Lines no whole entry fills stay empty above, so the newest entry
	// stays next to the narration.
	for range room - len(shown) {
		lines = append(lines, "")
	}
	return fit(append(lines, shown...), width)
}

// timelineColumns are the widths every row of a timeline shares: each
// column as wide as its widest entry over all events (a time with
// milliseconds, NOT_APPLIED), so rows line up however far one scrolls.
type timelineColumns struct {
	clock, actor, layer, code, state int
	detailAt                         int
	// wide: the detail follows on the row and wraps under itself; else it
	// goes on lines of its own rather than being cut off.
	wide  bool
	width int
	// shares: a column of its own on the left, for the shares of broken
	// futures (why.go); the rest of the row is that much narrower.
	shares map[int]string
}

// shareWidth is the shares' column: "99.9%" and a space.
const shareWidth = 7

// withShares makes room for the shares' column.
func (c timelineColumns) withShares(shares map[int]string) timelineColumns {
	c.shares = shares
	c.width -= shareWidth
	c.wide = c.wide && c.width-c.detailAt >= 30
	return c
}

// withShare puts event i's share (if it has one) before its entry's first
// line, and blanks before the others.
func (c timelineColumns) withShare(entry []string, i int) []string {
	out := make([]string, len(entry))
	for k, line := range entry {
		cell := strings.Repeat(" ", shareWidth)
		if share, ok := c.shares[i]; ok && k == 0 {
			cell = strings.Repeat(" ", max(0, shareWidth-1-ansi.StringWidth(share))) + share + " "
		}
		out[k] = cell + line
	}
	return out
}

// columnsOf measures the columns of a snapshot's timeline at a width. It
// formats nothing (a frame per step of a long export would then be
// quadratic): a time's width is its digits, a code's its bytes.
func columnsOf(s engine.Snapshot, width int) timelineColumns {
	c := timelineColumns{clock: 6, code: 15, state: 11, actor: 7, layer: 14, width: width} // actor, layer: with the space after
	for _, e := range s.Events {
		c.clock = max(c.clock, clockWidth(e.At))
		c.code = max(c.code, textWidth(e.Code))
		c.state = max(c.state, textWidth(e.State))
	}
	head := func() int { return 1 + 3 + 1 + c.clock + 1 + c.actor + c.layer + c.code + 1 + c.state }
	c.detailAt = head() + 1
	c.wide = width >= 110 && width-c.detailAt >= 30
	if !c.wide && head() > width {
		// A pane too narrow for the layer (then the actor) leaves that
		// column out, on every row.
		c.layer = 0
		if head() > width {
			c.actor = 0
		}
	}
	return c
}

// clockWidth is the width of engine.FormatClock(d), without formatting it.
func clockWidth(d time.Duration) int {
	digits := len(strconv.Itoa(int(d / time.Minute)))
	if d%time.Second == 0 {
		return digits + 3 // m:ss
	}
	return digits + 7 // m:ss.mmm
}

// textWidth is a text's width in cells, at once for plain ASCII.
func textWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] < 0x20 {
			return ansi.StringWidth(s)
		}
	}
	return len(s)
}

// entry renders one event: its row, the detail wrapped, its guard.
func (c timelineColumns) entry(st styles, e engine.Event, broken bool) []string {
	mark := " "
	if broken {
		mark = st.broken.Render("!")
	}
	// The state padded as text, not as the escape codes around it.
	state := st.state(e.State) + strings.Repeat(" ", max(0, c.state-ansi.StringWidth(e.State)))
	head := fmt.Sprintf("%s%3d %-*s ", mark, e.Sequence, c.clock, engine.FormatClock(e.At))
	if c.actor > 0 {
		head += fmt.Sprintf("%-*s", c.actor, e.Actor+" ")
	}
	if c.layer > 0 {
		head += fmt.Sprintf("%-*s", c.layer, e.Layer+" ")
	}
	head += fmt.Sprintf("%-*s %s", c.code, e.Code, state)
	var lines []string
	if c.wide {
		said := wrap(e.Said(), c.width-c.detailAt)
		lines = append(lines, head+" "+said[0])
		for _, more := range said[1:] {
			lines = append(lines, strings.Repeat(" ", c.detailAt)+more)
		}
	} else {
		lines = append(lines, strings.TrimRight(head, " "))
		lines = append(lines, indented(e.Said(), "       ", c.width)...)
	}
	if e.Guard != "" {
		indent := "       "
		if c.wide {
			indent = strings.Repeat(" ", c.detailAt)
		}
		lines = append(lines, indented(st.dim.Render(st.T("guard: %s", ""))+st.guard.Render(e.GuardSaid()), indent, c.width)...)
	}
	return fit(lines, c.width)
}

// brokenAt are the sequence numbers of the events a snapshot's broken
// invariants point at.
func brokenAt(s engine.Snapshot) map[int]bool {
	broken := map[int]bool{}
	for _, b := range s.Result.Breaks {
		broken[b.Sequence] = true
	}
	return broken
}

// timelineLines renders every event, and says which event each line is
// of (-1: none). The pane draws only the entries it shows; this is the
// whole of it, for tests.
func timelineLines(st styles, s engine.Snapshot, width int) ([]string, []int) {
	c, broken := columnsOf(s, width), brokenAt(s)
	var lines []string
	var owners []int
	for i, e := range s.Events {
		entry := c.entry(st, e, broken[e.Sequence])
		lines = append(lines, entry...)
		for range entry {
			owners = append(owners, i)
		}
	}
	if len(lines) == 0 {
		lines = emptyTimeline(st, width)
		for range lines {
			owners = append(owners, -1)
		}
	}
	return lines, owners
}

func emptyTimeline(st styles, width int) []string {
	return fit(indented(st.dim.Render(st.T("nothing has happened yet — press n to take the first guided step")), "  ", width), width)
}

// counted is a count in words, in the explorer's language: one and many
// are two messages (a language may say both alike).
func counted(st styles, n int, one, many string) string {
	if n == 1 {
		return st.T(one, n)
	}
	return st.T(many, n)
}

// wrap breaks text into lines of at most width cells at spaces only (a
// name like job-1 or worker-A stays whole), and inside a word only when
// the word is longer than a line. It takes time linear in the text: each
// word's width is measured once, and a long word is cut in one pass over
// its graphemes.
func wrap(text string, width int) []string {
	width = max(width, 1)
	var lines []string
	var line strings.Builder
	lineWidth := 0
	for _, word := range strings.Fields(text) {
		wordWidth := ansi.StringWidth(word)
		switch {
		case lineWidth == 0:
		case lineWidth+1+wordWidth <= width:
			line.WriteByte(' ')
			lineWidth++
		default:
			lines = append(lines, line.String())
			line.Reset()
			lineWidth = 0
		}
		if wordWidth <= width-lineWidth {
			line.WriteString(word)
			lineWidth += wordWidth
			continue
		}
		// Longer than a line: grapheme by grapheme, a new line when full.
		state := -1
		for word != "" {
			var cluster string
			var w int
			cluster, word, w, state = uniseg.FirstGraphemeClusterInString(word, state)
			if lineWidth+w > width && lineWidth > 0 {
				lines = append(lines, line.String())
				line.Reset()
				lineWidth = 0
			}
			line.WriteString(cluster)
			lineWidth += w
		}
	}
	return append(lines, line.String())
}

// indented wraps text to width under an indent.
func indented(text, indent string, width int) []string {
	wrapped := strings.Split(ansi.Wrap(text, max(20, width-len(indent)), " "), "\n") // long words break too
	for i := range wrapped {
		wrapped[i] = indent + wrapped[i]
	}
	return wrapped
}

// entryLines is one event whole, wrapped to the width: what a timeline
// row cuts short.
func entryLines(st styles, e engine.Event, width, height int) []string {
	text := fmt.Sprintf("#%d %s %s %s %s — %s", e.Sequence, engine.FormatClock(e.At), e.Actor, e.Code, e.State, e.Said())
	if e.Guard != "" {
		text += " · " + st.T("guard: %s", e.GuardSaid())
	}
	if e.Narration != "" {
		text += " · " + e.Narration
	}
	wrapped := wrap(text, width-2)
	if len(wrapped) > height {
		wrapped = wrapped[:height]
	}
	for i := range wrapped {
		wrapped[i] = "  " + wrapped[i]
	}
	return fit(wrapped, width)
}
