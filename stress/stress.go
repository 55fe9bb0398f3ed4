package stress

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
)

// Config is one run.
type Config struct {
	Workers int
	// Duration is how long the workers run; Ops, when above zero, ends the
	// run instead once that many writes were made.
	Duration time.Duration
	Ops      int
	// PauseEvery is how often a worker that just took the lease is frozen,
	// for Pause — longer than the lease's TTL, like a long GC pause (0:
	// never).
	PauseEvery time.Duration
	Pause      time.Duration
	Mode       engine.Mode
	LeaseTTL   time.Duration
	// History keeps the checked history for Visualize.
	History bool
	// Progress hears how far the run is, about once a second.
	Progress func(Progress)
	// Gone tells a worker's failure that is a backend's absence from
	// another (ErrBackendGone); nil: none is.
	Gone func(error) bool
	// RedisSilent is told that a worker's process found Redis silent or
	// gone (Record.RedisGone); nil: nobody is.
	RedisSilent func()
	// Shared names a resource that runs on many machines share: its rows
	// and keys are made when missing and never reset, and each run checks
	// the history it saw (Report.Shared).
	Shared string
	// Without is the set of guards removed from SAFE's code (StressGuards
	// are the ones a worker's code makes).
	Without engine.GuardSet
}

// StressGuards are the guards a stress worker's code consults: its
// acquire (history, namespace), its write (fence, membership, region,
// version, namespace, read-in-tx, outbox) and its release (owner).
const StressGuards = engine.GuardSet(1<<world.GuardFence | 1<<world.GuardMembership | 1<<world.GuardRegion |
	1<<world.GuardVersion | 1<<world.GuardNamespace | 1<<world.GuardReadInTx | 1<<world.GuardOutbox |
	1<<world.GuardHistory | 1<<world.GuardOwner)

// Backends are what the workers contend on.
type Backends struct {
	Coordination engine.Coordination
	Database     engine.Database
}

// Progress is a run so far.
type Progress struct {
	Elapsed    time.Duration
	Writes     int
	Accepted   int
	Rejections map[string]int
	Pauses     int
	// PerSecond is accepted writes a second over the last interval.
	PerSecond float64
}

// Report is what a run did and what the checks found.
type Report struct {
	Mode    engine.Mode
	Without engine.GuardSet
	Workers int
	Procs   bool
	// Shared names the resource runs on many machines share; its rows are
	// every run's so far, its history this run's alone.
	Shared   string
	Elapsed  time.Duration
	LeaseTTL time.Duration
	// Interrupted: the run was cut short (a signal); what it did is checked.
	Interrupted bool

	Writes, Accepted, Rejected int
	Rejections                 map[string]int
	// UnpausedWrites are the writes of rounds whose worker was not frozen,
	// UnpausedAccepted those accepted: SAFE must accept most of them.
	UnpausedWrites, UnpausedAccepted int
	// StaleReleases are releases that deleted a lease after the
	// releaser's own had run out: another worker's (invariant 8).
	StaleReleases     int
	FirstStaleRelease *StaleRelease
	Reads, Pauses     int
	Contended         int // tries at a lease another worker held
	LeasesLost        int // releases that found the lease gone: a pause outlived it
	CommitsPerSecond  float64
	P50, P99          time.Duration

	Audit world.Audit
	// Counter is the Redis fencing counter at the end; LeaseLeft names a
	// lease still held (empty: free).
	Counter   int64
	LeaseLeft string

	// The linearizability check of the history, in segments.
	Segments, Illegal, Unknown int
	HistoryReads               int
	HistoryWrites              int
	FirstViolation             lang.Phrase

	checker *checker
}

// Linearizable reports whether every segment of the history was.
func (r Report) Linearizable() bool { return r.Illegal == 0 && r.Unknown == 0 }

// Check is one of the invariants checked from the rows and keys.
type Check struct {
	Invariant int // of DESIGN §7; 0 for a check of the run's own
	Held      bool
	What      lang.Phrase // what it checks
	Found     lang.Phrase // what broke it; empty when it held
}

