// Package tui is fencelab's face: a Bubble Tea program that renders engine
// snapshots and sends engine commands. Every value on screen comes from a
// snapshot read from the real backends. It knows no driver and no scenario
// by name; nothing imports it but main.
package tui

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/export"
	"github.com/fencelab/fencelab/lang"
)

// Options wire the explorer to its backends and catalog.
type Options struct {
	Catalog  []*engine.Scenario
	Scenario string // id to open; empty: the first of the catalog
	// Open, when set, is the entry of Catalog to open: a file whose id is
	// also the catalog's is an entry of its own.
	Open *engine.Scenario
	Mode engine.Mode
	// Starting says what Start waits for, e.g. "starting PostgreSQL 15…".
	Starting string
	// Start brings the backends up. It runs in a tea.Cmd, after the first
	// frame is on screen.
	Start func(ctx context.Context) (engine.Backends, error)
	// AllowUnsafe is false on a user's own server without --allow-unsafe:
	// the explorer then stays in SAFE mode.
	AllowUnsafe bool
	// SaveTrace writes the lab's run so far as a trace and says where.
	SaveTrace func(engine.Trace) (string, error)
	// Suspend, when set, stops the program for Ctrl-Z (its caller owns
	// the signals); unset, Bubble Tea's suspend does.
	Suspend func()
	// Export writes the session so far in a format (md, mermaid, cast,
	// tape) and says where.
	Export func(format string, session export.Session) (string, error)
	// Lang is the language of the explorer's words (the narration's is
	// the backends').
	Lang lang.Lang
	// Talk, when set, plays a talk script: its scenes in order, its
	// captions large (Catalog still feeds the picker).
	Talk *Talk
	// StartOther brings up backends of their own for the split screen's
	// other mode (v); nil: no split screen (a user's own server).
	StartOther func(ctx context.Context) (engine.Backends, error)
	// ExportDiff writes the split screen's two runs of the explorer's
	// schedule as a diff (md: a two-column page; mermaid: one diagram of
	// both) and says where; nil: x exports the front side alone.
	ExportDiff func(ctx context.Context, format string, s *engine.Scenario, schedule []engine.Action, sides [2]engine.DiffSpec) (string, error)
	// CodeNote says, once, that a file's SQL or Redis code runs as
	// fencelab's own user (the server would not make one for it); "" when
	// there is nothing to say, or it was said. nil: never.
	CodeNote func() string
	// Check runs `check --why` for a scenario, mode and guards removed, on
	// backends of its own, and returns its graph; nil: no check (a user's
	// own server).
	Check func(ctx context.Context, s *engine.Scenario, mode engine.Mode, without engine.GuardSet, progress func(engine.CheckProgress)) (*engine.Why, error)
}

// notice is an operation's message for the status line that is not an
// error: where a trace went.
type notice struct{ text string }

func (n *notice) Error() string { return n.text }

// The messages of the explorer's commands.
type (
	backendsMsg struct{ backends engine.Backends }
	// labMsg is a lab opened: its first snapshot (which names its scenario
	// and mode).
	labMsg struct{ snap engine.Snapshot }
	// opMsg is the end of one lab operation: the snapshot after it, and
	// the operation's error (a user mistake or a backend failure).
	opMsg struct {
		snap  engine.Snapshot
		fresh bool // snap was read whole; otherwise the screen keeps the last one
		err   error
	}
	// playMsg is autoplay's beat.
	playMsg      struct{}
	fatalMsg     struct{ err error }
	labFailedMsg struct{ err error }
)

// StartingMsg tells the explorer what the start of its backends waits for
// (another fencelab run holding the database, say).
type StartingMsg struct{ Text string }

func (m fatalMsg) Error() string     { return m.err.Error() }
func (m labFailedMsg) Error() string { return m.err.Error() }

// op is one lab operation, run in a tea.Cmd.
type op func(ctx context.Context, lab *engine.Lab) error

