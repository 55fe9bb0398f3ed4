package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/creack/pty"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/pgcluster"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/stress"
)

// `fencelab bench` measures what fencelab costs beside the floor under
// it, each pair in one process, one after the other, A B A B, medians:
// the ratio is what to read, not the absolute numbers, which depend on
// the machine.
//
//   - start: a warm `run lease-overrun` beside the bare start of the same
//     PostgreSQL data directory, one connection, and its stop;
//   - first frame: the explorer's, beside a bare Bubble Tea program that
//     draws one frame;
//   - first step: the explorer's with n pressed at once (queued until the
//     lab is up), beside the bare start's first connection plus a raw step;
//   - step: a key to the redrawn frame in the explorer, beside the same
//     step and snapshot read on a lab alone;
//   - check: states explored a second, beside a lab's bare restores of a
//     state a second (what a check does for every state before its step).

// benchRequest is a parsed `fencelab bench`.
type benchRequest struct {
	runs int
	json bool
}

// benchPair is one figure beside its floor.
type benchPair struct {
	Name  string `json:"name"`
	What  string `json:"what"`
	Floor string `json:"floor"`
	// Unit is "ms" (lower is better) or a rate ("states/s": higher is).
	Unit       string  `json:"unit"`
	Value      float64 `json:"value"`
	FloorValue float64 `json:"floorValue"`
	// Ratio is Value over FloorValue.
	Ratio float64 `json:"ratio"`
	// Before: FloorValue is not a floor but the same figure as fencelab
	// measured it before a change, Floor says which.
	Before bool `json:"before,omitempty"`
}

// benchRuns is how often each side of a pair runs by default.
const benchRuns = 5

func runBench(ctx context.Context, c config, req benchRequest, stdout, stderr io.Writer) error {
	if c.pgDSN != "" || c.redisURL != "" {
		return usageError("bench measures fencelab's own backends: leave out --pg and --redis")
	}
	meter := newProgress(stderr, "")
	defer meter.done()
	say := func(what string) { meter.line("bench: " + what) }
	var pairs []benchPair
	add := func(p benchPair, err error) error {
		if err != nil {
			return fmt.Errorf("bench %s: %w", p.Name, err)
		}
		p.Ratio = p.Value / p.FloorValue
		pairs = append(pairs, p)
		return nil
	}

	say("start")
	if err := add(benchStart(ctx, c, req.runs)); err != nil {
		return err
	}
	say("the explorer")
	frame, first, step, err := benchExplorer(ctx, c, req.runs)
	for _, p := range []benchPair{frame, first, step} {
		if err := add(p, err); err != nil {
			return err
		}
	}
	var inFlight []benchPair
	for _, id := range []string{"lease-overrun", "stale-read", "cross-job-collision"} {
		say("check " + id)
		// Where two writers race for one row, the statements in flight
		// cost the most: that search, before and after them.
		var before *benchPair
		if id == "stale-read" {
			before = &benchPair{}
		}
		if err := add(benchCheck(ctx, c, id, req.runs, before)); err != nil {
			return err
		}
		if before != nil {
			inFlight = append(inFlight, *before)
		}
	}
	for _, p := range inFlight {
		if err := add(p, nil); err != nil {
			return err
		}
	}
	say("stress beside pgbench")
	stressPairs, err := benchStress(ctx, c)
	for _, p := range stressPairs {
		if err := add(p, nil); err != nil {
			return err
		}
	}
	if err != nil {
		return fmt.Errorf("bench stress: %w", err)
	}
	meter.done()
	if req.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(pairs)
	}
	printBench(stdout, pairs, c.lang)
	return nil
}

