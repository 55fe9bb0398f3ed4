package tui

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/stress"
)

// Why it broke, in the explorer: c runs `check --why` for the scenario,
// mode and guards on screen, in the background, on backends of its own.
// Once it is done the timeline shows, beside each action, the share of
// the ways the run can go on from there that break an invariant; the
// header says where the point of no return is (or that there is none);
// and b lists what can happen next, each with its share — the "what if"
// a speaker asks the room. Shares come from the check's graph, exactly;
// a state the check never reached (the clock moved by a second, say)
// shows none.

// whyKey is what a check's graph holds for: a scenario, a mode, and the
// guards taken out of SAFE.
type whyKey struct {
	scenario *engine.Scenario
	mode     engine.Mode
	without  engine.GuardSet
}

// whyState is the explorer's checks: the graphs done, the one running.
type whyState struct {
	graphs  map[whyKey]*engine.Why
	running *whyKey
	queued  []whyKey // asked for while another ran, in order
	// recheck: a reload replays a version whose shares were checked; the
	// new version is checked once it has.
	recheck  bool
	progress engine.CheckProgress
	updates  chan tea.Msg // the running check's progress, then its end
	// branching: the list of next actions (b) is open.
	branching bool
}

type whyProgressMsg struct {
	key whyKey
	p   engine.CheckProgress
}

type whyDoneMsg struct {
	key whyKey
	why *engine.Why
	err error
}

// branchKey is the key that lists what can happen next: b, or o in a
// talk (whose b blanks the screen).
func (m *Model) branchKey() string {
	if m.talk != nil {
		return "o"
	}
	return "b"
}

func (m *Model) whyKeyOf(s engine.Snapshot) whyKey {
	return whyKey{scenario: s.Scenario, mode: s.Mode, without: s.Result.Without}
}

// graph is the check's graph for what is on screen, if one is done.
func (m *Model) graph() *engine.Why {
	if m.snap == nil {
		return nil
	}
	return m.why.graphs[m.whyKeyOf(*m.snap)]
}

// startWhy runs the check for what is on screen, unless it ran.
func (m *Model) startWhy() tea.Cmd {
	st := m.styles
	if m.opts.Check == nil {
		m.setStatus(st.T("check needs backends of its own, which fencelab starts only for itself (not with --pg): run fencelab check ID --why"), false)
		return nil
	}
	k := m.whyKeyOf(*m.snap)
	switch {
	case m.why.graphs[k] != nil:
		m.setStatus(st.T("checked already: the shares are beside the timeline's actions · %s what can happen next", m.branchKey()), true)
		return nil
	case m.why.running != nil && *m.why.running == k:
		m.setStatus(st.T("a check of this is running already; it goes on in the background"), false)
		return nil
	case m.why.running != nil:
		// One check at a time (the machine's cores are the explorer's
		// too): this one runs when the one running ends.
		if !slices.Contains(m.why.queued, k) {
			m.why.queued = append(m.why.queued, k)
		}
		m.setStatus(st.T("queued: %s %s is checked once the check running ends", k.scenario.ID, engine.ModeLabel(k.mode, k.without)), true)
		return nil
	}
	return m.runWhy(k)
}

// runWhy starts the check of k in the background.
func (m *Model) runWhy(k whyKey) tea.Cmd {
	st := m.styles
	m.why.running, m.why.progress = &k, engine.CheckProgress{}
	updates := make(chan tea.Msg, 1)
	m.why.updates = updates
	check, ctx := m.opts.Check, m.ctx
	m.setStatus(st.T("checking %s %s: every schedule, in the background…", k.scenario.ID, engine.ModeLabel(k.mode, k.without)), true)
	go func() {
		why, err := check(ctx, k.scenario, k.mode, k.without, func(p engine.CheckProgress) {
			select { // the newest count is enough: one waits, the rest pass
			case updates <- whyProgressMsg{key: k, p: p}:
			default:
			}
		})
		updates <- whyDoneMsg{key: k, why: why, err: err}
	}()
	return listen(updates)
}

// listen waits for the running check's next word.
func listen(updates chan tea.Msg) tea.Cmd {
	return func() tea.Msg { return <-updates }
}

func (m *Model) whyProgress(msg whyProgressMsg) tea.Cmd {
	m.why.progress = msg.p
	return listen(m.why.updates)
}

