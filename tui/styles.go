package tui

import "github.com/charmbracelet/lipgloss"

// styles are every style of the explorer, in one place. Colour only ever
// repeats what the words already say (SAFE, REJECTED, BROKEN), so a
// monochrome or ASCII terminal shows the same meaning.
type styles struct {
	title     lipgloss.Style
	dim       lipgloss.Style
	pane      lipgloss.Style
	safe      lipgloss.Style
	unsafe    lipgloss.Style
	accepted  lipgloss.Style
	rejected  lipgloss.Style
	broken    lipgloss.Style
	warn      lipgloss.Style
	selected  lipgloss.Style
	guard     lipgloss.Style
	narration lipgloss.Style
}

func newStyles() styles {
	return styles{
		title:     lipgloss.NewStyle().Bold(true),
		dim:       lipgloss.NewStyle().Faint(true),
		pane:      lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("12")),
		safe:      lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("0")).Background(lipgloss.Color("10")),
		unsafe:    lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("15")).Background(lipgloss.Color("9")),
		accepted:  lipgloss.NewStyle().Foreground(lipgloss.Color("10")),
		rejected:  lipgloss.NewStyle().Bold(true).Foreground(lipgloss.Color("9")),
		broken:    lipgloss.NewStyle().Bold(true).Reverse(true),
		warn:      lipgloss.NewStyle().Foreground(lipgloss.Color("11")),
		selected:  lipgloss.NewStyle().Bold(true).Underline(true),
		guard:     lipgloss.NewStyle().Bold(true),
		narration: lipgloss.NewStyle().Italic(true),
	}
}

// state colours an event or row state word by what it means.
func (s styles) state(word string) string {
	switch word {
	case "COMMITTED", "ACQUIRED", "EXTENDED", "RELEASED", "CONFIRMED", "READ", "APPLIED":
		return s.accepted.Render(word)
	case "REJECTED", "REFUSED", "ERROR", "LOST":
		return s.rejected.Render(word)
	case "BROKEN":
		return s.broken.Render(word)
	case "CONTENDED", "PAUSED", "PENDING":
		return s.warn.Render(word)
	}
	return word
}