func printBench(w io.Writer, pairs []benchPair, l lang.Lang) {
	fmt.Fprint(w, l.T("each figure beside its floor, medians of runs one after the other (lower is better for ms, higher for a rate)\n\n"))
	for _, p := range pairs {
		extra := ""
		if p.Unit == "ms" {
			extra = l.T(" · %+.1f ms", p.Value-p.FloorValue)
		}
		fmt.Fprintf(w, "%-27s %10.1f %-9s beside %10.1f  %5.2f×%s\n", p.Name, p.Value, p.Unit, p.FloorValue, p.Ratio, extra)
		beside := l.T("floor: %s", p.Floor)
		if p.Before {
			beside = l.T("before: %s", p.Floor)
		}
		fmt.Fprintf(w, "%-27s %s\n%-27s %s\n", "", p.What, "", beside)
	}
}

// median of durations in milliseconds.
func medianMs(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}

// benchStart: a warm `run lease-overrun`, whole, beside starting the same
// data directory, one connection, and stopping it.
func benchStart(ctx context.Context, c config, runs int) (benchPair, error) {
	p := benchPair{Name: "start", Unit: "ms",
		What:  "fencelab run lease-overrun, warm: its backends start, the guided order, the result, the stop",
		Floor: "the server's own start of the same data directory (postgres launched), one connection, its stop"}
	// A first run of each warms the cache (and makes the cluster once).
	if err := warmRun(ctx); err != nil {
		return p, err
	}
	var runsMs, floorMs []time.Duration
	for range runs {
		start := time.Now()
		if err := warmRun(ctx); err != nil {
			return p, err
		}
		runsMs = append(runsMs, time.Since(start))
		_, total, err := bareStart(ctx)
		if err != nil {
			return p, err
		}
		floorMs = append(floorMs, total)
	}
	p.Value, p.FloorValue = medianMs(runsMs), medianMs(floorMs)
	return p, nil
}

func warmRun(ctx context.Context) error {
	var errOut bytes.Buffer
	if code := fencelab(ctx, []string{"run", "lease-overrun", "--lang", "en"}, io.Discard, &errOut); code != exitOK {
		return fmt.Errorf("run lease-overrun exited %d: %s", code, strings.TrimSpace(errOut.String()))
	}
	return nil
}

// bareStart times the server's own start of the ephemeral cluster's data
// directory, one connection, and its stop (pgcluster.BareStart): ready is
// the time to the connection, total to the stop.
func bareStart(ctx context.Context) (ready, total time.Duration, err error) {
	cluster, err := pgcluster.Start(ctx, pgcluster.Options{})
	if err != nil {
		return 0, 0, err
	}
	ready, total, err = cluster.BareStart(ctx)
	if stopErr := cluster.Stop(); err == nil {
		err = stopErr
	}
	return ready, total, err
}

// ptyProgram is a fencelab process on a pseudo-terminal of 120×40, its
// output watched: as a person starts it in a terminal.
type ptyProgram struct {
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  []byte
	from int
	want string
	seen chan struct{}
	done chan struct{}
}

