package cli

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/lang"
)

// The help comes in two sizes, each a constant said in the user's
// language through lang.T (the Korean is beside the rest in lang/ko.go):
// fencelab --help is usage, one line a command; fencelab help COMMAND and
// fencelab COMMAND --help are that command's help — what it does, its
// flags, examples and the page of docs/ that says more — followed by
// helpEveryCommand, the flags every command takes and the exit codes.
// Every command line in them starts "  fencelab COMMAND" in every
// language.
const usageText = `fencelab — watch why a leader lease alone is not enough

usage:
  fencelab [ID|FILE] [flags]          the explorer: a scenario step by step
  fencelab list                       the scenario catalog
  fencelab run ID|FILE|--all          the guided order, headless: how it ends
  fencelab check ID|FILE|--all        every schedule, on the real backends
  fencelab guards [ID|FILE]           SAFE's guards, one sentence each
  fencelab matrix [ID|FILE…]          each guard removed alone: who needs it
  fencelab replay TRACE               run a trace again: does anything differ?
  fencelab diff ID|FILE|TRACE         one schedule in SAFE beside UNSAFE
  fencelab export TRACE|ID|FILE       a run as Markdown, Mermaid, GIF, SVG…
  fencelab talk SCRIPT                give a talk from a script of scenes
  fencelab scenario show|check|steps  scenario files: a start, compile, steps
  fencelab race                       the job race, forced on many key sets
  fencelab stress                     many real workers, real pauses, checked
  fencelab bench                      its cost beside the floor under it
  fencelab version                    the version and commit this was built from
  fencelab help COMMAND               its flags and examples (or COMMAND --help;
                                      the explorer's: fencelab help explorer)

flags every command takes:
  --redis URL       a real Redis (7+), not the embedded one; a Cluster too
  --pg DSN          an existing PostgreSQL, not an ephemeral one
  --allow-unsafe    let UNSAFE runs write to the --pg server
  --trust-code      run a file's Redis code as fencelab's own --redis user
  --lease-ttl D     the lease TTL (default 30s on the lab clock; stress: 500ms)
  --lang en|ko      the language it speaks (default: the locale's, else en)
  -v, --verbose     with --json, print the backends to stderr
  -h, --help        this help

A command writes one file with -o FILE, many with --out DIR. More: docs/.
exit: 0 as expected · 1 otherwise · 2 bad usage · 3 a server unreachable ·
70 a crash · 128+N ended by signal N (130 Ctrl-C) — docs/exit-codes.md
`

const helpEveryCommand = `
flags every command takes:
  --redis URL                  a real Redis (7+), not the embedded one:
                               redis://HOST:PORT/DB; a Redis Cluster as
                               redis://H1:P1,H2:P2,… or any one node's address
  --pg DSN                     an existing PostgreSQL, not an ephemeral one;
                               only schema fencelab is touched
  --allow-unsafe               let UNSAFE runs write to the --pg server
  --trust-code                 on a --redis where fencelab may make no user
                               for a file's code, run it as fencelab's own
                               user (kept to the run's keys by fencelab's
                               checks alone)
  --lease-ttl D                the lease TTL (default 30s: a lab's keys expire
                               on the lab clock, on a real Redis too;
                               stress: 500ms)
  --lang en|ko                 the language of the narration, the screens and
                               a talk's texts (default: the locale's, LC_ALL,
                               LC_MESSAGES or LANG, else en); identifiers
                               (STALE_FENCE, keys) stay as they are
  -v, --verbose                with --json, print the backends to stderr
  -h, --help                   this help

exit: 0 as expected · 1 a run ended otherwise than predicted, or its output was
lost · 2 bad usage or configuration · 3 a server could not be reached or stopped
answering · 70 a crash of fencelab's own · 128+N ended by signal N (130 Ctrl-C,
143 SIGTERM) — docs/exit-codes.md
`

const helpExplorer = `the explorer — a scenario one step at a time, on a real Redis and PostgreSQL

usage:
  fencelab [ID|FILE] [flags]

Opens lease-overrun in SAFE unless given a catalog id or a scenario file.
Inside, ? lists every key: n the next step of the guided order, 1-9 an
actor's next call, p pause, t the clock to the next expiry, m SAFE/UNSAFE,
g the guards, v the other mode beside, c check, x export, q quit.

flags:
  --mode safe|unsafe           the code the workers run (default safe; m
                               switches it)
  --without GUARD[,GUARD…]     SAFE with those guards taken out of its code
  --trace FILE                 a trace's scenario, mode and schedule as the
                               guided order (n steps through it)
  --watch                      reload the scenario FILE whenever it is saved,
                               and replay the actions taken on the new one
  --scenarios DIR              also list DIR's scenario files in the picker

examples:
  fencelab
  fencelab stale-read --mode unsafe
  fencelab lease-overrun --without fence
  fencelab --watch mine.toml
  fencelab --trace traces/stale-read-unsafe.trace.json

more: docs/explorer.md
`

