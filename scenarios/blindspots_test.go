package scenarios_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/storetest"
)

// The proof's blind spots (issue 41): each test puts a realistic bug in
// by hand — a wrapper around fencelab's own store, as roundtrip_test.go
// does — and the check of a scenario that holds on the clean code must
// now break.

// renewInSeconds renews the lease with its TTL's milliseconds given as
// seconds: EXPIRE where PEXPIRE was meant, a lease a thousand times too
// long.
type renewInSeconds struct{ world.RedisClient }

func (c renewInSeconds) RenewLease(ctx context.Context, conflictKey, owner string, token int64, ttl time.Duration, namespaceEpoch int64, without engine.GuardSet) (world.LeaseStatus, error) {
	return c.RedisClient.RenewLease(ctx, conflictKey, owner, token, time.Duration(ttl.Milliseconds())*time.Second, namespaceEpoch, without)
}

type renewInSecondsRedis struct{ world.Coordination }

func (c renewInSecondsRedis) Client(actor string) engine.RedisClient {
	return renewInSeconds{c.Coordination.Client(actor).(world.RedisClient)}
}

func TestALeaseRenewedForTooLongIsCaught(t *testing.T) {
	if r := checkWith(t, "stale-release", nil); !r.Holds() {
		t.Fatalf("stale-release SAFE does not hold on fencelab's own store: %+v", r.Anomalies)
	}
	r := checkWith(t, "stale-release", func(b *engine.Backends) { b.Coordination = renewInSecondsRedis{b.Coordination.(world.Coordination)} })
	requireBreak(t, r, "LEASE_TOO_LONG", " 30000000 ") // the renew script sent with 30,000 s
}

// renewAnyLease renews with its owner check gone (renew.lua's compare
// turned into EXISTS): it extends whatever lease is there, and answers
// that it renewed the caller's.
type renewAnyLease struct{ world.RedisClient }

func (c renewAnyLease) RenewLease(ctx context.Context, conflictKey, owner string, token int64, ttl time.Duration, namespaceEpoch int64, without engine.GuardSet) (world.LeaseStatus, error) {
	return c.RedisClient.RenewLease(ctx, conflictKey, owner, token, ttl, namespaceEpoch, without|engine.Guards(world.GuardOwner))
}

type renewAnyLeaseRedis struct{ world.Coordination }

func (c renewAnyLeaseRedis) Client(actor string) engine.RedisClient {
	return renewAnyLease{c.Coordination.Client(actor).(world.RedisClient)}
}

// A renew that extends another holder's lease to the TTL it already had
// changes no key in a way a before-and-after look can see; the worker
// told its renew went through now acts on a lease it does not hold.
func TestARenewOfAnotherHoldersLeaseIsCaught(t *testing.T) {
	r := checkWith(t, "stale-release", func(b *engine.Backends) { b.Coordination = renewAnyLeaseRedis{b.Coordination.(world.Coordination)} })
	requireBreak(t, r, "LEASE_STOLEN", `"A"`)
	events, err := json.Marshal(r.Counterexample.Events)
	require.NoError(t, err)
	require.Contains(t, string(events), "its renew answered that token 41's lease is its own, but the lease is worker-B's (token 42)")
}

// renewForSeconds renews the lease with its TTL's seconds given as
// milliseconds: 30 ms where 30 s was meant, a lease that runs out before
// its holder's next step.
type renewForSeconds struct{ world.RedisClient }

func (c renewForSeconds) RenewLease(ctx context.Context, conflictKey, owner string, token int64, ttl time.Duration, namespaceEpoch int64, without engine.GuardSet) (world.LeaseStatus, error) {
	return c.RedisClient.RenewLease(ctx, conflictKey, owner, token, time.Duration(ttl.Seconds())*time.Millisecond, namespaceEpoch, without)
}

type renewForSecondsRedis struct{ world.Coordination }

func (c renewForSecondsRedis) Client(actor string) engine.RedisClient {
	return renewForSeconds{c.Coordination.Client(actor).(world.RedisClient)}
}

// A renew that shortens the lease it says it extended: the worker counts
// on 30 s and has 30 ms. The fence keeps the data safe, so only the
// answer held to the lease (invariant 8) sees it.
func TestALeaseRenewedForTooShortIsCaught(t *testing.T) {
	r := checkWith(t, "stale-release", func(b *engine.Backends) { b.Coordination = renewForSecondsRedis{b.Coordination.(world.Coordination)} })
	requireBreak(t, r, "LEASE_STOLEN", `"A"`)
	events, err := json.Marshal(r.Counterexample.Events)
	require.NoError(t, err)
	require.Contains(t, string(events), "its renew answered that token 41's lease is its own for 30s, but the lease has 30ms left")
}