func (m *Model) whyDone(msg whyDoneMsg) tea.Cmd {
	st := m.styles
	m.why.running, m.why.updates = nil, nil
	onScreen := m.snap != nil && m.whyKeyOf(*m.snap) == msg.key
	switch {
	case msg.err != nil:
		m.setStatus(st.T("the check of %s could not finish: %s", msg.key.scenario.ID, said(st, msg.err)), false)
	default:
		if m.why.graphs == nil {
			m.why.graphs = map[whyKey]*engine.Why{}
		}
		m.why.graphs[msg.key] = msg.why
		switch {
		case !onScreen:
			// Said when it is on screen again: the header shows it.
		case !msg.why.Exact:
			m.setStatus(st.T("checked, but no shares: %s", msg.why.Inexact.In(st.lang)), false)
		case !m.countsTheVerdict(msg.key):
			m.setStatus(st.T("checked %s: %s states · %s is a matter of progress, not of an invariant: the shares count broken invariants only",
				msg.key.scenario.ID, stress.FormatCount(msg.why.States), msg.key.scenario.Predicted[engine.Unsafe].Verdict), true)
		default:
			m.setStatus(st.T("checked %s: %s states · the timeline shows each action's share of broken futures · %s what can happen next",
				msg.key.scenario.ID, stress.FormatCount(msg.why.States), m.branchKey()), true)
		}
	}
	if len(m.why.queued) > 0 {
		next := m.why.queued[0]
		m.why.queued = m.why.queued[1:]
		status, ok := m.status, m.statusOK
		cmd := m.runWhy(next)
		if !onScreen || msg.err != nil {
			m.setStatus(status, ok) // what the check on screen said stays
		}
		return cmd
	}
	return nil
}

// countsTheVerdict: the shares say something of the verdict UNSAFE is
// known for — it is an invariant's anomaly, not STUCK (a matter of
// progress, which no invariant states).
func (m *Model) countsTheVerdict(k whyKey) bool {
	p, ok := k.scenario.Predicted[engine.Unsafe]
	return k.mode != engine.Unsafe || !ok || k.scenario.BreaksAnInvariant(p.Verdict)
}

// whyHeader is the header's word on the futures: the check running, the
// share of the futures here, the point of no return; empty without a
// check.
func (m *Model) whyHeader(s engine.Snapshot) string {
	st := m.styles
	if r := m.why.running; r != nil && *r == m.whyKeyOf(s) {
		return st.warn.Render(st.T("checking… %s states", stress.FormatCount(m.why.progress.States)))
	}
	why := m.graph()
	if why == nil {
		return ""
	}
	root, ok := why.Root()
	here, known := why.At(s.State)
	switch {
	case !ok:
		return st.dim.Render(st.T("no shares: %s", why.Inexact.In(st.lang)))
	case !known:
		return st.dim.Render(st.T("this state is outside the check's graph"))
	case root.Broken[0].Sign() == 0:
		return st.accepted.Render(st.T("no future of this state breaks an invariant"))
	}
	now := st.T("futures here: %s break", shareStyled(st, here.Share(0, s.Broken)))
	point, _ := engine.PointOfNoReturn(m.whySteps())
	switch {
	case point > s.Actions:
		return now // not reached yet, on screen
	case point == 0:
		return now + st.dim.Render(" · ") + st.broken.Render(st.T("no return from the seed"))
	case point > 0:
		return now + st.dim.Render(" · ") + st.broken.Render(st.T("no return since action %d", point))
	}
	return now
}

// whySteps are the recorded snapshots as points of the run, for the
// point of no return.
func (m *Model) whySteps() []engine.WhyStep {
	why := m.graph()
	if why == nil {
		return nil
	}
	var steps []engine.WhyStep
	for _, snap := range m.history.snaps {
		f, known := why.At(snap.State)
		steps = append(steps, engine.WhyStep{Past: snap.Broken, Futures: f, Known: known})
	}
	return steps
}

// timelineShares are the shares to show beside the timeline: the last
// event of each action the history recorded, the share after it.
func (m *Model) timelineShares(s engine.Snapshot) map[int]string {
	return sharesAlong(m.styles, m.graph(), s, func(k int) (engine.Snapshot, bool) {
		if k < len(m.history.snaps) {
			return m.history.snaps[k], true
		}
		return engine.Snapshot{}, false
	})
}