const helpList = `fencelab list — the scenario catalog: each id, its title and its story

usage:
  fencelab list

examples:
  fencelab list
  fencelab list --lang ko

more: docs/scenarios.md
`

const helpRun = `fencelab run — run a scenario's guided order headless, and say how it ended

usage:
  fencelab run ID|FILE|--all [flags]

Prints each run's timeline and result strip. Exit 0 when every run ended as
its scenario predicts for the mode (for UNSAFE, its anomaly), 1 when one did
not.

flags:
  --all                        every scenario of the catalog
  --mode safe|unsafe|both      (default safe)
  --without GUARD[,GUARD…]     SAFE with those guards taken out of its code
  --json                       one JSON object per scenario × mode
  -o FILE                      write the run (one scenario, one mode) as a trace
  --save-trace FILE            another name for -o
  --keep                       then keep the ephemeral PostgreSQL up for the
                               psql line it printed, until Enter or Ctrl-C

examples:
  fencelab run lease-overrun --mode both
  fencelab run --all --mode both --json
  fencelab run lease-overrun --without fence
  fencelab run lease-overrun -o overrun.trace.json

more: docs/traces.md
`

const helpCheck = `fencelab check — every schedule of a scenario, on the real backends

usage:
  fencelab check ID|FILE|--all [flags]

Runs every interleaving of the actors' calls (each round trip to Redis or
PostgreSQL a step of its own), the clock moved to each expiry between any
two; pausing an actor is not scheduling it. A statement is also sent while
another actor's write is open, and an actor whose session holds an
advisory lock may crash at any round trip. The invariants are checked
after every round trip: among them, a lease a call said is its caller's
is, an outbox row is claimed by one worker at a time, and every moment a
step records is on the lab clock (code that read the host's clock
records one months away). Not explored: two statements
waiting at once, nor data the seed does not have (docs/checker.md says
what else). A state reached again is not explored again, and of two calls
that touch disjoint parts of the lab one order is taken (sleep sets):
every state is still reached. SAFE must also make progress, and its
guided order end as predicted (a scenario file without [predict.safe] is
judged on its invariants alone: progress is judged only against a
prediction). Exit 0 when SAFE did all that and UNSAFE
reached its anomaly; 1 otherwise, and for a search cut short.

flags:
  --all                        every scenario of the catalog
  --mode safe|unsafe|both      (default safe)
  --without GUARD[,GUARD…]     SAFE with those guards taken out of its code
  --out DIR                    where the counterexample traces go (default: a
                               new temp dir)
  --json                       one JSON object per scenario × mode
  --why                        every state's share of broken futures: each
                               step's along the counterexample and the guided
                               order, and the point of no return
  --max-schedules N            stop after N schedules per scenario × mode
  --max-memory SIZE            stop a search whose memory passes SIZE (default
                               2GiB; 512MiB, 8GiB)
  --allow-bounded              let a search cut short pass (it proves nothing)

examples:
  fencelab check lease-overrun --mode both
  fencelab check --all --mode both
  fencelab check stale-read --mode unsafe --why --out traces
  fencelab check --all --mode safe --without owner
  fencelab check examples/lock-fence.toml --mode both

more: docs/checker.md (what it explores and what not yet), docs/why.md
`

const helpGuards = `fencelab guards — SAFE's guards, each with what it checks

usage:
  fencelab guards [ID|FILE] [flags]

SAFE is fourteen checks, each a named guard with one switch: --without takes
it out of SAFE's code (run, check, stress, export, replay, diff, and g in the
explorer), and the matrix shows which scenario needs each. Given a scenario
file, the guards its steps define, in its own words where they are its own.

flags:
  --json                       the guards as JSON

examples:
  fencelab guards
  fencelab guards examples/lock-fence.toml
  fencelab guards --json --lang ko

more: docs/guards.md
`

