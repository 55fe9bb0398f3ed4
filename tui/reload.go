package tui

import (
	"context"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/fencelab/fencelab/engine"
)

// ReloadMsg is a scenario file that was saved again (fencelab --watch):
// the new version, or Err when it no longer compiles. A new version takes
// the place of the old wherever the explorer shows it; the lab, if it
// runs that scenario, replays the actions taken so far on it. A version
// that does not compile changes nothing but the status line, which says
// where the file is wrong, until a good save comes.
type ReloadMsg struct {
	File     string
	Scenario *engine.Scenario
	Err      error
}

// reloadedMsg is the lab reopened on a new version and replayed.
type reloadedMsg struct {
	snaps           []engine.Snapshot
	snap            engine.Snapshot
	replayed, total int
	// kept: the servers refused the new version (err says where), and
	// the last good version runs again, replayed to the place.
	kept bool
	err  error
}

func (m *Model) reload(msg ReloadMsg) tea.Cmd {
	if msg.Err != nil {
		// Said until a good save: the screen runs the last good version.
		m.watchErr = m.styles.T("%s — the last good version runs", said(m.styles, msg.Err))
		m.setStatus(m.watchErr, false)
		return nil
	}
	m.watchErr = ""
	s := msg.Scenario
	for i, c := range m.opts.Catalog {
		if c.File == msg.File {
			m.opts.Catalog[i] = s
		}
	}
	if m.talk != nil {
		for i, scene := range m.talk.Scenes {
			if scene.Scenario.File == msg.File {
				m.talk.Scenes[i].Scenario = s
			}
		}
	}
	m.picker = newPicker(m.opts.Catalog, m.opts.Lang)
	m.picker.SetSize(m.width, m.height-1)
	if m.scenario.File != msg.File {
		m.setStatus(m.styles.T("%s reloaded", msg.File), true)
		return nil
	}
	if m.backends == nil {
		m.scenario = s // the lab opens on the new version when the backends are up
		return nil
	}
	if m.busy || !m.open {
		// An action runs on the old version: the new one waits its turn
		// (and the keys held, for the version made then).
		m.pendingReload = &msg
		return nil
	}
	m.busy, m.playing = true, false
	m.history.Leave()
	// The shares of broken futures were the old code's: a version checked
	// before is checked again once it replays, so they come back true.
	m.why.recheck = m.checkedFile(msg.File)
	owner, backends, mode := m.owner, *m.backends, m.mode
	return func() tea.Msg {
		var snaps []engine.Snapshot
		snap, replayed, total, kept, err := owner.reload(backends, s, mode, func(lab *engine.Lab) error {
			shot, err := lab.Snapshot(context.Background())
			snaps = append(snaps, shot)
			return err
		})
		return reloadedMsg{snaps: snaps, snap: snap, replayed: replayed, total: total, kept: kept, err: err}
	}
}

// checkedFile reports whether a version of file has its shares (c), or
// has them coming.
func (m *Model) checkedFile(file string) bool {
	for k := range m.why.graphs {
		if k.scenario.File == file {
			return true
		}
	}
	return m.why.running != nil && m.why.running.scenario.File == file
}

func (m *Model) reloaded(msg reloadedMsg) tea.Cmd {
	m.busy = false
	recheck := m.why.recheck
	m.why.recheck = false
	if len(msg.snaps) > 0 {
		m.history.snaps, m.history.cursor = msg.snaps, -1
	}
	if msg.snap.Scenario != nil {
		m.snap = &msg.snap
		m.scenario = msg.snap.Scenario
	}
	m.timeline.Follow()
	switch {
	case msg.kept:
		// As a save that does not compile: the old version stands, in
		// the catalog too, until a good save comes.
		for i, c := range m.opts.Catalog {
			if c.File == m.scenario.File {
				m.opts.Catalog[i] = m.scenario
			}
		}
		m.picker = newPicker(m.opts.Catalog, m.opts.Lang)
		m.picker.SetSize(m.width, m.height-1)
		m.watchErr = m.styles.T("%s — the last good version runs", said(m.styles, msg.err))
		m.setStatus(m.watchErr, false)
		return nil
	case msg.err != nil && msg.replayed < msg.total:
		m.setStatus(m.styles.T("%s reloaded; %d of %d actions replayed — the next no longer applies: %s",
			m.scenario.File, msg.replayed, msg.total, said(m.styles, msg.err)), false)
	case msg.err != nil:
		m.setStatus(m.styles.T("%s reloaded, but: %s", m.scenario.File, said(m.styles, msg.err)), false)
	case msg.replayed == 1:
		m.setStatus(m.styles.T("%s reloaded; its one action replayed", m.scenario.File), true)
	default:
		m.setStatus(m.styles.T("%s reloaded; %d actions replayed", m.scenario.File, msg.replayed), true)
	}
	if recheck && msg.err == nil && m.snap != nil {
		return m.startWhy()
	}
	return nil
}
