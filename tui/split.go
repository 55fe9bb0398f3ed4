package tui

import (
	"context"
	"errors"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
)

// The split screen (v): the same scenario in the other mode beside the one
// on screen, on backends of its own, taking the same actions in the same
// order. After each action of the explorer the other side catches up with
// the explorer's schedule; one it undid or reset is replayed. An action the
// other mode's code cannot take (an actor that finished sooner) stops that
// side there, and it says why.

// splitSide is the other mode's lab and what it showed last.
type splitSide struct {
	owner    *labOwner
	backends *engine.Backends
	scenario *engine.Scenario
	mode     engine.Mode
	snap     *engine.Snapshot
	timeline timeline
	// stopped is why the side could not take the explorer's next action.
	stopped string
	// shots are the screens read after each number of actions, so going
	// back in time shows both sides as they were.
	shots map[int]*engine.Snapshot
	// busy: a catch-up runs; again: another was asked for meanwhile.
	busy, again bool
}

// splitMsg is a catch-up of the other side done.
type splitMsg struct {
	side     *splitSide
	backends *engine.Backends
	snap     engine.Snapshot
	stopped  string
	err      error
	// shots are the screens after each action taken now; fresh: the lab
	// started over, and the older ones no longer hold.
	shots []engine.Snapshot
	fresh bool
}

func otherMode(m engine.Mode) engine.Mode {
	if m == engine.Safe {
		return engine.Unsafe
	}
	return engine.Safe
}

// toggleSplit opens the split screen, or closes it.
func (m *Model) toggleSplit() tea.Cmd {
	if m.split != nil {
		side := m.split
		m.split = nil
		m.setStatus(m.styles.T("split screen closed"), true)
		return func() tea.Msg {
			side.owner.close()
			return nil
		}
	}
	if m.opts.StartOther == nil {
		m.setStatus(m.styles.T("the split screen needs backends of its own, which fencelab starts only for itself (not with --pg)"), false)
		return nil
	}
	if !m.opts.AllowUnsafe && m.mode == engine.Safe {
		m.setStatus(m.styles.T("the split screen shows UNSAFE beside SAFE: not on your own server without --allow-unsafe"), false)
		return nil
	}
	m.split = &splitSide{owner: newLabOwner(m.ctx), backends: m.otherBackends}
	if !sameActions(m.scenario.Guided(engine.Safe), m.scenario.Guided(engine.Unsafe)) {
		m.setStatus(m.styles.T("split screen: %s beside %s, each on its own guided order while you follow yours, else the same actions — v closes it",
			otherMode(m.mode), engine.ModeLabel(m.mode, withoutOf(m.snap))), true)
		return m.catchUp()
	}
	m.setStatus(m.styles.T("split screen: %s beside %s, the same actions — v closes it", otherMode(m.mode), engine.ModeLabel(m.mode, withoutOf(m.snap))), true)
	return m.catchUp()
}

// catchUp brings the other side to the explorer's schedule: the same
// scenario in the other mode, the same actions.
func (m *Model) catchUp() tea.Cmd {
	side := m.split
	if side == nil {
		return nil
	}
	if side.busy {
		side.again = true
		return nil
	}
	side.busy = true
	primary, s, mode, start, l := m.owner, m.scenario, otherMode(m.mode), m.opts.StartOther, m.styles.lang
	reopen := side.snap == nil || side.scenario != s || side.mode != mode
	side.scenario, side.mode = s, mode
	backends := side.backends
	return func() tea.Msg {
		msg := splitMsg{side: side}
		if backends == nil {
			b, err := start(side.owner.ctx)
			if err != nil {
				msg.err = err
				return msg
			}
			backends = &b
		}
		msg.backends = backends
		schedule, err := primary.schedule()
		if err != nil {
			msg.err = err
			return msg
		}
		schedule = storyFor(s, otherMode(mode), schedule)
		if reopen {
			if _, err := side.owner.open(*backends, s, mode); err != nil {
				msg.err = err
				return msg
			}
		}
		var stopped error
		snap, fresh, err := side.owner.do(func(ctx context.Context, lab *engine.Lab) error {
			msg.fresh, msg.shots, stopped = follow(ctx, lab, schedule)
			return nil
		})
		msg.fresh = msg.fresh || reopen
		if err == nil && !fresh {
			err = errors.New("the other side's snapshot could not be read")
		}
		msg.snap, msg.err = snap, err
		if stopped != nil {
			msg.stopped = stopped.Error()
			if said, ok := stopped.(interface{ In(lang.Lang) string }); ok {
				msg.stopped = said.In(l)
			}
		}
		return msg
	}
}

