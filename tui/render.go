package tui

import (
	"context"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
)

// Frame draws the explorer's screen for a snapshot, at a size, as the
// explorer shows it after the action that led there — for a recording
// (fencelab export --to cast). status is the status line's text; colour
// makes it in ANSI colours whatever the output is.
func Frame(s engine.Snapshot, status string, width, height int, colour bool, l lang.Lang) string {
	m := New(context.Background(), Options{Catalog: []*engine.Scenario{s.Scenario}, Lang: l})
	defer m.Close()
	if colour {
		m.styles = colourStyles()
		m.styles.lang = l
	}
	m.width, m.height, m.help.Width = max(width, minWidth), max(height, minHeight), width
	m.snap, m.open, m.scenario, m.mode = &s, true, s.Scenario, s.Mode
	m.history.Start(s)
	m.status, m.statusOK = status, true
	return m.View()
}
