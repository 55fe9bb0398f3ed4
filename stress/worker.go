package stress

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
)

// Resource is what the workers contend for: the catalog's shared values of
// DESIGN §6, one conflict key. A resource shared by runs on many machines
// (shared, a name) has a conflict key and a tenant of its own.
func Resource(shared string) world.Seed {
	s := world.Seed{
		ConflictKey: "summary:tenant-a:2026-07", TenantID: "tenant-a", MembershipRevision: 7,
		RegionID: "region-a", RegionEpoch: 3, NamespaceEpoch: 2,
		MinimumWriterVersion: 2, CheckpointSchemaVersion: 1,
		Now: time.Now().UTC(),
	}
	if shared != "" {
		s.ConflictKey, s.TenantID = "stress:"+shared, "stress-"+shared
	}
	return s
}

// WorkerConfig is what a worker needs to know of the run.
type WorkerConfig struct {
	ID       int           `json:"id"`
	Mode     engine.Mode   `json:"mode"`
	LeaseTTL time.Duration `json:"leaseTTL"`
	Resource world.Seed    `json:"resource"`
	// Run tells this run's workers from another's that shares the
	// resource (Config.Shared): it goes into their names.
	Run string `json:"run,omitempty"`
	// Workers is how many contend with it, for how long to wait between
	// tries at a held lease.
	Workers int `json:"workers"`
	// Without is the set of guards removed from SAFE's code (--without).
	Without engine.GuardSet `json:"without,omitempty"`
}

// Owner is a worker's name in Redis and PostgreSQL: worker-3, or
// worker-3@RUN for a run that shares its resource with others.
func (c WorkerConfig) Owner() string {
	if c.Run != "" {
		return fmt.Sprintf("worker-%d@%s", c.ID, c.Run)
	}
	return Owner(c.ID)
}

// Owner is the name of this run's worker id, as the history shows it.
func Owner(id int) string { return fmt.Sprintf("worker-%d", id) }

// Worker is one worker's loop over connections of its own: acquire the
// resource lease, perhaps freeze, read the summary and write it, and
// release the lease. SAFE reads and writes in DESIGN §4's fenced
// transaction, the read under the row lock (the fix of stale-read); UNSAFE
// reads, then writes what it read plus one, unconditionally.
type Worker struct {
	Config WorkerConfig
	Leases world.LeaseStore
	Ledger world.Ledger
	// Pause, if set, runs right after each acquire: the pause of a
	// stop-the-world collector, when one is due, reported as Paused. A
	// goroutine sleeps; a worker process stops itself with SIGSTOP, all of
	// it, until its run continues it.
	Pause func(ctx context.Context, report func(Record))
	// PauseRead, if set, runs right after a read made outside the write's
	// transaction (UNSAFE, or SAFE without read-in-tx): a pause there,
	// while another worker's pause after its acquire is under way, is what
	// lets an older token commit between a newer one's read and write.
	PauseRead func(ctx context.Context, report func(Record))
	// More is asked before each round whether to go on.
	More func() bool
	// Claim, if set, is asked after each acquire for leave to write, out
	// of the run's writes (Config.Ops): no means release and end.
	Claim func() bool
	// Gone tells a failure that is a backend's absence (it cannot be
	// reached, or stopped answering) from another; nil: none is.
	Gone func(error) bool
	// RedisGone tells, of those, Redis's; nil: none is.
	RedisGone func(error) bool
	// Handoff, if set, is shared with the other workers of this process:
	// a worker waits on it for the lease to be released rather than only
	// poll, and one that releases the lease while another waits passes it
	// on. Nil: the worker polls (a worker process).
	Handoff *Handoff
	// Halt, if set, is closed when the run stops: a worker waiting for
	// the lease stops waiting (More then says no).
	Halt <-chan struct{}
	// turnsSince is when this worker's turns in a row began (zero: it has
	// none now).
	turnsSince time.Time
}

// Run loops until ctx ends or More says no, reporting what it does. A
// backend failure ends it, reported as Failed and returned.
func (w *Worker) Run(ctx context.Context, report func(Record)) error {
	backoff := newBackoff(w.Config.Workers, w.Config.LeaseTTL, w.Handoff != nil)
	for w.More() && ctx.Err() == nil {
		done, err := w.round(ctx, report, backoff)
		if errors.Is(err, errWritesDone) {
			return nil
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil // stopped mid-round: nothing failed
			}
			report(Record{Worker: w.Config.ID, Kind: Failed, Return: Now(), Err: err.Error(), Gone: w.Gone != nil && w.Gone(err),
				RedisGone: w.RedisGone != nil && w.RedisGone(err)})
			return err
		}
		if !done {
			backoff.wait(ctx, w.Handoff.released(), w.Halt)
		}
	}
	return nil
}

