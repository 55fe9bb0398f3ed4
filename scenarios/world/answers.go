package world

import (
	"context"

	"github.com/fencelab/fencelab/engine"
	"slices"
	"time"

	"github.com/fencelab/fencelab/lang"
)

// A lease store's answer is what its caller acts on: an acquire that
// grants, or a renew that answers DONE, tells the worker the lease is its
// own, and the worker goes on to write. Invariant 8 holds the answer to
// what the call left in Redis: after the call, the lease is the caller's.
// Comparing keys before and after alone misses a renew that extends
// another holder's lease to the TTL it already had (nothing grew, nothing
// ended), though the worker now believes in a lease it does not hold.

// answer is what one call told its caller it holds.
type answer struct {
	call string // "acquire", "renew", "leader", "job", "release"
	// conflictKey is the resource whose lease it is; empty for a leader's.
	conflictKey string
	holder      string
	token       int64
	// ttl is how long the call was asked to make the lease last: the
	// caller counts on that much.
	ttl time.Duration
	// target and job are a job acquire's: the job the caller was told
	// runs for the target (its own, or the one it reuses).
	target, job string
	// operationID and until are an outbox claim's ("claim"): the row the
	// caller was told is its own to deliver, and until when on the lab
	// clock. A recorded outcome ("recorded") ends the caller's claim.
	// caller names the actor: an overlap's action carries the calls of
	// two, each answered to its own.
	operationID string
	until       time.Time
	caller      string
}

// Leases is the actor's lease store as its steps see it (answeredLeases).
func Leases(t *engine.Turn) LeaseStore { return answeredLeases{t.Redis().(LeaseStore), of(t)} }

// Jobs is the actor's job store as its steps see it (answeredJobs).
func Jobs(t *engine.Turn) JobStore { return answeredJobs{t.Redis().(JobStore), of(t)} }

// LedgerOf is the connection the call names, else the actor's own, as its
// steps see it (answeredOutbox).
func LedgerOf(t *engine.Turn) Ledger { return answeredOutbox{ready{t.Ledger()}, of(t), t.Actor.Name} }

// answeredLeases is an actor's lease store as its steps see it: each grant
// and each renew that went through is noted on the lab's cause, to be
// held to the keys once the call is over (checkAnswers).
type answeredLeases struct {
	LeaseStore
	w *labWorld
}

func (s answeredLeases) note(a answer) {
	s.w.answers = append(s.w.answers, a)
}

func granted(g LeaseGrant) bool {
	return g.Outcome == LeaseAcquired || g.Outcome == LeaseExtended
}

func (s answeredLeases) AcquireLease(ctx context.Context, conflictKey, owner string, ttl time.Duration, namespaceEpoch int64, without GuardSet) (LeaseGrant, error) {
	g, err := s.LeaseStore.AcquireLease(ctx, conflictKey, owner, ttl, namespaceEpoch, without)
	if err == nil && granted(g) {
		s.note(answer{call: "acquire", conflictKey: conflictKey, holder: owner, token: g.Token, ttl: ttl})
	}
	return g, err
}

func (s answeredLeases) AcquireLeaseNaive(ctx context.Context, conflictKey, owner string, ttl time.Duration) (LeaseGrant, error) {
	g, err := s.LeaseStore.AcquireLeaseNaive(ctx, conflictKey, owner, ttl)
	if err == nil && granted(g) {
		s.note(answer{call: "acquire", conflictKey: conflictKey, holder: owner, token: g.Token, ttl: ttl})
	}
	return g, err
}

func (s answeredLeases) RenewLease(ctx context.Context, conflictKey, owner string, token int64, ttl time.Duration, namespaceEpoch int64, without GuardSet) (LeaseStatus, error) {
	status, err := s.LeaseStore.RenewLease(ctx, conflictKey, owner, token, ttl, namespaceEpoch, without)
	if err == nil && status == LeaseDone {
		s.note(answer{call: "renew", conflictKey: conflictKey, holder: owner, token: token, ttl: ttl})
	}
	return status, err
}