// The clock may move between any two round trips of a call, not only
// between calls: inside a transaction begun after a lock was taken, the
// lock's expiry is a move the check takes.
func TestAnExpiryMayComeBetweenTwoRoundTripsOfACall(t *testing.T) {
	ctx := context.Background()
	s, err := scenarios.Parse("mine.toml", []byte(`format = "fencelab-scenario/1"
id = "expiry-inside"
title = "t"
story = "s"
expected = { value = 1, sql = "SELECT count(*) FROM done" }
guided = ["A", "A"]

[setup]
sql = ["CREATE TABLE done (actor text NOT NULL)"]

[[step]]
name = "lock"
redis = ["SET", "lock", "$actor", "NX", "PX", "$ttl_ms"]

[[step]]
name = "work"
sql = ["BEGIN", "INSERT INTO done VALUES ($actor)", "COMMIT"]

[[actor]]
name = "A"
program = ["lock", "work"]
`))
	require.NoError(t, err)
	lab := checkLabs(t, s, engine.Safe, 1)[0]
	require.NoError(t, lab.Do(ctx, engine.Do("A")))     // the lock, with its TTL
	require.NoError(t, lab.Do(ctx, engine.DoCall("A"))) // BEGIN: inside the call
	_, in := lab.Actors()[0].InCall()
	require.True(t, in)
	moves, err := lab.Moves(ctx)
	require.NoError(t, err)
	require.Contains(t, moves, engine.AdvanceToNextExpiry())
	require.NoError(t, lab.Do(ctx, engine.AdvanceToNextExpiry()))
	require.NoError(t, lab.Do(ctx, engine.Do("A")))
}

// A poller that reads the host's clock where it should read the lab's —
// on a machine whose date is past the seed's, every job is overdue — fails
// worker-start-failure's job at once, minutes before its deadline on the
// lab clock, and check says so. The bug is put in as a patch of
// scenarios/jobs.go, in a binary built aside with go build -overlay: the
// shipped code has no switch for it.
func TestAPollerOnTheHostsClockIsCaught(t *testing.T) {
	bin := buildPatched(t, "jobs.go", "if t.Now().Before(deadline) {", "if time.Now().Before(deadline) {")
	requireCheckBreaks(t, bin, "worker-start-failure", "invariant 10 broken")
}

// The outbox worker's claim on the host's clock: the row is claimed until
// a moment months from the lab's (this host's date is past the seed's),
// so a claim of a worker that died is never taken back. No step of the
// lab records a moment off the lab clock, and invariant 10 says so.
func TestAClaimOnTheHostsClockIsCaught(t *testing.T) {
	bin := buildPatched(t, "outbox.go", "ClaimNextOutbox(ctx, t.Now(), claimTimeout)", "ClaimNextOutbox(ctx, time.Now(), claimTimeout)")
	requireCheckBreaks(t, bin, "non-fenceable-effect", "invariant 10 broken", "OFF_CLOCK")
}

// An OperationId made without its job's name: with one job per resource
// nothing collides, but the scenario's [provider] entry, scripted for
// "daily-summary/e2/t42", then matches no call, the provider confirms
// everything, and SAFE ends MATCH having shown nothing about a timeout.
// A scripted entry that no schedule sent fails the check, and the run.
func TestAProviderEntryNeverSentIsCaught(t *testing.T) {
	bin := buildPatched(t, "world/memory.go", `fmt.Sprintf("%s/e%d/t%d", job, m.Epoch, m.Token)`, `fmt.Sprintf("e%d/t%d", m.Epoch, m.Token)`)
	out, code := checkPatched(t, bin, "non-fenceable-effect")
	require.Equal(t, 1, code, "%s", out)
	require.Contains(t, out, `[provider] "daily-summary/e2/t42" was sent on no schedule`)
	require.Contains(t, out, `non-fenceable-effect SAFE ([provider] "daily-summary/e2/t42" never sent)`, "a check that broke nothing fails on the entry alone")

	run := exec.Command(bin, "run", "non-fenceable-effect", "--mode", "safe", "--pg", storetest.NewDatabaseDSN(t, false))
	run.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+t.TempDir())
	said, err := run.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", said)
	require.Equal(t, 1, exit.ExitCode(), "%s", said)
	require.Contains(t, string(said), `unsent  [provider] "daily-summary/e2/t42" was never sent`)
}

