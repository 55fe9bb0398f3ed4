package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/store/pgcluster"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/stress"
)

// stressRequest is a stress command line, checked.
type stressRequest struct {
	stress.Config
	procs bool
	html  string
	json  bool
}

// sharedName is a name --shared takes: a few lowercase letters, digits and
// dashes, which go into a Redis key and a conflict key as they are.
var sharedName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

// The bounds of a stress run's flags: past them a run is a mistake (or
// would exhaust the server's connections) rather than a bigger test.
const (
	maxStressWorkers  = 200
	maxStressDuration = 24 * time.Hour
	maxStressOps      = 10_000_000
	maxStressPause    = time.Minute
	// stressLeaseTTL is a stress run's default lease TTL: short, so a run
	// of seconds sees many leases run out under paused workers.
	stressLeaseTTL = 500 * time.Millisecond
)

// stressFlags are the flags given, for parseStressRequest.
type stressFlags struct {
	workers              int
	duration, pauseEvery time.Duration
	pause                time.Duration
	ops                  int
	mode                 string
	procs, asJSON        bool
	html, shared         string
	durationSet, opsSet  bool
	sharedSet            bool
	pauseSet             bool
}

func parseStressRequest(rest []string, f stressFlags, c config) (stressRequest, error) {
	var req stressRequest
	if len(rest) > 0 {
		return req, usageError("stress takes no arguments, got %q (fencelab stress --help)", rest)
	}
	if f.workers < 1 || f.workers > maxStressWorkers {
		return req, usageError("--workers must be between 1 and %d, got %d", maxStressWorkers, f.workers)
	}
	if f.durationSet && f.opsSet {
		return req, usageError("give --duration or --ops, not both")
	}
	if f.duration <= 0 || f.duration > maxStressDuration {
		return req, usageError("--duration must be between 1ms and %s, got %s", maxStressDuration, f.duration)
	}
	if f.opsSet && (f.ops < 1 || f.ops > maxStressOps) {
		return req, usageError("--ops must be between 1 and %d, got %d", maxStressOps, f.ops)
	}
	if f.pauseEvery < 0 || f.pauseEvery > maxStressDuration {
		return req, usageError("--pause-every must be between 0 (no pauses) and %s, got %s", maxStressDuration, f.pauseEvery)
	}
	mode, err := engine.ParseMode(f.mode)
	if err != nil {
		return req, usageError("--mode %q: stress runs safe or unsafe", f.mode)
	}
	if mode == engine.Unsafe && c.pgDSN != "" && !c.allowUnsafe {
		return req, usageError("UNSAFE runs write naive code paths into --pg's server; pass --allow-unsafe to let them (nothing was written)")
	}
	if mode == engine.Unsafe && c.without != 0 {
		return req, usageError("--without removes guards from SAFE; UNSAFE is the naive code and has none")
	}
	if extra := c.without &^ stress.StressGuards; extra != 0 {
		return req, usageError("--without %s: a stress worker never asks it (stress can remove %s)", extra.String(), strings.Join(stress.StressGuards.Names(), ", "))
	}
	if f.procs && !stress.CanFreeze {
		return req, usageError("--procs freezes worker processes with SIGSTOP, which this platform does not have")
	}
	ttl := c.leaseTTL
	if ttl == 0 {
		ttl = stressLeaseTTL
	}
	pause := f.pause
	if !f.pauseSet {
		if 2*ttl > maxStressPause {
			return req, usageError("--lease-ttl %s: a stress pause is twice the lease TTL unless --pause says otherwise, and at most %s; give a --lease-ttl of at most %s, or a --pause", ttl, maxStressPause, maxStressPause/2)
		}
		pause = 2 * ttl // longer than the lease: the point of a pause
	}
	if pause <= 0 || pause > maxStressPause {
		return req, usageError("--pause must be between 1ms and %s, got %s", maxStressPause, pause)
	}
	if f.sharedSet {
		switch {
		case !sharedName.MatchString(f.shared):
			return req, usageError("--shared %q: a name of lowercase letters, digits and dashes, at most 40", f.shared)
		case c.pgDSN == "" || c.redisURL == "":
			return req, usageError("--shared shares a resource with runs on other machines: give the --redis and --pg they all reach")
		}
	}
	if f.html != "" {
		if err := checkReplaceable("-o "+f.html, f.html, lang.P("a page fencelab stress wrote"), isStressPage); err != nil {
			return req, err
		}
	}
	req = stressRequest{procs: f.procs, html: f.html, json: f.asJSON, Config: stress.Config{
		Workers: f.workers, Duration: f.duration, PauseEvery: f.pauseEvery, Pause: pause,
		Mode: mode, LeaseTTL: ttl, History: f.html != "", Shared: f.shared, Without: c.without}}
	if f.opsSet {
		req.Ops = f.ops
	}
	return req, nil
}

