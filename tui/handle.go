package tui

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/export"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/untrusted"
)

// What each key does. Keys that act on the lab become operations for its
// owner (run); the rest change what the screen shows.

func (m *Model) handleKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if key.Matches(msg, m.keys.Quit) && !(m.picking && m.picker.FilterState() == list.Filtering && msg.String() == "q") {
		m.interrupted = msg.String() == "ctrl+c" // exits 130, as a SIGINT would; q exits 0
		return m, tea.Quit
	}
	if msg.String() == "ctrl+z" {
		// The raw terminal reads Ctrl-Z as a key: stop the process as the
		// shell's job control would, the terminal given back first (and
		// taken again on fg). Stopped for longer than a key's second of
		// slack, a real Redis may drop it: the next action says so.
		if m.opts.Suspend != nil {
			m.opts.Suspend()
			return m, nil
		}
		return m, tea.Suspend
	}
	if m.width < minWidth || m.height < minHeight {
		return m, nil // nothing on screen to act on: only quitting and resizing
	}
	if m.holds(msg) {
		if len(m.held) < maxHeldKeys {
			m.held = append(m.held, msg)
		} else {
			m.setStatus(m.styles.T("%s dropped: %d keys are waiting already", untrusted.Line(msg.String()), maxHeldKeys), false)
		}
		return m, nil
	}
	if m.picking {
		return m.handlePickerKey(msg)
	}
	if m.showLog {
		switch msg.String() {
		case "up", "k":
			m.logScroll++
		case "down", "j":
			m.logScroll = max(0, m.logScroll-1)
		case "pgup":
			m.logScroll += 10
		case "pgdown", " ":
			m.logScroll = max(0, m.logScroll-10)
		default:
			m.showLog = false
		}
		return m, nil
	}
	if m.showHelp {
		switch msg.String() {
		case "up", "k":
			m.helpScroll = max(0, m.helpScroll-1)
		case "down", "j":
			m.helpScroll++
		case "pgup":
			m.helpScroll = max(0, m.helpScroll-10)
		case "pgdown", " ":
			m.helpScroll += 10
		default:
			m.showHelp = false
		}
		return m, nil
	}
	if !m.open {
		return m, nil // the start failed (m.fatal): only quitting is left
	}
	if m.exporting {
		return m, m.exportAs(msg.String())
	}
	if m.guarding {
		return m, m.handleGuardKey(msg)
	}
	if m.why.branching {
		m.why.branching = false
		return m, nil
	}
	if m.talk != nil {
		if handled, cmd := m.handleTalkKey(msg); handled {
			return m, cmd
		}
	}
	switch {
	case key.Matches(msg, m.keys.Help):
		m.showHelp, m.helpScroll = true, 0
	case key.Matches(msg, m.keys.Log):
		m.showLog, m.logScroll = true, 0
	case key.Matches(msg, m.keys.Split):
		return m, m.toggleSplit()
	case key.Matches(msg, m.keys.Why):
		return m, m.startWhy()
	case key.Matches(msg, m.keys.Branch):
		m.why.branching = true
	case key.Matches(msg, m.keys.Next):
		return m, m.next()
	case key.Matches(msg, m.keys.Step):
		i := int(msg.String()[0] - '1')
		if m.snap == nil || i >= len(m.snap.Actors) {
			m.setStatus(m.styles.T("there is no actor %d here", i+1), false)
			return m, nil
		}
		// A digit selects its actor too, so p acts on the actor last
		// stepped: "1 1 p" pauses A; "1" on a paused A selects it (and
		// says it is paused), "p" resumes it. A digit makes one call: a
		// step of several round trips (a read, then a write) can be
		// interleaved by hand, as check does.
		m.workers.selected = i
		name := m.snap.Actors[i].Name
		st := m.styles
		return m, m.run(func(ctx context.Context, lab *engine.Lab) error {
			// A paused actor is selected, not stepped: that is no failure,
			// and keys pressed after it ("1 p 1") still come.
			if a, err := lab.Actor(name); err == nil && a.Paused {
				return &notice{st.T("%s is paused (%s): selected — p resumes it", a.Name, a.Pause)}
			}
			return lab.Do(ctx, engine.DoCall(name))
		})
	case key.Matches(msg, m.keys.Select):
		m.workers.Update(msg, len(m.snap.Actors))
	case key.Matches(msg, m.keys.Pause):
		if m.workers.selected >= len(m.snap.Actors) {
			return m, nil
		}
		name := m.viewed().Actors[m.workers.selected].Name
		// Pause or resume is decided when the action runs, on the lab as it
		// is then: keys pressed quickly queue behind each other, and the
		// screen of the moment a key was pressed may be steps behind.
		return m, m.run(func(ctx context.Context, lab *engine.Lab) error {
			a, err := lab.Actor(name)
			if err != nil {
				return err
			}
			action := engine.Pause(name, "paused by you")
			if a.Paused {
				action = engine.Resume(name)
			}
			return lab.Do(ctx, action)
		})
	case key.Matches(msg, m.keys.Expire):
		action := engine.AdvanceToNextExpiry()
		return m, m.run(func(ctx context.Context, lab *engine.Lab) error { return lab.Do(ctx, action) })
	case key.Matches(msg, m.keys.Second):
		action := engine.AdvanceBy(time.Second)
		return m, m.run(func(ctx context.Context, lab *engine.Lab) error { return lab.Do(ctx, action) })
	case key.Matches(msg, m.keys.Reset):
		m.workers.selected = 0 // as the scenario starts
		return m, m.run(func(ctx context.Context, lab *engine.Lab) error { return lab.Reset(ctx) })
	case key.Matches(msg, m.keys.Undo):
		st := m.styles
		return m, m.run(func(ctx context.Context, lab *engine.Lab) error {
			if err := lab.Undo(ctx); err != nil {
				return err
			}
			// Said, or the status line would be blank after it.
			return &notice{st.T("undone: back to after action %d", len(lab.Schedule()))}
		})
	case key.Matches(msg, m.keys.Mode):
		other := engine.Unsafe
		if m.mode == engine.Unsafe {
			other = engine.Safe
		}
		if other == engine.Unsafe && !m.opts.AllowUnsafe {
			m.setStatus(m.styles.T("UNSAFE writes naive code paths into --pg's server; start fencelab with --allow-unsafe to allow it"), false)
			return m, nil
		}
		return m, m.openLab(m.scenario, other)
	case key.Matches(msg, m.keys.Guards):
		if m.mode == engine.Unsafe {
			m.setStatus(m.styles.T("UNSAFE is the naive code: it has no guards to remove (m switches to SAFE)"), false)
			return m, nil
		}
		m.guarding = true
		m.guardCursor = max(0, min(m.guardCursor, len(m.scenario.GuardList())-1))
	case key.Matches(msg, m.keys.Picker):
		m.picking = true
		m.picker.ResetFilter()
	case key.Matches(msg, m.keys.DSN):
		m.showDSN = !m.showDSN
	case key.Matches(msg, m.keys.Save):
		if m.opts.SaveTrace == nil {
			return m, nil
		}
		save := m.opts.SaveTrace
		return m, m.run(func(ctx context.Context, lab *engine.Lab) error {
			trace, err := lab.Trace(ctx)
			if err != nil {
				return err
			}
			path, err := save(trace)
			if err != nil {
				return &notice{m.styles.T("could not write the trace: %s", engine.OneLine(err))}
			}
			return &notice{m.styles.T("trace written: %s", path)}
		})
	case key.Matches(msg, m.keys.Focus):
		// f visits the panes in order and comes back to the timeline;
		// esc goes straight back.
		switch {
		case msg.String() == "esc":
			m.focus = focusTimeline
		case m.focus == m.lastPane():
			m.focus = focusTimeline
		default:
			m.focus++
			for !m.shows(m.focus) && m.focus < m.lastPane() {
				m.focus++ // a pane the file has nothing for
			}
			m.panes[m.focus].scroll = 0
		}
	case key.Matches(msg, m.keys.Export):
		if m.opts.Export == nil {
			return m, nil
		}
		m.exporting = true
		m.setStatus(m.styles.T("export as: m Markdown · d Mermaid · c cast · t VHS tape · g GIF · v SVG · esc"), true)
		if m.split != nil && m.opts.ExportDiff != nil {
			m.setStatus(m.styles.T("export as: m Markdown, d Mermaid (both sides, a diff) · c cast · t VHS tape · g GIF · v SVG (this side) · esc"), true)
		}
	case key.Matches(msg, m.keys.Scroll) && m.focus != focusTimeline:
		m.panes[m.focus].Update(msg)
	case key.Matches(msg, m.keys.Scroll), key.Matches(msg, m.keys.Open):
		m.timeline.Update(msg)
	case key.Matches(msg, m.keys.Travel):
		if m.history.Update(msg) {
			m.timeline.Follow()
		} else if msg.String() == "left" || msg.String() == "h" {
			m.setStatus(m.styles.T("this is the first recorded state: nothing before it"), true)
		} else {
			m.setStatus(m.styles.T("this is the live state: → goes no further"), true)
		}
	case key.Matches(msg, m.keys.Play):
		if m.playing {
			m.playing = false
			m.setStatus(m.styles.T("autoplay stopped"), true)
			return m, nil
		}
		m.playing = true
		m.setStatus(m.styles.T("autoplay: a guided step every %s — a stops, < > change the pace", m.pace), true)
		return m, m.autoplay()
	case key.Matches(msg, m.keys.Pace):
		paces := []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 3 * time.Second, 5 * time.Second}
		i := slices.Index(paces, m.pace)
		if msg.String() == "<" {
			i = min(len(paces)-1, i+1)
		} else {
			i = max(0, i-1)
		}
		m.pace = paces[i]
		m.setStatus(m.styles.T("autoplay pace: a guided step every %s", m.pace), true)
	default:
		// A key that does nothing says so, rather than nothing.
		m.setStatus(m.styles.T("%s does nothing here — ? lists the keys", untrusted.Line(msg.String())), false)
	}
	return m, nil
}