// The fenced write's read of the tenant's assignment without its
// tenant_id: with one tenant in the seed it read the right row anyway,
// and the check passed. With another tenant beside it (the seed's
// neighbour tenant), the statement meets two assignments where it takes
// one, and fails loudly at the first write.
func TestAWriteThatReadsEveryTenantIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/pgledger/ledger.go",
		"FROM fencelab.tenant_assignments WHERE tenant_id = $1 FOR SHARE", "FROM fencelab.tenant_assignments FOR SHARE")
	out, code := checkPatched(t, bin, "dynamic-tenant")
	require.NotEqual(t, 0, code, "%s", out)
	require.Contains(t, out, "more than one row returned by a subquery", "%s", out)
}

// The job's running pointer given the job hash's TTL (an hour) where the
// lease's was meant: a dead job holds its target for an hour. No schedule
// breaks an invariant, but the story no longer ends as the catalog says
// (the late worker's SUCCESS is no longer refused): check holds the
// guided order to the catalog's prediction, as it does a file's.
func TestAGuidedOrderThatEndsOtherwiseIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/redisstore/scripts/acquire_job.lua",
		"redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[6])", "redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])")
	requireCheckBreaks(t, bin, "pointer-split", "NOT as the catalog claims: the guided order ended")
}

// renew.lua extending the key beside the lease (KEYS[2], the namespace
// epoch): the renew answers DONE with the lease untouched, and the epoch,
// part of the fencing history, now expires. The history has no TTL.
func TestARenewOfTheWrongKeyIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/redisstore/scripts/renew.lua",
		"return redis.call('PEXPIRE', KEYS[1], ARGV[3])", "return redis.call('PEXPIRE', KEYS[2], ARGV[3])")
	requireCheckBreaks(t, bin, "stale-release", "invariant 9 broken", "HISTORY_EXPIRES")
}

// A job acquire that reuses the running job but answers with the id the
// request made: the requester then watches a job that does not exist.
// The answer is held to the running key after the call (invariant 6).
func TestAJobAcquireThatNamesTheWrongJobIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/redisstore/jobs.go",
		`JobID: reply[1]}, nil`, `JobID: jobID}, nil`)
	requireCheckBreaks(t, bin, "async-job-acquire", "invariant 6 broken", "WRONG_JOB")
}

// A write that records the seed's moment where the lab's now was meant
// (a clock that stood still since the start): its rows say it was made
// before it was. A moment a step records is the lab clock's at that step.
func TestAWriteOnAClockThatStoodStillIsCaught(t *testing.T) {
	bin := buildPatched(t, "steps.go", "		Now:                t.Now(),", "		Now:                world.SeedIn(t).Now,")
	requireCheckBreaks(t, bin, "lease-overrun", "invariant 10 broken", "OFF_CLOCK")
}

// Crashes inside a method (issue 41, kind 2): a write that commits the
// business row in one transaction and its execution and outbox row in a
// second is a dual write a crash between the two cuts in half. Every
// round trip is a step, and the invariants are checked after each, so
// the check finds the cut between the two transactions, and its steps
// name them.
func TestADualWriteInsideAMethodIsCaught(t *testing.T) {
	bin := buildPatched(t, "steps.go", "world.GuardNamespace, world.GuardOutbox),\n\t}",
		"world.GuardNamespace, world.GuardOutbox) | engine.Guards(world.GuardOutbox),\n\t}")
	out, code := checkPatched(t, bin, "lease-overrun")
	require.Equal(t, 1, code, "%s", out)
	require.Contains(t, out, "invariant 3 broken", "%s", out)
	require.Regexp(t, `call [AB]\s+postgres: BEGIN; WITH t AS`, out)
}

// A job's createdAt written in seconds where milliseconds were meant: the
// hash claims 1970, so the poller fails the job at once. Invariant 10
// holds a job to when the lab saw it appear, not to what its hash claims.
func TestAJobCreatedAtInTheWrongUnitIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/redisstore/jobs.go",
		"jobID, total, ttl.Milliseconds(), createdAt.UnixMilli(), target,", "jobID, total, ttl.Milliseconds(), createdAt.Unix(), target,")
	requireCheckBreaks(t, bin, "terminal-transition", "invariant 10 broken")
}