// stressPageMark follows the doctype of a page --html writes, so a later
// run replaces it and nothing else.
const stressPageMark = "<!-- written by fencelab stress -->"

func isStressPage(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 256)
	n, _ := io.ReadFull(f, head)
	first, rest, _ := strings.Cut(string(head[:n]), "\n")
	return strings.HasPrefix(strings.ToLower(first), "<!doctype html") && strings.HasPrefix(rest, stressPageMark)
}

// runStress runs the workers, prints what they did and what the checks
// found, and says whether it is as expected: SAFE held, UNSAFE broke.
func runStress(ctx context.Context, c config, req stressRequest, stdout, stderr io.Writer) (err error) {
	l := c.lang
	c.leaseTTL = req.LeaseTTL
	c.pgConnections = req.Workers + 10
	c.shared = req.Shared
	c.wallClock = true
	b, err := startBackends(ctx, c, func(waiting string) { fmt.Fprintf(stderr, "fencelab: %s\n", waiting) })
	if err != nil {
		return err
	}
	defer func() { warnLeftovers(stderr, b.stop(), err) }()
	defer b.redis.FollowWallClock()()
	defer stressRuntime()()

	fleet := stress.Goroutines()
	if req.procs {
		join, err := workerJoinOf(b, c)
		if err != nil {
			return err
		}
		exe, err := os.Executable()
		if err != nil {
			return fmt.Errorf("stress: find fencelab itself for its worker processes: %w", err)
		}
		fleet = stress.Processes(func() *exec.Cmd { return exec.Command(exe, "worker") }, join)
	}

	header := stressHeader(b, req, l)
	if req.json {
		if c.verbose {
			fmt.Fprint(stderr, header)
		}
	} else {
		fmt.Fprint(stdout, header)
	}
	meter := newProgress(stderr, "")
	req.Progress = func(p stress.Progress) {
		meter.line(l.T("stress %s · %s accepted/s · %s accepted · rejected %s · pauses %d",
			p.Elapsed.Round(100*time.Millisecond), stress.FormatCount(int(p.PerSecond+0.5)), stress.FormatCount(p.Accepted), orNone(l, stress.Reasons(p.Rejections)), p.Pauses))
	}
	req.Gone = isUnreachable
	if b.redis != nil {
		req.RedisSilent = b.redis.FoundSilent
	}
	report, err := stress.Run(ctx, req.Config, stress.Backends{Coordination: b.Coordination, Database: b.Database}, fleet)
	meter.done()
	if err != nil {
		if ctx.Err() != nil {
			return interrupted(ctx)
		}
		return classify(ctx, err)
	}
	if req.html != "" {
		segments, err := writeStressPage(req.html, report)
		if err != nil {
			return err
		}
		defer fmt.Fprintf(stderr, "fencelab: %s\n", l.T("%s written: Porcupine's view of %s of the history", req.html, counted(l, segments, "%s segment", "%s segments")))
	}
	if req.json {
		if err := printStressJSON(stdout, report); err != nil {
			return err
		}
	} else {
		printStressReport(stdout, report, l)
	}
	if report.Interrupted {
		return interrupted(ctx)
	}
	if report.AsExpected() && !report.Tested() {
		return outcomeError("%s held, but no frozen worker's lease ran out: the guards removed were never put to the test", engine.ModeLabel(report.Mode, report.Without))
	}
	if !report.AsExpected() {
		if report.Mode == engine.Safe && report.Without != 0 {
			return outcomeError("%s did not hold under stress: see the checks above", engine.ModeLabel(report.Mode, report.Without))
		}
		if report.Mode == engine.Safe {
			return outcomeError("SAFE did not hold under stress: see the checks above")
		}
		if req.PauseEvery == 0 || req.Pause <= req.LeaseTTL {
			return outcomeError("UNSAFE showed no violation: without pauses longer than the lease, the lease alone kept the writers apart (try --pause-every 1s, and a --pause above the lease TTL, %s)", req.LeaseTTL)
		}
		return outcomeError("UNSAFE showed no violation: no worker overtook a paused one (try more --workers, or a longer --duration)")
	}
	return nil
}

