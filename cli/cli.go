// Package cli is fencelab's command line: it parses the arguments, starts
// the backends a command needs, runs the command and ends with its exit
// code, saying in one line what went wrong. Each command has a file of its
// own (run.go, check.go, stress.go, …); backends.go starts the stores and
// wires them into the engine; help.go is the usage.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/pflag"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/redact"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/tui"
	"github.com/fencelab/fencelab/untrusted"
)

// Main runs fencelab on the process's arguments, standard streams and
// signals, and returns its exit code.
func Main() int {
	// fencelab owns SIGINT, SIGTERM and SIGHUP: the first one cancels ctx,
	// and whatever runs stops its servers, deletes its keys and restores
	// the terminal on the way out; it then exits 128+signal. The explorer
	// turns Bubble Tea's own handler off, so only this one acts. A second
	// signal, should the teardown hang, ends the process at once (the kernel
	// then stops an ephemeral server, see pgcluster).
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		sig := <-signals
		signal.Stop(signals)
		cancel(signalled{sig.(syscall.Signal)})
	}()
	// A closed pipe on stdout (fencelab … | head) is an error of a write,
	// not an instant death, so the run still cleans up; then fencelab ends
	// by SIGPIPE as other tools do.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	// go-redis logs through one logger per process; its lines would land in
	// the middle of the explorer's screen. fencelab reports failures itself.
	redisstore.DriverLog(io.Discard)

	code := fencelab(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if code == exitBrokenPipe {
		signal.Reset(syscall.SIGPIPE)
		syscall.Kill(os.Getpid(), syscall.SIGPIPE)
	}
	return code
}

// signalled is the cause of a context a signal cancelled.
type signalled struct{ sig syscall.Signal }

func (s signalled) Error() string { return s.phrase().In(lang.En) }

func (s signalled) phrase() lang.Phrase {
	names := map[syscall.Signal]string{syscall.SIGINT: "SIGINT (Ctrl-C)", syscall.SIGTERM: "SIGTERM",
		syscall.SIGHUP: "SIGHUP", syscall.SIGQUIT: "SIGQUIT", syscall.SIGPIPE: "SIGPIPE"}
	if name, ok := names[s.sig]; ok {
		return lang.P("interrupted by %s", name)
	}
	return lang.P("interrupted by signal %s", s.sig.String())
}

// hiddenCommands are commands the help does not list: help itself, the
// worker a stress run starts as a process of its own, and the bare
// program bench measures the explorer beside.
var hiddenCommands = []string{"help", "worker", "bench-frame"}

// globalFlags apply to every command.
var globalFlags = []string{"redis", "pg", "allow-unsafe", "trust-code", "lease-ttl", "verbose", "lang", "help"}

// commandFlags are the flags each command takes beside globalFlags (the
// explorer's under ""); any other is refused. A command's help lists each.
// One file a command writes is -o FILE ("output"), many go to --out DIR;
// --save-trace, --md and --html are the older names of -o, kept.
var commandFlags = map[string][]string{
	"":         {"mode", "trace", "without", "watch", "scenarios"},
	"list":     nil,
	"run":      {"all", "mode", "json", "output", "save-trace", "keep", "without"},
	"check":    {"all", "mode", "json", "max-schedules", "max-memory", "allow-bounded", "out", "without", "why"},
	"guards":   {"json"},
	"matrix":   {"json", "output", "md", "out", "strict", "max-memory"},
	"replay":   {"json", "without"},
	"export":   {"to", "output", "size", "mode", "without"},
	"diff":     {"mode", "without", "json", "to"},
	"talk":     nil,
	"scenario": nil,
	"race":     {"n", "free"},
	"stress":   {"workers", "duration", "ops", "pause-every", "pause", "mode", "procs", "output", "html", "json", "shared", "without"},
	"bench":    {"json", "runs"},
	"version":  nil,
	"worker":   nil,
}

