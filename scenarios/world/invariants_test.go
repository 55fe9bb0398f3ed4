package world

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestJobWatch(t *testing.T) {
	job := func(id, status string) Job { return Job{ID: id, Target: "t", Status: status} }
	invariants := func(breaks []Break) []string {
		var out []string
		for _, b := range breaks {
			out = append(out, fmt.Sprintf("%d %s", b.Invariant, b.Anomaly))
		}
		return out
	}
	w := newJobWatch()
	// The naive HSET before SET: RUNNING, not yet reachable — no break.
	require.Empty(t, w.check(JobsState{Jobs: []Job{job("j1", JobRunning)}}, false, time.Time{}, 0))
	require.Empty(t, w.check(JobsState{Jobs: []Job{job("j1", JobRunning)}, Running: map[string]string{"t": "j1"}}, false, time.Time{}, 0))
	// A second RUNNING job for the target.
	require.Equal(t, []string{"6 DUPLICATE_JOB"}, invariants(w.check(JobsState{
		Jobs: []Job{job("j1", JobRunning), job("j2", JobRunning)}, Running: map[string]string{"t": "j1"}}, false, time.Time{}, 0)))
	// A step clears the pointer of a RUNNING job.
	require.Equal(t, []string{"6 POINTER_STOLEN"}, invariants(w.check(JobsState{Jobs: []Job{job("j1", JobRunning)}}, false, time.Time{}, 0)))
	// A step points the pointer of a RUNNING job at another job.
	w = newJobWatch()
	require.Empty(t, w.check(JobsState{Jobs: []Job{job("j1", JobRunning)}, Running: map[string]string{"t": "j1"}}, false, time.Time{}, 0))
	require.Equal(t, []string{"6 DUPLICATE_JOB", "6 DUPLICATE_JOB"}, invariants(w.check(JobsState{
		Jobs: []Job{job("j1", JobRunning), job("j2", JobRunning)}, Running: map[string]string{"t": "j2"}}, false, time.Time{}, 0)))
	// The pointer's TTL runs out while its job runs: an orphan, which then
	// competes with no newer job.
	w = newJobWatch()
	require.Empty(t, w.check(JobsState{Jobs: []Job{job("j1", JobRunning)}, Running: map[string]string{"t": "j1"}}, false, time.Time{}, 0))
	require.Empty(t, w.check(JobsState{Jobs: []Job{job("j1", JobRunning)}}, true, time.Time{}, 0))
	require.Empty(t, w.check(JobsState{Jobs: []Job{job("j1", JobRunning), job("j2", JobRunning)}, Running: map[string]string{"t": "j2"}}, false, time.Time{}, 0))
	// A job that ended may lose its pointer to anyone.
	require.Empty(t, w.check(JobsState{Jobs: []Job{job("j1", JobRunning), job("j2", JobSuccess)}}, false, time.Time{}, 0))
	// FAILED, then SUCCESS.
	w = newJobWatch()
	require.Empty(t, w.check(JobsState{Jobs: []Job{job("j1", JobFailed)}}, false, time.Time{}, 0))
	require.Equal(t, []string{"5 TERMINAL_OVERWRITE"}, invariants(w.check(JobsState{Jobs: []Job{job("j1", JobSuccess)}}, false, time.Time{}, 0)))
	// Failed before its deadline on the lab clock, at it, and after: the
	// watch sees each job RUNNING when it is made, as the lab does.
	created := time.Date(2026, 7, 31, 23, 0, 0, 0, time.UTC)
	withCreatedAt := func(id, status string, at time.Time) Job { j := job(id, status); j.CreatedAt = at; return j }
	born := func(id string, at time.Time) *jobWatch {
		w := newJobWatch()
		require.Empty(t, w.check(JobsState{Jobs: []Job{withCreatedAt(id, JobRunning, at)}}, false, created, 10*time.Minute))
		return w
	}
	w = born("j1", created)
	require.Equal(t, []string{"10 JOB_FAILED_EARLY"}, invariants(w.check(JobsState{Jobs: []Job{withCreatedAt("j1", JobFailed, created)}}, false, created.Add(9*time.Minute), 10*time.Minute)))
	require.Empty(t, w.check(JobsState{Jobs: []Job{withCreatedAt("j1", JobFailed, created)}}, false, created.Add(9*time.Minute), 10*time.Minute), "told once")
	require.Empty(t, born("j2", created).check(JobsState{Jobs: []Job{withCreatedAt("j2", JobFailed, created)}}, false, created.Add(10*time.Minute), 10*time.Minute))
	require.Empty(t, born("j3", created).check(JobsState{Jobs: []Job{withCreatedAt("j3", JobFailed, created)}}, false, created, 0), "no deadline")
	// A hash whose createdAt claims a moment before the job appeared (its
	// milliseconds written as seconds: 1970) is held to when it appeared.
	claimed := time.UnixMilli(created.Unix())
	require.Equal(t, []string{"10 JOB_FAILED_EARLY"}, invariants(born("j4", claimed).check(
		JobsState{Jobs: []Job{withCreatedAt("j4", JobFailed, claimed)}}, false, created.Add(time.Minute), 10*time.Minute)))
}