// next takes the guided order's next action.
func (m *Model) next() tea.Cmd {
	return m.run(func(ctx context.Context, lab *engine.Lab) error { return lab.Next(ctx) })
}

// exportAs takes the key pressed after x: a format, or anything else to
// cancel. The session is the snapshots the explorer recorded after each
// action (what it showed) with the lab's actions and trace.
func (m *Model) exportAs(pressed string) tea.Cmd {
	m.exporting = false
	format, ok := map[string]string{"m": "md", "d": "mermaid", "c": "cast", "t": "tape", "g": "gif", "v": "svg"}[pressed]
	if !ok {
		m.setStatus(m.styles.T("export cancelled"), true)
		return nil
	}
	if m.split != nil && m.opts.ExportDiff != nil && (format == "md" || format == "mermaid") {
		return m.exportDiff(format)
	}
	snaps, save := slices.Clone(m.history.snaps), m.opts.Export
	return m.run(func(ctx context.Context, lab *engine.Lab) error {
		actions := lab.Schedule()
		if len(snaps) != len(actions)+1 {
			return &notice{m.styles.T("could not export: %d actions but %d recorded screens (r starts again)", len(actions), len(snaps))}
		}
		trace, err := lab.Trace(ctx)
		if err != nil {
			return err
		}
		session := export.Session{Scenario: lab.Scenario(), Mode: lab.Mode(), Without: lab.Without(), Lang: lab.Backends().Lang, Trace: trace,
			Explored: true, Steps: []export.Step{{Snapshot: snaps[0]}}}
		for k, action := range actions {
			before, after := snaps[k], snaps[k+1]
			if len(before.Events) > len(after.Events) {
				return &notice{m.styles.T("could not export: the recorded screens are out of order (r starts again)")}
			}
			session.Steps = append(session.Steps, export.Step{Action: action, Events: after.Events[len(before.Events):], Snapshot: after})
		}
		path, err := save(format, session)
		if err != nil {
			return &notice{m.styles.T("could not export: %s", engine.OneLine(err))}
		}
		return &notice{m.styles.T("%s written: %s", format, path)}
	})
}

