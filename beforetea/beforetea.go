// Package beforetea tells Lip Gloss the terminal's background before Bubble
// Tea's package init asks the terminal for it.
//
// Bubble Tea v1 calls lipgloss.HasDarkBackground in an init function, which
// writes an OSC 11 query and a cursor report to standard output and waits up
// to 5 s for the answer. A terminal that never answers (docker run -t
// without -i, script with piped input) then stalls every fencelab command
// 5 s, headless ones too, and one that answers late leaves the answer in the
// shell's input. fencelab draws with a fixed 256-colour palette and never
// asks what the background is, so it tells Lip Gloss one and nothing is
// queried.
//
// It is a module of its own only for its import path: Go initializes
// packages in the order of their import paths where dependencies allow
// (the spec's "Package initialization"), and fencelab.invalid sorts before
// github.com/charmbracelet/bubbletea, which a package of
// github.com/fencelab/fencelab never does. go.mod points the path here with
// a replace directive; the .invalid name can never be fetched from anywhere.
package beforetea

import "github.com/charmbracelet/lipgloss"

func init() {
	lipgloss.SetHasDarkBackground(true)
}