// fencelab runs one command line and returns the exit code.
func fencelab(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		// A panic of the command's own goroutine (the explorer catches its
		// own, catchCrashes): its defers have stopped what it started.
		if r := recover(); r != nil {
			k := &crash{value: r, stack: debug.Stack()}
			code = report(ctx, stderr, k.report(), config{})
		}
	}()
	// A reader that went away stops the command at once (it still cleans up).
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	out := &checkedWriter{w: stdout, brokenPipe: func() { cancel(errBrokenPipe) }}
	code = command(ctx, args, out, stderr)
	switch {
	case errors.Is(out.err, syscall.EPIPE):
		return exitBrokenPipe // the reader went away: nobody to tell
	case out.err != nil && code == exitOK:
		fmt.Fprintf(stderr, "fencelab: output lost: %v\n", out.err)
		return exitUnexpected
	}
	return code
}

// checkedWriter keeps the first write error, so a command whose output was
// lost (a full disk, a reader that went away) does not end as if all went
// well.
type checkedWriter struct {
	w          io.Writer
	err        error
	brokenPipe func()
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
		if errors.Is(err, syscall.EPIPE) {
			c.brokenPipe()
		}
	}
	return n, err
}

// errBrokenPipe cancels a command whose reader went away.
var errBrokenPipe = errors.New("the reader of the output went away")