// Checks are the invariants of the run's rows and keys.
func (r Report) Checks() []Check {
	a := r.Audit
	stale := Check{Invariant: 1, What: lang.P("tokens accepted strictly increase in commit order"), Held: a.StaleCommits == 0}
	if s := a.FirstStale; s != nil {
		stale.Found = lang.P("stale commits: %d; the first: %s committed token %d after %s's %d", a.StaleCommits, s.Owner, s.Token, s.AfterOwner, s.After)
	}
	outbox := Check{Invariant: 3, What: lang.P("every commit has its one outbox row, no outbox row lacks its commit, and the checkpoint is the resource's"),
		Held: a.CommitsWithoutOutbox == 0 && a.OutboxWithoutCommit == 0 && !a.CheckpointDisagrees}
	if !outbox.Held {
		outbox.Found = lang.P("commits without their outbox row: %d, outbox rows without a commit: %d, the checkpoint disagrees: %t",
			a.CommitsWithoutOutbox, a.OutboxWithoutCommit, a.CheckpointDisagrees)
	}
	lost := Check{Invariant: 7, What: lang.P("no lost update: every commit was computed from the value the row held"), Held: a.LostUpdates == 0}
	if l := a.FirstLost; l != nil {
		lost.Found = lang.P("lost updates: %d; the first: %s wrote %d computed from %d, but the row held %d", a.LostUpdates, l.Owner, l.Value, l.Read, l.Previous)
	}
	// Each accepted write added one, so the summary counts them; fewer
	// means writes were lost.
	sum := Check{What: lang.P("the summary counts the accepted writes"), Held: a.Summary == int64(a.Committed)}
	if !sum.Held {
		sum.Found = lang.P("summary %s, accepted writes %s", FormatCount(int(a.Summary)), FormatCount(a.Committed))
	}
	counter := Check{What: lang.P("Redis's counter is at or above every token accepted, and the lease is free at the end"),
		Held: r.Counter >= a.LastAcceptedFence && r.LeaseLeft == ""}
	if r.Shared != "" {
		// Another machine's worker may hold the lease now.
		counter = Check{What: lang.P("Redis's counter is at or above every token accepted"), Held: r.Counter >= a.LastAcceptedFence}
	}
	if !counter.Held {
		counter.Found = lang.P("counter %d, last accepted fence %d, lease %q", r.Counter, a.LastAcceptedFence, r.LeaseLeft)
	}
	leases := Check{Invariant: 8, What: lang.P("a lease is ended only by its holder or its TTL: no release deletes another worker's lease"),
		Held: r.StaleReleases == 0}
	if f := r.FirstStaleRelease; f != nil {
		leases.Found = lang.P("releases that deleted another worker's lease: %d; the first: %s released %s after its own lease of token %d had run out",
			r.StaleReleases, Owner(f.Worker), f.After.Round(time.Millisecond), f.Token)
	}
	checks := []Check{stale, outbox, lost, leases, sum, counter}
	if r.Mode == engine.Safe {
		checks = append(checks, r.progress())
	}
	return checks
}

// progressShare is the part of the rounds of workers that were not frozen
// that SAFE must accept: a worker holding a live lease writes with the
// newest token, so nearly all are; a token source that hands out the same
// token twice, say, accepts almost none.
const progressShare = 0.5

// progress is SAFE's progress, beside the invariants.
func (r Report) progress() Check {
	c := Check{What: lang.P("progress: at least half of the rounds of workers that were not frozen were accepted (%s of %s)",
		FormatCount(r.UnpausedAccepted), FormatCount(r.UnpausedWrites)),
		Held: float64(r.UnpausedAccepted) >= progressShare*float64(r.UnpausedWrites)}
	if !c.Held {
		c.Found = lang.P("only %s of %s rounds of workers that were not frozen were accepted: %s",
			FormatCount(r.UnpausedAccepted), FormatCount(r.UnpausedWrites), Reasons(r.Rejections))
	}
	return c
}

// StaleRelease is a release that deleted a lease after the releaser's own
// had run out.
type StaleRelease struct {
	Worker int
	Token  int64
	After  time.Duration // from the acquire's return to the release's call
}

