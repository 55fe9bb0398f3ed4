package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/fencelab/fencelab/lang"
)

// The usage, in three parts that help.go puts together (all of it, or one
// command's lines with the flags and exit codes), each said in the user's
// language. A command's lines start with "  fencelab COMMAND" in every
// language.
const usageHead = `fencelab — watch why a leader lease alone is not enough

usage:
`

const usageCommands = `  fencelab [--mode unsafe] [flags]        the explorer (lease-overrun, SAFE);
                                          ? inside it lists the keys
  fencelab ID|FILE [--watch] [flags]      the explorer on that scenario (a catalog id,
                                          or a scenario file: fencelab-scenario/1);
                                          --watch reloads the FILE whenever it is saved
                                          and replays the actions taken on the new one
        --scenarios DIR                   also list DIR's scenario files in the picker
  fencelab list                           the scenario catalog
  fencelab run ID|FILE|--all [flags]      run the guided order headless
        --mode safe|unsafe|both           (default safe)
        --json                            one JSON object per scenario × mode
        --save-trace FILE                 write the run (one scenario, one mode) as a trace
        --keep                            then keep the ephemeral PostgreSQL up for the
                                          psql line it printed, until Enter or Ctrl-C
  fencelab check ID|FILE|--all [flags]    run EVERY schedule: all interleavings of the
                                          actors' calls (each round trip to Redis or
                                          PostgreSQL a step of its own) with the clock
                                          advanced to each expiry (and by the guided
                                          order's durations); pausing = not scheduling
                                          an actor. Reduced soundly: a state reached
                                          again is not explored again (its keys, rows,
                                          provider, actors, times relative to the clock),
                                          and of two calls that touch disjoint parts of
                                          the lab one order is taken (sleep sets); every
                                          state is still reached. SAFE must also make
                                          progress: the guided order and some complete
                                          schedule reach the expected value. What it
                                          explores and what not: docs/checker.md
        --mode safe|unsafe|both           (default safe)
        --without GUARD[,GUARD…]          SAFE with those guards taken out of its code
        --max-schedules N                 stop after N per scenario × mode (default: none);
                                          a search cut short proves nothing: exit 1
        --allow-bounded                   unless this is given
        --max-memory SIZE                 stop a search whose memory passes SIZE (default
                                          2GiB; 512MiB, 8GiB): cut short, exit 1 as above
        --out DIR                         counterexample traces (default: a new temp dir)
        --json                            one JSON object per scenario × mode
        --why                             count every state's broken futures (every order
                                          of calls): each step's share along the
                                          counterexample and the guided order, and the
                                          point of no return
  fencelab guards [--json]                SAFE's guards, each with what it checks
  fencelab matrix [ID|FILE…] [flags]      check every scenario in SAFE with each guard
                                          removed alone: which guard each one needs
        --md FILE                         also write the table as Markdown
        --out DIR                         counterexample traces (default: a new temp dir)
        --json                            the matrix as one JSON object
        --strict                          exit 1 when a guard is needed by none of the
                                          scenarios: always for the catalog's, for your
                                          own files only with this (else it is said)
  fencelab replay FILE [--json]           run a trace again; exit 1 if anything differs
  fencelab --trace FILE                   the explorer on a trace's schedule (n steps it)
  fencelab export TRACE|ID|FILE --to FMT  the session as a document, recorded on the backends:
        --to md|mermaid|cast|tape|gif|svg a Markdown page, a Mermaid sequence diagram, an
                                          asciinema recording of the explorer, a VHS tape,
                                          the explorer as a GIF or an animated SVG
        --mode safe|unsafe                an ID's guided order in that mode (default safe)
        -o FILE                           (default: standard output; a tape of an ID also
                                          writes the trace it plays beside it)
        --size 100x30                     the terminal of a cast, tape, GIF or SVG
  fencelab diff ID|FILE|TRACE [flags]     one schedule in SAFE beside UNSAFE (or beside
                                          SAFE --without G), aligned by action: where
                                          they part, the guard that decided it (found by
                                          running SAFE without each guard), both results
        --mode safe|unsafe                whose guided order (default safe)
        --without GUARD[,GUARD…]          SAFE beside SAFE without those guards
        --to md                           a Markdown page: a two-column table, and each
                                          side as a Mermaid sequence diagram
        --to mermaid                      one sequence diagram of both: what they did
                                          alike once, what differs in each side's box
        --json                            the two runs as one JSON object
  fencelab talk SCRIPT                    play a talk script (TOML): its scenes in order,
                                          space/./→/PgDn on, ←/PgUp back, b blanks the
                                          screen; captions show large (talks/fencing.toml)
  fencelab scenario show ID               print a catalog scenario's file (a start for
                                          your own)
  fencelab scenario check FILE…           compile scenario files; each mistake is one
                                          line, FILE:LINE: what, exit 2
  fencelab scenario steps                 every step a file's programs can name
  fencelab race [--n 100] [--free K]      the second seed's forced interleaving on N
                                          key sets (Redis only), and K free-running pairs
  fencelab stress [flags]                 many real workers contend for one resource, with
                                          real TTLs and real pauses; the rows and keys are
                                          checked, and the history for linearizability
        --workers N                       how many (default 8, at most 200)
        --duration D | --ops N            how long (default 10s), or how many writes
        --pause-every D                   how often a worker freezes right after it takes
                                          the lease (default 2s; 0: never); one that reads
                                          outside its write's transaction (UNSAFE, SAFE
                                          --without read-in-tx) may also freeze after its
                                          read, waking the frozen one
        --without GUARD[,GUARD…]          SAFE with those guards removed (fence, read-in-tx,
                                          owner, … — those a stress worker asks)
        --pause D                         how long (default: twice the lease TTL, so 1s)
        --mode safe|unsafe                (default safe)
        --procs                           every worker a process, frozen with SIGSTOP
        --html FILE                       Porcupine's view of the history
        --json                            the report as one JSON object
        --shared NAME                     contend for one resource with every run of
                                          --shared NAME, on any machine (--redis, --pg)
                                          The lease TTL is 500ms unless --lease-ttl says;
                                          exit 0 when SAFE held or UNSAFE broke, 1 if not
  fencelab bench [--runs 5] [--json]      what fencelab costs beside the floor under it:
                                          start, the explorer's first frame and step,
                                          a step, check's states a second, stress's
                                          commits beside pgbench and a lease loop (at
                                          1 worker also beside a bare loop of its own
                                          calls); each pair one after the other,
                                          medians, and the ratio
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
  --lease-ttl DURATION           lease TTL (default 30s: a lab's keys expire on the lab
                                 clock, on a real Redis too; stress: 500ms)
  --lang en|ko                   the language of the narration and a talk's texts
                                 (default: the locale's — LC_ALL, LC_MESSAGES, LANG —
                                 else en); identifiers (STALE_FENCE, keys) stay as they are
  --without GUARD[,GUARD…]       SAFE with those guards taken out of its code (run, check,
                                 stress, export, the explorer; a trace carries its own)
  -v, --verbose                  with --json, print the backends to stderr
  -h, --help                     this help

exit: 0 as expected · 1 a run ended otherwise than the catalog predicts (check:
SAFE broke an invariant, made no progress or was cut short, or UNSAFE never
reached its anomaly; replay: it differs; matrix: a guard no scenario needs), or
failed (its output could not be written, say) · 2 bad usage or configuration ·
3 a server could not be reached or stopped answering · 128+N ended by
signal N (130 Ctrl-C, 143 SIGTERM)
`