func TestCheckLedger(t *testing.T) {
	tenant := Tenant{TenantID: "t", MembershipRevision: 7, RegionID: "r", RegionEpoch: 3, Active: true}
	rollout := Rollout{NamespaceEpoch: 2, MinimumWriterVersion: 2, CheckpointSchemaVersion: 1}
	exec := func(id string, token int64) Execution {
		return Execution{OperationID: id, ConflictKey: "k", TenantID: "t", Owner: "w", FencingToken: token, NamespaceEpoch: 2,
			MembershipRevision: 7, RegionID: "r", RegionEpoch: 3, State: "COMMITTED", ContractVersion: 2, SummaryValue: 5}
	}
	state := func(execs ...Execution) Rows {
		s := Rows{Tenants: []Tenant{tenant}, Rollout: rollout, Executions: execs,
			Resources:   []Resource{{ConflictKey: "k", NamespaceEpoch: 2, SummaryValue: 5, LastAcceptedFence: 42}},
			Checkpoints: []Checkpoint{{ConflictKey: "k", SummaryValue: 5, FencingToken: 42}}}
		for _, e := range execs {
			if e.State == "COMMITTED" {
				s.Outbox = append(s.Outbox, OutboxRow{OperationID: e.OperationID})
			}
		}
		return s
	}
	invariants := func(breaks []Break) []int {
		var out []int
		for _, b := range breaks {
			out = append(out, b.Invariant)
		}
		return out
	}

	require.Empty(t, CheckLedger(state(exec("a", 41), exec("b", 42)), 0))
	require.Equal(t, []int{1}, invariants(CheckLedger(state(exec("b", 42), exec("a", 41)), 0)))

	stale := exec("a", 41)
	stale.MembershipRevision = 6
	require.Equal(t, []int{2}, invariants(CheckLedger(state(stale), 0)))
	require.Empty(t, CheckLedger(state(stale), 1), "older executions were checked when they were new")

	missingOutbox := state(exec("a", 41))
	missingOutbox.Outbox = nil
	require.Equal(t, []int{3}, invariants(CheckLedger(missingOutbox, 0)))

	drifted := state(exec("a", 42))
	drifted.Checkpoints[0].SummaryValue = 4
	require.Equal(t, []int{3}, invariants(CheckLedger(drifted, 0)))

	// The business row changed without an execution: a first write cut in
	// half, a later one, and a retry of the same token applied again.
	require.Equal(t, []int{3}, invariants(CheckLedger(state(), 0)))
	moved := state(exec("a", 41), exec("b", 42))
	moved.Resources[0].SummaryValue, moved.Checkpoints[0].SummaryValue = 9, 9
	require.Equal(t, []string{"DUPLICATE_WRITE"}, anomaliesOf(CheckLedger(moved, 0)), "a write of token 42 changed it again")
	moved.Resources[0].LastAcceptedFence, moved.Checkpoints[0].FencingToken = 43, 43
	require.Equal(t, []string{"PARTIAL_COMMIT"}, anomaliesOf(CheckLedger(moved, 0)))
	retried := state(exec("a", 42))
	retried.Resources[0].SummaryValue, retried.Checkpoints[0].SummaryValue = 10, 10
	require.Equal(t, []string{"DUPLICATE_WRITE"}, anomaliesOf(CheckLedger(retried, 0)))
	// The same token committed twice, each with an execution.
	require.Equal(t, []string{"DUPLICATE_WRITE"}, anomaliesOf(CheckLedger(state(exec("a", 42), exec("b", 42)), 0)))
}

func anomaliesOf(breaks []Break) []string {
	var out []string
	for _, b := range breaks {
		out = append(out, b.Anomaly)
	}
	return out
}