func orNone(l lang.Lang, s string) string {
	if s == "" {
		return l.T("none")
	}
	return s
}

// stressHeader says what runs on what.
func stressHeader(b *backends, req stressRequest, l lang.Lang) string {
	var sb strings.Builder
	fleet := l.T("goroutines")
	if req.procs {
		fleet = l.T("processes, paused with SIGSTOP")
	}
	length := req.Duration.String()
	if req.Ops > 0 {
		length = counted(l, req.Ops, "%s write", "%s writes")
	}
	pauses := l.T("no pauses")
	if req.PauseEvery > 0 {
		pauses = l.T("a %s pause every %s", req.Pause, req.PauseEvery)
	}
	sb.WriteString(l.T("stress · %s · %s (%s) · %s\n", engine.ModeLabel(req.Mode, req.Without), counted(l, req.Workers, "%s worker", "%s workers"), fleet, length))
	sb.WriteString(l.T("          lease TTL %s · %s\n", req.LeaseTTL, pauses))
	if req.Shared != "" {
		sb.WriteString(wrapped(l.T("shared    resource stress:%s, with every run of --shared %s: the rows are all the runs', the history only this run's", req.Shared, req.Shared), "          "))
	}
	redis := l.T("%s (real server; TTLs run on the wall clock)", b.Coordination.Describe())
	if b.redis.Embedded() {
		redis = l.T("%s (embedded, its TTLs on the wall clock)", b.Coordination.Describe())
	}
	sb.WriteString(wrapped(l.T("redis     %s", redis), "          "))
	fmt.Fprintf(&sb, "postgres  %s\n\n", b.Database.Describe())
	return sb.String()
}

// counted is a count in words, in language l: one and many are two
// messages (a language may say both alike); the count is said with its
// thousands separated.
func counted(l lang.Lang, n int, one, many string) string {
	if n == 1 {
		return l.T(one, stress.FormatCount(n))
	}
	return l.T(many, stress.FormatCount(n))
}

// reportWidth is the width the report keeps to, as a terminal's.
const reportWidth = 80

// wrapped is text wrapped at reportWidth, its lines after the first
// indented, ending with a line break.
func wrapped(text, indent string) string {
	lines := strings.Split(ansi.Wordwrap(text, reportWidth-len(indent), ""), "\n")
	for i := 1; i < len(lines); i++ {
		lines[i] = indent + lines[i]
	}
	return strings.Join(lines, "\n") + "\n"
}