// ReleaseLease notes a release that went through, with the token it was
// for: a release may end only that token's lease (checkLeases), not
// another run's of the same owner.
func (s answeredLeases) ReleaseLease(ctx context.Context, conflictKey, owner string, token, namespaceEpoch int64, without GuardSet) (LeaseStatus, error) {
	status, err := s.LeaseStore.ReleaseLease(ctx, conflictKey, owner, token, namespaceEpoch, without)
	if err == nil && status == LeaseDone {
		s.note(answer{call: "release", conflictKey: conflictKey, holder: owner, token: token})
	}
	return status, err
}

func (s answeredLeases) AcquireLeader(ctx context.Context, job, owner string, ttl time.Duration) (LeaseGrant, error) {
	g, err := s.LeaseStore.AcquireLeader(ctx, job, owner, ttl)
	if err == nil && granted(g) {
		s.note(answer{call: "leader", holder: owner, ttl: ttl})
	}
	return g, err
}

// answeredJobs is an actor's job store as its steps see it: a job acquire
// tells its caller which job runs for the target, and the caller goes on
// to watch, report on or apply that job.
type answeredJobs struct {
	JobStore
	w *labWorld
}

func (s answeredJobs) AcquireJob(ctx context.Context, target, jobID string, total int, createdAt time.Time, ttl, pointerTTL time.Duration) (JobGrant, error) {
	g, err := s.JobStore.AcquireJob(ctx, target, jobID, total, createdAt, ttl, pointerTTL)
	if err == nil && g.JobID != "" {
		s.w.answers = append(s.w.answers, answer{call: "job", target: target, job: g.JobID})
	}
	return g, err
}

// answeredOutbox is an actor's ledger as its steps see it: a claim tells
// its caller an outbox row is its own to deliver until the claim runs out,
// and recording the provider's answer ends the claim. Invariant 4 holds
// claims to one worker at a time (jobWatch.claim).
type answeredOutbox struct {
	Ledger
	w      *labWorld
	caller string
}

func (s answeredOutbox) note(a answer) {
	a.caller = s.caller
	s.w.answers = append(s.w.answers, a)
}

func (s answeredOutbox) ClaimNextOutbox(ctx context.Context, now time.Time, claimTimeout time.Duration) (OutboxRow, bool, error) {
	row, found, err := s.Ledger.ClaimNextOutbox(ctx, now, claimTimeout)
	if err == nil && found {
		s.note(answer{call: "claim", operationID: row.OperationID, until: now.Add(claimTimeout)})
	}
	return row, found, err
}

func (s answeredOutbox) ClaimForReconciliation(ctx context.Context, now time.Time, claimTimeout time.Duration) (OutboxRow, bool, error) {
	row, found, err := s.Ledger.ClaimForReconciliation(ctx, now, claimTimeout)
	if err == nil && found {
		s.note(answer{call: "claim", operationID: row.OperationID, until: now.Add(claimTimeout)})
	}
	return row, found, err
}

func (s answeredOutbox) RecordOutcome(ctx context.Context, o Outcome) error {
	err := s.Ledger.RecordOutcome(ctx, o)
	if err == nil {
		s.note(answer{call: "recorded", operationID: o.OperationID})
	}
	return err
}

// claim finds the breaks of invariant 4's one claimant at a time in what
// the calls of an action answered, and keeps the claims granted: a claim is
// granted only on a row no other worker's claim holds — one not yet
// recorded and not run out on the lab clock (now) — and an outcome is
// recorded only by the row's claimant. A claim that ran out may be taken
// over (that is what reconciliation is for); its worker's late record is
// then refused by the claim's attempt, in the store.
func (w *jobWatch) claim(answers []answer, now time.Time) []Break {
	var breaks []Break
	for _, a := range answers {
		switch a.call {
		case "claim":
			if held, ok := w.claims[a.operationID]; ok && held.holder != a.caller && held.until.After(now) {
				breaks = append(breaks, newBreak(4, "DOUBLE_CLAIM", lang.P("%s claimed outbox row %s while %s's claim on it had %s left: two workers deliver one row at once",
					a.caller, a.operationID, held.holder, held.until.Sub(now))))
			}
			w.claims[a.operationID] = outboxClaim{holder: a.caller, until: a.until}
		case "recorded":
			held, ok := w.claims[a.operationID]
			switch {
			case ok && held.holder == a.caller:
				delete(w.claims, a.operationID)
			case ok && held.until.After(now):
				breaks = append(breaks, newBreak(4, "DOUBLE_CLAIM", lang.P("%s recorded an outcome on outbox row %s while %s's claim on it had %s left: a worker settles a row it no longer holds",
					a.caller, a.operationID, held.holder, held.until.Sub(now))))
			}
		}
	}
	return breaks
}