// startPty starts this executable with args on a new pseudo-terminal.
func startPty(args ...string) (*ptyProgram, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	p := &ptyProgram{cmd: exec.Command(self, args...), done: make(chan struct{})}
	p.cmd.Env = append(os.Environ(), "TERM=xterm-256color", "LANG=C.UTF-8")
	if p.tty, err = pty.StartWithSize(p.cmd, &pty.Winsize{Rows: 40, Cols: 120}); err != nil {
		return nil, err
	}
	go func() {
		defer close(p.done)
		buf := make([]byte, 64*1024)
		for {
			n, err := p.tty.Read(buf)
			p.mu.Lock()
			p.out = append(p.out, buf[:n]...)
			if p.seen != nil && bytes.Contains(p.out[p.from:], []byte(p.want)) {
				close(p.seen)
				p.seen = nil
			}
			p.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return p, nil
}

// expect arms the watch for a text written from now on (or already, when
// from is 0).
func (p *ptyProgram) expect(text string, fromNow bool) chan struct{} {
	p.mu.Lock()
	defer p.mu.Unlock()
	seen := make(chan struct{})
	p.from, p.want, p.seen = 0, text, seen
	if fromNow {
		p.from = len(p.out)
	}
	if bytes.Contains(p.out[p.from:], []byte(text)) {
		close(seen)
		p.seen = nil
	}
	return seen
}

// end quits the program with q and waits for it; one that does not end in
// ten seconds is killed (it is this bench's own child).
func (p *ptyProgram) end() {
	p.tty.Write([]byte("q"))
	exited := make(chan struct{})
	go func() {
		p.cmd.Wait()
		close(exited)
	}()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		p.cmd.Process.Kill()
		<-exited
	}
	p.tty.Close()
	<-p.done
}

// within waits for a text expected, at most a minute.
func within(ctx context.Context, seen chan struct{}, what string) error {
	select {
	case <-seen:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(time.Minute):
		return fmt.Errorf("%s did not show within a minute", what)
	}
}

// bareFrame is the floor of a frame: a program that draws one, and a new
// one for each key (q quits). `fencelab bench-frame` runs it, hidden.
type bareFrame struct{ keys int }

func (b bareFrame) Init() tea.Cmd { return nil }
func (b bareFrame) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyMsg); ok {
		if k.String() == "q" {
			return b, tea.Quit
		}
		b.keys++
	}
	return b, nil
}
func (b bareFrame) View() string { return fmt.Sprintf("fencelab · a bare frame · keys %d", b.keys) }

// runBareFrame is `fencelab bench-frame`: the bare program, full screen
// as the explorer is.
func runBareFrame(ctx context.Context) error {
	_, err := tea.NewProgram(bareFrame{}, tea.WithAltScreen(), tea.WithContext(ctx), tea.WithoutSignalHandler()).Run()
	return err
}

// benchExplorer measures the explorer as a person starts it in a
// terminal — a process of its own on a pseudo-terminal: its first frame,
// its first step with n pressed at once, and the steps after it, each
// beside its floor.
func benchExplorer(ctx context.Context, c config, runs int) (frame, first, step benchPair, err error) {
	frame = benchPair{Name: "explorer first frame", Unit: "ms",
		What:  "fencelab lease-overrun as a process on a terminal: from its start to its first frame",
		Floor: "a bare Bubble Tea program as a process on a terminal: its first frame"}
	first = benchPair{Name: "explorer first step", Unit: "ms",
		What:  "the same, n pressed at once: to the first guided step's frame (the key waits for the lab)",
		Floor: "the bare program's first frame, the bare start's first connection, a raw step and snapshot"}
	step = benchPair{Name: "explorer step", Unit: "ms",
		What:  "a key (n) to the frame that shows the step",
		Floor: "the bare program's key to frame, plus the same step and snapshot read on a lab alone"}
	var frames, bares, firsts, steps, bareKeys []time.Duration
	for range runs {
		// The floor: a bare program's first frame, and a key to its frame.
		start := time.Now()
		bare, e := startPty("bench-frame")
		if e != nil {
			return frame, first, step, e
		}
		err = within(ctx, bare.expect("a bare frame · keys 0", false), "a bare frame")
		bares = append(bares, time.Since(start))
		for k := 1; k <= 3 && err == nil; k++ {
			seen := bare.expect(fmt.Sprintf("keys %d", k), true)
			began := time.Now()
			bare.tty.Write([]byte("n"))
			if err = within(ctx, seen, "a bare frame after a key"); err == nil {
				bareKeys = append(bareKeys, time.Since(began))
			}
		}
		bare.end()
		if err != nil {
			return
		}

		// The explorer, with n pressed at once.
		start = time.Now()
		explorer, e := startPty("lease-overrun", "--lang", "en")
		if e != nil {
			return frame, first, step, e
		}
		if err = within(ctx, explorer.expect("fencelab", false), "the explorer's first frame"); err == nil {
			frames = append(frames, time.Since(start))
			seen := explorer.expect("guided 1/9", true)
			explorer.tty.Write([]byte("n"))
			if err = within(ctx, seen, "the first step"); err == nil {
				firsts = append(firsts, time.Since(start))
			}
		}
		for k := 2; k <= 9 && err == nil; k++ {
			want := fmt.Sprintf("guided %d/9", k)
			seen := explorer.expect(want, true)
			began := time.Now()
			explorer.tty.Write([]byte("n"))
			if err = within(ctx, seen, want); err == nil {
				steps = append(steps, time.Since(began))
			}
		}
		explorer.end()
		if err != nil {
			return
		}
	}
	frame.Value, frame.FloorValue = medianMs(frames), medianMs(bares)
	first.Value, step.Value = medianMs(firsts), medianMs(steps)

	// The floors of a step: the bare start's connection, and the step on a
	// lab alone.
	var readies []time.Duration
	for range runs {
		ready, _, e := bareStart(ctx)
		if e != nil {
			return frame, first, step, e
		}
		readies = append(readies, ready)
	}
	raw, e := rawSteps(ctx, c, runs)
	if e != nil {
		return frame, first, step, e
	}
	step.FloorValue = medianMs(bareKeys) + medianMs(raw)
	first.FloorValue = frame.FloorValue + medianMs(readies) + medianMs(raw)
	return
}