// The poller's deadline written in the wrong unit (seconds where minutes
// were meant): jobs fail ten seconds after they start. Invariant 10 held
// the poller to its own constant and passed it; the catalog now says the
// deadline it promises (job-deadline), apart from the poller's code, and
// worker-start-failure's poller looks halfway there, when a job failed
// would be failed early (a clock that only jumps the whole ten minutes
// cannot tell ten seconds from ten minutes).
func TestAJobDeadlineInTheWrongUnitIsCaught(t *testing.T) {
	bin := buildPatched(t, "jobs.go", "jobDeadline = 10 * time.Minute", "jobDeadline = 10 * time.Second")
	requireCheckBreaks(t, bin, "worker-start-failure", "invariant 10 broken", "JOB_FAILED_EARLY")
}

// A release that compares the lease's owner but not its token: two runs of
// one job on one worker share the owner (owner-reuse's retry), and the
// first run's late release deletes the retry's lease. Invariant 8 holds a
// release to the token it was for.
func TestAReleaseThatComparesTheOwnerOnlyIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/redisstore/scripts/release.lua",
		"if not off['owner'] and redis.call('GET', KEYS[1]) ~= ARGV[1] .. '|' .. ARGV[2] then",
		"if not off['owner'] and string.match(redis.call('GET', KEYS[1]) or '', '^(.*)|') ~= ARGV[1] then")
	requireCheckBreaks(t, bin, "owner-reuse", "invariant 8 broken", "LEASE_STOLEN")
}

// The fenced write's region check without the region's epoch: a writer of
// region-a that last saw epoch 2 writes after the failback (epoch 3). In
// region-partition the writer's region was another, and the check
// refused it anyway; region-failback's writer is in the right region, and
// the write fencelab's code knows for stale lands: check stops there.
func TestARegionCheckWithoutItsEpochIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/pgledger/ledger.go",
		"coalesce(t.region_id = $6 AND t.region_epoch = $7, false)", "coalesce(t.region_id = $6 AND $7::bigint > 0, false)")
	requireCheckBreaks(t, bin, "region-failback", "daily-summary/e2/t41 was written though WRONG_REGION")
}

// Data that lets the bug show (issue 41, kind 5): a fenced write whose
// UPDATE lost its conflict key updates every resource. With one resource
// in the seed it passed; with another job's row beside it (the seed's
// neighbour) fencelab's own statement, which writes its checkpoint and
// reads back what it wrote as one row each, fails on the second row.
// (A write that changed the neighbour silently breaks invariant 3:
// engine's TestANeighboursRowChangedIsAWrongRow.)
func TestAWriteThatUpdatesEveryRowIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/pgledger/ledger.go", "WHERE x.conflict_key = $2 AND v.reason = ''", "WHERE v.reason = ''")
	out, code := checkPatched(t, bin, "lease-overrun")
	require.NotEqual(t, 0, code, "%s", out)
	require.Regexp(t, `more than one row returned by a subquery|cannot affect row a second time`, out)
}

// An OperationId without the namespace epoch: the same token under two
// epochs shares one id. token-reuse hands token 1 out in epoch 2 and
// again in epoch 3, so the second write finds its id on record, writes
// no execution of its own, and the business row changed without one.
func TestAnOperationIdWithoutItsEpochIsCaught(t *testing.T) {
	bin := buildPatched(t, "world/memory.go",
		`fmt.Sprintf("%s/e%d/t%d", job, m.Epoch, m.Token)`, `fmt.Sprintf("%s/t%d", job, m.Token)`)
	requireCheckBreaks(t, bin, "token-reuse", "invariant 3 broken", "verdict PARTIAL_COMMIT")
}

// Two outbox workers, one row. claim-expiry has two, and invariant 4 says
// a row is claimed by one worker at a time. A claim that picks its row
// without locking it (no FOR UPDATE) is right alone; but when a second
// worker's claim is sent while the first's is uncommitted, it read the
// row as PENDING, waits for the first's lock, and then claims the row
// again — PostgreSQL re-checks the UPDATE's own WHERE (the row's id), not
// the subquery that chose it.
func TestAnOutboxClaimWithoutARowLockIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/pgledger/outbox.go",
		"LIMIT 1 FOR UPDATE SKIP LOCKED)\n\tRETURNING", "LIMIT 1)\n\tRETURNING")
	out := requireDoubleClaim(t, bin, "claim-expiry", "two workers deliver one row at once")
	require.Regexp(t, `OUT2? sends\s+postgres: BEGIN; UPDATE fencelab.outbox SET status = 'CLAIMED'`, out)
}

