package tui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Time on the screen: autoplay's beat.

// autoplay schedules the next beat.
func (m *Model) autoplay() tea.Cmd {
	if !m.playing {
		return nil
	}
	return tea.Tick(m.pace, func(time.Time) tea.Msg { return playMsg{} })
}