// rawSteps times the guided steps of lease-overrun on a lab alone, each
// with the snapshot a frame shows.
func rawSteps(ctx context.Context, c config, runs int) ([]time.Duration, error) {
	b, err := startBackends(ctx, c, nil)
	if err != nil {
		return nil, err
	}
	defer b.stop()
	s, _ := scenarios.ByID("lease-overrun")
	lab, err := engine.NewLab(ctx, b.Backends, s, engine.Safe)
	if err != nil {
		return nil, err
	}
	defer lab.Close(context.WithoutCancel(ctx))
	var times []time.Duration
	for range runs {
		if err := lab.Reset(ctx); err != nil {
			return nil, err
		}
		if _, err := lab.Snapshot(ctx); err != nil {
			return nil, err
		}
		for {
			began := time.Now()
			err := lab.Next(ctx)
			if errors.Is(err, engine.ErrGuidedDone) {
				break
			}
			if err != nil {
				return nil, err
			}
			if _, err := lab.Snapshot(ctx); err != nil {
				return nil, err
			}
			times = append(times, time.Since(began))
		}
	}
	return times, nil
}

// benchCheck: a check's states a second on one lab, beside that lab's bare
// restores a second: a state saved and put back (its keys and its rows),
// which a check does for every state it goes on from. Each side runs runs
// times, one after the other; medians.
//
// With inFlight, each run also checks one statement at a time, and
// inFlight gets the states a second of the two searches: after and
// before the statements in flight.
func benchCheck(ctx context.Context, c config, id string, runs int, inFlight *benchPair) (benchPair, error) {
	p := benchPair{Name: "check " + id, Unit: "states/s",
		What:  fmt.Sprintf("check %s SAFE on one lab: distinct states explored a second", id),
		Floor: "the same lab putting back a saved state (keys and rows) a second, nothing else"}
	s, ok := scenarios.ByID(id)
	if !ok {
		return p, fmt.Errorf("no scenario %s", id)
	}
	b, err := startBackends(ctx, c, nil)
	if err != nil {
		return p, err
	}
	defer b.stop()
	var checks, bares, before []float64
	for range runs {
		report, err := checkOne(ctx, fixedPool(b), s, engine.Safe, 0, engine.CheckOptions{})
		if err != nil {
			return p, err
		}
		checks = append(checks, statesPerSecond(report))
		if inFlight != nil {
			one, err := checkOne(ctx, fixedPool(b), s, engine.Safe, 0, engine.CheckOptions{OneAtATime: true})
			if err != nil {
				return p, err
			}
			before = append(before, statesPerSecond(one))
		}
		rate, err := bareRestores(ctx, b, s, max(200, report.States))
		if err != nil {
			return p, err
		}
		bares = append(bares, rate)
	}
	p.Value, p.FloorValue = median(checks), median(bares)
	if inFlight != nil {
		*inFlight = benchPair{Name: "check " + id + ", in flight", Unit: "states/s", Before: true,
			What:  fmt.Sprintf("check %s SAFE on one lab, statements in flight explored (issue 41): states a second", id),
			Floor: "the same search one statement at a time, as the checker explored before",
			Value: median(checks), FloorValue: median(before)}
	}
	return p, nil
}