// command runs one command line and returns the exit code.
func command(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 1 && args[0] == "--version" {
		args = []string{"version"} // as most programs take it
	}
	flags := pflag.NewFlagSet("fencelab", pflag.ContinueOnError)
	flags.SetOutput(io.Discard)
	var c config
	var (
		all          bool
		mode         string
		asJSON       bool
		helpWanted   bool
		n, free      int
		maxSched     int
		maxMemory    string
		outDir       string
		saveTrace    string
		tracePath    string
		keep         bool
		exportTo     string
		exportOut    string
		size         string
		langFlag     string
		withoutArgs  []string
		bounded      bool
		why          bool
		runs         int
		mdOut        string
		strict       bool
		watch        bool
		scenariosDir string
		st           stressFlags
	)
	flags.StringVar(&c.redisURL, "redis", "", "use a real Redis `URL` (redis://HOST:PORT/DB, or a cluster's redis://H1:P1,H2:P2) instead of the embedded one")
	flags.StringVar(&c.pgDSN, "pg", "", "use an existing PostgreSQL (`DSN`) instead of an ephemeral cluster; only schema fencelab is touched")
	flags.BoolVar(&c.allowUnsafe, "allow-unsafe", false, "let UNSAFE runs write to the server given with --pg")
	flags.BoolVar(&c.trustCode, "trust-code", false, "on a --redis where fencelab may make no user for a file's code, run it as fencelab's own user")
	flags.DurationVar(&c.leaseTTL, "lease-ttl", 0, "lease TTL (default 30s; stress: 500ms)")
	flags.BoolVarP(&c.verbose, "verbose", "v", false, "say more about the backends")
	flags.BoolVar(&all, "all", false, "run: every scenario")
	flags.StringVar(&mode, "mode", "safe", "run: safe, unsafe or both; the explorer: safe or unsafe")
	flags.BoolVar(&asJSON, "json", false, "run: print JSON")
	flags.IntVar(&n, "n", 100, "race: number of key sets for the forced interleaving")
	flags.IntVar(&free, "free", 0, "race: also run K pairs of truly concurrent requests")
	flags.IntVar(&maxSched, "max-schedules", 0, "check: stop after N schedules per scenario and mode (default: none, every schedule)")
	flags.StringVar(&maxMemory, "max-memory", formatSize(defaultMaxMemory), "check, matrix: stop a search whose memory passes `SIZE` (512MiB, 8GiB): cut short, it proves nothing")
	flags.IntVar(&runs, "runs", benchRuns, "bench: how often each side of a pair runs")
	flags.BoolVar(&why, "why", false, "check: count every state's broken futures and show, along the counterexample and the guided order, the point of no return")
	flags.BoolVar(&bounded, "allow-bounded", false, "check: let a search --max-schedules cut short pass (it proves nothing)")
	flags.StringArrayVar(&withoutArgs, "without", nil, "run SAFE with these `GUARDS` removed, comma-separated or the flag repeated (fencelab guards lists them)")
	flags.StringVar(&mdOut, "md", "", "matrix: another name for -o")
	flags.BoolVar(&strict, "strict", false, "matrix: exit 1 when a guard is needed by none of the scenarios, for files too")
	flags.StringVar(&outDir, "out", "", "check: directory for counterexample traces (default: a new temp dir)")
	flags.StringVar(&saveTrace, "save-trace", "", "run: another name for -o")
	flags.BoolVar(&keep, "keep", false, "run: keep the ephemeral PostgreSQL up afterwards, until Enter or Ctrl-C")
	flags.StringVar(&exportTo, "to", "", "export: md, mermaid, cast or tape")
	flags.StringVarP(&exportOut, "output", "o", "", "the one FILE a command writes: export's document, run's trace, matrix's Markdown, stress's page")
	flags.StringVar(&size, "size", "100x30", "export: the terminal of a cast or tape, COLUMNSxROWS")
	flags.StringVar(&langFlag, "lang", "", "the language of the narration and of a talk's texts: en or ko (default: the locale's, else en)")
	flags.StringVar(&tracePath, "trace", "", "the explorer: open a trace, its schedule as the guided order")
	flags.BoolVar(&watch, "watch", false, "the explorer: reload the scenario FILE it opened whenever it is saved, replaying the steps taken")
	flags.StringVar(&scenariosDir, "scenarios", "", "the explorer: also list the scenario files of `DIR` in the picker")
	flags.IntVar(&st.workers, "workers", 8, "stress: how many workers contend for the resource")
	flags.DurationVar(&st.duration, "duration", 10*time.Second, "stress: how long the workers run")
	flags.IntVar(&st.ops, "ops", 0, "stress: end after this many writes instead")
	flags.DurationVar(&st.pauseEvery, "pause-every", 2*time.Second, "stress: how often a worker that took the lease freezes (0: never)")
	flags.DurationVar(&st.pause, "pause", 0, "stress: how long a freeze lasts (default: twice the lease TTL)")
	flags.BoolVar(&st.procs, "procs", false, "stress: every worker a process of its own, frozen with SIGSTOP")
	flags.StringVar(&st.html, "html", "", "stress: another name for -o")
	flags.StringVar(&st.shared, "shared", "", "stress: contend for the resource NAME with the runs of other machines that name it")
	flags.BoolVarP(&helpWanted, "help", "h", false, "show this help")

	if err := flags.Parse(args); err != nil {
		var names []string
		flags.VisitAll(func(f *pflag.Flag) { names = append(names, "--"+f.Name) })
		fmt.Fprintf(stderr, "fencelab: %s\n", flagError(err, langOf(args), names))
		return exitUsage
	}
	c.lang = lang.FromEnv()
	if flags.Changed("lang") {
		l, err := lang.Parse(langFlag)
		if err != nil {
			return report(ctx, stderr, usageError("%v", err), c)
		}
		c.lang = l
	}
	if helpWanted {
		command := ""
		if len(flags.Args()) > 0 {
			command = flags.Args()[0]
		}
		return report(ctx, stderr, printHelp(stdout, command, c.lang), c)
	}
	if err := c.check(); err != nil {
		return report(ctx, stderr, err, c)
	}
	// A path is printed back — in lines, the explorer, a tape's commands —
	// so one with control characters in it would act on a terminal.
	for _, given := range append(flags.Args(), tracePath, outDir, exportOut, mdOut, saveTrace, scenariosDir, os.Getenv("FENCELAB_CACHE_DIR")) {
		if strings.ContainsFunc(given, unicode.IsControl) {
			return report(ctx, stderr, usageError("%q: a path or name with control characters in it is refused", given), c)
		}
	}
	rest := flags.Args()
	name := ""
	if len(rest) > 0 {
		name, rest = rest[0], rest[1:]
	}
	c.purpose = name
	// `fencelab ID` and `fencelab FILE` open the explorer on that scenario.
	var opening *engine.Scenario
	if name != "" && !slices.Contains(commands, name) && !slices.Contains(hiddenCommands, name) && isScenarioArg(name) {
		var err error
		if opening, err = scenarioArg(name); err != nil {
			return report(ctx, stderr, err, c)
		}
		name, c.purpose = "", "explorer"
		if len(rest) > 0 {
			return report(ctx, stderr, usageError("the explorer opens one scenario, got %q after it", rest), c)
		}
	}
	if name == "" {
		c.purpose = "explorer"
	}
	// --without, for the commands that take it (the others refuse it below,
	// as they refuse any flag that means nothing to them): every one given
	// counts, "--without fence --without owner" as "--without fence,owner".
	if flags.Changed("without") && slices.Contains([]string{"", "run", "check", "stress", "export", "replay", "diff"}, name) {
		// A file's own guards (version-check) have their names once the
		// file is read: the files named are read first. (A file that does
		// not read is said by the command itself, at its line.)
		var files []*engine.Scenario
		for _, arg := range rest {
			if info, err := os.Stat(arg); err == nil && info.Mode().IsRegular() && looksLikeFile(arg) {
				if s, err := loadScenarioFile(arg); err == nil {
					files = append(files, s)
				}
			}
		}
		if opening != nil && opening.Code != nil {
			files = append(files, opening)
		}
		var err error
		if c.without, err = engine.ParseGuards(strings.Join(withoutArgs, ",")); err != nil {
			if said := withoutOfFiles(withoutArgs, files); said != nil {
				return report(ctx, stderr, said, c)
			}
			return report(ctx, stderr, usageError("--without: %v", err), c)
		}
		if said := withoutOfFiles(withoutArgs, files); said != nil {
			return report(ctx, stderr, said, c)
		}
		if c.without == 0 {
			return report(ctx, stderr, usageError("--without names no guard (fencelab guards lists them)"), c)
		}
		if m, _ := engine.ParseMode(mode); flags.Changed("mode") && m == engine.Unsafe && strings.ToLower(mode) != "both" && name != "diff" {
			return report(ctx, stderr, usageError("--without removes guards from SAFE; UNSAFE is the naive code and has none"), c)
		}
	}
	// Flags that mean nothing to the command are refused, not ignored.
	only := func(command string) error {
		var stray []string
		flags.Visit(func(f *pflag.Flag) {
			if !slices.Contains(commandFlags[command], f.Name) && !slices.Contains(globalFlags, f.Name) {
				given := "--" + f.Name
				if f.Shorthand != "" && slices.ContainsFunc(args, func(a string) bool { return a == "-"+f.Shorthand || strings.HasPrefix(a, "-"+f.Shorthand+"=") }) {
					given = "-" + f.Shorthand // as typed: -o, not --output
				}
				stray = append(stray, given)
			}
		})
		helpOn := command
		if command == "" {
			command, helpOn = "the explorer", "explorer"
		}
		if len(stray) > 0 {
			return usageError("%s does not take %s (fencelab help %s says what it takes)", command, strings.Join(stray, ", "), helpOn)
		}
		return nil
	}
	// oneFile takes -o as the file a command writes under an older name
	// too (--save-trace, --md, --html), which stays -o's alias.
	oneFile := func(alias string, file *string) error {
		if !flags.Changed("output") {
			return nil
		}
		if flags.Changed(alias) && *file != exportOut {
			return usageError("-o and --%s both name the file to write: give one", alias)
		}
		*file = exportOut
		return nil
	}
	if flags.Changed("lease-ttl") && c.leaseTTL == 0 {
		return report(ctx, stderr, usageError("--lease-ttl must be positive, got 0 (leave it out for the default)"), c)
	}
	// An empty value is a mistake (an unset variable, say), not a wish for
	// the embedded backend: that is what leaving the flag out asks.
	if flags.Changed("redis") && strings.TrimSpace(c.redisURL) == "" {
		return report(ctx, stderr, usageError("--redis is empty: give redis://HOST:PORT/DB, or leave it out for the embedded Redis"), c)
	}
	if flags.Changed("pg") && strings.TrimSpace(c.pgDSN) == "" {
		return report(ctx, stderr, usageError("--pg is empty: give a DSN, or leave it out for an ephemeral PostgreSQL"), c)
	}
	var err error
	switch name {
	case "help":
		if len(rest) > 1 {
			err = usageError("help takes one command, got %q", rest)
			break
		}
		err = printHelp(stdout, strings.Join(rest, ""), c.lang)
	case "bench-frame":
		err = runBareFrame(ctx)
	case "bench":
		if err = only("bench"); err != nil {
			break
		}
		if len(rest) > 0 {
			err = usageError("bench takes no arguments, got %q", rest)
			break
		}
		if runs < 1 || runs > 100 {
			err = usageError("--runs must be 1 to 100, got %d", runs)
			break
		}
		err = runBench(ctx, c, benchRequest{runs: runs, json: asJSON}, stdout, stderr)
	case "version":
		if err = only("version"); err != nil {
			break
		}
		if len(rest) > 0 {
			err = usageError("version takes no arguments, got %q", rest)
			break
		}
		err = printVersion(stdout)
	case "list":
		if err = only("list"); err != nil {
			break
		}
		if len(rest) > 0 {
			err = usageError("list takes no arguments, got %q", rest)
			break
		}
		listCatalog(stdout, c.lang)
	case "run":
		if err = only("run"); err != nil {
			break
		}
		if err = oneFile("save-trace", &saveTrace); err != nil {
			break
		}
		if keep && c.pgDSN != "" {
			err = usageError("--keep keeps fencelab's own PostgreSQL up; the --pg server is yours and stays up anyway")
			break
		}
		var req runRequest
		req, err = parseRunRequest("run", rest, all, mode, asJSON, c)
		req.keep = keep
		if err == nil && saveTrace != "" {
			saveTrace = physical(saveTrace)
			req.saveTrace = saveTrace
			if len(req.scenarios)*len(req.modes) != 1 {
				err = usageError("--save-trace saves one run: give one scenario and --mode safe or unsafe")
			} else {
				err = checkTraceTarget(saveTrace)
			}
		}
		if err == nil {
			err = runHeadless(ctx, c, req, stdout, stderr)
		}
	case "check":
		if err = only("check"); err != nil {
			break
		}
		var req checkRequest
		if req.runRequest, err = parseRunRequest("check", rest, all, mode, asJSON, c); err != nil {
			break
		}
		if flags.Changed("max-schedules") && maxSched < 1 {
			err = usageError("--max-schedules must be at least 1, got %d", maxSched)
			break
		}
		req.maxSchedules, req.out, req.allowBounded, req.why = maxSched, outDir, bounded, why
		limit, sizeErr := parseSize(maxMemory)
		if sizeErr != nil {
			err = usageError("--max-memory %q: %v", maxMemory, sizeErr)
			break
		}
		req.memory = &memoryBound{limit: limit}
		if req.out, err = checkOutDir(req.out); err == nil {
			err = runCheck(ctx, c, req, stdout, stderr)
		}
	case "replay":
		if err = only("replay"); err != nil {
			break
		}
		if len(rest) != 1 {
			err = usageError("replay takes one trace file, got %d arguments", len(rest))
			break
		}
		err = runReplay(ctx, c, rest[0], asJSON, flags.Changed("lease-ttl"), stdout, stderr)
	case "export":
		if err = only("export"); err != nil {
			break
		}
		var req exportRequest
		if req, err = parseExportRequest(rest, exportTo, mode, flags.Changed("mode"), exportOut, size); err == nil {
			err = runExport(ctx, c, req, flags.Changed("lease-ttl"), stdout, stderr)
		}
	case "talk":
		if err = only("talk"); err != nil {
			break
		}
		if len(rest) != 1 {
			err = usageError("talk takes one script file, got %d arguments (fencelab talk --help)", len(rest))
			break
		}
		var talk tui.Talk
		if talk, err = loadTalk(rest[0], string(c.lang)); err != nil {
			break
		}
		for _, scene := range talk.Scenes {
			if scene.Mode == engine.Unsafe && c.pgDSN != "" && !c.allowUnsafe {
				err = usageError("the talk has UNSAFE scenes, which write naive code paths into --pg's server; pass --allow-unsafe to let them (nothing was written)")
			}
		}
		if err == nil {
			err = explore(ctx, c, talk.Scenes[0].Mode, exploreOpen{talk: &talk, stderr: stderr})
		}
	case "stress":
		if err = only("stress"); err != nil {
			break
		}
		if err = oneFile("html", &st.html); err != nil {
			break
		}
		st.mode, st.asJSON = mode, asJSON
		st.durationSet, st.opsSet = flags.Changed("duration"), flags.Changed("ops")
		st.pauseSet, st.sharedSet = flags.Changed("pause"), flags.Changed("shared")
		var req stressRequest
		if req, err = parseStressRequest(rest, st, c); err == nil {
			err = runStress(ctx, c, req, stdout, stderr)
		}
	case "worker":
		if err = only("worker"); err != nil {
			break
		}
		err = runWorker(ctx, os.Stdin, stdout)
	case "guards":
		if err = only("guards"); err != nil {
			break
		}
		if len(rest) > 1 {
			err = usageError("guards takes one scenario at most, got %q", rest)
			break
		}
		list := engine.AllGuards()
		if len(rest) == 1 {
			var s *engine.Scenario
			if s, err = scenarioArg(rest[0]); err != nil {
				break
			}
			list = s.GuardList()
		}
		err = printGuards(stdout, list, asJSON, c.lang)
	case "matrix":
		if err = only("matrix"); err != nil {
			break
		}
		if err = oneFile("md", &mdOut); err != nil {
			break
		}
		if (flags.Changed("md") || flags.Changed("output")) && mdOut == "" {
			err = usageError("--md needs a file name")
			break
		}
		limit, sizeErr := parseSize(maxMemory)
		if sizeErr != nil {
			err = usageError("--max-memory %q: %v", maxMemory, sizeErr)
			break
		}
		var req matrixRequest
		if req, err = parseMatrixRequest(rest, asJSON, mdOut, outDir); err == nil {
			req.strict, req.memory = strict, &memoryBound{limit: limit}
			err = runMatrix(ctx, c, req, stdout, stderr)
		}
	case "race":
		if err = only("race"); err != nil {
			break
		}
		if c.pgDSN != "" {
			err = usageError("race needs Redis only; it does not take --pg")
			break
		}
		if len(rest) > 0 {
			err = usageError("race takes no arguments, got %q", rest)
			break
		}
		err = runRace(ctx, c, n, free, stdout, stderr)
	case "diff":
		if err = only("diff"); err != nil {
			break
		}
		var req diffRequest
		if req, err = parseDiffRequest(rest, mode, flags.Changed("mode"), c.without, asJSON, exportTo); err != nil {
			break
		}
		if req.sides[1].Mode == engine.Unsafe && c.pgDSN != "" && !c.allowUnsafe {
			err = usageError("UNSAFE runs write naive code paths into --pg's server; pass --allow-unsafe to let them (nothing was written)")
			break
		}
		err = runDiff(ctx, c, req, stdout, stderr)
	case "scenario":
		if err = only("scenario"); err != nil {
			break
		}
		err = runScenarioCommand(ctx, c, rest, stdout, stderr)
	case "":
		if err = only(""); err != nil {
			break
		}
		var open exploreOpen
		open.scenario = opening
		if watch {
			if opening == nil || opening.File == "" {
				err = usageError("--watch reloads a scenario file: fencelab --watch my-story.toml")
				break
			}
			open.watch = []string{opening.File}
		}
		if tracePath != "" && opening != nil {
			err = usageError("--trace opens the trace's own scenario; leave out %s", flags.Args()[0])
			break
		}
		if scenariosDir != "" {
			if open.more, err = scenarioDir(scenariosDir); err != nil {
				break
			}
		}
		var m engine.Mode
		var trace *loadedTrace
		if tracePath != "" {
			if flags.Changed("mode") {
				err = usageError("--trace opens the trace's own mode; leave out --mode")
				break
			}
			var t loadedTrace
			if t, err = loadTrace(tracePath); err != nil {
				break
			}
			if c, err = c.withTraceTTL(t, flags.Changed("lease-ttl")); err != nil {
				break
			}
			trace, mode = &t, t.trace.Mode
		}
		if m, err = engine.ParseMode(mode); err != nil {
			err = usageError("--mode %q: the explorer opens safe or unsafe (m switches between them)", mode)
			break
		}
		if m == engine.Unsafe && c.pgDSN != "" && !c.allowUnsafe {
			err = usageError("UNSAFE runs write naive code paths into --pg's server; pass --allow-unsafe to let them (nothing was written)")
			break
		}
		open.trace, open.stderr = trace, stderr
		err = explore(ctx, c, m, open)
	default:
		// A misspelt command or scenario id: the nearest of both, if one is.
		if near := scenarios.Nearest(name, append(slices.Clone(commands), scenarios.IDs()...)); near != "" {
			err = usageError("unknown command or scenario %q (did you mean %s?)", untrusted.Line(name), near)
			break
		}
		err = usageError("unknown command %q (want %s, a scenario id or a scenario file; fencelab --help)", name, strings.Join(commands, ", "))
	}
	return report(ctx, stderr, err, c)
}