// A reconciler that takes live claims (>= for <=): it claims a row whose
// worker is still delivering it.
func TestAReconcilerThatTakesLiveClaimsIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/pgledger/outbox.go",
		"(status = 'CLAIMED' AND next_attempt_at <= $1)", "(status = 'CLAIMED' AND next_attempt_at >= $1)")
	requireDoubleClaim(t, bin, "claim-expiry", "two workers deliver one row at once")
}

// A reconciler's claim split in two: it finds the row (SELECT … FOR
// UPDATE SKIP LOCKED, whose lock its autocommit lets go at once), then
// claims it by its OperationId in a statement of its own. A second
// reconciler finds the same row in between, and both claim it: a
// reviewer's bug, which claim-expiry's two reconcilers catch.
func TestAReconcilersClaimSplitInTwoIsCaught(t *testing.T) {
	bin := buildPatchedAll(t, "../store/pgledger/outbox.go", map[string]string{
		"// claim runs a claiming statement": `const findToReconcile = ` + "`" + `
	SELECT ` + "` + outboxColumns + `" + ` FROM fencelab.outbox
	 WHERE status = 'RECONCILIATION_REQUIRED' OR (status = 'CLAIMED' AND next_attempt_at <= $1)
	 ORDER BY next_attempt_at, outbox_id
	 LIMIT 1 FOR UPDATE SKIP LOCKED` + "`" + `

// claim runs a claiming statement`,
		"row, found, err := l.claim(ctx, claimToReconcile, now, now.Add(claimTimeout), now)": `row, found, err := l.claim(ctx, findToReconcile, now)
	if err == nil && found {
		_, err = l.exec(ctx, "UPDATE fencelab.outbox SET status = 'CLAIMED', attempt_count = attempt_count + 1, next_attempt_at = $2, updated_at = $3 WHERE operation_id = $1",
			row.OperationID, now.Add(claimTimeout), now)
		row.AttemptCount++
	}`,
	})
	requireDoubleClaim(t, bin, "claim-expiry", "two workers deliver one row at once")
}

// A SUCCESS transition whose pointer check lets a missing pointer by (a
// nil guard): a job whose running key ran out finishes anyway, and its
// results are published. pointer-split's job 1 loses its key before it
// finishes; invariant 6 says a job becomes SUCCESS only while its running
// key names it. (A reviewer's bug: the verdicts moved, no invariant broke.)
func TestASuccessWithoutItsRunningKeyIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/redisstore/scripts/transition.lua",
		"ARGV[2] == 'SUCCESS' and pointer ~= ARGV[3] then", "ARGV[2] == 'SUCCESS' and pointer and pointer ~= ARGV[3] then")
	requireCheckBreaks(t, bin, "pointer-split", "invariant 6 broken", "ORPHAN_SUCCESS")
}

// A record not fenced by its claim's attempt: a worker whose claim ran
// out, and whose row another worker claimed since, marks the row for
// reconciliation under the newer claim.
func TestARecordWithoutItsClaimsAttemptIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/pgledger/outbox.go",
		"AND attempt_count = $7", "AND $7::int IS NOT NULL")
	requireDoubleClaim(t, bin, "claim-expiry", "a worker settles a row it no longer holds")
}

// A claim without SKIP LOCKED (keeping FOR UPDATE) is no safety bug: the
// second claim waits for the row lock and PostgreSQL re-checks
// status = 'PENDING' once the first commits. It is only slower, and the
// check holds — a checker that cried wolf here would be believed less.
func TestAnOutboxClaimWithoutSkipLockedHolds(t *testing.T) {
	bin := buildPatched(t, "../store/pgledger/outbox.go",
		"LIMIT 1 FOR UPDATE SKIP LOCKED)\n\tRETURNING", "LIMIT 1 FOR UPDATE)\n\tRETURNING")
	out, code := checkPatched(t, bin, "claim-expiry")
	require.Equal(t, 0, code, "%s", out)
}

// checkPatched runs check of one scenario's SAFE with a patched build, on
// a database of its own; it returns the output and the exit code.
func checkPatched(t *testing.T, bin, scenario string) (string, int) {
	t.Helper()
	return checkPatchedInto(t, bin, scenario, t.TempDir())
}