// bareRestores is how many times a second a lab puts back a saved state:
// the seed's and the guided order's end, in turn.
func bareRestores(ctx context.Context, b *backends, s *engine.Scenario, n int) (float64, error) {
	lab, err := engine.NewLab(ctx, b.Backends, s, engine.Safe)
	if err != nil {
		return 0, err
	}
	defer lab.Close(context.WithoutCancel(ctx))
	seed, err := lab.Bookmark(ctx)
	if err != nil {
		return 0, err
	}
	if err := lab.RunGuided(ctx); err != nil {
		return 0, err
	}
	end, err := lab.Bookmark(ctx)
	if err != nil {
		return 0, err
	}
	began := time.Now()
	for i := range n {
		to := seed
		if i%2 == 1 {
			to = end
		}
		if err := lab.Return(ctx, to); err != nil {
			return 0, err
		}
		if err := lab.Settle(ctx); err != nil {
			return 0, err
		}
	}
	return float64(n) / time.Since(began).Seconds(), nil
}

// The stress pair runs in slices, each side in turn: this machine's speed
// drifts within seconds, and a pair measured one side after the other
// compares two machines. Each slice runs stress, then a lease loop, then
// pgbench; the pair is the medians of the slices. Each side opens new
// connections, whose server processes are slow at their first statements;
// a slice of 2 s, not 1, weighs that less.
const (
	benchStressSlices = 3
	benchStressSlice  = 2 * time.Second // pgbench -T counts in whole seconds
	benchLeaseSlice   = 300 * time.Millisecond
)

// benchStress: stress SAFE's accepted commits a second at 1, 8 and 32
// workers on fencelab's own backends, beside the fair floor of a commit:
// pgbench running the same one statement a SAFE write sends (-M prepared,
// as many clients), plus a lease's round trips (the acquire and release
// scripts) timed by a bare loop on the same Redis. The lease makes the
// workers' commits one after another, so the floor is one commit after
// another: 1 / (1/pgbench tps + acquire and release). At 1 worker a
// second pair puts stress beside a bare loop of the same calls
// (bareLoopRate), which tells fencelab's own cost from what the calls cost
// one after another.
func benchStress(ctx context.Context, c config) ([]benchPair, error) {
	defer stressRuntime()() // both sides, as the stress command runs
	var pairs []benchPair
	for _, workers := range []int{1, 8, 32} {
		p := benchPair{Name: "stress " + workersWord(workers), Unit: "commits/s",
			What:  fmt.Sprintf("stress SAFE, %s, no pauses: accepted fenced commits a second", workersWord(workers)),
			Floor: "pgbench running the same fenced statement (-M prepared, as many clients), plus a bare loop's lease acquire and release, one after another"}
		var pb *benchPair // at 1 worker: stress beside its own calls, bare
		cc := c
		cc.leaseTTL, cc.pgConnections, cc.wallClock = 500*time.Millisecond, workers+10, true
		b, err := startBackends(ctx, cc, nil)
		if err != nil {
			return pairs, err
		}
		err = func() error {
			defer b.redis.FollowWallClock()()
			var rates, floors, bare []float64
			for range benchStressSlices {
				report, err := stress.Run(ctx, stress.Config{Workers: workers, Duration: benchStressSlice, Mode: engine.Safe,
					LeaseTTL: cc.leaseTTL}, stress.Backends{Coordination: b.Coordination, Database: b.Database}, stress.Goroutines())
				if err != nil {
					return err
				}
				if !report.Held() {
					return errors.New("stress SAFE did not hold")
				}
				if workers == 1 {
					// Before pgbench, whose tokens are above any the lease hands out.
					rate, err := bareLoopRate(ctx, b, cc.leaseTTL, benchStressSlice)
					if err != nil {
						return err
					}
					bare = append(bare, rate)
				}
				lease, err := leaseCycle(ctx, b, cc.leaseTTL, benchLeaseSlice)
				if err != nil {
					return err
				}
				tps, err := pgbenchFenced(ctx, b, workers, benchStressSlice)
				if err != nil {
					return err
				}
				rates = append(rates, report.CommitsPerSecond)
				floors = append(floors, 1/(1/tps+lease.Seconds()))
			}
			p.Value, p.FloorValue = median(rates), median(floors)
			if len(bare) > 0 {
				pb = &benchPair{Name: "stress 1 worker, bare loop", Unit: "commits/s", Value: p.Value, FloorValue: median(bare),
					What:  "stress SAFE, 1 worker: the same commits a second",
					Floor: "the same acquire, fenced write and release in a bare loop, one after another: no records, no collector, no checks"}
			}
			return nil
		}()
		b.stop()
		if err != nil {
			return pairs, err
		}
		pairs = append(pairs, p)
		if pb != nil {
			pairs = append(pairs, *pb)
		}
	}
	return pairs, nil
}

