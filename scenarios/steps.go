package scenarios

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
)

// worker is how a worker is configured: its job, the configuration it
// believes current, and how it computes the value it writes.
type worker struct {
	name     string
	job      string
	revision int64
	region   string
	regionEp int64
	contract int
	schema   int
	// value computes the business value from what the worker remembers.
	value func(m *world.Memory) int64
	// adds makes the worker's write a read-modify-write: it adds this to
	// the summary. In UNSAFE it adds to the summary it read earlier, in its
	// read step; in SAFE the write reads the summary again inside its
	// transaction, under the row lock, and adds to that.
	adds int64
	// tokenKey is the conflict key of the token source it acquires from;
	// only a partitioned region's worker has one of its own.
	tokenKey string
	// alwaysFenced keeps the fenced write in UNSAFE mode too, for scenarios
	// whose naive part is elsewhere (counter-loss: the acquire).
	alwaysFenced bool
	// naiveAcquire makes its UNSAFE acquire the naive script.
	naiveAcquire bool
	// naiveLeases makes its UNSAFE renew and release naive: they change
	// whatever lease is there, without asking whose it is.
	naiveLeases bool
	// losesReply: the reply to its first write never comes back, so it
	// cannot tell whether the write landed (a client-side timeout).
	losesReply bool
	// addsInPlace makes its UNSAFE read-modify-write an UPDATE that adds
	// in place (summary = summary + n), not a value from an earlier read.
	addsInPlace bool
	// ownerID is the owner its leases carry when it is not its own: two
	// runs of one job on one worker (a retry) share the worker's id.
	ownerID string
}

func newWorker(name, job string, value func(m *world.Memory) int64) worker {
	return worker{name: name, job: job, revision: 7, region: RegionID, regionEp: 3, contract: 2, schema: 1, value: value,
		tokenKey: ConflictKey}
}

// owner is the worker's id in Redis lease values.
func (w worker) owner() string {
	if w.ownerID != "" {
		return w.ownerID
	}
	return "worker-" + w.name
}

func (w worker) spec(program ...engine.Step) engine.ActorSpec {
	return engine.ActorSpec{Name: w.name, Label: lang.P("worker %s (%s)", w.name, w.job), Owner: w.owner(),
		Setting: world.ActorSetting{LeaseKey: w.tokenKey}, Program: program}
}

// acquireLeader takes the job's leader lease; if another worker holds it,
// this worker waits.
func (w worker) acquireLeader() engine.Step {
	return engine.Step{Name: "acquire leader lease " + w.job, Touches: leases, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		grant, err := world.Leases(t).AcquireLeader(ctx, w.job, w.owner(), t.HoldTTL())
		if err != nil {
			return 0, err
		}
		if grant.Outcome == world.LeaseContended {
			t.Emitf(engine.LayerCoordination, "LEADER", "CONTENDED",
				"leader lease of %s is held by %s; %s waits", w.job, grant.Holder, w.name)
			t.Narrate("%s must wait: %s already leads %s.", w.name, grant.Holder, w.job)
			return engine.Wait, nil
		}
		world.MemoryOf(t).HoldsLeader = true
		t.Emitf(engine.LayerCoordination, "LEADER", string(grant.Outcome),
			"%s leads job %s for %s (an owner id, no order)", w.name, w.job, t.HoldTTL())
		t.Narrate("%s now leads %s: the leader lease says who runs the job, but not in what order writers come.", w.name, w.job)
		return engine.Advance, nil
	}}
}