// round is one try: false when the lease was held by another worker.
func (w *Worker) round(ctx context.Context, report func(Record), backoff *backoff) (bool, error) {
	cfg, res := w.Config, w.Config.Resource
	owner := cfg.Owner()
	call := Now()
	var grant world.LeaseGrant
	var err error
	if cfg.Mode == engine.Safe {
		grant, err = w.Leases.AcquireLease(ctx, res.ConflictKey, owner, cfg.LeaseTTL, res.NamespaceEpoch, cfg.Without)
	} else {
		grant, err = w.Leases.AcquireLeaseNaive(ctx, res.ConflictKey, owner, cfg.LeaseTTL)
	}
	if err != nil {
		return false, fmt.Errorf("%s: acquire the lease: %w", owner, err)
	}
	if grant.Outcome == world.LeaseContended {
		w.turnsSince = time.Time{}
		report(Record{Worker: cfg.ID, Kind: Idle, Return: Now()})
		return false, nil
	}
	backoff.reset()
	if w.turnsSince.IsZero() {
		w.turnsSince = time.Now()
	}
	token := grant.Token
	report(Record{Worker: cfg.ID, Kind: Acquired, Call: call, Return: Now(), Token: token})
	if w.Claim != nil && !w.Claim() {
		status, err := w.Leases.ReleaseLease(ctx, res.ConflictKey, owner, token, res.NamespaceEpoch, cfg.Without)
		if err != nil {
			return false, fmt.Errorf("%s: release the lease: %w", owner, err)
		}
		report(Record{Worker: cfg.ID, Kind: Released, Return: Now(), Token: token, Lost: status != world.LeaseDone})
		return true, errWritesDone
	}

	if w.Pause != nil {
		w.Pause(ctx, report)
	}

	write := WriteWith(res, owner, token)
	var result world.WriteResult
	if cfg.Mode == engine.Safe && !cfg.Without.Has(world.GuardReadInTx) {
		// The read is the fenced transaction's own, under the row lock.
		write.AddUnderLock, write.Delta, write.Without = true, 1, cfg.Without
		call = Now()
		result, err = w.fencedWrite(ctx, write)
	} else {
		// The read-modify-write of naive code: read, then write what was
		// read plus one — unconditionally (UNSAFE), or through the fenced
		// write with the read outside it (SAFE without read-in-tx).
		call = Now()
		read, err := w.Ledger.ReadSummary(ctx, res.ConflictKey)
		if err != nil {
			return false, fmt.Errorf("%s: read the summary: %w", owner, err)
		}
		report(Record{Worker: cfg.ID, Kind: Read, Call: call, Return: Now(), Value: read})
		if w.PauseRead != nil {
			w.PauseRead(ctx, report)
		}
		write.Value, write.ReadValue = read+1, &read
		call = Now()
		if cfg.Mode == engine.Safe {
			write.Without = cfg.Without
			result, err = w.fencedWrite(ctx, write)
		} else {
			result, err = w.Ledger.UnfencedMutation(ctx, write)
		}
		result.Value = write.Value
	}
	if err != nil {
		return false, fmt.Errorf("%s: write with token %d: %w", owner, token, err)
	}
	report(Record{Worker: cfg.ID, Kind: Write, Call: call, Return: Now(), Token: token,
		Value: result.Value, Prev: result.Read, Accepted: result.Committed, Rejection: result.Rejection})
	if err := w.release(ctx, report, token); err != nil {
		return false, err
	}
	// After a run of turns, a worker that was waiting for the lease takes
	// its turn; this one waits for the next release, as it would have had
	// it asked now.
	if time.Since(w.turnsSince) >= handoffAfter && w.Handoff.pass() {
		w.turnsSince = time.Time{}
		return false, nil
	}
	return true, nil
}

// WriteWith is the write a worker named owner makes to res with token,
// before the mode decides how: the fields of DESIGN §4's write, and an
// operation id of the token's own.
func WriteWith(res world.Seed, owner string, token int64) world.Write {
	return world.Write{
		// Unique per resource and token: a fencing token is handed out once.
		OperationID: fmt.Sprintf("stress/%s/e%d/t%d", res.ConflictKey, res.NamespaceEpoch, token),
		JobName:     "stress", TenantID: res.TenantID, ConflictKey: res.ConflictKey, Owner: owner,
		Token: token, NamespaceEpoch: res.NamespaceEpoch, MembershipRevision: res.MembershipRevision,
		RegionID: res.RegionID, RegionEpoch: res.RegionEpoch,
		ContractVersion: max(res.MinimumWriterVersion, res.CheckpointSchemaVersion), CheckpointSchema: res.CheckpointSchemaVersion,
		Now: time.Now().UTC(),
	}
}

