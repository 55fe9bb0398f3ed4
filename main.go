// Command fencelab is a keyboard-driven explorer of job safety in
// distributed systems: real workers against a real Redis and a real
// PostgreSQL, one step at a time, in SAFE and UNSAFE mode.
//
//	fencelab                      the explorer, on lease-overrun in SAFE mode
//	fencelab list                 the catalog
//	fencelab run ID|--all [--mode safe|unsafe|both] [--json]
//	fencelab check ID|--all [--mode both] [--out DIR]
//	fencelab replay FILE
//	fencelab race [--n 100] [--free K]
//	fencelab stress [--workers 8] [--procs] [--mode unsafe]
//
// main.go parses the command line; backends.go starts the stores and wires
// them into the engine; run.go is the headless run.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/redact"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/tui"
)

func main() {
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
	os.Exit(code)
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

// The usage, in three parts that help.go puts together (all of it, or one
// command's lines with the flags and exit codes), each said in the user's
// language. A command's lines start with "  fencelab COMMAND" in every
// language.
const usageHead = `fencelab — watch why a leader lease alone is not enough

usage:
`

const usageCommands = `  fencelab [--mode unsafe] [flags]        the explorer (lease-overrun, SAFE);
                                          ? inside it lists the keys
  fencelab list                           the scenario catalog
  fencelab run ID|--all [flags]           run the guided order headless
        --mode safe|unsafe|both           (default safe)
        --json                            one JSON object per scenario × mode
        --save-trace FILE                 write the run (one scenario, one mode) as a trace
        --keep                            then keep the ephemeral PostgreSQL up for the
                                          psql line it printed, until Enter or Ctrl-C
  fencelab check ID|--all [flags]         run EVERY schedule: all interleavings of the
                                          actors' steps with the clock advanced to each
                                          expiry (and by the guided order's durations);
                                          pausing = not scheduling an actor. Pruned only
                                          at a state already explored by a schedule no
                                          longer (Redis keys + TTLs, every row, provider,
                                          actors' positions and memory, clock)
        --mode safe|unsafe|both           (default safe)
        --max-schedules N                 per scenario × mode (default 200000)
        --out DIR                         counterexample traces (default: a new temp dir)
        --json                            one JSON object per scenario × mode
  fencelab replay FILE [--json]           run a trace again; exit 1 if anything differs
  fencelab --trace FILE                   the explorer on a trace's schedule (n steps it)
  fencelab export TRACE|ID --to FORMAT    the session as a document, recorded on the backends:
        --to md|mermaid|cast|tape         a Markdown page, a Mermaid sequence diagram, an
                                          asciinema recording of the explorer, a VHS tape
        --mode safe|unsafe                an ID's guided order in that mode (default safe)
        -o FILE                           (default: standard output; a tape of an ID also
                                          writes the trace it plays beside it)
        --size 100x30                     the terminal of a cast or tape
  fencelab talk SCRIPT                    play a talk script (TOML): its scenes in order,
                                          space/./→/PgDn on, ←/PgUp back, b blanks the
                                          screen; captions show large (talks/fencing.toml)
  fencelab race [--n 100] [--free K]      the second seed's forced interleaving on N
                                          key sets (Redis only), and K free-running pairs
  fencelab stress [flags]                 many real workers contend for one resource, with
                                          real TTLs and real pauses; the rows and keys are
                                          checked, and the history for linearizability
        --workers N                       how many (default 8, at most 200)
        --duration D | --ops N            how long (default 10s), or how many writes
        --pause-every D                   how often a worker freezes right after it takes
                                          the lease (default 2s; 0: never)
        --pause D                         how long (default: twice the lease TTL, 500ms)
        --mode safe|unsafe                (default safe)
        --procs                           every worker a process, frozen with SIGSTOP
        --html FILE                       Porcupine's view of the history
        --json                            the report as one JSON object
        --shared NAME                     contend for one resource with every run of
                                          --shared NAME, on any machine (--redis, --pg)
  fencelab version                        the version and commit this was built from
  fencelab COMMAND --help                 that command's help
`

const usageFlags = `
flags:
  --redis redis://HOST:PORT/DB   a real Redis instead of the embedded one; a Redis Cluster
                                 as redis://H1:P1,H2:P2,… or any one node's address
  --pg DSN                       an existing PostgreSQL instead of an ephemeral cluster;
                                 only schema fencelab is touched
  --allow-unsafe                 let UNSAFE runs write to the --pg server
  --lease-ttl DURATION           lease TTL (default 30s embedded; on a real Redis 1.5s,
                                 10s in the explorer, so a step can be read in time)
  --lang en|ko                   the language of the narration and a talk's texts
                                 (default: the locale's — LC_ALL, LC_MESSAGES, LANG —
                                 else en); identifiers (STALE_FENCE, keys) stay as they are
  -v, --verbose                  with --json, print the backends to stderr
  -h, --help                     this help

exit: 0 as expected · 1 a run ended otherwise than the catalog predicts (check:
SAFE broke an invariant, or UNSAFE never its anomaly; replay: it differs), or
failed (its output could not be written, say) · 2 bad usage or configuration ·
3 a server could not be reached or stopped answering · 128+N ended by
signal N (130 Ctrl-C, 143 SIGTERM)
`

// globalFlags apply to every command.
var globalFlags = []string{"redis", "pg", "allow-unsafe", "lease-ttl", "verbose", "lang", "help"}

// fencelab runs one command line and returns the exit code.
func fencelab(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	// A reader that went away stops the command at once (it still cleans up).
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	out := &checkedWriter{w: stdout, brokenPipe: func() { cancel(errBrokenPipe) }}
	code := command(ctx, args, out, stderr)
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
	flags := pflag.NewFlagSet("fencelab", pflag.ContinueOnError)
	flags.SetOutput(io.Discard)
	var c config
	var (
		all        bool
		mode       string
		asJSON     bool
		helpWanted bool
		n, free    int
		maxSched   int
		outDir     string
		saveTrace  string
		tracePath  string
		keep       bool
		exportTo   string
		exportOut  string
		size       string
		langFlag   string
		st         stressFlags
	)
	flags.StringVar(&c.redisURL, "redis", "", "use a real Redis `URL` (redis://HOST:PORT/DB, or a cluster's redis://H1:P1,H2:P2) instead of the embedded one")
	flags.StringVar(&c.pgDSN, "pg", "", "use an existing PostgreSQL (`DSN`) instead of an ephemeral cluster; only schema fencelab is touched")
	flags.BoolVar(&c.allowUnsafe, "allow-unsafe", false, "let UNSAFE runs write to the server given with --pg")
	flags.DurationVar(&c.leaseTTL, "lease-ttl", 0, "lease TTL (default 30s on the embedded Redis; on a real one 1.5s, 10s in the explorer)")
	flags.BoolVarP(&c.verbose, "verbose", "v", false, "say more about the backends")
	flags.BoolVar(&all, "all", false, "run: every scenario")
	flags.StringVar(&mode, "mode", "safe", "run: safe, unsafe or both; the explorer: safe or unsafe")
	flags.BoolVar(&asJSON, "json", false, "run: print JSON")
	flags.IntVar(&n, "n", 100, "race: number of key sets for the forced interleaving")
	flags.IntVar(&free, "free", 0, "race: also run K pairs of truly concurrent requests")
	flags.IntVar(&maxSched, "max-schedules", 200_000, "check: stop after N schedules per scenario and mode")
	flags.StringVar(&outDir, "out", "", "check: directory for counterexample traces (default: a new temp dir)")
	flags.StringVar(&saveTrace, "save-trace", "", "run: write the run as a trace to FILE")
	flags.BoolVar(&keep, "keep", false, "run: keep the ephemeral PostgreSQL up afterwards, until Enter or Ctrl-C")
	flags.StringVar(&exportTo, "to", "", "export: md, mermaid, cast or tape")
	flags.StringVarP(&exportOut, "output", "o", "", "export: write to FILE (default: standard output)")
	flags.StringVar(&size, "size", "100x30", "export: the terminal of a cast or tape, COLUMNSxROWS")
	flags.StringVar(&langFlag, "lang", "", "the language of the narration and of a talk's texts: en or ko (default: the locale's, else en)")
	flags.StringVar(&tracePath, "trace", "", "the explorer: open a trace, its schedule as the guided order")
	flags.IntVar(&st.workers, "workers", 8, "stress: how many workers contend for the resource")
	flags.DurationVar(&st.duration, "duration", 10*time.Second, "stress: how long the workers run")
	flags.IntVar(&st.ops, "ops", 0, "stress: end after this many writes instead")
	flags.DurationVar(&st.pauseEvery, "pause-every", 2*time.Second, "stress: how often a worker that took the lease freezes (0: never)")
	flags.DurationVar(&st.pause, "pause", 0, "stress: how long a freeze lasts (default: twice the lease TTL)")
	flags.BoolVar(&st.procs, "procs", false, "stress: every worker a process of its own, frozen with SIGSTOP")
	flags.StringVar(&st.html, "html", "", "stress: write Porcupine's view of the history to FILE")
	flags.StringVar(&st.shared, "shared", "", "stress: contend for the resource NAME with the runs of other machines that name it")
	flags.BoolVarP(&helpWanted, "help", "h", false, "show this help")

	if err := flags.Parse(args); err != nil {
		fmt.Fprintf(stderr, "fencelab: %s\n", flagError(err, langOf(args)))
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

	rest := flags.Args()
	name := ""
	if len(rest) > 0 {
		name, rest = rest[0], rest[1:]
	}
	// Flags that mean nothing to the command are refused, not ignored.
	only := func(command string, allowed ...string) error {
		var stray []string
		flags.Visit(func(f *pflag.Flag) {
			if !slices.Contains(allowed, f.Name) && !slices.Contains(globalFlags, f.Name) {
				stray = append(stray, "--"+f.Name)
			}
		})
		if len(stray) > 0 {
			return usageError("%s does not take %s (fencelab --help)", command, strings.Join(stray, ", "))
		}
		return nil
	}
	if flags.Changed("lease-ttl") && c.leaseTTL == 0 {
		return report(ctx, stderr, usageError("--lease-ttl must be positive, got 0 (leave it out for the default)"), c)
	}
	var err error
	switch name {
	case "help":
		if len(rest) > 1 {
			err = usageError("help takes one command, got %q", rest)
			break
		}
		err = printHelp(stdout, strings.Join(rest, ""), c.lang)
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
		if err = only("run", "all", "mode", "json", "save-trace", "keep"); err != nil {
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
		if err = only("check", "all", "mode", "json", "max-schedules", "out"); err != nil {
			break
		}
		var req checkRequest
		if req.runRequest, err = parseRunRequest("check", rest, all, mode, asJSON, c); err != nil {
			break
		}
		if maxSched < 1 {
			err = usageError("--max-schedules must be at least 1, got %d", maxSched)
			break
		}
		req.maxSchedules, req.out = maxSched, outDir
		if err = checkOutDir(req.out); err == nil {
			err = runCheck(ctx, c, req, stdout, stderr)
		}
	case "replay":
		if err = only("replay", "json"); err != nil {
			break
		}
		if len(rest) != 1 {
			err = usageError("replay takes one trace file, got %d arguments", len(rest))
			break
		}
		err = runReplay(ctx, c, rest[0], asJSON, flags.Changed("lease-ttl"), stdout, stderr)
	case "export":
		if err = only("export", "to", "output", "size", "mode"); err != nil {
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
			err = explore(ctx, c, talk.Scenes[0].Mode, nil, &talk)
		}
	case "stress":
		if err = only("stress", "workers", "duration", "ops", "pause-every", "pause", "mode", "procs", "html", "json", "shared"); err != nil {
			break
		}
		st.mode, st.asJSON = mode, asJSON
		st.durationSet, st.opsSet = flags.Changed("duration"), flags.Changed("ops")
		st.pauseSet = flags.Changed("pause")
		var req stressRequest
		if req, err = parseStressRequest(rest, st, c); err == nil {
			err = runStress(ctx, c, req, stdout, stderr)
		}
	case "worker":
		if err = only("worker"); err != nil {
			break
		}
		err = runWorker(ctx, os.Stdin, stdout)
	case "race":
		if err = only("race", "n", "free"); err != nil {
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
	case "":
		if err = only("the explorer", "mode", "trace"); err != nil {
			break
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
		err = explore(ctx, c, m, trace, nil)
	default:
		err = usageError("unknown command %q (want %s; fencelab --help)", name, strings.Join(commands, ", "))
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
	if !errors.As(classify(ctx, err), &exit) {
		exit = &exitError{code: exitUnexpected, err: err}
	}
	if exit.err != nil {
		line := redact.Within(redact.Within(exit.line(c.lang), c.pgDSN), c.redisURL)
		fmt.Fprintf(stderr, "fencelab: %s\n", line)
	}
	return exit.code
}

func listCatalog(w io.Writer, l lang.Lang) {
	for _, s := range scenarios.All() {
		fmt.Fprintf(w, "%-22s %s\n%-22s %s\n", s.ID, l.T(s.Title), "", l.T(s.Story))
	}
}

// flagError is a command line pflag refused, in one line, in pflag's words.
func flagError(err error, l lang.Lang) string { return l.T("%v (fencelab --help)", err) }

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