// Held reports whether every invariant held and the history is
// linearizable.
func (r Report) Held() bool {
	for _, c := range r.Checks() {
		if !c.Held {
			return false
		}
	}
	return r.Linearizable()
}

// Violations counts what broke fencing: stale commits, lost updates,
// stale releases and illegal segments of the history.
func (r Report) Violations() int {
	return r.Audit.StaleCommits + r.Audit.LostUpdates + r.StaleReleases + r.Illegal
}

// Tested reports whether the run put the guards it removed to the test:
// they matter across a frozen worker's lease running out, so a run in which
// none did says nothing about them.
func (r Report) Tested() bool { return r.Without == 0 || r.LeasesLost > 0 }

// AsExpected is the exit status's question, as for check: SAFE held, or
// UNSAFE showed a violation.
func (r Report) AsExpected() bool {
	if r.Mode == engine.Safe {
		return r.Held()
	}
	return r.Violations() > 0
}

// Visualize writes Porcupine's page of the history kept (Config.History):
// the first segment that is not linearizable, if any, and the latest ones.
func (r Report) Visualize(w io.Writer) (segments int, err error) {
	if r.checker == nil || !r.checker.keep {
		return 0, errors.New("stress: the run kept no history")
	}
	return r.checker.visualize(w)
}

// ErrWorker is a worker that failed: the run stops.
var ErrWorker = errors.New("a worker failed")

// ErrBackendGone is a worker's backend that cannot be reached or stopped
// answering: the run stops.
var ErrBackendGone = errors.New("a backend went away")