func (m *Model) handlePickerKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.picker.FilterState() != list.Filtering {
		switch msg.String() {
		case "esc":
			m.picking = false
			return m, nil
		case "enter":
			item, ok := m.picker.SelectedItem().(scenarioItem)
			if !ok {
				return m, nil
			}
			m.picking = false
			m.timeline.Follow()
			return m, m.openLab(item.s, m.mode)
		}
	}
	filtering := m.picker.FilterState() == list.Filtering
	var cmd tea.Cmd
	m.picker, cmd = m.picker.Update(msg)
	if filtering && m.picker.FilterState() == list.Filtering {
		m.filterNow()
	}
	return m, cmd
}

// filterNow filters the picker on the text typed so far, at once. The
// list filters in a command of its own, whose answer came after an Enter
// typed in the same burst (a paste, a fast typist, a busy machine): the
// Enter then took the matches of an earlier text, or none, and opened the
// first scenario of the whole catalog. The catalog is a few dozen entries;
// the command's answer is dropped (Update).
func (m *Model) filterNow() {
	m.picker.SetFilterText(m.picker.FilterValue()) // leaves the filter applied
	m.picker.SetFilterState(list.Filtering)        // still being typed
}

// describe turns an operation's error into the status line: a user's
// mistake is said plainly; a backend failure says the step did not happen.
// said is an error in the explorer's language, where it can be said in
// one (a lang.Error); else as it is.
func said(st styles, err error) string {
	if s, ok := err.(interface{ In(lang.Lang) string }); ok {
		return engine.OneLine(errors.New(s.In(st.lang)))
	}
	return engine.OneLine(err)
}