// releaseLeader gives the leader lease back.
func (w worker) releaseLeader() engine.Step {
	return engine.Step{Name: "release leader lease", Touches: leases, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		status, err := world.Leases(t).ReleaseLeader(ctx, w.job, w.owner())
		if err != nil {
			return 0, err
		}
		world.MemoryOf(t).HoldsLeader = false
		if status == world.LeaseDone {
			t.Emitf(engine.LayerCoordination, "LEADER_RELEASE", "RELEASED", "%s gives up the leader lease of %s", w.name, w.job)
			t.Narrate("%s is done with %s and gives up leading it.", w.name, w.job)
		} else {
			t.Emitf(engine.LayerCoordination, "LEADER_RELEASE", "LOST", "%s no longer held the leader lease of %s", w.name, w.job)
			t.Narrate("%s finds it no longer led %s: the lease ran out while it worked.", w.name, w.job)
		}
		return engine.Advance, nil
	}}
}

// acquireLease takes the resource lease of the conflict key and with it a
// fencing token. A contended lease makes the worker wait.
func (w worker) acquireLease() engine.Step {
	return engine.Step{Name: "acquire resource lease", Touches: leases, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		m := world.MemoryOf(t)
		var grant world.LeaseGrant
		var err error
		if w.naiveAcquire && t.Mode() == engine.Unsafe {
			grant, err = world.Leases(t).AcquireLeaseNaive(ctx, w.tokenKey, w.owner(), t.HoldTTL())
		} else {
			grant, err = world.Leases(t).AcquireLease(ctx, w.tokenKey, w.owner(), t.HoldTTL(), m.Epoch,
				t.Unguarded(world.GuardHistory, world.GuardNamespace))
		}
		var mismatch *world.EpochMismatchError
		switch {
		case errors.As(err, &mismatch):
			t.Emitf(engine.LayerCoordination, "ACQUIRE", "REFUSED",
				"Redis is at namespace epoch %d, %s had %d; %s moves to epoch %d and tries again", mismatch.Current, w.name, m.Epoch, w.name, mismatch.Current)
			t.Narrate("The namespace moved on: %s adopts epoch %d, a token space that starts over, so its tokens cannot be confused with old ones.", w.name, mismatch.Current)
			m.Epoch = mismatch.Current
			return engine.Wait, nil
		case errors.Is(err, world.ErrHistoryLost):
			// The script's own reason, after the words the error chain adds.
			reason := err.Error()
			if _, after, ok := strings.Cut(reason, world.ErrHistoryLost.Error()+": "); ok {
				reason = after
			}
			t.Emitf(engine.LayerCoordination, "ACQUIRE", "REFUSED", "acquire refused: Redis lost the fencing history (%s)", reason)
			t.Narrate("Redis lost its fencing history, so the script refuses to hand out tokens from zero again: an operator must start a new namespace epoch.")
			return engine.Wait, nil
		case errors.Is(err, world.ErrLeaseCorrupt):
			t.Emitf(engine.LayerCoordination, "ACQUIRE", "REFUSED", "acquire refused: %v", err)
			return engine.Wait, nil
		case err != nil:
			return 0, err
		}
		if grant.Outcome == world.LeaseContended {
			t.Emitf(engine.LayerCoordination, "ACQUIRE", "CONTENDED",
				"the resource lease is held by %s with token %d; %s waits", grant.Holder, grant.HolderToken, w.name)
			t.Narrate("%s has to wait: the lease is on the resource itself, so any job that touches this summary takes its turn.", w.name)
			return engine.Wait, nil
		}
		m.Token, m.HoldsLease = grant.Token, true
		t.Emitf(engine.LayerCoordination, "ACQUIRE", string(grant.Outcome),
			"%s holds the resource lease with fencing token %d for %s", w.name, grant.Token, t.HoldTTL())
		seed := world.SeedIn(t)
		switch {
		case m.Epoch != seed.NamespaceEpoch:
			t.Narrate("Redis hands %s fencing token %d under namespace epoch %d: a token space that started over, which PostgreSQL orders after every token of epoch %d.",
				w.name, grant.Token, m.Epoch, seed.NamespaceEpoch)
		case grant.Token <= seed.CounterStart:
			t.Narrate("Redis hands %s fencing token %d, smaller than the tokens it handed out before (they were past %d): the restart lost the counter, and with it the order fencing tokens promise.",
				w.name, grant.Token, seed.CounterStart)
		case tokenWritten(t.Before().Ledger, m.Epoch, grant.Token):
			t.Narrate("Redis hands %s fencing token %d, a number a write of epoch %d carried already: the restart lost the counter, and with it the order fencing tokens promise.",
				w.name, grant.Token, m.Epoch)
		default:
			t.Narrate("Redis hands %s fencing token %d: every new holder gets a bigger number than the one before.", w.name, grant.Token)
		}
		return engine.Advance, nil
	}}
}