const helpMatrix = `fencelab matrix — every scenario in SAFE with each guard removed alone

usage:
  fencelab matrix [ID|FILE…] [flags]

A cell is ✓ (still safe), · (no step asks that guard), inv N · K (invariant N
broke; the shortest counterexample is K actions long) or progress (safe, but
no schedule did the work). Exit 1 when a guard is needed by no scenario of
the catalog's; for your own files, only with --strict.

flags:
  -o FILE                      also write the matrix as a Markdown table
  --md FILE                    another name for -o
  --out DIR                    where the counterexample traces go (default: a
                               new temp dir)
  --json                       the matrix as one JSON object
  --strict                     exit 1 when a guard is needed by none of the
                               scenarios, for your own files too
  --max-memory SIZE            stop a search whose memory passes SIZE (default
                               2GiB; 512MiB, 8GiB): the matrix then stops

examples:
  fencelab matrix
  fencelab matrix -o matrix.md --out traces
  fencelab matrix examples/lock-fence.toml --strict

more: docs/guards.md
`

const helpReplay = `fencelab replay — run a trace again, and compare

usage:
  fencelab replay TRACE [flags]

Runs the trace's schedule in its scenario and mode and compares each event's
actor, code, state, detail and guard, and the result. Exit 0 when all is the
same, 1 when anything differs (each difference is listed).

flags:
  --json                       the replayed run's result as JSON
  --without GUARD[,GUARD…]     replay on SAFE without those guards instead of
                               the trace's own set: the differences are what
                               they were doing

examples:
  fencelab replay traces/stale-read-unsafe.trace.json
  fencelab replay safe.trace.json --without fence

more: docs/traces.md
`

const helpExport = `fencelab export — a run as a document, recorded on the backends

usage:
  fencelab export TRACE|ID|FILE --to FORMAT [flags]

An ID or a FILE exports its guided order; a trace its own schedule and mode.
What each action did is read from the backends, not from the predictions.

flags:
  --to md|mermaid|cast|tape|gif|svg
                               a Markdown page, a Mermaid sequence diagram, an
                               asciinema cast of the explorer, a VHS tape, the
                               explorer as a GIF or as an animated SVG
  -o, --output FILE            where (default: standard output, but never a GIF
                               to a terminal; a tape of an ID also writes the
                               trace it plays beside it)
  --mode safe|unsafe           an ID's guided order in that mode (default safe)
  --without GUARD[,GUARD…]     SAFE with those guards taken out of its code
  --size 100x30                the terminal of a cast, tape, GIF or SVG

examples:
  fencelab export lease-overrun --to md -o lease-overrun.md
  fencelab export lease-overrun --mode unsafe --to mermaid
  fencelab export lease-overrun --to gif -o lease-overrun.gif
  fencelab export my-run.trace.json --to cast -o my-run.cast

more: docs/exports.md
`

const helpDiff = `fencelab diff — one schedule in SAFE beside UNSAFE, and where they part

usage:
  fencelab diff ID|FILE|TRACE [flags]

Runs the guided order (or a trace's schedule) in SAFE and in UNSAFE — or in
SAFE and in SAFE without some guards — and prints the two timelines side by
side, aligned by action. ▶ marks the first action whose outcome differs, with
the guard that decided it (found by running SAFE without each guard).

flags:
  --mode safe|unsafe           whose guided order (default safe)
  --without GUARD[,GUARD…]     SAFE beside SAFE without those guards
  --to md|mermaid              a Markdown page (a two-column table, and a
                               sequence diagram a side), or one sequence
                               diagram of both
  --json                       the two runs as one JSON object

examples:
  fencelab diff lease-overrun
  fencelab diff stale-read --without read-in-tx
  fencelab diff lease-overrun --to md > lease-overrun-diff.md

more: docs/why.md
`

const helpTalk = `fencelab talk — give a talk from a script of scenes

usage:
  fencelab talk SCRIPT

The script's scenes play in order on the real backends, its captions large
where the narration goes. Space, ., → and PgDn go on, ← and PgUp go back, b
blanks the screen; every other key is the explorer's. A Korean --lang (or
locale) shows the script's Korean texts.

examples:
  fencelab talk talks/fencing.toml
  fencelab talk talks/fencing.toml --lang ko

more: docs/talks.md
`

const helpScenario = `fencelab scenario — scenario files: start one, compile it, name its steps

usage:
  fencelab scenario show ID           print a catalog scenario's file (a start
                                      for your own)
  fencelab scenario check FILE…       compile scenario files; each mistake is
                                      one line, FILE:LINE: what, exit 2
  fencelab scenario steps             every step a file's programs can name

A file goes wherever an id goes: the explorer, run, check, matrix, export,
diff, and a talk's scene. check compiles its Lua, and where it has SQL sets
up its schema on PostgreSQL (the ephemeral server, or --pg) and has the
server parse every statement of its steps: a typo or an unknown column is
found before anything runs.

examples:
  fencelab scenario show lease-overrun > mine.toml
  fencelab scenario check mine.toml
  fencelab scenario steps

more: docs/scenarios.md, docs/code.md
`