// storyFor is what the other side takes for the explorer's schedule in
// mode: the same actions — unless the scenario tells its story in each
// mode with a guided order of its own and the explorer is on its mode's:
// then the other side goes as far along its own guided order, in
// proportion, the two at their ends together. The other mode's programs
// need not take the same actions (UNSAFE cross-job-collision's workers
// take no lease), so the same ones would stop it short.
func storyFor(s *engine.Scenario, mode engine.Mode, schedule []engine.Action) []engine.Action {
	mine, theirs := s.Guided(mode), s.Guided(otherMode(mode))
	if sameActions(mine, theirs) || len(schedule) > len(mine) || !sameActions(schedule, mine[:len(schedule)]) {
		return schedule
	}
	n := len(theirs)
	if len(schedule) < len(mine) {
		n = len(schedule) * len(theirs) / len(mine)
	}
	return theirs[:n]
}

// follow takes the actions of schedule the lab has not taken: the rest of
// it when the lab's own schedule is a beginning of it, else all of it
// again from the seed. It returns why it stopped short, if it did.
func follow(ctx context.Context, lab *engine.Lab, schedule []engine.Action) (fresh bool, shots []engine.Snapshot, stopped error) {
	own := lab.Schedule()
	shoot := func() error {
		s, err := lab.Snapshot(ctx)
		shots = append(shots, s)
		return err
	}
	if len(own) > len(schedule) || !sameActions(own, schedule[:len(own)]) {
		if err := lab.Reset(ctx); err != nil {
			return true, shots, err
		}
		own, fresh = nil, true
	}
	if len(own) == 0 {
		if err := shoot(); err != nil { // the seeded state
			return fresh, shots, err
		}
	}
	for _, a := range schedule[len(own):] {
		if err := lab.Do(ctx, a); err != nil {
			return fresh, shots, lang.Error("%s not taken: %w", a.Words(), err)
		}
		if err := shoot(); err != nil {
			return fresh, shots, err
		}
	}
	return fresh, shots, nil
}

func sameActions(a, b []engine.Action) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].Actor != b[i].Actor || a[i].With != b[i].With || a[i].By != b[i].By {
			return false
		}
	}
	return true
}

func (m *Model) splitDone(msg splitMsg) tea.Cmd {
	side := msg.side
	side.busy = false
	if m.split != side {
		return nil // closed meanwhile
	}
	if msg.backends != nil {
		side.backends, m.otherBackends = msg.backends, msg.backends
	}
	if msg.err != nil {
		m.split = nil
		m.setStatus(m.styles.T("the split screen could not go on: %s", said(m.styles, msg.err)), false)
		go side.owner.close()
		return nil
	}
	side.snap, side.stopped = &msg.snap, msg.stopped
	if msg.fresh || side.shots == nil {
		side.shots = map[int]*engine.Snapshot{}
	}
	for i := range msg.shots {
		side.shots[msg.shots[i].Actions] = &msg.shots[i]
	}
	side.shots[msg.snap.Actions] = &msg.snap
	side.timeline.Follow()
	if side.again {
		side.again = false
		return m.catchUp()
	}
	return nil
}

