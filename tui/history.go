package tui

import "github.com/fencelab/fencelab/engine"

// Time travel: the snapshot recorded after each action, and the cursor
// over them.

// remember keeps a snapshot read after an action, as the one for its
// number of actions; the steps after it (undone, reset) are forgotten.
func (m *Model) remember(s engine.Snapshot) {
	if s.Actions > len(m.history) {
		return // not a step this explorer saw
	}
	m.history = append(m.history[:s.Actions], s)
}

// travel moves the cursor one recorded step back or forward; forward from
// the newest is live again.
func (m *Model) travel(back bool) {
	newest := len(m.history) - 1
	switch {
	case back && m.cursor < 0 && newest > 0:
		m.cursor = newest - 1
	case back && m.cursor > 0:
		m.cursor--
	case !back && m.cursor >= 0:
		m.cursor++
		if m.cursor >= newest {
			m.cursor = -1
		}
	}
	m.timeline.Follow()
}

// viewed is the snapshot on screen: the live one, or a recorded one.
func (m *Model) viewed() engine.Snapshot {
	if m.cursor >= 0 {
		return m.history[m.cursor]
	}
	return *m.snap
}