// Model is the root model. It holds the current lab and its last snapshot
// and composes the panes.
type Model struct {
	// pastCursor is the recorded step an action from the past was asked
	// at, for the screen to stay there if the action is not taken.
	pastCursor int
	// interrupted: the explorer was quit with Ctrl-C, which exits 130 as
	// a SIGINT does (q exits 0).
	interrupted bool
	opts        Options
	keys        keyMap
	styles      styles
	help        help.Model
	spinner     spinner.Model
	picker      list.Model
	width       int
	height      int
	ctx         context.Context
	backends    *engine.Backends
	owner       *labOwner
	open        bool // the owner holds a lab
	snap        *engine.Snapshot
	scenario    *engine.Scenario
	mode        engine.Mode

	busy bool
	// held are the keys pressed while the lab was being made or an action
	// ran (holds): taken in order once it is free (takeHeld), so a burst
	// (a presenter's remote, a fast typist) loses none.
	held []tea.KeyMsg
	// The components: each owns its pane's state. focus is the pane the
	// scroll keys move (focusTimeline or one of m.panes).
	workers  workerList
	panes    [paneCount]*pane
	timeline timeline
	focus    int
	showDSN  bool
	showHelp bool
	// frame counts the lab screens drawn (the panes' memos are per frame).
	frame int
	// helpScroll is the first line of the help screen shown.
	helpScroll int
	picking    bool
	// exporting: the next key picks the format to export the session in.
	exporting bool
	// why: the checks run for the shares of broken futures (why.go).
	why whyState
	// guarding: the guard list is open, its cursor on guardCursor.
	guarding    bool
	guardCursor int
	// talk is where a talk script is, when one plays.
	talk     *talkState
	status   string
	statusOK bool
	// messages are the status line's texts so far, oldest first (at most
	// maxMessages), which L shows whole; showLog: that list is open.
	messages  []string
	showLog   bool
	logScroll int
	fatal     error
	// history is time travel over the snapshots recorded after each action.
	history history
	// playing: autoplay takes the next guided step every pace.
	playing bool
	pace    time.Duration
	// pendingReload is a new version of the scenario file that came while
	// an action ran; it is put in place when the action ends.
	pendingReload *ReloadMsg
	// watchErr is why the watched file's last save does not compile, kept
	// in the status line until a save that does.
	watchErr string
	// split is the split screen's other side (v), when it is open;
	// otherBackends its backends, started once and kept for the next.
	split         *splitSide
	otherBackends *engine.Backends
}

// New makes the explorer's model.
func New(ctx context.Context, opts Options) *Model {
	m := &Model{
		opts:    opts,
		keys:    newKeyMap(opts.Lang),
		styles:  newStyles(),
		help:    help.New(),
		spinner: spinner.New(spinner.WithSpinner(spinner.Line)),
		picker:  newPicker(opts.Catalog, opts.Lang),
		ctx:     ctx,
		owner:   newLabOwner(ctx),
		history: newHistory(),
		focus:   focusTimeline,
		pace:    2 * time.Second,
		mode:    opts.Mode,
		width:   80,
		height:  24,
	}
	m.styles.lang = opts.Lang
	m.panes = newPanes(&m.workers)
	m.scenario = opts.Catalog[0]
	for _, s := range opts.Catalog {
		if s.ID == opts.Scenario && m.scenario.ID != opts.Scenario {
			m.scenario = s
		}
	}
	if opts.Open != nil {
		m.scenario = opts.Open
	}
	if opts.Talk != nil && len(opts.Talk.Scenes) > 0 {
		m.talk = &talkState{Talk: *opts.Talk, cardFor: -1, began: time.Now()}
		m.scenario, m.mode = m.talk.current().Scenario, m.talk.current().Mode
	}
	return m
}

// Err is the error that ended the explorer, if one did (a backend that
// could not start).
func (m *Model) Err() error { return m.fatal }

// Close stops the operation running on the lab, waits for it, and closes
// the lab's connections.
func (m *Model) Close() {
	m.owner.close()
	if m.split != nil {
		m.split.owner.close()
	}
}

// notTakenInPast is an action asked at a past point that was not taken
// there: the lab went forward again to where it was.
type notTakenInPast struct{ err error }

func (e *notTakenInPast) Error() string { return e.err.Error() }
func (e *notTakenInPast) Unwrap() error { return e.err }

// Interrupted reports whether the explorer was quit with Ctrl-C.
func (m *Model) Interrupted() bool { return m.interrupted }