// checkPatchedInto is checkPatched writing its counterexample into dir.
func checkPatchedInto(t *testing.T, bin, scenario, dir string) (string, int) {
	t.Helper()
	check := exec.Command(bin, "check", scenario, "--mode", "safe", "--out", dir,
		"--pg", storetest.NewDatabaseDSN(t, false))
	check.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+t.TempDir())
	out, err := check.CombinedOutput()
	if err == nil {
		return string(out), 0
	}
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", out)
	return string(out), exit.ExitCode()
}

// requireCheckBreaks runs check of one scenario's SAFE with a patched
// build and holds it to exit 1, saying each of says.
func requireCheckBreaks(t *testing.T, bin, scenario string, says ...string) {
	t.Helper()
	out, code := checkPatched(t, bin, scenario)
	require.Equal(t, 1, code, "%s", out)
	for _, said := range says {
		require.Contains(t, out, said, "%s", out)
	}
}

// requireDoubleClaim is requireCheckBreaks for invariant 4's DOUBLE_CLAIM,
// with the break's own words (inTrace) read from the counterexample's
// trace; it returns check's output.
func requireDoubleClaim(t *testing.T, bin, scenario string, inTrace ...string) string {
	t.Helper()
	dir := t.TempDir()
	out, code := checkPatchedInto(t, bin, scenario, dir)
	require.Equal(t, 1, code, "%s", out)
	require.Contains(t, out, "invariant 4 broken", "%s", out)
	require.Contains(t, out, "verdict DOUBLE_CLAIM", "%s", out)
	_, trace := onlyTrace(t, dir)
	for _, said := range inTrace {
		require.Contains(t, trace, said)
	}
	return out
}

// Two statements in flight (issue 41, kind 1): a fenced write that reads
// its resource row without FOR UPDATE. Alone, each write is right; but a
// stale writer whose statement is sent while the fresh writer's is
// uncommitted reads the row as it was, waits for the fresh writer's lock
// to update it, and then writes its older token over the newer one — READ
// COMMITTED re-checks the UPDATE's own WHERE, not the CTE's snapshot. The
// check must find it, with the statement in flight in its steps.
func TestAFencedWriteThatReadsItsRowWithoutALockIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/pgledger/ledger.go",
		"FROM fencelab.resources WHERE conflict_key = $2 FOR UPDATE\n", "FROM fencelab.resources WHERE conflict_key = $2\n")
	dir := t.TempDir()
	check := exec.Command(bin, "check", "lease-overrun", "--mode", "safe", "--out", dir,
		"--pg", storetest.NewDatabaseDSN(t, false))
	check.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+t.TempDir())
	out, err := check.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", out)
	require.Equal(t, 1, exit.ExitCode(), "%s", out)
	require.Contains(t, string(out), "invariant 1 broken", "%s", out)
	// The steps: B's write opens, A's statement is sent while it is open,
	// B commits, then A.
	require.Regexp(t, `B opens\s+postgres: BEGIN; WITH t AS`, string(out))
	require.Regexp(t, `A sends\s+postgres: BEGIN; WITH t AS`, string(out))
	require.Regexp(t, `B commits\s+postgres: COMMIT`, string(out))
	path, trace := onlyTrace(t, dir)
	require.Contains(t, trace, `"action": "overlap"`)
	require.Contains(t, trace, "A's statement is sent while B's write is open: it waits for B's locks")
	require.Contains(t, trace, "committed token 41 after token 42 was accepted")
	// The overlap replays to the same events, off the checker too.
	replay := exec.Command(bin, "replay", path, "--pg", storetest.NewDatabaseDSN(t, false))
	replay.Env = check.Env
	out, err = replay.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "as the trace recorded")
}