// tokenWritten says whether a write on record carried token or a bigger
// one under epoch: a token handed out again.
func tokenWritten(s engine.LedgerState, epoch, token int64) bool {
	for _, e := range world.RowsOf(s).Executions {
		if e.NamespaceEpoch == epoch && e.FencingToken >= token {
			return true
		}
	}
	return false
}

// releaseLease gives the resource lease back if it is still the worker's.
func (w worker) releaseLease() engine.Step {
	return engine.Step{Name: "release resource lease", Touches: leases, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		m := world.MemoryOf(t)
		without := w.leaseGuards(t)
		before, err := w.leaseBefore(ctx, t, without)
		if err != nil {
			return 0, err
		}
		status, err := world.Leases(t).ReleaseLease(ctx, w.tokenKey, w.owner(), m.Token, m.Epoch, without)
		if err != nil {
			return 0, err
		}
		m.HoldsLease = false
		switch {
		case status == world.LeaseDone && before.stranger(w, m.Token):
			t.Emit(engine.LayerCoordination, "RELEASE", "RELEASED", before.unchecked(w, m.Token, t),
				"%s's release deletes %s's lease of token %d: nothing checks it is token %d's", w.name, before.holder, before.token, m.Token)
			t.Narrate("The release no longer asks whose lease it is: it deletes %s's, and the next worker can take a lease %s still believes it holds.",
				before.holder, before.holder)
		case status == world.LeaseDone:
			t.Emitf(engine.LayerCoordination, "RELEASE", "RELEASED", "%s releases the lease of token %d; the counter stays", w.name, m.Token)
			t.Narrate("%s lets the resource go; the counter keeps its value, so the next holder's token is bigger still.", w.name)
		case status == world.LeaseLost && without.Has(world.GuardOwner):
			t.Emit(engine.LayerCoordination, "RELEASE", "LOST", before.unchecked(w, m.Token, t), "there was no lease left to delete")
			t.Narrate("%s goes to release its lease, and finds none at all: it ran out, or another worker's release deleted it.", w.name)
		case status == world.LeaseLost:
			t.Emitf(engine.LayerCoordination, "RELEASE", "LOST", "token %d's lease was no longer %s's", m.Token, w.name)
			t.Narrate("%s goes to release a lease that is no longer its own; the script leaves the other holder's lease alone.", w.name)
		default:
			t.Emitf(engine.LayerCoordination, "RELEASE", "EPOCH_MISMATCH", "the namespace epoch moved on since token %d", m.Token)
			t.Narrate("%s's token belongs to an old namespace epoch, so there is nothing of its own left to release.", w.name)
		}
		return engine.Advance, nil
	}}
}

// leaseSeen is whose lease the lab saw before a renew or release that does
// not check the owner, so the timeline can say whose lease it changed.
type leaseSeen struct {
	holder string
	token  int64
	held   bool
}

// leaseBefore reads the lease holder for the narration, when the owner
// check is off (SAFE without owner, UNSAFE's naive renew and release): the
// lab's look, in the same call, not the worker's.
func (w worker) leaseBefore(ctx context.Context, t *engine.Turn, without engine.GuardSet) (leaseSeen, error) {
	if !without.Has(world.GuardOwner) {
		return leaseSeen{}, nil
	}
	var s leaseSeen
	var err error
	s.holder, s.token, s.held, err = world.CoordinationOf(t).LeaseHolder(ctx, w.tokenKey)
	return s, err
}