// median of rates.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// leaseCycle is a lease's acquire and release scripts, one after the
// other, on the Redis a stress run used: the mean of those in d — a rate,
// as pgbench's and stress's are, so the pauses of the loop's own
// collector count in it as the workers' count in theirs (the median left
// them out, and was about a sixth below the mean).
func leaseCycle(ctx context.Context, b *backends, ttl, d time.Duration) (time.Duration, error) {
	res := stress.Resource("")
	leases := b.Coordination.Client("bench").(world.RedisClient)
	var cycles int
	var spent time.Duration
	for until := time.Now().Add(d); time.Now().Before(until); {
		began := time.Now()
		grant, err := leases.AcquireLease(ctx, res.ConflictKey, "bench", ttl, res.NamespaceEpoch, 0)
		if err != nil {
			return 0, err
		}
		if grant.Outcome == world.LeaseContended { // a worker's lease still running out
			time.Sleep(ttl / 10)
			continue
		}
		if _, err := leases.ReleaseLease(ctx, res.ConflictKey, "bench", grant.Token, res.NamespaceEpoch, 0); err != nil {
			return 0, err
		}
		cycles, spent = cycles+1, spent+time.Since(began)
	}
	if cycles == 0 {
		return 0, errors.New("the lease stayed taken all the while")
	}
	return spent / time.Duration(cycles), nil
}

// bareLoopRate is stress's one worker without stress around it: the same
// lease acquire, fenced write (the read under the row lock) and release,
// through the same stores, in a bare loop for d — commits a second. The
// floor adds two hot loops, each of which keeps its server busy; here
// each call waits for the one before, as a worker's do, so this is what
// a worker's calls can reach on this machine, and the gap between it and
// stress is fencelab's own cost.
func bareLoopRate(ctx context.Context, b *backends, ttl, d time.Duration) (float64, error) {
	res := stress.Resource("")
	leases := b.Coordination.Client("bench").(world.RedisClient)
	ledger, err := b.Database.Connect(ctx, "bench")
	if err != nil {
		return 0, err
	}
	defer ledger.Close(ctx)
	var commits int
	began := time.Now()
	for until := began.Add(d); time.Now().Before(until); {
		grant, err := leases.AcquireLease(ctx, res.ConflictKey, "bench", ttl, res.NamespaceEpoch, 0)
		if err != nil {
			return 0, err
		}
		if grant.Outcome == world.LeaseContended { // a worker's lease still running out
			time.Sleep(ttl / 10)
			if commits == 0 { // the loop's time begins with its first lease
				began, until = time.Now(), time.Now().Add(d)
			}
			continue
		}
		write := stress.WriteWith(res, "bench", grant.Token)
		write.AddUnderLock, write.Delta = true, 1
		result, err := ledger.(world.Ledger).FencedMutation(ctx, write)
		if err != nil {
			return 0, err
		}
		if !result.Committed {
			return 0, fmt.Errorf("the bare loop's write with token %d was refused: %s", grant.Token, result.Rejection)
		}
		if _, err := leases.ReleaseLease(ctx, res.ConflictKey, "bench", grant.Token, res.NamespaceEpoch, 0); err != nil {
			return 0, err
		}
		commits++
	}
	if commits == 0 {
		return 0, errors.New("the lease stayed taken all the while")
	}
	return float64(commits) / time.Since(began).Seconds(), nil
}