// sharesAlong are the shares beside a timeline's events from the screens
// read after each number of actions (at), up to s's: the last event of
// each action carries the share after it; none without an exact graph.
func sharesAlong(st styles, why *engine.Why, s engine.Snapshot, at func(k int) (engine.Snapshot, bool)) map[int]string {
	if why == nil || !why.Exact {
		return nil
	}
	shares := map[int]string{}
	before, ok := at(0)
	for k := 1; ok && k <= s.Actions; k++ {
		after, recorded := at(k)
		if !recorded {
			break
		}
		last := len(after.Events) - 1
		if last >= len(before.Events) && last < len(s.Events) { // an action that said nothing has no line
			if f, known := why.At(after.State); known {
				shares[last] = shareStyled(st, f.Share(0, after.Broken))
			} else {
				shares[last] = st.dim.Render("  —")
			}
		}
		before = after
	}
	return shares
}

// sideFutures is the split screen's other side's word on its futures, when
// a check of its mode ran: the share here.
func (m *Model) sideFutures(s engine.Snapshot) string {
	why := m.why.graphs[m.whyKeyOf(s)]
	if why == nil {
		return ""
	}
	root, ok := why.Root()
	if !ok {
		return ""
	}
	f, known := why.At(s.State)
	switch {
	case !known:
		return " · " + m.styles.dim.Render(m.styles.T("this state is outside the check's graph"))
	case root.Broken[0].Sign() == 0:
		return " · " + m.styles.accepted.Render(m.styles.T("no future breaks an invariant"))
	}
	return " · " + m.styles.T("futures here: %s break", shareStyled(m.styles, f.Share(0, s.Broken)))
}

// shareStyled is a share in colour: green when no future breaks, red when
// every one does, yellow between.
func shareStyled(st styles, r *big.Rat) string {
	text := engine.Percent(r)
	style := st.warn
	switch {
	case r.Sign() == 0:
		style = st.accepted
	case r.Cmp(big.NewRat(1, 1)) == 0:
		style = st.broken
	}
	return style.Render(text)
}

// branchesView lists what can happen next at the state on screen: each
// action the check takes there, with the share of broken futures after
// it, and what it breaks itself.
func (m *Model) branchesView() string {
	st := m.styles
	s := m.viewed()
	why := m.graph()
	where := st.T("%s, after action %d", s.Scenario.ID, s.Actions)
	if s.Actions == 0 {
		where = st.T("%s, at the seeded state", s.Scenario.ID)
	}
	title := st.title.Render(st.T("What can happen next")) + st.dim.Render(" · "+where)
	var body []string
	switch branches, ok := m.branches(s); {
	case why == nil:
		body = append(body, st.T("no check yet for %s: c runs it", engine.ModeLabel(s.Mode, s.Result.Without)))
	case !why.Exact:
		body = append(body, st.T("no shares: %s", why.Inexact.In(st.lang)))
	case !ok:
		body = append(body, st.T("this state is outside the check's graph (the clock moved by a step the check does not take, say): no shares here"))
	case len(branches) == 0:
		body = append(body, st.T("nothing can change any more: this schedule is complete"))
	default:
		body = append(body, st.dim.Render(st.T("share of the ways on that break an invariant, if this happens next:")), "")
		for _, b := range branches {
			what := b.Action.Words().In(st.lang)
			if b.Action.Kind == engine.CallActor {
				for _, a := range s.Actors {
					if a.Name == b.Action.Actor && a.NextStep != "" {
						what += " — " + a.NextStep
					}
					if a.Name == b.Action.Actor && a.Paused {
						what += st.dim.Render(" " + st.T("(paused now: p resumes it)"))
					}
				}
			}
			line := fmt.Sprintf("  %s  %s", lipgloss.NewStyle().Width(6).Align(lipgloss.Right).Render(shareStyled(st, b.Futures.Share(0, s.Broken|b.Breaks))), what)
			if b.Breaks != 0 && !s.Broken.Has(0) {
				line += st.broken.Render("  " + st.T("breaks invariant %s right away", b.Breaks.SaidIn(s.Scenario)))
			}
			body = append(body, line)
		}
	}
	footer := []string{"", st.dim.Render(st.T("any key goes back"))}
	lines := append([]string{title, ""}, body...)
	lines = append(lines, footer...)
	return strings.Join(fit(lines, m.width), "\n")
}

// branches are the check's actions at a snapshot's state.
func (m *Model) branches(s engine.Snapshot) ([]engine.Branch, bool) {
	why := m.graph()
	if why == nil {
		return nil, false
	}
	return why.Branches(s.State)
}