// stranger reports whether the lease seen was another worker's.
func (s leaseSeen) stranger(w worker, token int64) bool {
	return s.held && (s.holder != w.owner() || s.token != token)
}

// unchecked is the owner check as it was not made.
func (s leaseSeen) unchecked(w worker, token int64, t *engine.Turn) string {
	if t.Mode() == engine.Unsafe {
		return fmt.Sprintf("lease = %s|%d → not checked (UNSAFE)", w.owner(), token)
	}
	return fmt.Sprintf("lease = %s|%d → not checked (owner removed)", w.owner(), token)
}

// leaseGuards are the guards removed from the worker's renew and release:
// in SAFE as --without says; in UNSAFE, for a worker with naive leases,
// both of the checks (the naive code asks nobody whose the lease is).
func (w worker) leaseGuards(t *engine.Turn) engine.GuardSet {
	if w.naiveLeases && t.Mode() == engine.Unsafe {
		return engine.Guards(world.GuardOwner, world.GuardNamespace)
	}
	return t.Unguarded(world.GuardOwner, world.GuardNamespace)
}

// renewLease extends the worker's lease before it writes, as a heartbeat
// would. A renew that finds the lease no longer its own tells the worker it
// lost it, and the worker stops: the lease it believed in is gone.
func (w worker) renewLease() engine.Step {
	return engine.Step{Name: "renew resource lease", Touches: leases, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		m := world.MemoryOf(t)
		without := w.leaseGuards(t)
		before, err := w.leaseBefore(ctx, t, without)
		if err != nil {
			return 0, err
		}
		status, err := world.Leases(t).RenewLease(ctx, w.tokenKey, w.owner(), m.Token, t.HoldTTL(), m.Epoch, without)
		if err != nil {
			return 0, err
		}
		switch {
		case status == world.LeaseDone && before.stranger(w, m.Token):
			t.Emit(engine.LayerCoordination, "RENEW", "RENEWED", before.unchecked(w, m.Token, t),
				"%s's renew extends %s's lease of token %d for %s: nothing checks it is token %d's", w.name, before.holder, before.token,
				t.HoldTTL(), m.Token)
			t.Narrate("The renew no longer asks whose lease it is: it extends %s's, and %s carries on sure that the lease, and token %d, are its own.",
				before.holder, w.name, m.Token)
			return engine.Advance, nil
		case status == world.LeaseDone:
			t.Emitf(engine.LayerCoordination, "RENEW", "RENEWED", "%s renews its lease of token %d for %s", w.name, m.Token, t.HoldTTL())
			t.Narrate("%s's renew went through, so it carries on sure that the lease, and token %d, are still its own.", w.name, m.Token)
			return engine.Advance, nil
		}
		m.HoldsLease = false
		t.Emit(engine.LayerCoordination, "RENEW", status.String(), fmt.Sprintf("lease = %s|%d → false", w.owner(), m.Token),
			"token %d's lease is no longer %s's: the renew changes nothing and %s stops", m.Token, w.name, w.name)
		t.Refuse(LeaseLost)
		t.Narrate("The renew script finds another holder's lease and leaves it alone; %s learns it lost the lease and stops before doing any harm.", w.name)
		return engine.Finish, nil
	}}
}

// LeaseLost is the refusal of a renew by a worker whose lease is gone.
const LeaseLost = "LEASE_LOST"

// readSummary reads the business value the worker will build on.
func (w worker) readSummary() engine.Step {
	return engine.Step{Name: "read summary", Touches: readDatabase, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		v, err := world.LedgerOf(t).ReadSummary(ctx, ConflictKey)
		if err != nil {
			return 0, err
		}
		m := world.MemoryOf(t)
		m.Read, m.HasRead = v, true
		t.Emitf(engine.LayerDatabase, "READ", "READ", "%s reads summary = %d", w.name, v)
		t.Narrate("%s reads %d and will add to it; whatever it writes later is built on this read.", w.name, v)
		return engine.Advance, nil
	}}
}