// report prints an error as one line and returns its exit code.
// Whatever the line quotes of the DSN or URL given (a driver's parse error
// quotes it whole) loses its password.
func report(ctx context.Context, stderr io.Writer, err error, c config) int {
	if err == nil {
		return exitOK
	}
	var exit *exitError
	var caught *engine.Panic
	if errors.As(err, &caught) { // a goroutine's, carried here as an error
		exit = (&crash{value: caught.Value, stack: caught.Stack}).report()
	} else if !errors.As(classify(ctx, err), &exit) {
		exit = &exitError{code: exitUnexpected, err: err}
	}
	if exit.err != nil {
		// A path or a server's message may carry control characters: shown,
		// not acted on by the terminal.
		line := untrusted.Line(redact.WithinURL(redact.Within(exit.line(c.lang), c.pgDSN), c.redisURL))
		line = cutLine(engine.ServerNames(line), c.lang)
		if path, ok := fileLineAt(line); ok && exit.code == exitUsage {
			// A mistake in a scenario file is said as a compiler says
			// one: FILE:LINE first, where an editor jumps to it, and
			// after it what it stopped ("lock-fence SAFE: B: release").
			before := strings.TrimSuffix(strings.TrimSpace(line[:path]), ":")
			line = line[path:]
			if before != "" {
				line += " (" + before + ")"
			}
			fmt.Fprintln(stderr, line)
			return exit.code
		}
		fmt.Fprintf(stderr, "fencelab: %s\n", line)
	}
	return exit.code
}