// Run seeds the resource, runs the workers as fleet says, checks the
// history as it comes and the rows and keys at the end. A worker's backend
// failure stops the run and is returned; a cancelled ctx ends it early,
// with its report.
func Run(ctx context.Context, cfg Config, b Backends, f Fleet) (Report, error) {
	res, err := seed(ctx, b, Resource(cfg.Shared), cfg.Shared != "")
	if err != nil {
		return Report{}, err
	}
	run := ""
	if cfg.Shared != "" {
		run = runID() // the other runs' workers have the same numbers
	}
	if cfg.Mode == engine.Unsafe {
		cfg.Without = 0
	}
	if extra := cfg.Without &^ StressGuards; extra != 0 {
		return Report{}, lang.Error("a stress worker never asks %s: stress can remove %s", extra.String(), strings.Join(StressGuards.Names(), ", "))
	}
	workers := make([]WorkerConfig, cfg.Workers)
	for i := range workers {
		workers[i] = WorkerConfig{ID: i, Mode: cfg.Mode, LeaseTTL: cfg.LeaseTTL, Resource: res, Run: run, Workers: cfg.Workers,
			Without: cfg.Without}
	}

	records := make(chan Record, 4*cfg.Workers+64)
	var stopping atomic.Bool
	// The workers finish the round they are in when the run stops, so
	// their context outlives an interrupt.
	fleetCtx, stopFleet := context.WithCancel(context.WithoutCancel(ctx))
	defer stopFleet()
	hooks := fleetHooks{more: func() bool { return !stopping.Load() }, pause: cfg.Pause, readPause: cfg.LeaseTTL / 2, gone: cfg.Gone}
	if cfg.Ops > 0 {
		// Exactly that many writes, where the workers can share a count.
		var left atomic.Int64
		left.Store(int64(cfg.Ops))
		hooks.claim = func() bool { return left.Add(-1) >= 0 }
	}
	started := f.start(fleetCtx, workers, b, hooks, records)
	if started != nil {
		f.stop()
		return Report{}, started
	}
	// The run's clock starts with its workers: a worker process's start
	// (and its connections) is not the run's time.
	start := Now()
	collect := &collector{cfg: cfg, rejections: map[string]int{}, rounds: make([]round, cfg.Workers),
		checker: newChecker(cfg.Workers, start, register{Value: res.InitialValue},
			cfg.Mode == engine.Safe && !cfg.Without.Has(world.GuardReadInTx), cfg.Shared != "", cfg.History)}

	var pauseTick <-chan time.Time
	if cfg.PauseEvery > 0 {
		t := time.NewTicker(cfg.PauseEvery)
		defer t.Stop()
		pauseTick = t.C
	}
	progress := time.NewTicker(time.Second)
	defer progress.Stop()
	var deadline <-chan time.Time
	if cfg.Ops == 0 {
		timer := time.NewTimer(cfg.Duration)
		defer timer.Stop()
		deadline = timer.C
	}
	stop := func() {
		if stopping.CompareAndSwap(false, true) {
			f.stop()
		}
	}
	done := make(chan error, 1)
	go func() { done <- f.wait(); close(records) }()

	var failure error
	gone := false // the failure is a backend's absence
	interrupted := false
	lastAccepted, lastTick := 0, time.Now()
	for in := (<-chan Record)(records); in != nil; {
		select {
		case r, ok := <-in:
			if !ok {
				in = nil
				break
			}
			if r.Kind == Failed && failure == nil {
				failure = fmt.Errorf("%w: %s", ErrWorker, r.Err)
				if r.Gone {
					failure = fmt.Errorf("%w: %s", ErrBackendGone, r.Err)
					gone = true
				}
				if r.RedisGone && cfg.RedisSilent != nil {
					cfg.RedisSilent()
				}
				stop()
			}
			collect.add(r)
			if r.Kind == Freezing && r.AfterRead {
				f.wake()
				go f.thaw(r.Worker, hooks.readPause, true)
			} else if r.Kind == Freezing {
				f.armRead(r.Worker)
				go f.thaw(r.Worker, cfg.Pause, false)
			}
			if cfg.Ops > 0 && collect.writes >= cfg.Ops {
				stop()
			}
		case <-pauseTick:
			if !stopping.Load() {
				f.arm()
			}
		case <-deadline:
			stop()
		case <-ctx.Done():
			if !stopping.Load() {
				interrupted = true
			}
			stop()
			ctx = context.WithoutCancel(ctx)
		case now := <-progress.C:
			if cfg.Progress != nil {
				elapsed := time.Duration(Now() - start)
				cfg.Progress(Progress{Elapsed: elapsed, Writes: collect.writes, Accepted: collect.accepted,
					Rejections: maps.Clone(collect.rejections), Pauses: collect.pauses,
					PerSecond: float64(collect.accepted-lastAccepted) / now.Sub(lastTick).Seconds()})
			}
			lastAccepted, lastTick = collect.accepted, now
		}
	}
	elapsed := time.Duration(Now() - start)
	if err := <-done; err != nil && (failure == nil || !f.processes()) {
		// A goroutine's own error says the most.
		failure = fmt.Errorf("%w: %w", ErrWorker, err)
		if gone {
			failure = fmt.Errorf("%w: %w", ErrBackendGone, err)
		}
	}
	if failure != nil {
		collect.checker.abandon()
		return Report{}, failure
	}

	collect.checker.finish()
	report := Report{Mode: cfg.Mode, Without: cfg.Without, Workers: cfg.Workers, Procs: f.processes(), Shared: cfg.Shared, Elapsed: elapsed,
		UnpausedWrites: collect.unpausedWrites, UnpausedAccepted: collect.unpausedAccepted,
		StaleReleases: collect.staleReleases, FirstStaleRelease: collect.firstStale,
		LeaseTTL: cfg.LeaseTTL, Interrupted: interrupted,
		Writes: collect.writes, Accepted: collect.accepted, Rejected: collect.writes - collect.accepted, Rejections: collect.rejections,
		Reads: collect.reads, Pauses: collect.pauses, Contended: collect.contended, LeasesLost: collect.leasesLost,
		CommitsPerSecond: float64(collect.accepted) / elapsed.Seconds(),
		P50:              collect.latency.percentile(0.50), P99: collect.latency.percentile(0.99),
		Segments: collect.checker.Segments, Illegal: collect.checker.Illegal, Unknown: collect.checker.Unknown,
		HistoryReads: collect.checker.Reads, HistoryWrites: collect.checker.Writes, FirstViolation: collect.checker.First,
		checker: collect.checker}
	if report.Audit, err = audit(ctx, b, res); err != nil {
		return Report{}, err
	}
	if report.Counter, report.LeaseLeft, err = redisState(ctx, b, res); err != nil {
		return Report{}, err
	}
	return report, nil
}