// SetSuspend sets Options.Suspend, for a caller that makes the program
// after the model; before the program runs.
func (m *Model) SetSuspend(suspend func()) { m.opts.Suspend = suspend }

func (m *Model) Init() tea.Cmd {
	if m.talk != nil {
		return tea.Batch(m.spinner.Tick, m.startBackends(), talkTick())
	}
	return tea.Batch(m.spinner.Tick, m.startBackends())
}

func (m *Model) startBackends() tea.Cmd {
	return func() tea.Msg {
		b, err := m.opts.Start(m.ctx)
		if err != nil {
			return fatalMsg{err}
		}
		return backendsMsg{b}
	}
}

// openLab closes the current lab and opens scenario × mode from its seed.
func (m *Model) openLab(s *engine.Scenario, mode engine.Mode) tea.Cmd {
	owner, backends := m.owner, *m.backends
	m.busy = true
	return func() tea.Msg {
		snap, err := owner.open(backends, s, mode)
		if err != nil {
			return labFailedMsg{err}
		}
		return labMsg{snap}
	}
}

// run starts a lab operation. Only a free lab is given one: a key pressed
// while another runs is held (holds) and comes here when that one ends.
func (m *Model) run(o op) tea.Cmd {
	if !m.open || m.busy {
		return nil
	}
	m.busy = true
	owner := m.owner
	if past, ok := m.history.Past(); ok {
		// An action from a past point: the lab goes back there first (by
		// replay) and the steps after it are dropped — if the action is
		// taken. A key that takes none there (a paused actor selected, a
		// finished one) leaves the steps after it as they were, and the
		// screen where it was.
		back, then := past.Actions, o
		o = func(ctx context.Context, lab *engine.Lab) error {
			whole := lab.Schedule()
			if err := lab.Rewind(ctx, back); err != nil {
				return err
			}
			err := then(ctx, lab)
			var told *notice
			if err != nil && (engine.StoryStopped(err) || errors.As(err, &told)) && len(lab.Schedule()) == back {
				if again := lab.Replay(ctx, whole, nil); again != nil {
					return again
				}
				return &notTakenInPast{err}
			}
			return err
		}
		m.pastCursor = m.history.cursor
		m.history.Leave()
	}
	return func() tea.Msg {
		snap, fresh, err := owner.do(o)
		return opMsg{snap: snap, fresh: fresh, err: err}
	}
}