// printStressReport prints the run's numbers and the checks' findings.
func printStressReport(w io.Writer, r stress.Report, l lang.Lang) {
	if r.Interrupted {
		fmt.Fprint(w, l.T("interrupted after %s: what ran is checked below\n", r.Elapsed.Round(time.Millisecond)))
	}
	fmt.Fprint(w, l.T("writes    %s in %s: %s accepted (%s a second)\n",
		stress.FormatCount(r.Writes), r.Elapsed.Round(time.Millisecond), stress.FormatCount(r.Accepted), stress.FormatRate(r.CommitsPerSecond)))
	fmt.Fprint(w, wrapped(l.T("          rejected %s: %s", stress.FormatCount(r.Rejected), orNone(l, stress.Reasons(r.Rejections))), "          "))
	fmt.Fprint(w, l.T("pauses    %s · leases that ran out under their holder %s\n", stress.FormatCount(r.Pauses), stress.FormatCount(r.LeasesLost)))
	fmt.Fprint(w, l.T("          tries at a lease another worker held %s\n", stress.FormatCount(r.Contended)))
	fmt.Fprint(w, l.T("commit    p50 %s · p99 %s (an accepted write's transaction)\n", roundLatency(r.P50), roundLatency(r.P99)))
	fmt.Fprint(w, l.T("\ninvariants, from the rows and keys:\n"))
	for _, check := range r.Checks() {
		mark, number := "✓", "  "
		if !check.Held {
			mark = "✗"
		}
		if check.Invariant > 0 {
			number = fmt.Sprintf("%d ", check.Invariant)
		}
		fmt.Fprint(w, wrapped(fmt.Sprintf("  %s %s%s", mark, number, check.What.In(l)), "      "))
		if check.Found.Format != "" {
			fmt.Fprint(w, wrapped("      "+check.Found.In(l), "      "))
		}
	}
	fmt.Fprint(w, l.T("\nlinearizability (Porcupine, a fenced register):\n"))
	segments := counted(l, r.Segments, "%s segment", "%s segments")
	switch {
	case r.Illegal > 0:
		fmt.Fprint(w, wrapped(l.T("  ✗ NOT linearizable: %s of %s, with no order a fenced register allows", stress.FormatCount(r.Illegal), segments), "    "))
		fmt.Fprint(w, wrapped("    "+r.FirstViolation.In(l), "    "))
	case r.Unknown > 0:
		fmt.Fprint(w, wrapped(l.T("  ? undecided: Porcupine ran out of time on %s of %s", stress.FormatCount(r.Unknown), segments), "    "))
	case r.HistoryReads == 0:
		fmt.Fprint(w, wrapped(l.T("  ✓ linearizable: %s, each reading under its row lock, in %s",
			counted(l, r.HistoryWrites, "%s write", "%s writes"), segments), "    "))
	default:
		fmt.Fprint(w, wrapped(l.T("  ✓ linearizable: %s and %s, in %s", counted(l, r.HistoryWrites, "%s write", "%s writes"),
			counted(l, r.HistoryReads, "%s read", "%s reads"), segments), "    "))
	}
	fmt.Fprintln(w)
	switch {
	case r.Mode == engine.Safe && r.Held() && !r.Tested():
		fmt.Fprint(w, wrapped(l.T("%s held, but no frozen worker's lease ran out: the guards removed were never put to the test (a longer --duration, or --pause-every)",
			engine.ModeLabel(r.Mode, r.Without)), ""))
	case r.Mode == engine.Safe && r.Without != 0 && r.Held():
		fmt.Fprint(w, l.T("%s held: every invariant, progress, and the history is linearizable — the run did not need what was removed\n",
			engine.ModeLabel(r.Mode, r.Without)))
	case r.Mode == engine.Safe && r.Without != 0:
		fmt.Fprint(w, l.T("%s did NOT hold: the run needed what was removed\n", engine.ModeLabel(r.Mode, r.Without)))
	case r.Mode == engine.Safe && r.Held():
		fmt.Fprint(w, l.T("SAFE held: every invariant, progress, and the history is linearizable — as expected\n"))
	case r.Mode == engine.Safe:
		fmt.Fprint(w, l.T("SAFE did NOT hold — not as expected\n"))
	case r.Violations() > 0:
		fmt.Fprint(w, wrapped(l.T("UNSAFE broke fencing: violations %s (stale commits %s, lost updates %s, stale releases %s, illegal segments %s) — as expected",
			stress.FormatCount(r.Violations()), stress.FormatCount(r.Audit.StaleCommits), stress.FormatCount(r.Audit.LostUpdates),
			stress.FormatCount(r.StaleReleases), stress.FormatCount(r.Illegal)), ""))
	default:
		fmt.Fprint(w, l.T("UNSAFE showed no violation — not as expected\n"))
	}
}