func listCatalog(w io.Writer, l lang.Lang) {
	for _, s := range scenarios.All() {
		fmt.Fprintf(w, "%-22s %s\n%-22s %s\n", s.ID, l.T(s.Title), "", l.T(s.Story))
	}
}

// flagError is a command line pflag refused, in one line, in language l:
// the usual refusals in fencelab's words, any other in pflag's.
func flagError(err error, l lang.Lang, names []string) string {
	// What pflag quotes back is the user's: said through untrusted.Line,
	// as every word fencelab echoes, so no escape reaches the terminal.
	msg, u := err.Error(), untrusted.Line
	if m := unknownFlag.FindStringSubmatch(msg); m != nil {
		given, _, _ := strings.Cut(m[1], "=")
		if near := scenarios.Nearest(given, names); near != "" {
			return l.T("unknown flag %s (did you mean %s?)", u(m[1]), near)
		}
		return l.T("unknown flag %s (fencelab --help)", u(m[1]))
	}
	if m := unknownShorthand.FindStringSubmatch(msg); m != nil {
		return l.T("unknown flag -%s in %s (fencelab --help)", u(m[1]), u(m[2]))
	}
	if m := needsValue.FindStringSubmatch(msg); m != nil {
		return l.T("%s needs a value (fencelab --help)", u(m[1]))
	}
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		why := m[3]
		switch {
		case strings.HasPrefix(why, "must be a duration"):
			why = l.T("want a duration with its unit, like 30s, 500ms or 5m")
		case strings.HasPrefix(why, "must be an integer"):
			why = l.T("want a whole number")
		}
		value := m[1]
		if raw, err := strconv.Unquote(`"` + value + `"`); err == nil {
			value = raw // pflag quoted it (%q): quoted once, here
		}
		return l.T("%s %q: %s (fencelab --help)", u(m[2]), value, u(why))
	}
	return l.T("%v (fencelab --help)", u(msg))
}

