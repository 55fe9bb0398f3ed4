package scenarios_test

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/storetest"
)

// The checker interleaves actors at every round trip their code sends, not
// at the store methods the engine calls: each test here takes a guard out
// by hand *inside* one store method, splitting its one round trip in two
// or three, and the check of a scenario that held must now break. Before
// round trips were steps, both checks held: the method was one step.

// readOutsideLock is a ledger whose read-modify-write reads the summary in
// a query of its own before its statement takes the row lock: a read
// outside the transaction, the lost update's classic cause.
type readOutsideLock struct{ world.Ledger }

func (l readOutsideLock) FencedMutation(ctx context.Context, w world.Write) (world.WriteResult, error) {
	if w.AddUnderLock {
		read, err := l.Ledger.ReadSummary(ctx, w.ConflictKey)
		if err != nil {
			return world.WriteResult{}, err
		}
		w.AddUnderLock, w.Value, w.ReadValue = false, read+w.Delta, &read
	}
	return l.Ledger.FencedMutation(ctx, w)
}

type readOutsideLockDB struct{ engine.Database }

func (d readOutsideLockDB) Connect(ctx context.Context, actor string) (engine.Ledger, error) {
	l, err := d.Database.Connect(ctx, actor)
	if err != nil {
		return nil, err
	}
	return readOutsideLock{l.(world.Ledger)}, nil
}

// getThenSet is a Redis client whose job acquire is GET, then HSET, then
// SET — three commands where the script is one.
type getThenSet struct{ world.RedisClient }

func (c getThenSet) AcquireJob(ctx context.Context, target, jobID string, total int, createdAt time.Time, ttl, pointerTTL time.Duration) (world.JobGrant, error) {
	running, found, err := c.GetRunning(ctx, target)
	if err != nil || found {
		return world.JobGrant{Reused: found, JobID: running}, err
	}
	if err := c.CreateJobHash(ctx, target, jobID, total, createdAt, ttl); err != nil {
		return world.JobGrant{}, err
	}
	return world.JobGrant{JobID: jobID}, c.SetRunning(ctx, target, jobID, pointerTTL)
}

type getThenSetRedis struct{ world.Coordination }

func (c getThenSetRedis) Client(actor string) engine.RedisClient {
	return getThenSet{c.Coordination.Client(actor).(world.RedisClient)}
}

// checkWith checks one scenario's SAFE on two labs whose backends wrap
// changes the stores' code.
func checkWith(t *testing.T, id string, wrap func(*engine.Backends)) engine.CheckReport {
	return checkWithOptions(t, id, wrap, engine.CheckOptions{})
}

func checkWithOptions(t *testing.T, id string, wrap func(*engine.Backends), opts engine.CheckOptions) engine.CheckReport {
	t.Helper()
	s, ok := scenarios.ByID(id)
	if !ok {
		t.Fatalf("no scenario %s", id)
	}
	var labs []*engine.Lab
	for range 2 {
		backends := engine.Backends{Coordination: storetest.Embedded(t), Database: storetest.Database(t),
			HoldTTL: 30 * time.Second}
		if wrap != nil {
			wrap(&backends)
		}
		lab, err := engine.NewLab(context.Background(), backends, s, engine.Safe)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { lab.Close(context.Background()) })
		labs = append(labs, lab)
	}
	report, err := engine.Check(context.Background(), labs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return report
}

// requireBreak asserts the check broke the anomaly, exhaustively, with a
// counterexample one of whose actions sent the round trip named.
func requireBreak(t *testing.T, r engine.CheckReport, anomaly, trip string) {
	t.Helper()
	if !r.Exhaustive || r.Anomalies[anomaly] == 0 || r.Counterexample == nil {
		t.Fatalf("the check found no %s (exhaustive %v, anomalies %v): the bug went unnoticed", anomaly, r.Exhaustive, r.Anomalies)
	}
	data, err := json.Marshal(r.Counterexample.Schedule)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s caught: %d states, a counterexample of %d actions", anomaly, r.States, len(r.Counterexample.Schedule))
	if !strings.Contains(string(data), trip) {
		t.Errorf("the counterexample's steps do not name the round trip %q: %s", trip, data)
	}
}

func TestAReadOutsideTheLockIsALostUpdate(t *testing.T) {
	if r := checkWith(t, "stale-read", nil); !r.Holds() {
		t.Fatalf("stale-read SAFE does not hold on fencelab's own store: %+v", r.Anomalies)
	}
	r := checkWith(t, "stale-read", func(b *engine.Backends) { b.Database = readOutsideLockDB{b.Database} })
	requireBreak(t, r, "LOST_UPDATE", "SELECT summary_value")
}