func TestCheckLeases(t *testing.T) {
	a, b := &Actor{Name: "A", Owner: "worker-A"}, &Actor{Name: "B", Owner: "worker-B"}
	lease := func(value string, ttl time.Duration) RedisKey {
		return RedisKey{Key: "fencelab:{x}:lease", Role: RoleLease, Value: value, TTL: ttl}
	}
	held := []RedisKey{lease("worker-B|42", 20*time.Second)}
	said := func(breaks []Break) []string {
		var out []string
		for _, b := range breaks {
			out = append(out, b.Detail)
		}
		return out
	}
	// The holder releases or renews its own; the clock and a restart end anyone's.
	require.Empty(t, checkLeases(held, nil, cause{actor: b}))
	require.Empty(t, checkLeases(held, []RedisKey{lease("worker-B|42", 30*time.Second)}, cause{actor: b}))
	require.Empty(t, checkLeases(held, nil, cause{clock: true}))
	require.Empty(t, checkLeases(held, nil, cause{actor: a, restart: true}))
	// Another worker deletes, replaces or extends it.
	require.Equal(t, []string{"worker-B's lease (token 42) was ended by a step of A, which does not hold it: neither its holder's release nor its TTL"},
		said(checkLeases(held, nil, cause{actor: a})))
	require.Len(t, checkLeases(held, []RedisKey{lease("worker-A|43", 30*time.Second)}, cause{actor: a}), 1)
	require.Equal(t, []string{"worker-B's lease (token 42) was extended by a step of A, which does not hold it"},
		said(checkLeases(held, []RedisKey{lease("worker-B|42", 30*time.Second)}, cause{actor: a})))

	// Two runs of one worker share its owner: a release ends only the
	// token it was for.
	run1 := &Actor{Name: "B1", Owner: "worker-B"}
	released := func(token int64) []answer { return []answer{{call: "release", holder: "worker-B", token: token}} }
	require.Empty(t, checkLeases(held, nil, cause{actor: run1, answers: released(42)}))
	require.Equal(t, []string{"worker-B's lease of token 42 was ended by B1's release of token 41, another run's: the release asked whose lease it was, not which token's"},
		said(checkLeases(held, nil, cause{actor: run1, answers: released(41)})))
	require.Empty(t, checkLeases(held, held, cause{actor: run1, answers: released(41)}), "a release that found another token's lease and left it")
}

// Invariant 9: a lease (or a leader's) with more left than its TTL, or
// none, outlives what was granted; one at its TTL or below does not, nor
// does a key that is no lease.
func TestCheckLeaseLifetimes(t *testing.T) {
	key := func(role string, ttl time.Duration) RedisKey {
		return RedisKey{Key: "fencelab:{x}:" + role, Role: role, Value: "worker-A|41", TTL: ttl}
	}
	ttl := 30 * time.Second
	require.Empty(t, checkLeaseLifetimes([]RedisKey{key(RoleLease, ttl), key(RoleLeader, time.Second), key(RoleCounter, -1)}, ttl))
	require.Equal(t, "lease fencelab:{x}:lease has more time left than the 30s it was granted for",
		checkLeaseLifetimes([]RedisKey{key(RoleLease, ttl+time.Millisecond)}, ttl)[0].Detail)
	require.Equal(t, "lease fencelab:{x}:leader has no TTL: it lives until someone deletes it",
		checkLeaseLifetimes([]RedisKey{key(RoleLeader, -1)}, ttl)[0].Detail)
}

// Another job's row beside the scenario's (Seed.Neighbour) holds what it
// was seeded with: a write that changed its summary or fence breaks
// invariant 3 as WRONG_ROW; a namespace bump that moved its epoch is the
// namespace's, and breaks nothing.
func TestANeighboursRowChangedIsAWrongRow(t *testing.T) {
	seed := Seed{ConflictKey: "summary:x", Neighbour: "report:x", NeighbourValue: 7, NamespaceEpoch: 2}
	state := func(neighbour Resource) Rows {
		return Rows{Resources: []Resource{{ConflictKey: "summary:x", NamespaceEpoch: 2, LastAcceptedFence: 42, SummaryValue: 42}, neighbour}}
	}
	require.Empty(t, checkNeighbour(state(Resource{ConflictKey: "report:x", NamespaceEpoch: 2, SummaryValue: 7}), seed))
	require.Empty(t, checkNeighbour(state(Resource{ConflictKey: "report:x", NamespaceEpoch: 3, SummaryValue: 7}), seed))
	require.Empty(t, checkNeighbour(state(Resource{ConflictKey: "report:x", SummaryValue: 99}), Seed{}), "no neighbour seeded")
	for _, changed := range []Resource{
		{ConflictKey: "report:x", NamespaceEpoch: 2, SummaryValue: 42, LastAcceptedFence: 42},
		{ConflictKey: "report:x", NamespaceEpoch: 2, SummaryValue: 7, LastAcceptedFence: 42},
		{ConflictKey: "report:x", NamespaceEpoch: 2, SummaryValue: 8},
	} {
		breaks := checkNeighbour(state(changed), seed)
		require.Len(t, breaks, 1, "%+v", changed)
		require.Equal(t, 3, breaks[0].Invariant)
		require.Equal(t, "WRONG_ROW", breaks[0].Anomaly)
	}
	require.Equal(t, "report:x's row changed (summary 7 → 42, fence none → 42), and no step of this scenario is for it: a write changed a row it was not for",
		checkNeighbour(state(Resource{ConflictKey: "report:x", NamespaceEpoch: 2, SummaryValue: 42, LastAcceptedFence: 42}), seed)[0].Detail)
	gone := checkNeighbour(Rows{Resources: []Resource{{ConflictKey: "summary:x"}}}, seed)
	require.Len(t, gone, 1)
	require.Equal(t, "report:x's row is gone: no step of this scenario is for it", gone[0].Detail)
}