// writeSummary writes the worker's value: in SAFE through the fenced
// mutation, in UNSAFE through the unconditional UPDATE. It is one round
// trip — the fenced statement writes the business row, checkpoint,
// execution and outbox row together — or two, when the outbox guard is
// removed: the business row and checkpoint first, then the execution and
// outbox row in a transaction of their own.
func (w worker) writeSummary() engine.Step { return w.write("write summary", false) }

// write is writeSummary, or (retry) the same write sent again after its
// reply was lost: the same token, and in SAFE the same OperationId, so the
// database can tell it is the write it already has.
func (w worker) write(name string, retry bool) engine.Step {
	return engine.Step{Name: name, Calls: []engine.Call{
		{Name: name, Touches: stampDB, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
			write, underLock := w.prepare(t, retry)
			m := world.MemoryOf(t)
			mutate := world.LedgerOf(t).FencedMutation
			if t.Mode() == engine.Unsafe && !w.alwaysFenced {
				mutate = world.LedgerOf(t).UnfencedMutation
			}
			result, err := mutate(ctx, write)
			if err != nil {
				return 0, err
			}
			if underLock {
				write.Value = result.Value
			}
			w.tell(t, write, result, underLock, retry)
			if write.Without.Has(world.GuardOutbox) {
				m.Seen.Sent, m.Seen.Write = &write, &result
				return engine.Continue, nil
			}
			return engine.Advance, nil
		}},
		{Name: "record execution and outbox row", Touches: stampDB, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
			m := world.MemoryOf(t)
			write, result := m.Seen.Sent, m.Seen.Write
			if write == nil || result == nil {
				return engine.Advance, nil
			}
			if err := world.LedgerOf(t).RecordWrite(ctx, *write, *result); err != nil {
				return 0, err
			}
			state := "REJECTED"
			if result.Committed {
				state = "COMMITTED"
			}
			t.Emitf(engine.LayerDatabase, "RECORD", state, "%s records the execution of %s (%s)%s, in a transaction of its own",
				w.name, write.OperationID, state, outboxNote(result.Committed))
			t.Narrate("Only now do the execution and outbox row follow the business row: between the two transactions the database said one thing and its log another.")
			return engine.Advance, nil
		}},
	}}
}

func outboxNote(committed bool) lang.Phrase {
	if committed {
		return lang.P(" and its outbox row")
	}
	return lang.P("")
}

// prepare builds the worker's write from what it remembers, with the
// guards this run removed; underLock says the write reads the summary
// under the row lock (SAFE's read-modify-write).
func (w worker) prepare(t *engine.Turn, retry bool) (world.Write, bool) {
	m := world.MemoryOf(t)
	m.Writes++
	id := world.OperationID(t, w.job)
	if retry && (t.Mode() == engine.Unsafe || t.Off(world.GuardOperationID)) {
		// The naive retry is a new request, with an id of its own.
		id += "/retry"
	}
	write := world.Write{
		OperationID:        id,
		JobName:            w.job,
		TenantID:           TenantID,
		ConflictKey:        ConflictKey,
		Owner:              w.owner(),
		Token:              m.Token,
		NamespaceEpoch:     m.Epoch,
		MembershipRevision: w.revision,
		RegionID:           w.region,
		RegionEpoch:        w.regionEp,
		ContractVersion:    w.contract,
		CheckpointSchema:   w.schema,
		Value:              w.value(m),
		Now:                t.Now(),
		Without: t.Unguarded(world.GuardFence, world.GuardMembership, world.GuardRegion, world.GuardVersion,
			world.GuardNamespace, world.GuardOutbox),
	}
	underLock := w.adds != 0 && (t.Mode() == engine.Safe && !t.Off(world.GuardReadInTx) || t.Mode() == engine.Unsafe && w.addsInPlace)
	switch {
	case underLock:
		write.AddUnderLock, write.Delta = true, w.adds
	case w.adds != 0:
		read := m.Read
		write.ReadValue = &read
	}
	return write, underLock
}

