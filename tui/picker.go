package tui

import (
	"github.com/charmbracelet/bubbles/list"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
)

// scenarioItem is a catalog entry in the picker. The picker knows no
// scenario by name: it lists whatever the catalog holds, in the explorer's
// language.
type scenarioItem struct {
	s    *engine.Scenario
	lang lang.Lang
}

// Title names a scenario file's path too: a file may share its id with
// the catalog's scenario it was made from.
func (i scenarioItem) Title() string {
	if i.s.File != "" {
		return i.s.ID + " — " + i.lang.T(i.s.Title) + " (" + i.s.File + ")"
	}
	return i.s.ID + " — " + i.lang.T(i.s.Title)
}
func (i scenarioItem) Description() string { return i.lang.T(i.s.Story) }
func (i scenarioItem) FilterValue() string {
	return i.s.ID + " " + i.s.Title + " " + i.lang.T(i.s.Title) + " " + i.s.File
}

func newPicker(catalog []*engine.Scenario, l lang.Lang) list.Model {
	items := make([]list.Item, len(catalog))
	for i, s := range catalog {
		items[i] = scenarioItem{s: s, lang: l}
	}
	picker := list.New(items, list.NewDefaultDelegate(), 80, 20)
	picker.Title = l.T("Scenarios — enter to open, esc to go back")
	picker.SetShowHelp(false)
	picker.SetShowStatusBar(false)
	return picker
}