// pgbenchFenced runs pgbench on the stress run's database: the fenced
// write's statement, its parameters as pgbench variables (-M prepared
// sends them as parameters too), a token and operation id of its own
// for every transaction, and the fence check left out, so every write
// commits — as a lease holder's does.
func pgbenchFenced(ctx context.Context, b *backends, clients int, d time.Duration) (float64, error) {
	pgledger.ReleaseIdle() // pgbench's clients need the server's connections
	dir, err := os.MkdirTemp("", "fencelab-bench-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(dir)
	res := stress.Resource("")
	statement := regexp.MustCompile(`\$(\d+)`).ReplaceAllStringFunc(pgledger.FencedWriteSQL, func(m string) string {
		switch m {
		case "$3", "$14": // the token, and the operation id made of it
			return ":tok"
		}
		return ":p" + m[1:]
	})
	script := "\\set n :n + 1\n\\set tok :client_id * 1000000000 + :n\n" + strings.TrimSpace(statement) + ";\n"
	path := filepath.Join(dir, "fenced.sql")
	if err := os.WriteFile(path, []byte(script), 0o644); err != nil {
		return 0, err
	}
	vars := map[string]string{"n": "0",
		"p1": res.TenantID, "p2": res.ConflictKey, "p4": fmt.Sprint(res.NamespaceEpoch), "p5": fmt.Sprint(res.MembershipRevision),
		"p6": res.RegionID, "p7": fmt.Sprint(res.RegionEpoch), "p8": fmt.Sprint(max(res.MinimumWriterVersion, res.CheckpointSchemaVersion)),
		"p9": "true", "p10": "1", "p11": "0", "p12": "0", "p13": "2026-07-01 00:00:00+00", "p15": "pgbench", "p16": "pgbench",
		"p17": fmt.Sprint(res.CheckpointSchemaVersion), "p18": "publish-summary",
		"p19": "false", "p20": "false", "p21": "false", "p22": "false", "p23": "true", "p24": "true"}
	args := []string{"-n", "-M", "prepared", "-c", fmt.Sprint(clients), "-j", fmt.Sprint(min(clients, runtime.NumCPU())),
		"-T", fmt.Sprint(int(d.Seconds())), "-f", path}
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		args = append(args, "-D", k+"="+vars[k])
	}
	args = append(args, b.cluster.DSN(pgcluster.Database))
	out, err := exec.CommandContext(ctx, filepath.Join(b.cluster.Binaries.Dir, "pgbench"), args...).CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("pgbench: %v: %s", err, pgcluster.ReasonLine(out))
	}
	m := regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`).FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("pgbench said no tps: %s", pgcluster.ReasonLine(out))
	}
	return strconv.ParseFloat(string(m[1]), 64)
}

// workersWord is "1 worker", "8 workers".
func workersWord(n int) string {
	if n == 1 {
		return "1 worker"
	}
	return fmt.Sprintf("%d workers", n)
}
