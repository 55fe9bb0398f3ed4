package tui

import (
	tea "github.com/charmbracelet/bubbletea"

	"github.com/fencelab/fencelab/engine"
)

// history is time travel: the snapshot recorded after each action, and a
// cursor over them. It is live (no cursor) until the user goes back.
type history struct {
	// snaps[k] is the snapshot read after k actions (snaps[0]: the seeded
	// state); a step after an undo or reset replaces what followed.
	snaps []engine.Snapshot
	// cursor is the recorded snapshot on screen, -1 when live.
	cursor int
}

func newHistory() history { return history{cursor: -1} }

// Start forgets everything and records a lab's first snapshot.
func (h *history) Start(s engine.Snapshot) {
	h.snaps, h.cursor = []engine.Snapshot{s}, -1
}

// Remember keeps a snapshot read after an action, as the one for its
// number of actions; the steps after it (undone, reset) are forgotten.
func (h *history) Remember(s engine.Snapshot) {
	if s.Actions > len(h.snaps) {
		return // not a step this explorer saw
	}
	h.snaps = append(h.snaps[:s.Actions], s)
	if h.cursor >= len(h.snaps)-1 {
		h.cursor = -1 // the point on screen was forgotten: live again
	}
}

// Update takes time travel's keys: back (← h) and forward (→ l), forward
// from the newest being live again. It reports whether it moved.
func (h *history) Update(msg tea.KeyMsg) bool {
	back := msg.String() == "left" || msg.String() == "h"
	newest, was := len(h.snaps)-1, h.cursor
	switch {
	case back && h.cursor < 0 && newest > 0:
		h.cursor = newest - 1
	case back && h.cursor > 0:
		h.cursor--
	case !back && h.cursor >= 0:
		h.cursor++
		if h.cursor >= newest {
			h.cursor = -1
		}
	}
	return h.cursor != was
}

// Past is the recorded snapshot on screen, if the user went back.
func (h *history) Past() (engine.Snapshot, bool) {
	if h.cursor < 0 || h.cursor >= len(h.snaps) {
		return engine.Snapshot{}, false
	}
	return h.snaps[h.cursor], true
}

// Leave goes live again: the action about to run from the past point
// drops the steps that followed it.
func (h *history) Leave() { h.cursor = -1 }

// Position is the cursor and the newest recorded action, for the header.
func (h *history) Position() (at, newest int) { return h.cursor, len(h.snaps) - 1 }

// viewed is the snapshot on screen: the live one, or a recorded one.
func (m *Model) viewed() engine.Snapshot {
	if past, ok := m.history.Past(); ok {
		return past
	}
	return *m.snap
}
