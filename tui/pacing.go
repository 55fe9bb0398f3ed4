package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/fencelab/fencelab/engine"
)

// Time on the screen: autoplay's beat and the countdown of a wait for a
// real Redis to expire a key.

// waiting starts the countdown of an operation that advances the clock on
// a real Redis, whose keys expire on the wall clock: the step waits for
// them, and the status line says how long is left. The wait is the one the
// last snapshot's TTLs promise (the lab waits a moment longer).
func (m *Model) waiting(action engine.Action, cmd tea.Cmd) tea.Cmd {
	if cmd == nil || m.snap == nil || m.snap.RedisVirtual || !m.busy || len(m.queue) > 0 {
		return cmd
	}
	var wait time.Duration
	for _, k := range m.snap.Keys {
		switch {
		case k.TTL <= 0:
		case action.Kind == engine.AdvanceToExpiry && (wait == 0 || k.TTL < wait):
			wait = k.TTL
		case action.Kind == engine.AdvanceClock && k.TTL <= action.By:
			wait = max(wait, k.TTL)
		}
	}
	if wait < time.Second {
		return cmd
	}
	m.waitUntil = time.Now().Add(wait)
	return tea.Batch(cmd, m.countdown())
}

func (m *Model) countdown() tea.Cmd {
	if m.waitUntil.IsZero() {
		return nil
	}
	return tea.Tick(100*time.Millisecond, func(time.Time) tea.Msg { return countdownMsg{} })
}

// autoplay schedules the next beat.
func (m *Model) autoplay() tea.Cmd {
	if !m.playing {
		return nil
	}
	return tea.Tick(m.pace, func(time.Time) tea.Msg { return playMsg{} })
}