// tell emits what a write did and narrates it.
func (w worker) tell(t *engine.Turn, write world.Write, result world.WriteResult, underLock, retry bool) {
	m := world.MemoryOf(t)
	with := lang.P("without a fencing token")
	switch {
	case write.Token > 0 && m.Epoch != world.SeedIn(t).NamespaceEpoch:
		with = lang.P("with (epoch %d, token %d)", m.Epoch, write.Token)
	case write.Token > 0:
		with = lang.P("with token %d", write.Token)
	}
	rows := lang.P("with its checkpoint, execution and outbox row")
	if write.Without.Has(world.GuardOutbox) {
		rows = lang.P("with its checkpoint; its execution and outbox row are not written yet")
	}
	if result.OnRecord {
		// What the screen says is what the rows hold: the summary changed,
		// and the execution on record is another write's.
		rows = lang.P("but OperationId %s is on record already: no execution or outbox row of its own", write.OperationID)
	}
	if result.Committed {
		value := lang.P("%d", write.Value)
		if underLock {
			value = lang.P("%d (%d + %d, read under the row lock)", write.Value, result.Read, w.adds)
		}
		t.Emit(engine.LayerDatabase, "WRITE", "COMMITTED", result.Guard, "%s commits summary = %s %s, %s", w.name, value, with, rows)
		switch {
		case retry:
			t.Narrate("The retry goes through as a second write: the same change is applied twice, and nothing in the database can tell the two apart.")
		case result.Overlooked != "":
			t.Narrate("PostgreSQL accepts %s's write only because its %s check is gone: with it, this write would have been refused.", w.name, result.Overlooked)
		case t.Mode() == engine.Unsafe && !w.alwaysFenced:
			t.Narrate("%s's UPDATE goes through unconditionally: nothing re-checks its token, tenant, region, version or namespace.", w.name)
		case underLock && result.Read != m.Read:
			t.Narrate("%s read %d earlier, but under the row lock the summary is %d: it adds %d to that, so no update is lost (%s).",
				w.name, m.Read, result.Read, w.adds, result.Guard)
		case underLock:
			t.Narrate("PostgreSQL accepts %s (%s); it added %d to the %d it found under the row lock.", w.name, result.Guard, w.adds, result.Read)
		case w.adds != 0:
			t.Narrate("PostgreSQL accepts %s: %s. The fence orders writes, not reads: %d was computed from the %d it read before.",
				w.name, result.Guard, write.Value, m.Read)
		default:
			t.Narrate("PostgreSQL accepts %s: %s, so this is the newest writer it has seen.", w.name, result.Guard)
		}
	} else {
		t.Emit(engine.LayerDatabase, "WRITE", "REJECTED", result.Guard,
			"PostgreSQL rejects %s's summary = %d %s: %s", w.name, write.Value, with, result.Rejection)
		t.Refuse(result.Rejection)
		if retry {
			t.Narrate("The retry carries the token the first attempt already used: %s. The database recognises the write it already has and refuses a second one.", result.Guard)
		} else {
			t.Narrate("PostgreSQL refuses %s (%s): the check in the same transaction as the write is what stops a stale worker.", w.name, result.Guard)
		}
	}
	if w.losesReply && !retry {
		m.ReplyLost = true
		t.Emitf(engine.LayerAPI, "TIMEOUT", "UNKNOWN", "the reply to %s's commit is lost: a client-side timeout, and %s cannot tell whether the write landed", w.name, w.name)
		t.Narrate("The commit reached PostgreSQL, but its reply never reached %s: all %s knows is that it timed out, so it will try again.", w.name, w.name)
	}
}

// retryWrite sends the worker's last write again, after its reply was lost.
func (w worker) retryWrite() engine.Step { return w.write("retry the write", true) }