const helpRace = `fencelab race — the job race of two requests, forced, on Redis alone

usage:
  fencelab race [flags]

Two requests for one target both look for a running job before either makes
one. The race is forced on N key sets, then K truly concurrent pairs run
free; every figure is counted from the Redis keys afterwards. Exit 1 when an
invariant of the Lua side did not hold. It takes no --pg.

flags:
  --n N                        key sets for the forced interleaving (default
                               100, at most 10,000)
  --free K                     also K free-running pairs (default 0)

examples:
  fencelab race
  fencelab race --n 7 --free 200

more: docs/stress.md
`

const helpStress = `fencelab stress — many real workers contend for one resource

usage:
  fencelab stress [flags]

Real TTLs on the wall clock and real pauses: every --pause-every one worker
freezes right after it takes the lease. The rows and keys are checked, and
the history for linearizability.
The lease TTL is 500ms unless --lease-ttl says; exit 0 when SAFE held or
UNSAFE broke, 1 if not.

flags:
  --workers N                  how many (default 8, at most 200)
  --duration D                 how long (default 10s)
  --ops N                      or how many writes
  --pause-every D              how often a worker freezes (default 2s; 0: never)
  --pause D                    how long (default: twice the lease TTL, so 1s)
  --mode safe|unsafe           (default safe)
  --without GUARD[,GUARD…]     SAFE without those guards (fence, read-in-tx,
                               owner, … — those a stress worker asks)
  --procs                      every worker a process, frozen with SIGSTOP
  -o FILE                      write Porcupine's view of the history (a page)
  --html FILE                  another name for -o
  --json                       the report as one JSON object
  --shared NAME                contend for one resource with every run of
                               --shared NAME, on any machine (--redis, --pg)

examples:
  fencelab stress
  fencelab stress --mode unsafe --pause-every 1s
  fencelab stress --procs --workers 16 -o history.html

more: docs/stress.md
`

const helpBench = `fencelab bench — what fencelab costs beside the floor under it

usage:
  fencelab bench [flags]

Each figure beside its floor, the two run one after the other, medians, and
the ratio, which is what to read: the start, the explorer's first frame,
first step and step, check's states a second, and stress's commits beside
pgbench and a lease loop (at 1 worker also beside a bare loop of its own
calls). It takes a few minutes, on fencelab's own backends only.

flags:
  --runs N                     how often each side of a pair runs (default 5)
  --json                       the pairs as JSON

examples:
  fencelab bench
  fencelab bench --runs 3 --json

more: docs/performance.md
`

const helpVersion = `fencelab version — the version and commit this was built from

usage:
  fencelab version

examples:
  fencelab version
  fencelab --version
`

// commands are the commands fencelab takes, in the order usage lists them.
var commands = []string{"list", "run", "check", "guards", "matrix", "replay", "export", "diff", "talk", "scenario", "race", "stress", "bench", "version"}

// helpTopics are what fencelab help takes: every command, and the explorer.
var helpTopics = append([]string{"explorer"}, commands...)

// usage is fencelab --help in language l.
func usage(l lang.Lang) string { return l.T(usageText) }

// commandHelp is one command's help in language l, with the flags every
// command takes and the exit codes; empty for no such command.
func commandHelp(name string, l lang.Lang) string {
	var text string
	switch name {
	case "explorer":
		text = l.T(helpExplorer)
	case "list":
		text = l.T(helpList)
	case "run":
		text = l.T(helpRun)
	case "check":
		text = l.T(helpCheck)
	case "guards":
		text = l.T(helpGuards)
	case "matrix":
		text = l.T(helpMatrix)
	case "replay":
		text = l.T(helpReplay)
	case "export":
		text = l.T(helpExport)
	case "diff":
		text = l.T(helpDiff)
	case "talk":
		text = l.T(helpTalk)
	case "scenario":
		text = l.T(helpScenario)
	case "race":
		text = l.T(helpRace)
	case "stress":
		text = l.T(helpStress)
	case "bench":
		text = l.T(helpBench)
	case "version":
		text = l.T(helpVersion)
	default:
		return ""
	}
	return text + l.T(helpEveryCommand)
}

// printHelp prints the help of a command (a scenario id or file: the
// explorer's), or usage, in language l.
func printHelp(w io.Writer, command string, l lang.Lang) error {
	if command != "" && !slices.Contains(helpTopics, command) && isScenarioArg(command) {
		command = "explorer"
	}
	if text := commandHelp(command, l); text != "" {
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
