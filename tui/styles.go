package tui

import (
	"io"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/fencelab/fencelab/lang"
)

// styles are every style of the explorer, in one place. Colour only ever
// repeats what the words already say (SAFE, REJECTED, BROKEN), so a
// monochrome or ASCII terminal shows the same meaning.
type styles struct {
	// lang is the language the explorer speaks: its words, as the
	// styles are its looks (identifiers stay as they are).
	lang      lang.Lang
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
	// caption is a talk's caption: a band across the screen, what a
	// terminal has for large.
	caption lipgloss.Style
}

func newStyles() styles { return stylesOf(lipgloss.NewStyle) }

// colourStyles colour whatever the terminal the output ends up in, as a
// recording must: it is made before anyone plays it.
func colourStyles() styles {
	// The profile set on the renderer itself: one given to its output only
	// is overridden by what the output is (not a terminal: no colour).
	r := lipgloss.NewRenderer(io.Discard)
	r.SetColorProfile(termenv.ANSI256)
	return stylesOf(r.NewStyle)
}

func stylesOf(newStyle func() lipgloss.Style) styles {
	return styles{
		title:     newStyle().Bold(true),
		dim:       newStyle().Faint(true),
		pane:      newStyle().Bold(true).Foreground(lipgloss.Color("12")),
		safe:      newStyle().Bold(true).Foreground(lipgloss.Color("0")).Background(lipgloss.Color("10")),
		unsafe:    newStyle().Bold(true).Foreground(lipgloss.Color("15")).Background(lipgloss.Color("9")),
		accepted:  newStyle().Foreground(lipgloss.Color("10")),
		rejected:  newStyle().Bold(true).Foreground(lipgloss.Color("9")),
		broken:    newStyle().Bold(true).Reverse(true),
		warn:      newStyle().Foreground(lipgloss.Color("11")),
		selected:  newStyle().Bold(true).Underline(true),
		guard:     newStyle().Bold(true),
		narration: newStyle().Italic(true),
		caption:   newStyle().Bold(true).Foreground(lipgloss.Color("15")).Background(lipgloss.Color("4")),
	}
}

// T is a message of the explorer in its language.
func (s styles) T(format string, args ...any) string { return s.lang.T(format, args...) }

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