// splitView is the split screen: each side's header, result and
// invariants, then its timeline; the status line and the keys below both.
func (m *Model) splitView() string {
	st, w := m.styles, m.width
	half := (w - 2) / 2
	footer := m.footer()
	// Above both sides: where a talk is, or that the screen is a recorded
	// one; below them, the talk's caption, large.
	s := m.viewed()
	var top, caption []string
	if m.talk != nil {
		top = append(top, m.talkHeader(s))
		if c := m.talkCaption(s); c != "" {
			caption = captionLines(st, c, nil, w, 4)
		}
	}
	past, inPast := m.history.Past()
	if at, newest := m.history.Position(); at >= 0 {
		top = append(top, st.warn.Render(st.T("◀ recorded after action %d of %d", at, newest))+
			st.dim.Render(st.T(" · → forward · an action continues from here and drops the later ones")))
	}
	room := m.height - len(footer) - len(top) - len(caption)
	m.timeline.shares = m.timelineShares(s)
	var left, right []string
	side := m.split
	side.timeline.shares = nil
	if side.snap != nil {
		shown := *side.snap
		if inPast && side.shots[past.Actions] != nil {
			shown = *side.shots[past.Actions]
		}
		side.timeline.shares = sharesAlong(st, m.why.graphs[m.whyKeyOf(shown)], shown, func(k int) (engine.Snapshot, bool) {
			if shot := side.shots[k]; shot != nil {
				return *shot, true
			}
			return engine.Snapshot{}, false
		})
	}
	switch {
	case side.snap == nil:
		left = m.sideColumn(s, &m.timeline, "", half, room)
		right = []string{st.dim.Render(st.T("opening %s in %s mode beside it…", m.scenario.ID, otherMode(m.mode)))}
	case inPast && side.shots[past.Actions] != nil:
		// The other side as it was after as many actions.
		left, right = m.sideColumns(s, *side.shots[past.Actions], "", half, w-half-3, room)
	default:
		left, right = m.sideColumns(s, *side.snap, side.stopped, half, w-half-3, room)
	}
	for i := range right {
		right[i] = " " + right[i] // sideBySide's rule has no room after it
	}
	lines := append(top, sideBySide(left, right, half, room)...)
	lines = append(append(lines, caption...), footer...)
	return strings.Join(fit(lines, w), "\n")
}

// sideColumns are the two sides of the split screen, this one (s) and
// the other, lined up: their heads as tall as each other, and each
// action's entries on both timelines starting on the same row, so what
// one action did in each mode is read across.
func (m *Model) sideColumns(s, other engine.Snapshot, stopped string, width, otherWidth, height int) (left, right []string) {
	left = m.sideHead(s, "", width)
	right = m.sideHead(other, stopped, otherWidth)
	for len(left) < len(right) {
		left = append(left, "")
	}
	for len(right) < len(left) {
		right = append(right, "")
	}
	rest := height - len(left)
	if rest <= 0 {
		return fit(left, width), fit(right, otherWidth)
	}
	mine, theirs := m.actionBounds(s), m.split.actionBounds(other)
	if mine == nil || theirs == nil || m.timeline.scroll > 0 || m.split.timeline.scroll > 0 {
		// Scrolled, or a side whose every action was not seen: each
		// timeline on its own.
		left = append(left, m.timeline.View(m.styles, s, width, rest, "")...)
		right = append(right, m.split.timeline.View(m.styles, other, otherWidth, rest, "")...)
		return fit(left, width), fit(right, otherWidth)
	}
	l, r := alignedTimelines(m.styles, s, mine, &m.timeline, width, other, theirs, &m.split.timeline, otherWidth, rest)
	return fit(append(left, l...), width), fit(append(right, r...), otherWidth)
}

// actionBounds are how many of s's events there were after each of its
// actions (bounds[k]: after k), from the screens recorded after each; nil
// where one of them is missing or is another run's.
func (m *Model) actionBounds(s engine.Snapshot) []int {
	return boundsFrom(s, func(k int) (engine.Snapshot, bool) {
		if k >= len(m.history.snaps) {
			return engine.Snapshot{}, false
		}
		return m.history.snaps[k], true
	})
}

func (side *splitSide) actionBounds(s engine.Snapshot) []int {
	return boundsFrom(s, func(k int) (engine.Snapshot, bool) {
		if shot := side.shots[k]; shot != nil {
			return *shot, true
		}
		return engine.Snapshot{}, false
	})
}

func boundsFrom(s engine.Snapshot, after func(k int) (engine.Snapshot, bool)) []int {
	bounds := make([]int, s.Actions+1)
	for k := 0; k < s.Actions; k++ {
		shot, ok := after(k)
		if !ok || shot.Actions != k || len(shot.Events) > len(s.Events) {
			return nil
		}
		bounds[k] = len(shot.Events)
	}
	bounds[s.Actions] = len(s.Events)
	for k := 1; k <= s.Actions; k++ {
		if bounds[k] < bounds[k-1] {
			return nil
		}
	}
	return bounds
}

