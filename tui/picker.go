package tui

import (
	"github.com/charmbracelet/bubbles/list"

	"github.com/fencelab/fencelab/engine"
)

// scenarioItem is a catalog entry in the picker. The picker knows no
// scenario by name: it lists whatever the catalog holds.
type scenarioItem struct{ s *engine.Scenario }

func (i scenarioItem) Title() string       { return i.s.ID + " — " + i.s.Title }
func (i scenarioItem) Description() string { return i.s.Story }
func (i scenarioItem) FilterValue() string { return i.s.ID + " " + i.s.Title }

func newPicker(catalog []*engine.Scenario) list.Model {
	items := make([]list.Item, len(catalog))
	for i, s := range catalog {
		items[i] = scenarioItem{s}
	}
	l := list.New(items, list.NewDefaultDelegate(), 80, 20)
	l.Title = "Scenarios — enter to open, esc to go back"
	l.SetShowHelp(false)
	l.SetShowStatusBar(false)
	return l
}