func TestAJobAcquireInThreeCommandsStartsTwoJobs(t *testing.T) {
	if r := checkWith(t, "async-job-acquire", nil); !r.Holds() {
		t.Fatalf("async-job-acquire SAFE does not hold on fencelab's own store: %+v", r.Anomalies)
	}
	r := checkWith(t, "async-job-acquire", func(b *engine.Backends) { b.Coordination = getThenSetRedis{b.Coordination.(world.Coordination)} })
	requireBreak(t, r, "DUPLICATE_JOB", "hset fencelab:job")
}

// lockedRead is a ledger whose read-modify-write is an explicit
// transaction of four round trips: BEGIN, the read (under FOR UPDATE, or
// not), the fenced write, COMMIT. While one actor's transaction holds the
// row lock, another's read waits for it: the checker must take that actor
// as blocked, not enabled, and go on with the others.
type lockedRead struct {
	*pgledger.Ledger
	lock string // " FOR UPDATE", or "" for a read that takes no lock
}

func (l lockedRead) FencedMutation(ctx context.Context, w world.Write) (world.WriteResult, error) {
	if !w.AddUnderLock {
		return l.Ledger.FencedMutation(ctx, w)
	}
	if _, err := l.Statement(ctx, "BEGIN"); err != nil {
		return world.WriteResult{}, err
	}
	first, err := l.Statement(ctx, "SELECT summary_value FROM fencelab.resources WHERE conflict_key = "+pgQuoted(w.ConflictKey)+l.lock)
	if err != nil {
		return world.WriteResult{}, err
	}
	read, err := strconv.ParseInt(first.Text, 10, 64)
	if err != nil {
		return world.WriteResult{}, err
	}
	w.AddUnderLock, w.Value, w.ReadValue = false, read+w.Delta, &read
	result, err := l.Ledger.FencedMutation(ctx, w)
	if err != nil {
		return result, err
	}
	_, err = l.Statement(ctx, "COMMIT")
	return result, err
}

func pgQuoted(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

type lockedReadDB struct {
	engine.Database
	lock string
}

func (d lockedReadDB) Connect(ctx context.Context, actor string) (engine.Ledger, error) {
	l, err := d.Database.Connect(ctx, actor)
	if err != nil {
		return nil, err
	}
	return lockedRead{Ledger: l.(*pgledger.Ledger), lock: d.lock}, nil
}

func TestATransactionHoldsItsLocksAcrossRoundTrips(t *testing.T) {
	wrap := func(lock string) func(*engine.Backends) {
		return func(b *engine.Backends) { b.Database = lockedReadDB{b.Database, lock} }
	}
	if r := checkWith(t, "stale-read", wrap(" FOR UPDATE")); !r.Holds() {
		t.Fatalf("a read under FOR UPDATE in the write's transaction lost an update: %+v", r.Anomalies)
	}
	r := checkWith(t, "stale-read", wrap(""))
	requireBreak(t, r, "LOST_UPDATE", "BEGIN")
}

// Inside a call the reduction still reaches every break: the sleep sets
// take a call's round trips as touching what its step declares.
func TestTheReductionReachesEveryBreakInsideCalls(t *testing.T) {
	for name, wrap := range map[string]func(*engine.Backends){
		"read outside the lock": func(b *engine.Backends) { b.Database = readOutsideLockDB{b.Database} },
		"read under FOR UPDATE": func(b *engine.Backends) { b.Database = lockedReadDB{b.Database, " FOR UPDATE"} },
	} {
		t.Run(name, func(t *testing.T) {
			full := checkWithOptions(t, "stale-read", wrap, engine.CheckOptions{NoReduction: true})
			reduced := checkWith(t, "stale-read", wrap)
			if !slices.Equal(keysOf(full.Broken), keysOf(reduced.Broken)) || !slices.Equal(anomaliesOf(full), anomaliesOf(reduced)) {
				t.Fatalf("the reduced search broke %v %v, the full one %v %v", keysOf(reduced.Broken), anomaliesOf(reduced), keysOf(full.Broken), anomaliesOf(full))
			}
			if (full.Reached > 0) != (reduced.Reached > 0) {
				t.Fatalf("progress: full %d, reduced %d", full.Reached, reduced.Reached)
			}
		})
	}
}

func anomaliesOf(r engine.CheckReport) []string {
	return slices.Sorted(maps.Keys(r.Anomalies))
}