// fencedWrite is SAFE's write: one statement, or, without the outbox
// guard, the business row first and its execution and outbox row after.
func (w *Worker) fencedWrite(ctx context.Context, write world.Write) (world.WriteResult, error) {
	result, err := w.Ledger.FencedMutation(ctx, write)
	if err == nil && write.Without.Has(world.GuardOutbox) {
		err = w.Ledger.RecordWrite(ctx, write, result)
	}
	return result, err
}

// release gives the lease back, reporting when the call began: a release
// that finds something to delete after the worker's own lease ran out
// deleted another worker's lease (invariant 8).
func (w *Worker) release(ctx context.Context, report func(Record), token int64) error {
	cfg, res := w.Config, w.Config.Resource
	call := Now()
	status, err := w.Leases.ReleaseLease(ctx, res.ConflictKey, cfg.Owner(), token, res.NamespaceEpoch, cfg.Without)
	if err != nil {
		return fmt.Errorf("%s: release the lease: %w", cfg.Owner(), err)
	}
	report(Record{Worker: cfg.ID, Kind: Released, Call: call, Return: Now(), Token: token, Lost: status != world.LeaseDone})
	return nil
}

// errWritesDone ends a worker whose run has made all its writes.
var errWritesDone = errors.New("stress: the run's writes are made")

// backoff spaces a worker's tries at a lease another worker holds: about
// a commit's time at first (a holder keeps the lease for its write, a
// millisecond or two), then longer, so many waiting workers do not swamp
// Redis and the cores the holder needs — the more of them, the longer;
// with jitter, so they do not retry in step. Tries much sooner than the
// holder can be done only cost it: from 50 µs, 32 workers committed less
// than half as often (fencelab bench's stress pairs).
//
// With a handoff a release wakes a waiting worker, and a worker's own
// tries are only for a lease that ran out unreleased (its holder froze):
// they are spaced so the waiting workers together try about a hundred
// times a second, and none waits much longer than a lease TTL.
type backoff struct{ first, next, most time.Duration }

const (
	firstBackoff = 1500 * time.Microsecond
	// Between tries: at most this much a contending worker, within bounds.
	backoffPerWorker = 1000 * time.Microsecond
	leastMaxBackoff  = 2 * time.Millisecond
	mostMaxBackoff   = 50 * time.Millisecond
	// Between tries of a worker that waits for a handoff, per worker.
	handoffPollPerWorker = 10 * time.Millisecond
)

func newBackoff(workers int, ttl time.Duration, handoff bool) *backoff {
	if handoff {
		poll := min(max(time.Duration(workers)*handoffPollPerWorker, leastMaxBackoff), max(ttl, leastMaxBackoff))
		return &backoff{first: poll, next: poll, most: poll}
	}
	most := min(max(time.Duration(workers)*backoffPerWorker, leastMaxBackoff), mostMaxBackoff)
	return &backoff{first: firstBackoff, next: firstBackoff, most: most}
}

func (b *backoff) reset() { b.next = b.first }

// wait sleeps until the next try is due, until the lease is released, or
// until the run halts (a nil channel never is).
func (b *backoff) wait(ctx context.Context, released, halt <-chan struct{}) {
	d := b.next/2 + rand.N(b.next)
	b.next = min(2*b.next, b.most)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-released:
	case <-halt:
	case <-ctx.Done():
	}
}

// Handoff passes a released lease from one worker to another waiting for
// it in the same process, so the lease does not lie free until a waiting
// worker's next try is due: each commit then follows the one before at
// once, as they would with a notification from Redis. It only says when
// to try: the lease is still taken by the acquire script, and a worker
// told may find it taken (a lease that ran out was taken by a third).
// Workers in processes of their own poll.
//
// A worker passes the lease on after turns in a row for handoffAfter, not
// after each: the one that just wrote has its connections and its
// server process warm, where a handoff wakes a goroutine and a server
// process that slept. Every worker still gets its turns, and the history
// interleaves them.
type Handoff struct{ waiting chan struct{} }

// handoffAfter is how long a worker takes turns in a row while another
// waits: a few dozen commits, where a count of 8 turns made every write
// slower (a write's median 231 µs at 8 workers beside 168 at one, 197 with
// this; 2,050-2,100 commits a second beside 2,300-2,400, alternated on the
// 2-core machine). 32 workers still each take a turn within a second.
const handoffAfter = 20 * time.Millisecond

// NewHandoff is a handoff for one process's workers.
func NewHandoff() *Handoff { return &Handoff{waiting: make(chan struct{})} }

// released is what a waiting worker waits on; nil (never) without one.
func (h *Handoff) released() <-chan struct{} {
	if h == nil {
		return nil
	}
	return h.waiting
}

// pass wakes one worker waiting for the lease, and reports whether one
// was: the channel has no buffer, so a send goes through only to a worker
// waiting on it now.
func (h *Handoff) pass() bool {
	if h == nil {
		return false
	}
	select {
	case h.waiting <- struct{}{}:
		return true
	default:
		return false
	}
}