// The provider's answers on record (issue 41, kind 5): an outcome whose
// outbox status commits in one round trip and its receipt in a second — a
// dual write, which a crash between the two leaves half done — is caught
// between them: the row says CONFIRMED and no receipt says so.
func TestAStatusCommittedBeforeItsReceiptIsCaught(t *testing.T) {
	bin := buildPatched(t, "../store/pgledger/outbox.go",
		"batch.Queue(recordOutcome, o.OperationID, o.Status, o.Now, o.Provider, o.ReceiptOperationID, o.Receipt, o.Attempt)",
		`status := &pgx.Batch{}
	status.Queue("UPDATE fencelab.outbox SET status = $2::text, updated_at = $3 WHERE operation_id = $1 AND attempt_count = $4", o.OperationID, o.Status, o.Now, o.Attempt)
	if err := l.oneTrip(ctx, status, true, nil); err != nil {
		return err
	}
	batch.Queue("WITH r AS (INSERT INTO fencelab.effect_receipts (provider, operation_id, status, receipt, recorded_at) "+
		"SELECT $1, $2, $3::text, $4, $5 WHERE $3::text IN ('CONFIRMED', 'DECLINED') ON CONFLICT DO NOTHING RETURNING 1) SELECT 1",
		o.Provider, o.ReceiptOperationID, o.Status, o.Receipt, o.Now)`)
	check := exec.Command(bin, "check", "non-fenceable-effect", "--mode", "safe", "--out", t.TempDir(),
		"--pg", storetest.NewDatabaseDSN(t, false))
	check.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+t.TempDir())
	out, err := check.CombinedOutput()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "%s", out)
	require.Equal(t, 1, exit.ExitCode(), "%s", out)
	require.Contains(t, string(out), "invariant 4 broken", "%s", out)
	require.Contains(t, string(out), "verdict UNRECORDED_EFFECT", "%s", out)
	require.Regexp(t, `call OUT\s+postgres: BEGIN; UPDATE fencelab.outbox SET status = \$2`, string(out))
}

// buildPatched builds fencelab with one file of the tree patched (old
// replaced by new, once) through go build -overlay: a bug put in by hand
// that the shipped code has no switch for. file is relative to this
// package's directory.
func buildPatched(t *testing.T, file, old, new string) string {
	t.Helper()
	return buildPatchedAll(t, file, map[string]string{old: new})
}

// buildPatchedAll is buildPatched with several changes to one file.
func buildPatchedAll(t *testing.T, file string, patch map[string]string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds fencelab with a patched file")
	}
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	patched := string(src)
	for old, new := range patch {
		require.Contains(t, patched, old)
		patched = strings.Replace(patched, old, new, 1)
	}
	dir := t.TempDir()
	copyPath := filepath.Join(dir, filepath.Base(file))
	require.NoError(t, os.WriteFile(copyPath, []byte(patched), 0o644))
	here, err := filepath.Abs(file)
	require.NoError(t, err)
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {here: copyPath}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644))
	bin := filepath.Join(dir, "fencelab")
	build := exec.Command("go", "build", "-overlay", filepath.Join(dir, "overlay.json"), "-o", bin, "..")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// The host's date plays no part: the catalog's guided runs, in both modes,
// and a check end the same with the host clock sixty years back and a
// hundred and fifty ahead as they do today.
func TestTheHostsDatePlaysNoPart(t *testing.T) {
	ctx := context.Background()
	type outcome struct {
		final, fence int64
		verdict      string
		events       int
		states       int
	}
	runAll := func() map[string]outcome {
		out := map[string]outcome{}
		backends := backendsFor(t) // one after another on the same backends
		for _, s := range scenarios.All() {
			for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
				lab, err := engine.NewLab(ctx, backends, s, mode)
				require.NoError(t, err)
				require.NoError(t, lab.RunGuided(ctx))
				r, err := lab.Result(ctx)
				require.NoError(t, err)
				out[s.ID+" "+mode.String()] = outcome{r.Final, r.Mark, r.Verdict, len(lab.Events()), 0}
				lab.Close(ctx)
			}
		}
		s, _ := scenarios.ByID("worker-start-failure")
		lab, err := engine.NewLab(ctx, backends, s, engine.Safe)
		require.NoError(t, err)
		defer lab.Close(ctx)
		report, err := engine.Check(ctx, []*engine.Lab{lab}, engine.CheckOptions{})
		require.NoError(t, err)
		out["check"] = outcome{states: report.States, verdict: fmt.Sprint(report.Anomalies)}
		return out
	}
	today := runAll()
	defer func(was func() time.Time) { engine.HostClock = was }(engine.HostClock)
	for _, off := range []time.Duration{-60 * 365 * 24 * time.Hour, 150 * 365 * 24 * time.Hour} {
		engine.HostClock = func() time.Time { return time.Now().Add(off) }
		require.Equal(t, today, runAll(), "host clock moved by %s", off)
	}
}