// runID names a run among those that share a resource.
func runID() string {
	var raw [3]byte
	rand.Read(raw[:])
	return hex.EncodeToString(raw[:])
}

// collector counts what the records say, for the report.
type collector struct {
	cfg     Config
	checker *checker
	latency latencies
	rounds  []round // each worker's round under way

	writes, accepted, reads, contended, leasesLost, pauses int
	unpausedWrites, unpausedAccepted, staleReleases        int
	firstStale                                             *StaleRelease
	rejections                                             map[string]int
}

// round is what the collector knows of a worker's round under way: when
// its acquire returned, and whether it was frozen.
type round struct {
	acquired int64
	frozen   bool
}

func (c *collector) add(r Record) {
	var at *round
	if r.Worker >= 0 && r.Worker < len(c.rounds) {
		at = &c.rounds[r.Worker]
	}
	switch r.Kind {
	case Acquired:
		if at != nil {
			*at = round{acquired: r.Return}
		}
	case Write:
		c.writes++
		if r.Accepted {
			c.accepted++
			c.latency.add(time.Duration(r.Return - r.Call))
		} else {
			c.rejections[r.Rejection]++
		}
		if at != nil && !at.frozen {
			c.unpausedWrites++
			if r.Accepted {
				c.unpausedAccepted++
			}
		}
	case Read:
		c.reads++
	case Idle:
		c.contended++
	case Released:
		if r.Lost {
			c.leasesLost++
		}
		// The worker's own lease ran out by the release's call at the
		// latest: set no later than the acquire returned, it lived its
		// TTL. A release that still found a lease to delete deleted
		// another worker's.
		if at != nil && !r.Lost && r.Call > 0 && at.acquired > 0 && time.Duration(r.Call-at.acquired) > c.cfg.LeaseTTL {
			c.staleReleases++
			if c.firstStale == nil {
				c.firstStale = &StaleRelease{Worker: r.Worker, Token: r.Token, After: time.Duration(r.Call - at.acquired)}
			}
		}
	case Paused:
		c.pauses++
		if at != nil {
			at.frozen = true
		}
	}
	c.checker.add(r)
}

// seed puts the resource's rows in PostgreSQL and its counter and epoch in
// Redis, afresh. A shared resource is made only where it is missing, and
// the rows it has say what a write must match.
func seed(ctx context.Context, b Backends, res world.Seed, shared bool) (world.Seed, error) {
	ledger, err := b.Database.Connect(ctx, "stress")
	if err != nil {
		return res, err
	}
	defer ledger.Close(context.WithoutCancel(ctx))
	if shared {
		ensurer, ok := ledger.(interface {
			EnsureResource(context.Context, world.Seed) (world.Seed, error)
		})
		if !ok {
			return res, errors.New("stress: the database cannot share a resource")
		}
		if res, err = ensurer.EnsureResource(ctx, res); err != nil {
			return res, err
		}
	} else {
		if err := ledger.(world.Ledger).Seed(ctx, res); err != nil {
			return res, err
		}
		if err := b.Coordination.Wipe(ctx); err != nil {
			return res, err
		}
	}
	// The counter is kept where it is higher: a run joining a shared
	// resource goes on from the others' tokens.
	return res, b.Coordination.Client("stress").(world.RedisClient).Bootstrap(ctx, res.ConflictKey, res.NamespaceEpoch, res.CounterStart)
}

// audit reads what the rows say.
func audit(ctx context.Context, b Backends, res world.Seed) (world.Audit, error) {
	ledger, err := b.Database.Connect(ctx, "stress-audit")
	if err != nil {
		return world.Audit{}, err
	}
	defer ledger.Close(context.WithoutCancel(ctx))
	auditor, ok := ledger.(world.Auditor)
	if !ok {
		return world.Audit{}, errors.New("stress: the database cannot audit its rows")
	}
	return auditor.Audit(ctx, res.ConflictKey)
}