// checkJobAnswer finds the break of invariant 6 in a job acquire's answer:
// the job it named is the one the target's running key names, and its
// hash is there.
func checkJobAnswer(a answer, jobs JobsState, actor string) []Break {
	running := jobs.Running[a.target]
	hashed := slices.ContainsFunc(jobs.Jobs, func(j Job) bool { return j.Target == a.target && j.ID == a.job })
	if running == a.job && hashed {
		return nil
	}
	var names any = running
	if running == "" {
		names = lang.P("no job")
	}
	return []Break{newBreak(6, "WRONG_JOB", lang.P("%s: its job acquire answered that %s runs for %s, but the running key names %s: %s watches a job that is not the one running",
		actor, a.job, a.target, names, actor))}
}

// checkAnswers finds the breaks of invariant 8 in what the call just taken
// answered: each lease it said was its caller's must be, in keys, the
// lab's keys after it. names gives a conflict key's key names.
func checkAnswers(answers []answer, keys []RedisKey, jobs JobsState, names func(conflictKey string) []string, actor string) []Break {
	var breaks []Break
	for _, a := range answers {
		switch a.call {
		case "job":
			breaks = append(breaks, checkJobAnswer(a, jobs, actor)...)
			continue
		case "release":
			continue // it claims no lease: checkLeases holds it to the one it ended
		case "claim", "recorded":
			continue // an outbox row's, not a lease's: jobWatch.claim
		}
		var lease, found = RedisKey{}, false
		if a.conflictKey != "" {
			ours := map[string]bool{}
			for _, name := range names(a.conflictKey) {
				ours[name] = true
			}
			for _, k := range keys {
				if k.Role == RoleLease && ours[k.Key] {
					lease, found = k, true
				}
			}
		} else {
			for _, k := range keys {
				if k.Role == RoleLeader && k.Value == a.holder {
					lease, found = k, true
				}
			}
		}
		holder, token := leaseOf(lease)
		// The lease is the caller's for as long as it asked, give or take
		// the time a real server's reply takes: one that runs out sooner
		// (a TTL given in seconds where milliseconds were meant) leaves
		// its holder sure of a lease it is about to lose.
		short := found && lease.TTL >= 0 && lease.TTL < a.ttl-time.Second
		if found && holder == a.holder && token == a.token && !short {
			continue
		}
		told := lang.P("its renew answered that token %d's lease is its own", a.token)
		switch a.call {
		case "acquire":
			told = lang.P("its acquire granted it token %d", a.token)
		case "leader":
			told = lang.P("its acquire granted it the leader lease")
		}
		switch {
		case found && holder == a.holder && token == a.token:
			breaks = append(breaks, newBreak(8, anomalies[8], lang.P("%s: %s for %s, but the lease has %s left",
				actor, told, a.ttl, lease.TTL)))
		case !found:
			breaks = append(breaks, newBreak(8, anomalies[8], lang.P("%s: %s, but no such lease is held, and %s goes on as if it were",
				actor, told, actor)))
		default:
			breaks = append(breaks, newBreak(8, anomalies[8], lang.P("%s: %s, but the lease is %s's (token %d), and %s goes on with a lease it does not hold",
				actor, told, holder, token, actor)))
		}
	}
	return breaks
}