// A statement that waits for a lock is given up before the transaction
// holding the lock is: the other way round, the waiting statement (an
// UPDATE on its own, which commits as it ends) would run the moment the
// lock is free and commit a write the lab never saw — and a return to an
// earlier state would leave it in the database.
func TestAWaitingStatementIsGivenUpBeforeItsHolder(t *testing.T) {
	ctx := context.Background()
	s, err := scenarios.Parse("mine.toml", []byte(`format = "fencelab-scenario/1"
id = "waiting"
title = "t"
story = "s"
expected = { value = 11, sql = "SELECT value FROM counters WHERE id = 1" }
guided = ["A", "B"]

[setup]
sql = ["CREATE TABLE counters (id int PRIMARY KEY, value bigint NOT NULL)", "INSERT INTO counters VALUES (1, 0)"]

[[step]]
name = "add-one"
sql = ["BEGIN", "UPDATE counters SET value = value + 1 WHERE id = 1", "COMMIT"]

[[step]]
name = "add-ten"
sql = "UPDATE counters SET value = value + 10 WHERE id = 1"

[[actor]]
name = "A"
program = ["add-one"]

[[actor]]
name = "B"
program = ["add-ten"]
`))
	require.NoError(t, err)
	lab := checkLabs(t, s, engine.Safe, 1)[0]
	start, err := lab.Bookmark(ctx)
	require.NoError(t, err)
	require.NoError(t, lab.Do(ctx, engine.DoCall("A"))) // BEGIN
	require.NoError(t, lab.Do(ctx, engine.DoCall("A"))) // UPDATE: holds the row
	require.NoError(t, lab.Do(ctx, engine.DoCall("B"))) // waits for it
	require.True(t, lab.Actors()[1].Blocked())
	require.NoError(t, lab.Return(ctx, start))
	require.NoError(t, lab.Settle(ctx))
	r, err := lab.Result(ctx)
	require.NoError(t, err)
	require.Zero(t, r.Final, "the database holds what the lab returned to, not B's write")
}

// A crash where a pause is not enough (issue 41, kind 2): a session-level
// advisory lock is let go when its holder's connection ends, with no
// unlock, and the next holder goes on past work the first left half
// done. Here each actor opens its section (a row), then closes it, under
// lock 7, which no actor releases before closing; an open section, and a
// second one opened while it is, is what the invariant refuses. No
// schedule of pauses breaks it — the lock holds for a paused holder —
// but a crash of A with its section open lets B in.
func TestACrashLetsGoOfASessionsLock(t *testing.T) {
	s, err := scenarios.Parse("sections.toml", []byte(`format = "fencelab-scenario/1"
id = "sections"
title = "t"
story = "s"
expected = { value = 2, sql = "SELECT count(*) FROM done" }
guided = ["A", "A", "A", "A", "B", "B", "B", "B"]

[setup]
sql = [
  "CREATE TABLE open_sections (actor text PRIMARY KEY)",
  "CREATE TABLE done (actor text NOT NULL)",
]

[[step]]
name = "lock"
sql = "SELECT pg_try_advisory_lock(7)"
wait_if = "false"

[[step]]
name = "open"
sql = "INSERT INTO open_sections VALUES ($actor)"

[[step]]
name = "close"
sql = ["BEGIN", "DELETE FROM open_sections WHERE actor = $actor", "INSERT INTO done VALUES ($actor)", "COMMIT"]

[[step]]
name = "unlock"
sql = "SELECT pg_advisory_unlock(7)"

[[invariant]]
name = "TWO_OPEN"
says = "at most one section is open at a time"
sql = "SELECT count(*) <= 1 FROM open_sections"

[[actor]]
name = "A"
program = ["lock", "open", "close", "unlock"]

[[actor]]
name = "B"
program = ["lock", "open", "close", "unlock"]
`))
	require.NoError(t, err)
	report, err := engine.Check(context.Background(), checkLabs(t, s, engine.Safe, 1), engine.CheckOptions{})
	require.NoError(t, err)
	require.True(t, report.Exhaustive)
	require.Equal(t, 1, len(report.Broken), "%+v", report.Broken)
	require.NotNil(t, report.Counterexample)
	var steps []string
	for _, a := range report.Counterexample.Schedule {
		steps = append(steps, a.Action+" "+a.Actor)
	}
	require.Contains(t, steps, "crash A", "%v", steps)
	require.Contains(t, steps[len(steps)-1], "B", "B opens its section after A's crash: %v", steps)
}

// onlyTrace is the one counterexample trace a check wrote into dir: its
// path and its text.
func onlyTrace(t *testing.T, dir string) (string, string) {
	t.Helper()
	traces, err := filepath.Glob(filepath.Join(dir, "*.trace.json"))
	require.NoError(t, err)
	require.Len(t, traces, 1)
	trace, err := os.ReadFile(traces[0])
	require.NoError(t, err)
	return traces[0], string(trace)
}