// alignedTimelines draws two timelines in height lines each, newest at
// the bottom, an action's entries on both sides padded to the taller of
// the two, so action k begins on the same row on both.
func alignedTimelines(st styles, a engine.Snapshot, aBounds []int, aTL *timeline, aWidth int,
	b engine.Snapshot, bBounds []int, bTL *timeline, bWidth int, height int) ([]string, []string) {
	entries := func(s engine.Snapshot, tl *timeline, width int, bounds []int, k int) []string {
		if k >= len(bounds) {
			return nil
		}
		from := 0
		if k > 0 {
			from = bounds[k-1]
		}
		c, broken := columnsOf(s, width), brokenAt(s)
		if tl.shares != nil {
			c = c.withShares(tl.shares)
		}
		var lines []string
		for i := from; i < bounds[k]; i++ {
			entry := c.entry(st, s.Events[i], broken[s.Events[i].Sequence])
			if c.shares != nil {
				entry = c.withShare(entry, i)
			}
			lines = append(lines, entry...)
		}
		return lines
	}
	room := height - 1 // the title
	var left, right []string
	for k := max(len(aBounds), len(bBounds)) - 1; k >= 0; k-- {
		l, r := entries(a, aTL, aWidth, aBounds, k), entries(b, bTL, bWidth, bBounds, k)
		tall := max(len(l), len(r))
		for len(l) < tall {
			l = append(l, "")
		}
		for len(r) < tall {
			r = append(r, "")
		}
		if len(left)+tall > room {
			if len(left) == 0 {
				left, right = l[:room], r[:room] // an action taller than the pane: its head
			}
			break
		}
		left, right = append(l, left...), append(r, right...)
	}
	for len(left) < room {
		left, right = append([]string{""}, left...), append([]string{""}, right...)
	}
	aTL.focused, bTL.focused = len(a.Events)-1, len(b.Events)-1
	return append(aTL.View(st, a, aWidth, 1, "")[:1], left...), append(bTL.View(st, b, bWidth, 1, "")[:1], right...)
}

// sideHead is a side's lines above its timeline: its mode and clock, its
// actions, why it stopped, its result and invariants.
func (m *Model) sideHead(s engine.Snapshot, stopped string, width int) []string {
	st := m.styles
	mode := st.safe.Render(" " + engine.ModeLabel(s.Mode, s.Result.Without) + " ")
	if s.Mode == engine.Unsafe {
		mode = st.unsafe.Render(" UNSAFE ")
	}
	lines := []string{
		ansi.Truncate(mode+" "+st.title.Render(s.Scenario.ID)+"  "+st.T("clock %s", engine.FormatClock(s.Clock)), width, "…"),
		ansi.Truncate(st.dim.Render(st.T("actions %d · guided %d/%d", s.Actions, s.GuidedDone, s.GuidedTotal))+m.sideFutures(s), width, "…"),
	}
	if stopped != "" {
		lines = append(lines, ansi.Truncate(st.rejected.Render(stopped), width, "…"))
	}
	// A broken invariant's sentence wraps rather than being cut: the
	// split screen is read for the verdicts side by side.
	lines = append(lines, resultLines(st, s, width, 2+min(2, len(s.Result.Breaks)))...)
	return append(lines, invariantBar(st, s, width), st.dim.Render(strings.Repeat("─", width)))
}

// sideColumn is one side of the split screen at a width, alone.
func (m *Model) sideColumn(s engine.Snapshot, tl *timeline, stopped string, width, height int) []string {
	lines := m.sideHead(s, stopped, width)
	if rest := height - len(lines); rest > 0 {
		lines = append(lines, tl.View(m.styles, s, width, rest, "")...)
	}
	return fit(lines, width)
}

// exportDiff writes the split screen as a diff: the explorer's schedule
// run on this side's mode and guards beside the other side's, as diff
// does (run again on backends of their own, with the guard that decided
// the divergence found).
func (m *Model) exportDiff(format string) tea.Cmd {
	front := engine.DiffSpec{Mode: m.mode, Without: withoutOf(m.snap)}
	other := engine.DiffSpec{Mode: otherMode(m.mode)}
	s, write, st := m.scenario, m.opts.ExportDiff, m.styles
	return m.run(func(ctx context.Context, lab *engine.Lab) error {
		schedule := lab.Schedule()
		if len(schedule) == 0 {
			return &notice{st.T("nothing to export yet: take an action first")}
		}
		path, err := write(ctx, format, s, schedule, [2]engine.DiffSpec{front, other})
		if err != nil {
			return &notice{st.T("could not export: %s", said(st, err))}
		}
		return &notice{st.T("%s written: %s", format, path)}
	})
}