// redisState reads the fencing counter and any lease left on the resource.
func redisState(ctx context.Context, b Backends, res world.Seed) (int64, string, error) {
	names := b.Coordination.(world.Coordination).ConflictKeyNames(res.ConflictKey) // lease, counter, epoch
	keys, err := b.Coordination.Keys(ctx)
	if err != nil {
		return 0, "", err
	}
	var counter int64
	lease := ""
	for _, k := range keys {
		switch k.Key {
		case names[0]:
			lease = k.Value
		case names[1]:
			counter, _ = strconv.ParseInt(k.Value, 10, 64)
		}
	}
	return counter, lease, nil
}

// fleetHooks are what a fleet's workers ask the run.
type fleetHooks struct {
	more  func() bool
	claim func() bool   // leave to write (nil: always)
	pause time.Duration // how long a pause after an acquire lasts, at most
	// readPause is how long a pause after a read outside the write's
	// transaction lasts: short, so the reader still holds its lease when
	// it writes.
	readPause time.Duration
	gone      func(error) bool
}

// A Fleet runs the workers: goroutines of this process (Goroutines) or
// processes of their own (see Processes).
type Fleet interface {
	start(ctx context.Context, workers []WorkerConfig, b Backends, hooks fleetHooks, records chan<- Record) error
	// stop asks every worker to end after its round.
	stop()
	// wait waits until every worker has ended; the first failure.
	wait() error
	// processes: the workers are processes of their own.
	processes() bool
	// arm makes a pause due: the next worker to take the lease (a worker
	// process picked at random) pauses right after it. One worker at a
	// time is frozen: while one is, or is about to be, arm does nothing.
	arm()
	// armRead makes a pause after a read outside a write's transaction
	// due, when worker froze after its acquire (a worker process that
	// stopped itself: the run hears of it) — every other time, so the
	// other freezes end on their own, after the next holder wrote.
	armRead(worker int)
	// wake ends the pause of the worker frozen after its acquire, now: a
	// worker froze after its read, and the two together make the stale
	// read's order — the older token writes between the newer one's read
	// and its write.
	wake()
	// thaw continues, after d, a worker process that stopped itself
	// (Freezing; afterRead: at its pause after a read).
	thaw(worker int, d time.Duration, afterRead bool)
}

// Goroutines is a fleet of goroutines, each with its own Redis client and
// PostgreSQL connection; a pause is the worker sleeping where it stands.
func Goroutines() Fleet { return &goroutines{} }

type goroutines struct {
	wg     sync.WaitGroup
	mu     sync.Mutex
	first  error
	cancel context.CancelFunc
	armed  atomic.Bool // a pause is due: the next worker to take the lease takes it
	frozen atomic.Bool // a worker is frozen now
	// armedRead and frozenRead are the same for the pause after a read
	// outside the write's transaction, which ends the other (woken).
	armedRead, frozenRead atomic.Bool
	freezes               atomic.Int64 // after an acquire, so far
	woken                 chan struct{}
	halt                  chan struct{}
	halted                sync.Once
}

func (g *goroutines) start(ctx context.Context, workers []WorkerConfig, b Backends, hooks fleetHooks, records chan<- Record) error {
	ctx, g.cancel = context.WithCancel(ctx)
	g.halt, g.woken = make(chan struct{}), make(chan struct{}, 1)
	built := make([]*Worker, len(workers))
	handoff := NewHandoff()
	var ledgers []engine.Ledger
	for i, cfg := range workers {
		ledger, err := b.Database.Connect(ctx, Owner(cfg.ID))
		if err == nil {
			ledgers = append(ledgers, ledger)
			err = warm(ctx, ledger)
		}
		if err != nil {
			for _, l := range ledgers {
				l.Close(context.WithoutCancel(ctx))
			}
			return err
		}
		built[i] = &Worker{Config: cfg, Leases: b.Coordination.Client(Owner(cfg.ID)).(world.RedisClient), Ledger: ledger.(world.Ledger),
			More: hooks.more, Claim: hooks.claim, Pause: g.pause(cfg.ID, hooks.pause, &g.armed, &g.frozen, g.armRead, g.woken),
			PauseRead: g.pause(cfg.ID, hooks.readPause, &g.armedRead, &g.frozenRead, func(int) { g.wake() }, nil), Gone: hooks.gone,
			Handoff: handoff, Halt: g.halt}
	}
	for _, w := range built {
		g.wg.Go(func() {
			defer w.Ledger.Close(context.WithoutCancel(ctx))
			err := func() (err error) {
				defer engine.CatchPanic(&err) // a bug: the run ends with it, as a crash
				return w.Run(ctx, func(r Record) { records <- r })
			}()
			if err != nil {
				g.mu.Lock()
				if g.first == nil {
					g.first = err
				}
				g.mu.Unlock()
			}
		})
	}
	return nil
}