// commands are the commands usage has a section for.
var commands = []string{"list", "run", "check", "guards", "matrix", "replay", "export", "diff", "talk", "scenario", "race", "stress", "bench", "version"}

// usage is the whole help in language l.
func usage(l lang.Lang) string { return l.T(usageHead) + l.T(usageCommands) + l.T(usageFlags) }

// commandUsage is the part of usage about one command, in language l: its
// lines, then the flags every command takes and the exit codes. Empty for
// no such command.
func commandUsage(name string, l lang.Lang) string {
	var section []string
	in := false
	for _, line := range strings.Split(l.T(usageCommands), "\n") {
		switch {
		case strings.HasPrefix(line, "  fencelab "+name+" ") || line == "  fencelab "+name:
			in = true
		case strings.HasPrefix(line, "  fencelab ") || line == "":
			in = false
		}
		if in {
			section = append(section, line)
		}
	}
	if len(section) == 0 {
		return ""
	}
	head := l.T(usageHead)
	return head[strings.LastIndex(strings.TrimSuffix(head, "\n"), "\n")+1:] + strings.Join(section, "\n") + "\n" + l.T(usageFlags)
}

// printHelp prints the help of a command, or all of it, in language l.
func printHelp(w io.Writer, command string, l lang.Lang) error {
	if text := commandUsage(command, l); text != "" {
		_, err := fmt.Fprint(w, text)
		return err
	}
	if command != "" && command != "help" {
		return usageError("no help for %q: there is no such command (want %s)", command, strings.Join(commands, ", "))
	}
	_, err := fmt.Fprint(w, usage(l))
	return err
}

// printVersion says which fencelab this is: its module version, the
// commit it was built from, and how it was built, as the build recorded
// them.
func printVersion(w io.Writer) error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		_, err := fmt.Fprintln(w, "fencelab (no build information) · "+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH)
		return err
	}
	_, err := fmt.Fprintln(w, versionLine(info))
	return err
}

// versionLine is the version's one line. Without a commit (-buildvcs=false,
// or a build outside a repository) it still says the module version — a
// release's, or "(devel)" for a build from a checkout — and how the binary
// was built: Go version, platform and the flags that change what it is.
func versionLine(info *debug.BuildInfo) string {
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	version := info.Main.Version
	if version == "" || version == "(devel)" {
		version = "(devel: built from a checkout, not a release)"
	}
	line := "fencelab " + version
	if rev := settings["vcs.revision"]; rev != "" {
		line += " · commit " + rev
		if settings["vcs.modified"] == "true" {
			line += " (with uncommitted changes)"
		}
		if at := settings["vcs.time"]; at != "" {
			line += " of " + at
		}
	} else {
		line += " · no commit recorded (built with -buildvcs=false, or outside a repository)"
	}
	line += " · " + info.GoVersion
	if settings["GOOS"] != "" {
		line += " " + settings["GOOS"] + "/" + settings["GOARCH"]
	}
	var how []string
	for _, flag := range []string{"-compiler", "-buildmode", "-tags", "-trimpath", "-race", "-ldflags", "CGO_ENABLED"} {
		value, set := settings[flag]
		switch {
		case !set || value == "" || flag == "-compiler" && value == "gc" || flag == "-buildmode" && value == "exe":
		case value == "true":
			how = append(how, flag)
		default:
			how = append(how, flag+"="+value)
		}
	}
	if len(how) > 0 {
		line += " · built with " + strings.Join(how, " ")
	}
	return line
}
