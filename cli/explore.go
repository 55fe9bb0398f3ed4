package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/term"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/pgcluster"
	"github.com/fencelab/fencelab/tui"
)

// exploreOpen is what the explorer opens on: a scenario (from the command
// line: an id or a file), more scenarios for its picker (--scenarios DIR),
// a file to watch, a trace, or a talk.
type exploreOpen struct {
	scenario *engine.Scenario
	more     []*engine.Scenario
	watch    []string
	trace    *loadedTrace
	talk     *tui.Talk
	// stderr hears, once the terminal is the user's again, what the run
	// left on a server that stopped answering.
	stderr io.Writer
}

// explorerCheckLabs is how many labs the explorer's check (c) explores
// on: the machine's cores are the explorer's too.
const explorerCheckLabs = 2

// explore runs the terminal explorer. The first frame shows at once; the
// backends start behind it. Whatever started is stopped when the explorer
// ends, however it ends.
func explore(ctx context.Context, c config, mode engine.Mode, open exploreOpen) (err error) {
	trace, talk := open.trace, open.talk
	starting := c.lang.T("connecting to PostgreSQL…")
	if c.pgDSN == "" {
		// The explorer's lab, the split screen's and the check's two, each
		// with a connection per actor and a few of its own.
		c.pgConnections = (2+explorerCheckLabs)*(2*scenarios.MaxActors+3) + 10 // a file's actors: two each (labConnections)
		bins, err := pgcluster.FindBinaries()
		if err != nil {
			return noServerError()
		}
		starting = c.lang.T("starting PostgreSQL %d…", bins.Major)
	}

	// outer is cancelled by a signal, or by the terminal going away.
	outer, hangUp := context.WithCancelCause(ctx)
	defer hangUp(nil)
	ctx, cancel := context.WithCancel(outer)
	defer cancel()
	// Start runs in a command goroutine that may outlive the program: after
	// quitting, no new start begins and a start under way is waited for.
	var (
		mu       sync.Mutex
		quitting bool
		inFlight sync.WaitGroup
		started  *backends
		others   []*backends // the split screen's
	)
	catalog, first := withScenarios(scenarios.All(), open.more...), "lease-overrun"
	var opening *engine.Scenario
	switch {
	case trace != nil:
		// The trace's scenario, its schedule as the guided order, in the
		// place of the scenario it is a run of.
		first = trace.scenario.ID
		i := slices.IndexFunc(catalog, func(c *engine.Scenario) bool { return c.ID == first })
		if i >= 0 && trace.scenario.File == "" {
			catalog[i] = trace.scenario
		} else {
			catalog = append(catalog, trace.scenario)
		}
		opening = trace.scenario
	case open.scenario != nil && open.scenario.File == "":
		first, opening = open.scenario.ID, open.scenario // the catalog's own
	case open.scenario != nil:
		catalog = withScenarios(catalog, open.scenario)
		first, opening = open.scenario.ID, open.scenario
	case len(open.more) > 0:
		first, opening = open.more[0].ID, open.more[0]
	}
	// The database opens the first lab's connections while it starts.
	firstLab := opening
	if i := slices.IndexFunc(catalog, func(s *engine.Scenario) bool { return s.ID == first }); firstLab == nil && i >= 0 {
		firstLab = catalog[i]
	}
	if firstLab != nil {
		c.firstLab = engine.LabConnections(firstLab, mode)
	}
	// enter marks work on fencelab's started backends (the split screen's,
	// a check's, a diff's): refused once the explorer quits or before they
	// started; the caller calls inFlight.Done when it is done.
	enter := func() (*backends, bool) {
		mu.Lock()
		defer mu.Unlock()
		if quitting || started == nil {
			return nil, false
		}
		inFlight.Add(1)
		return started, true
	}
	// beside makes backends of their own beside b's (moreBackends), kept
	// to be stopped when the explorer ends.
	beside := func(ctx context.Context, b *backends, name string) (*backends, error) {
		extra, err := moreBackends(ctx, b, c, name)
		if extra != nil {
			mu.Lock()
			others = append(others, extra)
			mu.Unlock()
		}
		return extra, err
	}
	// The split screen's other side runs on backends of its own, beside
	// fencelab's own: not on a user's server.
	var startOther func(ctx context.Context) (engine.Backends, error)
	if c.pgDSN == "" {
		startOther = func(ctx context.Context) (engine.Backends, error) {
			b, ok := enter()
			if !ok {
				return engine.Backends{}, context.Canceled
			}
			defer inFlight.Done()
			extra, err := beside(ctx, b, "fencelab_split")
			if err != nil {
				return engine.Backends{}, err
			}
			return extra.Backends, nil
		}
	}
	// The explorer's check (c) explores on two labs of its own, beside the
	// explorer's lab and the split screen's, on fencelab's own backends.
	var check func(ctx context.Context, s *engine.Scenario, mode engine.Mode, without engine.GuardSet, progress func(engine.CheckProgress)) (*engine.Why, error)
	if c.pgDSN == "" {
		var whyPool []*backends // made on the first check, kept for the next
		check = func(ctx context.Context, s *engine.Scenario, mode engine.Mode, without engine.GuardSet, progress func(engine.CheckProgress)) (*engine.Why, error) {
			b, ok := enter()
			if !ok {
				return nil, context.Canceled
			}
			defer inFlight.Done()
			for len(whyPool) < explorerCheckLabs {
				extra, err := beside(ctx, b, fmt.Sprintf("fencelab_why_%d", len(whyPool)+1))
				if err != nil {
					return nil, err
				}
				whyPool = append(whyPool, extra)
			}
			report, err := checkOne(ctx, fixedPool(whyPool...), s, mode, without, engine.CheckOptions{Why: true, Progress: progress})
			if err != nil {
				return nil, err
			}
			return report.Why, nil
		}
	}
	// A diff exported from the split screen runs both sides once more on
	// backends of its own (the split screen's hold its other side).
	var exportDiff func(ctx context.Context, format string, s *engine.Scenario, schedule []engine.Action, sides [2]engine.DiffSpec) (string, error)
	if c.pgDSN == "" {
		var diffBackends *backends // made on the first export, kept for the next
		exportDiff = func(ctx context.Context, format string, s *engine.Scenario, schedule []engine.Action, sides [2]engine.DiffSpec) (string, error) {
			b, ok := enter()
			if !ok {
				return "", context.Canceled
			}
			defer inFlight.Done()
			if diffBackends == nil {
				extra, err := beside(ctx, b, "fencelab_diff")
				if err != nil {
					return "", err
				}
				diffBackends = extra
			}
			d, err := engine.RunDiff(ctx, diffBackends.Backends, s, schedule, sides)
			if err != nil {
				return "", err
			}
			return writeDiff(format, d, c.lang)
		}
	}
	var program *tea.Program
	model := tui.New(ctx, tui.Options{
		Catalog:     catalog,
		Scenario:    first,
		Open:        opening,
		Mode:        mode,
		Starting:    starting,
		AllowUnsafe: c.pgDSN == "" || c.allowUnsafe,
		SaveTrace:   saveExplorerTrace,
		Export:      exportFromExplorer,
		Talk:        talk,
		StartOther:  startOther,
		Check:       check,
		ExportDiff:  exportDiff,
		Lang:        c.lang,
		CodeNote: func() string {
			b, ok := enter()
			if !ok {
				return ""
			}
			defer inFlight.Done()
			var said strings.Builder
			b.sayCodeRole(&said, c.lang)
			// One line for the status line, however many notes.
			return strings.ReplaceAll(strings.TrimSpace(strings.TrimPrefix(said.String(), "fencelab: ")), "\nfencelab: ", " · ")
		},
		Start: func(ctx context.Context) (engine.Backends, error) {
			mu.Lock()
			if quitting {
				mu.Unlock()
				return engine.Backends{}, context.Canceled
			}
			inFlight.Add(1)
			mu.Unlock()
			defer inFlight.Done()
			b, err := startBackends(ctx, c, func(waiting string) { program.Send(tui.StartingMsg{Text: waiting}) })
			if err != nil {
				return engine.Backends{}, err
			}
			started = b
			return b.Backends, nil
		},
	})
	// main owns the signals: a signal cancels ctx, which ends the program
	// (and restores the terminal). Bubble Tea's own handler would race it.
	options := []tea.ProgramOption{tea.WithAltScreen(), tea.WithContext(ctx), tea.WithoutSignalHandler()}
	if term.IsTerminal(os.Stdin.Fd()) {
		options = append(options, tea.WithInput(hangUpOnEOF{File: os.Stdin, hangUp: func() { hangUp(signalled{syscall.SIGHUP}) }}))
	}
	crashed := &crashes{}
	program = tea.NewProgram(catchCrashes{model: model, crashes: crashed, quit: func() { program.Quit() }}, options...)
	if talk != nil {
		for _, scene := range talk.Scenes {
			if scene.Watch && !slices.Contains(open.watch, scene.Scenario.File) {
				open.watch = append(open.watch, scene.Scenario.File)
			}
		}
	}
	for _, path := range open.watch {
		stopWatching, err := watchScenario(ctx, path, func(msg tui.ReloadMsg) { program.Send(msg) })
		if err != nil {
			return err
		}
		defer stopWatching()
	}
	suspend, stopSuspend := suspendOnSignal(program)
	model.SetSuspend(suspend)
	_, runErr := program.Run()
	stopSuspend()

	// Stop a start still under way, wait for it, then stop what it started.
	mu.Lock()
	quitting = true
	mu.Unlock()
	cancel()
	inFlight.Wait()
	model.Close()
	var leftover error // what a server that stopped answering kept of the run
	for _, extra := range others {
		leftover = cmp.Or(leftover, extra.stop())
	}
	if started != nil {
		leftover = cmp.Or(started.stop(), leftover)
	}
	if open.stderr != nil {
		defer func() { warnLeftovers(open.stderr, leftover, err) }()
	}

	if k := crashed.kept(); k != nil {
		return k.report() // whatever else ended the run: a crash is never a success
	}
	if errors.Is(runErr, tea.ErrProgramPanic) {
		return &exitError{code: exitCrashed, err: runErr, said: lang.P("fencelab crashed (a bug of its own); the panic is printed above")}
	}
	if outer.Err() != nil {
		return interrupted(outer)
	}
	if err := model.Err(); err != nil {
		return err
	}
	if model.Interrupted() {
		sig := signalled{syscall.SIGINT}
		return &exitError{code: 128 + int(syscall.SIGINT), err: sig, said: sig.phrase()}
	}
	if runErr != nil && !errors.Is(runErr, tea.ErrProgramKilled) && !errors.Is(runErr, tea.ErrInterrupted) {
		// Bubble Tea fails before the first frame only for want of a
		// terminal (no tty to read keys from, say).
		return usageError("the explorer needs a terminal: %v; for a headless run: fencelab run ID", runErr)
	}
	return nil
}

// hangUpOnEOF is the explorer's terminal input: a read that finds the
// terminal gone (end of file, or EIO once it hung up) ends the explorer as
// a SIGHUP does, which not every way of losing a terminal sends. In raw
// mode Ctrl-D is a key, not an end of file. Bubble Tea alone would stop
// reading and run on, unseen.
type hangUpOnEOF struct {
	*os.File
	hangUp func()
}

func (h hangUpOnEOF) Read(p []byte) (int, error) {
	n, err := h.File.Read(p)
	if errors.Is(err, io.EOF) || errors.Is(err, syscall.EIO) {
		h.hangUp()
	}
	return n, err
}

// saveExplorerTrace writes the explorer's run as a new trace file in the
// current directory; nothing there is replaced.
func saveExplorerTrace(t engine.Trace) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	path, err := saveNewTrace(dir, fmt.Sprintf("fencelab-%s-%s", t.Scenario, t.Mode), t)
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(dir, path); err == nil {
		return rel, nil
	}
	return path, nil
}