// stop lets each worker finish its round: a write in flight lands, and
// the lease is released; a pause ends at once.
// warm readies a worker's new connection for its rounds, when its
// database can (pgledger prepares the statements it sends), before the
// run's clock starts: a new server process parses a statement and reads
// its tables' catalog entries the first time, and 32 workers' first
// writes are a good part of a short run.
func warm(ctx context.Context, ledger engine.Ledger) error {
	if w, ok := ledger.(interface{ Warm(context.Context) error }); ok {
		return w.Warm(ctx)
	}
	return nil
}

func (g *goroutines) stop() { g.halted.Do(func() { close(g.halt) }) }

func (g *goroutines) wait() error {
	g.wg.Wait()
	g.cancel()
	return g.first
}

// pause is a goroutine worker's: when one is due (armed), sleep where it
// stands, frozen, for d or until woken; then, if set, is told it froze.
func (g *goroutines) pause(id int, d time.Duration, armed, frozen *atomic.Bool, then func(int),
	woken <-chan struct{}) func(context.Context, func(Record)) {
	return func(ctx context.Context, report func(Record)) {
		if !armed.CompareAndSwap(true, false) {
			return
		}
		frozen.Store(true)
		if woken != nil {
			select {
			case <-woken: // a wake meant for an earlier pause
			default:
			}
		}
		if then != nil {
			then(id)
		}
		start := Now()
		select {
		case <-time.After(d):
		case <-woken:
		case <-g.halt:
		case <-ctx.Done():
		}
		frozen.Store(false)
		report(Record{Worker: id, Kind: Paused, Call: start, Return: Now()})
	}
}

func (g *goroutines) processes() bool { return false }

// arm makes a pause due, unless one is under way: one worker at a time is
// frozen after its acquire, so the others go on — and overtake it.
func (g *goroutines) arm() {
	if !g.frozen.Load() {
		g.armed.Store(true)
	}
}

// armRead makes a pause after a read outside the write's transaction due,
// once a worker froze after its acquire — every other time, so the frozen
// worker's pause also ends on its own, after the next holder wrote (a
// stale write) — : the next worker to read is the one that takes the lease
// after the frozen one's ran out (a worker that reads under the row lock
// never takes it).
func (g *goroutines) armRead(int) {
	if g.freezes.Add(1)%2 == 1 && !g.frozenRead.Load() {
		g.armedRead.Store(true)
	}
}

// wake ends the pause after an acquire under way, if one is.
func (g *goroutines) wake() {
	if g.frozen.Load() {
		select {
		case g.woken <- struct{}{}:
		default:
		}
	}
}

func (g *goroutines) thaw(int, time.Duration, bool) {}

// FormatRate writes a rate with thousands separators and a decimal:
// 1,267.4.
func FormatRate(r float64) string {
	tenths := int(r*10 + 0.5)
	return fmt.Sprintf("%s.%d", FormatCount(tenths/10), tenths%10)
}

// FormatCount writes a count with thousands separators: 12,345.
func FormatCount(n int) string {
	if n < 0 {
		return "-" + FormatCount(-n)
	}
	s := strconv.Itoa(n)
	var parts []string
	for len(s) > 3 {
		parts = append([]string{s[len(s)-3:]}, parts...)
		s = s[:len(s)-3]
	}
	return strings.Join(append([]string{s}, parts...), ",")
}

// Reasons lists rejections by reason, sorted: "STALE_FENCE 45".
func Reasons(m map[string]int) string {
	var parts []string
	for reason, n := range m {
		parts = append(parts, reason+" "+FormatCount(n))
	}
	slices.Sort(parts)
	return strings.Join(parts, ", ")
}