func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.picker.SetSize(msg.Width, msg.Height-1)
		m.help.Width = msg.Width
		return m, nil
	case spinner.TickMsg:
		if m.open || m.fatal != nil {
			return m, nil
		}
		var cmd tea.Cmd
		m.spinner, cmd = m.spinner.Update(msg)
		return m, cmd
	case list.FilterMatchesMsg:
		// The picker's own filtering answers here, perhaps for a text typed
		// since: filterNow filtered on each key already.
		return m, nil
	case StartingMsg:
		m.opts.Starting = msg.Text
		return m, nil
	case fatalMsg:
		m.fatal = msg.err
		return m, nil
	case backendsMsg:
		m.backends = &msg.backends
		return m, m.openLab(m.scenario, m.mode)
	case labMsg:
		m.open, m.snap, m.busy, m.playing = true, &msg.snap, false, false
		m.history.Start(msg.snap)
		m.scenario, m.mode = msg.snap.Scenario, msg.snap.Mode
		m.workers = workerList{}
		m.timeline.Follow()
		// The mode as the header says it: SAFE −fence when guards are out.
		label := engine.ModeLabel(m.mode, withoutOf(m.snap))
		m.setStatus(m.styles.T("%s in %s mode, from its seeded state", m.scenario.ID, label), true)
		if m.scenario.From != "" && m.mode == m.scenario.FromMode {
			m.setStatus(m.styles.T("%s in %s mode: the schedule of the trace %s, from its seeded state", m.scenario.ID, label, m.scenario.From), true)
		}
		m.sayCodeNote()
		if m.talk != nil {
			m.setStatus(m.styles.T("scene %d/%d: %s in %s mode — space starts it", m.talk.scene+1, len(m.talk.Scenes), m.scenario.ID, label), true)
			var split tea.Cmd
			if want := m.talk.current().Split; want != (m.split != nil) {
				split = m.toggleSplit() // the scene says whether the other mode shows beside it
				m.setStatus(m.styles.T("scene %d/%d: %s in %s mode — space starts it", m.talk.scene+1, len(m.talk.Scenes), m.scenario.ID, label), true)
			}
			var why tea.Cmd
			if m.talk.current().Why && m.graph() == nil {
				why = m.startWhy() // the scene shows the shares of broken futures
				m.setStatus(m.styles.T("scene %d/%d: %s in %s mode — space starts it", m.talk.scene+1, len(m.talk.Scenes), m.scenario.ID, label), true)
			}
			return m, tea.Batch(m.talkPending(), m.afterBusy(), m.catchUp(), split, why, m.takeHeld())
		}
		return m, tea.Batch(m.afterBusy(), m.catchUp(), m.takeHeld())
	case labFailedMsg:
		m.busy = false
		m.held = nil // they were meant for a lab that did not open
		m.setStatus(m.styles.T("could not open the lab: %s", engine.OneLine(msg.err)), false)
		return m, nil
	case opMsg:
		m.busy = false
		var notTaken *notTakenInPast
		if errors.As(msg.err, &notTaken) {
			m.history.cursor = m.pastCursor // back where the user was
			msg.err = notTaken.err
		}
		var told *notice
		failed := msg.err != nil && !errors.As(msg.err, &told)
		stopped := m.playing && msg.fresh && msg.snap.OffPath
		if failed || msg.fresh && (msg.snap.GuidedNext == "" || msg.snap.OffPath) {
			m.playing = false // autoplay ends with the story, or where it cannot go on
		}
		lost := ""
		if msg.fresh {
			lost = lostSince(m.snap, msg.snap)
			m.snap = &msg.snap
			m.history.Remember(msg.snap)
		}
		m.timeline.Follow()
		if told != nil {
			m.setStatus(told.text, true)
		} else if lost != "" {
			// The action's own narration follows the loss's: the status
			// line keeps it in view.
			m.setStatus(lost, false)
		} else if msg.err != nil {
			m.setStatus(describe(m.styles, msg.err), false)
			m.held = nil // later keys were meant for a state that did not come
		} else if m.snap != nil && m.snap.GuidedNext == "" && m.snap.GuidedTotal > 0 && !m.snap.OffPath && m.talk != nil {
			m.setStatus(m.talkSceneDone(), true)
		} else if m.snap != nil && m.snap.GuidedNext == "" && m.snap.GuidedTotal > 0 && !m.snap.OffPath {
			m.setStatus(m.styles.T("guided order complete — r reset · m other mode · s another scenario"), true)
		} else if stopped {
			m.setStatus(m.styles.T("autoplay stopped: that step left the guided order"), true)
		} else {
			m.status = ""
			if m.watchErr != "" {
				m.setStatus(m.watchErr, false)
			}
		}
		m.sayCodeNote()
		if m.pendingReload != nil {
			return m, tea.Batch(m.afterBusy(), m.catchUp())
		}
		if len(m.held) > 0 {
			return m, tea.Batch(m.takeHeld(), m.catchUp())
		}
		if m.talk != nil {
			return m, tea.Batch(m.talkPending(), m.catchUp())
		}
		return m, m.catchUp()
	case guardsMsg:
		m.guardsDone(msg)
		return m, tea.Batch(m.afterBusy(), m.catchUp(), m.takeHeld())
	case ReloadMsg:
		return m, m.reload(msg)
	case reloadedMsg:
		recheck := m.reloaded(msg)
		return m, tea.Batch(m.afterBusy(), m.catchUp(), m.takeHeld(), recheck)
	case splitMsg:
		return m, m.splitDone(msg)
	case whyProgressMsg:
		return m, m.whyProgress(msg)
	case whyDoneMsg:
		return m, m.whyDone(msg)
	case talkTickMsg:
		return m, talkTick() // the header's clock: drawn again as it moves
	case playMsg:
		if !m.playing || !m.open {
			return m, nil
		}
		if _, past := m.history.Past(); m.snap != nil && !past && (m.snap.GuidedNext == "" || m.snap.OffPath) {
			m.playing = false
			return m, nil // the status line already says why n has nothing left
		}
		if m.busy { // a step (or its wait for a real expiry) is still running
			return m, m.autoplay()
		}
		_, cmd := m.handleKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'n'}})
		return m, tea.Batch(cmd, m.autoplay())
	case tea.KeyMsg:
		// Keys typed faster than the terminal is read arrive as one message
		// with several runes ("nnn", or "/lea" in the picker); each is a key
		// press of its own, so "/" still opens the picker's filter.
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			var cmds []tea.Cmd
			for _, r := range msg.Runes {
				_, cmd := m.handleKey(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt})
				cmds = append(cmds, cmd)
			}
			return m, tea.Sequence(cmds...)
		}
		return m.handleKey(msg)
	}
	return m, nil
}