func roundLatency(d time.Duration) time.Duration {
	switch {
	case d >= time.Second:
		return d.Round(10 * time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(10 * time.Microsecond)
	}
	return d.Round(time.Microsecond)
}

// jsonStress is a stress run as --json prints it.
type jsonStress struct {
	Mode             string            `json:"mode"`
	Without          []string          `json:"without,omitempty"`
	Workers          int               `json:"workers"`
	Processes        bool              `json:"processes"`
	Seconds          float64           `json:"seconds"`
	LeaseTTL         string            `json:"leaseTTL"`
	Interrupted      bool              `json:"interrupted,omitempty"`
	Writes           int               `json:"writes"`
	Accepted         int               `json:"accepted"`
	Rejected         int               `json:"rejected"`
	Rejections       map[string]int    `json:"rejections"`
	Reads            int               `json:"reads"`
	Pauses           int               `json:"pauses"`
	LeasesLost       int               `json:"leasesLost"`
	Contended        int               `json:"contended"`
	CommitsPerSecond float64           `json:"commitsPerSecond"`
	P50Micros        int64             `json:"p50Micros"`
	P99Micros        int64             `json:"p99Micros"`
	Invariants       []jsonStressCheck `json:"invariants"`
	Linearizable     bool              `json:"linearizable"`
	Segments         int               `json:"segments"`
	IllegalSegments  int               `json:"illegalSegments"`
	UnknownSegments  int               `json:"unknownSegments"`
	FirstViolation   string            `json:"firstViolation,omitempty"`
	StaleCommits     int               `json:"staleCommits"`
	LostUpdates      int               `json:"lostUpdates"`
	StaleReleases    int               `json:"staleReleases"`
	UnpausedWrites   int               `json:"unpausedWrites"`
	UnpausedAccepted int               `json:"unpausedAccepted"`
	Summary          int64             `json:"summary"`
	Counter          int64             `json:"counter"`
	AsExpected       bool              `json:"asExpected"`
}

// jsonStressCheck is a check of a stress run's rows and keys, in English.
type jsonStressCheck struct {
	Invariant int    `json:"invariant,omitempty"`
	What      string `json:"what"`
	Held      bool   `json:"held"`
	Found     string `json:"found,omitempty"`
}

func printStressJSON(w io.Writer, r stress.Report) error {
	j := jsonStress{Mode: strings.ToLower(r.Mode.String()), Without: r.Without.Names(), StaleReleases: r.StaleReleases,
		UnpausedWrites: r.UnpausedWrites, UnpausedAccepted: r.UnpausedAccepted, Workers: r.Workers, Processes: r.Procs, Seconds: r.Elapsed.Seconds(),
		LeaseTTL: r.LeaseTTL.String(), Interrupted: r.Interrupted, Writes: r.Writes, Accepted: r.Accepted, Rejected: r.Rejected,
		Rejections: r.Rejections, Reads: r.Reads, Pauses: r.Pauses, LeasesLost: r.LeasesLost, Contended: r.Contended,
		CommitsPerSecond: r.CommitsPerSecond, P50Micros: r.P50.Microseconds(), P99Micros: r.P99.Microseconds(),
		Linearizable: r.Linearizable(), Segments: r.Segments, IllegalSegments: r.Illegal, UnknownSegments: r.Unknown,
		FirstViolation: r.FirstViolation.String(), StaleCommits: r.Audit.StaleCommits, LostUpdates: r.Audit.LostUpdates,
		Summary: r.Audit.Summary, Counter: r.Counter, AsExpected: r.AsExpected()}
	for _, c := range r.Checks() {
		j.Invariants = append(j.Invariants, jsonStressCheck{Invariant: c.Invariant, What: c.What.String(), Held: c.Held, Found: c.Found.String()})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
}

// writeStressPage writes Porcupine's view of the history to path, marked
// as fencelab's and titled with the run, replacing only a page an earlier
// run wrote.
func writeStressPage(path string, r stress.Report) (int, error) {
	var view bytes.Buffer
	segments, err := r.Visualize(&view)
	if err != nil {
		return 0, err
	}
	doctype, rest, _ := strings.Cut(view.String(), "\n")
	title := fmt.Sprintf("fencelab stress · %s · %s · %s", r.Mode, workersWord(r.Workers), r.Elapsed.Round(time.Millisecond))
	rest = strings.Replace(rest, "<title>Porcupine</title>", "<title>"+html.EscapeString(title)+" — Porcupine</title>", 1)
	page := []byte(doctype + "\n" + stressPageMark + "\n" + rest)
	if err := replaceFile(path, ".fencelab-stress-*", page); err != nil {
		return 0, fmt.Errorf("-o %s: %w", path, err)
	}
	return segments, nil
}

// workerJoin is how a worker process reaches its run's backends. It
// travels on the worker's standard input, never its command line: the URL
// and DSN may hold passwords.
type workerJoin struct {
	Redis redisstore.Endpoint `json:"redis"`
	PG    string              `json:"pg"`
	// ServerUID is the ephemeral server's account, which the worker proves
	// serves the socket it connects to; absent for --pg.
	ServerUID *uint32 `json:"serverUID,omitempty"`
}

func workerJoinOf(b *backends, c config) (workerJoin, error) {
	j := workerJoin{Redis: b.redis.Endpoint(), PG: c.pgDSN}
	if b.cluster != nil {
		uid := b.cluster.ServerUID()
		j.PG, j.ServerUID = b.cluster.DSN(pgcluster.Database), &uid
	}
	if j.Redis.URL == "" || j.PG == "" {
		return j, errors.New("stress: the backends cannot be joined by another process")
	}
	return j, nil
}

// stressRuntime sets Go's runtime for a stress run, and returns what puts
// it back. A GOGC or GOMAXPROCS the user set is kept.
//
// The collector runs a fifth as often. Nearly all a stress run allocates
// dies at once (the embedded Redis builds a Lua state for every script
// call, a few hundred KB a commit) while its live heap is a few MB, so at
// Go's default GOGC of 100 a collection came every dozen commits or so. On
// the 2-core machine, alternated in one sitting (fencelab bench's stress
// pairs, two runs each), 1, 8 and 32 workers committed 0.38-0.76,
// 0.54-0.69 and 0.68-0.74 of the floor at GOGC 100, and 0.75-0.81,
// 0.61-0.79 and 0.77-0.80 at 400.
//
// And the process runs on half the cores (one of two): the workers' lease
// makes their commits one after another, so they need little more than
// one core between them and the embedded Redis, while the database's
// server processes (and a Redis server) need the rest. On every core,
// the worker's goroutine and the embedded server's wake each other
// across two threads, and the runtime's idle threads look for work on
// the core PostgreSQL is waiting for. On the 2-core machine, alternated,
// 1 and 8 workers committed 2,438-2,578 and 2,052-2,080 times a second on
// two, 2,556-2,913 and 2,320-2,582 on one; the bare lease loop beside them
// went from 85-109 µs to 70-86 µs, and runs under the same setting.
// Worker processes (--procs) keep Go's defaults: each runs one worker.
func stressRuntime() (restore func()) {
	var restores []func()
	if os.Getenv("GOGC") == "" {
		old := debug.SetGCPercent(400)
		restores = append(restores, func() { debug.SetGCPercent(old) })
	}
	if os.Getenv("GOMAXPROCS") == "" {
		// Half of what the runtime would use: a container's CPU limit,
		// not the host's cores. Its own default, which follows that
		// limit, comes back after.
		runtime.GOMAXPROCS(max(1, runtime.GOMAXPROCS(0)/2))
		restores = append(restores, runtime.SetDefaultGOMAXPROCS)
	}
	return func() {
		for _, r := range restores {
			r()
		}
	}
}