func describe(st styles, err error) string {
	var lost *connectionLostError
	switch {
	case errors.Is(err, errReconnected):
		return st.T("PostgreSQL connection lost: reconnected; the step was not taken — the lab is as it was after its last action")
	case errors.As(err, &lost):
		return st.T("PostgreSQL connection lost; the next key reconnects: %s", engine.ServerNames(engine.OneLine(lost.err)))
	case errors.Is(err, engine.ErrGuidedDone):
		return st.T("the guided order is over — r reset · m mode · s scenario · 1–9 step · ? help")
	case errors.Is(err, engine.ErrOffPath):
		return said(st, err) + ": " + st.T("r starts it again, u takes back your last action")
	case engine.StoryStopped(err):
		// The lab's own: a paused or finished actor, a statement waiting
		// for a lock, a connection another step holds.
		return said(st, err)
	default:
		return st.T("backend error, the step did not complete: %s", engine.ServerNames(engine.OneLine(err)))
	}
}

// handleGuardKey takes the keys of the guard list: ↑/↓ choose, space or
// enter takes the guard out of SAFE (or puts it back) and replays the run
// so far, anything else closes the list.
func (m *Model) handleGuardKey(msg tea.KeyMsg) tea.Cmd {
	switch msg.String() {
	case "up", "k":
		m.guardCursor = max(0, m.guardCursor-1)
	case "down", "j":
		m.guardCursor = min(len(m.scenario.GuardList())-1, m.guardCursor+1)
	case " ", "enter":
		if list := m.scenario.GuardList(); m.guardCursor < len(list) {
			return m.toggleGuard(list[m.guardCursor])
		}
	default:
		m.guarding = false
	}
	return nil
}

// toggleGuard takes a guard out of SAFE, or puts it back, and replays the
// actions taken so far with the new set, recording a screen after each:
// time travel and export then show the run as the new code makes it.
func (m *Model) toggleGuard(g engine.Guard) tea.Cmd {
	if !m.open || m.busy || m.snap == nil {
		return nil
	}
	m.busy, m.playing = true, false
	owner, set := m.owner, m.snap.Result.Without^engine.Guards(g)
	return func() tea.Msg {
		var snaps []engine.Snapshot
		snap, fresh, err := owner.do(func(ctx context.Context, lab *engine.Lab) error {
			return lab.SetWithout(ctx, set, func() error {
				s, err := lab.Snapshot(ctx)
				snaps = append(snaps, s)
				return err
			})
		})
		return guardsMsg{snaps: snaps, snap: snap, fresh: fresh, err: err, guard: g}
	}
}

// guardsMsg is the end of a change of the guards: the screens recorded as
// the run replayed, and the snapshot after it.
type guardsMsg struct {
	snaps []engine.Snapshot
	snap  engine.Snapshot
	fresh bool
	err   error
	guard engine.Guard
}

func (m *Model) guardsDone(msg guardsMsg) {
	m.busy = false
	if msg.fresh {
		m.snap = &msg.snap
		m.backends.Without = msg.snap.Result.Without // a scenario or mode opened next keeps the set
	}
	if len(msg.snaps) > 0 {
		m.history.snaps, m.history.cursor = msg.snaps, -1
	}
	m.timeline.Follow()
	switch {
	case msg.err != nil:
		m.setStatus(describe(m.styles, msg.err), false)
	case m.snap.Actions == 0 && m.snap.Result.Without.Has(msg.guard):
		m.setStatus(m.styles.T("%s removed: the run starts as %s", msg.guard, engine.ModeLabel(m.mode, m.snap.Result.Without)), true)
	case m.snap.Actions == 0:
		m.setStatus(m.styles.T("%s back: the run starts as %s", msg.guard, engine.ModeLabel(m.mode, m.snap.Result.Without)), true)
	case m.snap.Actions == 1 && m.snap.Result.Without.Has(msg.guard):
		m.setStatus(m.styles.T("%s removed: the action so far replayed without it", msg.guard), true)
	case m.snap.Actions == 1:
		m.setStatus(m.styles.T("%s back: the action so far replayed with it", msg.guard), true)
	case m.snap.Result.Without.Has(msg.guard):
		m.setStatus(m.styles.T("%s removed: the %d actions so far replayed without it", msg.guard, m.snap.Actions), true)
	default:
		m.setStatus(m.styles.T("%s back: the %d actions so far replayed with it", msg.guard, m.snap.Actions), true)
	}
}