// afterBusy puts in place a new version of the scenario file that came
// while the lab was busy.
func (m *Model) afterBusy() tea.Cmd {
	if m.pendingReload == nil || m.busy {
		return nil
	}
	msg := *m.pendingReload
	m.pendingReload = nil
	return m.reload(msg)
}

// sayCodeNote puts on the status line, once, that a file's code runs as
// fencelab's own user where a server would not make it one of its own.
func (m *Model) sayCodeNote() {
	if m.opts.CodeNote == nil {
		return
	}
	if note := m.opts.CodeNote(); note != "" {
		m.setStatus(note, false)
	}
}

func (m *Model) setStatus(text string, ok bool) {
	m.status, m.statusOK = text, ok
	if text != "" && (len(m.messages) == 0 || m.messages[len(m.messages)-1] != text) {
		m.messages = append(m.messages, text)
		if len(m.messages) > maxMessages {
			m.messages = slices.Delete(m.messages, 0, len(m.messages)-maxMessages)
		}
	}
}

// maxMessages is how many of the status line's messages L keeps.
const maxMessages = 500

// maxHeldKeys bounds the keys held while the lab is busy.
const maxHeldKeys = 32

// holds reports whether a key waits for the lab: while a lab is being made
// (start-up, mode switch, scenario picker, reload, guard change) or an
// action runs, a key that acts on the lab or on its history is held, and
// taken in order once the lab is free — acting on the lab that was made,
// never on the one before it. Keys that only move the view act at once,
// unless keys are held already: those keep their order.
func (m *Model) holds(msg tea.KeyMsg) bool {
	switch {
	case m.fatal != nil || m.open && !m.busy:
		return false
	case !m.open || len(m.held) > 0:
		return true
	case m.picking:
		return msg.String() == "enter" && m.picker.FilterState() != list.Filtering
	case m.showHelp:
		return false
	case m.talk != nil && isTalkKey(msg.String()):
		return false // the talk counts its own, and a back cancels advances pressed ahead
	case m.exporting, m.guarding, m.why.branching:
		return true
	}
	viewOnly := key.Matches(msg, m.keys.Help) || key.Matches(msg, m.keys.Scroll) ||
		key.Matches(msg, m.keys.Focus) || key.Matches(msg, m.keys.Open) || key.Matches(msg, m.keys.DSN)
	return !viewOnly
}

// takeHeld takes the held keys, in order, until one of them makes the lab
// busy again; the rest wait for that one.
func (m *Model) takeHeld() tea.Cmd {
	var cmds []tea.Cmd
	for len(m.held) > 0 && m.open && !m.busy && m.fatal == nil {
		k := m.held[0]
		m.held = m.held[1:]
		_, cmd := m.handleKey(k)
		cmds = append(cmds, cmd)
	}
	return tea.Sequence(cmds...)
}

// lostSince is what the newest KEYS_LOST event says, if the snapshot after
// an action has one that the one before did not.
func lostSince(before *engine.Snapshot, after engine.Snapshot) string {
	from := 0
	if before != nil && len(before.Events) <= len(after.Events) {
		from = len(before.Events)
	}
	for i := len(after.Events) - 1; i >= from; i-- {
		if e := after.Events[i]; e.Code == "KEYS_LOST" {
			return e.Narration
		}
	}
	return ""
}
