package tui

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/fencelab/fencelab/engine"
)

// pane is one of the stacked panes — workers, PostgreSQL, Redis, the
// outbox — as a component. It draws a snapshot and owns what the user did
// to it. Unfocused, it shows what matters most in the room it gets and
// says what it left out; focused (f), it grows first, shows its whole body
// and scrolls over it, so nothing a short terminal leaves out is out of
// reach.
type pane struct {
	name string
	// draw renders the pane in at most height lines, title first.
	draw   func(st styles, s engine.Snapshot, width, height int) []string
	scroll int // first body line shown while focused
	// memo keeps the whole body drawn for a frame at a width: a frame
	// sizes the layout with it and may draw it again.
	memo struct {
		frame, width int
		lines        []string
	}
}

// wholeHeight is more lines than any pane of the catalog has: drawn that
// tall, a pane leaves nothing out.
const wholeHeight = 1 << 12

// Update takes the pane's own keys while it is focused: scrolling.
func (p *pane) Update(msg tea.KeyMsg) {
	switch msg.String() {
	case "up", "k":
		p.scroll--
	case "down", "j":
		p.scroll++
	case "pgup":
		p.scroll -= 10
	}
	p.scroll = max(0, p.scroll)
}

// Whole is every line the pane has, title included, drawn once per frame
// and width.
func (p *pane) Whole(st styles, s engine.Snapshot, width, frame int) []string {
	if p.memo.lines == nil || p.memo.frame != frame || p.memo.width != width {
		p.memo.frame, p.memo.width, p.memo.lines = frame, width, p.draw(st, s, width, wholeHeight)
	}
	return p.memo.lines
}

// View draws the pane in height lines: fitted, or whole from its scroll
// position when focused.
func (p *pane) View(st styles, s engine.Snapshot, width, height, frame int, focused bool) []string {
	if !focused {
		return p.draw(st, s, width, height)
	}
	if height <= 0 {
		return nil
	}
	body := p.Whole(st, s, width, frame)[1:]
	room := height - 1
	p.scroll = min(p.scroll, max(0, len(body)-room))
	end := min(len(body), p.scroll+room)
	where := st.T(" · all %d lines", len(body))
	switch {
	case len(body) > room && end == p.scroll+1:
		where = st.T(" · line %d of %d · ↑/↓", end, len(body))
	case len(body) > room:
		where = st.T(" · lines %d–%d of %d · ↑/↓", p.scroll+1, end, len(body))
	}
	title := "▸ " + paneName(st, p.name) + where + st.T(" · f next · esc")
	head := st.pane.Render(title) + " " + st.dim.Render(strings.Repeat("─", max(0, width-ansi.StringWidth(title)-1)))
	return fit(append([]string{head}, body[p.scroll:end]...), width)
}

// paneName is a pane's name in the explorer's language.
func paneName(st styles, name string) string {
	switch name {
	case "Workers":
		return st.T("Workers")
	case "Outbox & provider":
		return st.T("Outbox & provider")
	}
	return name // PostgreSQL, Redis
}

// workerList is the workers pane's own state: the actor p acts on.
type workerList struct{ selected int }

// Update moves the selection (tab, shift+tab) over actors actors.
func (w *workerList) Update(msg tea.KeyMsg, actors int) {
	if actors == 0 {
		return
	}
	if msg.String() == "shift+tab" {
		w.selected = (w.selected + actors - 1) % actors
	} else {
		w.selected = (w.selected + 1) % actors
	}
}

func (w *workerList) draw(st styles, s engine.Snapshot, width, height int) []string {
	return workersPane(st, s, w.selected, width, height)
}

// Which pane has the focus: the timeline, or one of the stacked panes.
const focusTimeline = -1

// The stacked panes, in the order they are drawn and f visits them.
const (
	paneWorkers = iota
	panePostgres
	paneRedis
	paneOutbox
	paneCount
)

func newPanes(workers *workerList) [paneCount]*pane {
	return [paneCount]*pane{
		paneWorkers:  {name: "Workers", draw: workers.draw},
		panePostgres: {name: "PostgreSQL", draw: postgresPane},
		paneRedis:    {name: "Redis", draw: redisPane},
		paneOutbox:   {name: "Outbox & provider", draw: outboxPane},
	}
}