// pflag's words for the usual refusals.
var (
	unknownFlag      = regexp.MustCompile(`^unknown flag: (\S+)$`)
	unknownShorthand = regexp.MustCompile(`^unknown shorthand flag: '(.)' in (\S+)$`)
	needsValue       = regexp.MustCompile(`^flag needs an argument: (.+)$`)
	invalidValue     = regexp.MustCompile(`^invalid argument "(.*)" for "(.+)" flag: (.+)$`)
)

// langOf is the language a command line asks for, read before its flags
// are parsed (a refusal of the flags is said in it too).
func langOf(args []string) lang.Lang {
	l := lang.FromEnv()
	for i, a := range args {
		value, ok := strings.CutPrefix(a, "--lang=")
		if !ok && a == "--lang" && i+1 < len(args) {
			value, ok = args[i+1], true
		}
		if ok {
			if parsed, err := lang.Parse(value); err == nil {
				l = parsed
			}
		}
	}
	return l
}

// isTerminal reports whether w is a terminal (through the writer that
// checks standard output's writes).
func isTerminal(w io.Writer) bool {
	if c, ok := w.(*checkedWriter); ok {
		w = c.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(f.Fd())
}

// fileLine ends the name of a scenario file's line in a failure's line.
var fileLine = regexp.MustCompile(`\.toml:\d+: `)

// fileLineAt is where a failure's line names a scenario file's line
// (FILE:LINE: what): at its start, or after the ": " that ends what the
// failure stopped ("lock-fence SAFE: B: release: FILE:44: …"). A path
// may hold spaces, so it starts there, or nowhere this can tell.
func fileLineAt(line string) (int, bool) {
	at := fileLine.FindStringIndex(line)
	if at == nil {
		return 0, false
	}
	if i := strings.LastIndex(line[:at[0]], ": "); i >= 0 {
		return i + 2, true
	}
	return 0, !strings.Contains(line[:at[0]], " ") || strings.HasPrefix(line, "/") || strings.HasPrefix(line, ".")
}

// mostReported is how much of a failure's line fencelab prints: a server's
// message may quote a value of any size (an error a script raised with a
// 10 MB string), and one line on a terminal is for reading.
const mostReported = 2000

// cutLine is a line cut to mostReported bytes (at a character's start),
// with its size said.
func cutLine(line string, l lang.Lang) string {
	if len(line) <= mostReported {
		return line
	}
	end := mostReported
	for end > 0 && !utf8.RuneStart(line[end]) {
		end--
	}
	return line[:end] + l.T("… (cut: %d bytes in all)", len(line))
}

// withoutOfFiles holds --without to the guards of the scenario files a
// command names (those with code of their own): a file's guards are its
// own, and fencelab's fourteen are none of its (a guard it does not have,
// taken out, would change nothing and say it did). Nil where every name
// is one of a file's.
func withoutOfFiles(names []string, files []*engine.Scenario) error {
	for _, s := range files {
		if s.Code == nil {
			continue
		}
		var theirs []string
		for _, g := range s.GuardList() {
			theirs = append(theirs, g.String())
		}
		for _, list := range names {
			for _, name := range strings.Split(list, ",") {
				name = strings.TrimSpace(name)
				if name == "" || slices.Contains(theirs, name) {
					continue
				}
				if g, err := engine.ParseGuard(name); err == nil && slices.Contains(theirs, g.String()) {
					continue
				}
				if len(theirs) == 0 {
					return usageError("--without %s: %s has no guards (its steps define none)", untrusted.Line(name), s.File)
				}
				if near := scenarios.Nearest(name, theirs); near != "" {
					return usageError("--without: %s has no guard %q (did you mean %s?); its guards: %s", s.File, untrusted.Line(name), near, strings.Join(theirs, ", "))
				}
				return usageError("--without: %s has no guard %q; its guards: %s", s.File, untrusted.Line(name), strings.Join(theirs, ", "))
			}
		}
	}
	return nil
}
