package scenarios_test

import (
	"context"
	"github.com/fencelab/fencelab/scenarios/world"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
)

// execution is the part of an execution row the catalog speaks of.
type execution struct {
	Job       string
	Token     int64
	State     string
	Rejection string
}

type row struct {
	expected, final, fence int64
	verdict                string
	executions             []execution
	broken                 []int
}

// The catalog of DESIGN §6, row by row, on the embedded Redis and on a real
// redis-server.
var catalog = map[string]map[engine.Mode]row{
	"lease-overrun": {
		engine.Safe: {42, 42, 42, world.StaleFence, []execution{
			{"daily-summary", 42, "COMMITTED", ""},
			{"daily-summary", 41, "REJECTED", world.StaleFence},
		}, nil},
		engine.Unsafe: {42, 41, 41, "STALE_OVERWRITE", []execution{
			{"daily-summary", 42, "COMMITTED", ""},
			{"daily-summary", 41, "COMMITTED", ""},
		}, []int{1}},
	},
	"cross-job-collision": {
		engine.Safe: {30, 30, 42, engine.VerdictMatch, []execution{
			{"daily-summary", 41, "COMMITTED", ""},
			{"backfill-summary", 42, "COMMITTED", ""},
		}, nil},
		engine.Unsafe: {30, 20, 0, engine.VerdictLostUpdate, []execution{
			{"daily-summary", 0, "COMMITTED", ""},
			{"backfill-summary", 0, "COMMITTED", ""},
		}, []int{7}},
	},
	"stale-read": {
		engine.Safe: {30, 30, 42, engine.VerdictMatch, []execution{
			{"daily-summary", 41, "COMMITTED", ""},
			{"backfill-summary", 42, "COMMITTED", ""},
		}, nil},
		engine.Unsafe: {30, 20, 42, engine.VerdictLostUpdate, []execution{
			{"daily-summary", 41, "COMMITTED", ""},
			{"backfill-summary", 42, "COMMITTED", ""},
		}, []int{7}},
	},
	"dynamic-tenant": {
		engine.Safe: {0, 0, 0, world.StaleMembership, []execution{
			{"daily-summary", 7, "REJECTED", world.StaleMembership},
		}, nil},
		engine.Unsafe: {0, 7, 7, "STALE_WRITE", []execution{
			{"daily-summary", 7, "COMMITTED", ""},
		}, []int{2}},
	},
	"region-partition": {
		engine.Safe: {0, 0, 0, world.WrongRegion, []execution{
			{"daily-summary", 100, "REJECTED", world.WrongRegion},
		}, nil},
		engine.Unsafe: {0, 100, 100, "STALE_WRITE", []execution{
			{"daily-summary", 100, "COMMITTED", ""},
		}, []int{2}},
	},
	"mixed-version-rollout": {
		engine.Safe: {0, 0, 0, world.IncompatibleVersion, []execution{
			{"daily-summary", 1, "REJECTED", world.IncompatibleVersion},
		}, nil},
		engine.Unsafe: {0, 1, 1, "STALE_WRITE", []execution{
			{"daily-summary", 1, "COMMITTED", ""},
		}, []int{2}},
	},
	// Expected and final count the provider's applications.
	"non-fenceable-effect": {
		engine.Safe: {1, 1, 42, engine.VerdictMatch, []execution{
			{"daily-summary", 42, "COMMITTED", ""},
		}, nil},
		engine.Unsafe: {1, 2, 42, "DUPLICATE_EFFECT", []execution{
			{"daily-summary", 42, "COMMITTED", ""},
		}, []int{4, 4, 4}}, // applied twice; the retry's receipt is for no row, the row has none
	},
	// The fence is the token within the namespace epoch of the resource.
	"counter-loss": {
		engine.Safe: {43, 43, 1, world.StaleNamespace, []execution{
			{"daily-summary", 42, "COMMITTED", ""},
			{"daily-summary", 1, "COMMITTED", ""},
			{"daily-summary", 41, "REJECTED", world.StaleNamespace},
		}, nil},
		engine.Unsafe: {43, 42, 42, engine.VerdictStuck, []execution{
			{"daily-summary", 42, "COMMITTED", ""},
			{"daily-summary", 1, "REJECTED", world.StaleFence},
			{"daily-summary", 41, "REJECTED", world.StaleFence},
		}, nil},
	},
	// The retry carries the token and (SAFE) the OperationId of the write
	// that landed: the fence refuses it, and no second execution is
	// written. UNSAFE's retry is a new request: two executions of 41.
	"retry-same-token": {
		engine.Safe: {10, 10, 41, world.StaleFence, []execution{
			{"daily-summary", 41, "COMMITTED", ""},
		}, nil},
		engine.Unsafe: {10, 20, 41, "DUPLICATE_WRITE", []execution{
			{"daily-summary", 41, "COMMITTED", ""},
			{"daily-summary", 41, "COMMITTED", ""},
		}, []int{1}},
	},
	// A's renew finds B's lease (SAFE: A stops); C waits for B. UNSAFE's
	// renew and release take B's lease, and C's later.
	"stale-release": {
		engine.Safe: {43, 43, 43, scenarios.LeaseLost, []execution{
			{"daily-summary", 42, "COMMITTED", ""},
			{"daily-summary", 43, "COMMITTED", ""},
		}, nil},
		engine.Unsafe: {43, 42, 42, "LEASE_STOLEN", []execution{
			{"daily-summary", 41, "COMMITTED", ""},
			{"daily-summary", 43, "COMMITTED", ""},
			{"daily-summary", 42, "COMMITTED", ""},
		}, []int{8, 8, 1, 8}}, // A renews B's lease (its renew said it was A's), deletes it; B's stale write; B deletes C's
	},
	// The second seed lives in Redis: no executions; the measures are job
	// hashes, applied results and preserved pointers.
	"async-job-acquire": {
		engine.Safe:   {1, 1, 0, engine.VerdictMatch, nil, nil},
		engine.Unsafe: {1, 2, 0, "DUPLICATE_JOB", nil, []int{6, 6}},
	},
	"terminal-transition": {
		engine.Safe:   {0, 0, 0, world.IllegalTransition, nil, nil},
		engine.Unsafe: {0, 1, 0, "TERMINAL_OVERWRITE", nil, []int{5}},
	},
	"pointer-ownership": {
		engine.Safe:   {1, 1, 0, world.NotOwner, nil, nil},
		engine.Unsafe: {1, 0, 0, "POINTER_STOLEN", nil, []int{6, 5}},
	},
	"worker-start-failure": {
		engine.Safe:   {2, 2, 0, scenarios.DeadlineExceeded, nil, nil},
		engine.Unsafe: {2, 1, 0, engine.VerdictStuck, nil, nil},
	},
	// Job 1's running key expired first: its late SUCCESS is refused
	// (SAFE) or takes job 2's key with it (UNSAFE).
	"pointer-split": {
		engine.Safe:   {0, 0, 0, world.NotOwner, nil, nil},
		engine.Unsafe: {0, 1, 0, "POINTER_STOLEN", nil, []int{6, 6}}, // job 2 loses its key; job 1's SUCCESS without one
	},
	// Two runs on one worker share its owner: SAFE's release of token 41
	// leaves the retry's lease of 42 alone; UNSAFE's deletes it, B takes
	// 43, and the retry's 42 lands over it.
	"owner-reuse": {
		engine.Safe: {43, 43, 43, engine.VerdictMatch, []execution{
			{"daily-summary", 42, "COMMITTED", ""},
			{"daily-summary", 43, "COMMITTED", ""},
		}, nil},
		engine.Unsafe: {43, 42, 42, "LEASE_STOLEN", []execution{
			{"daily-summary", 43, "COMMITTED", ""},
			{"daily-summary", 42, "COMMITTED", ""},
		}, []int{8, 1, 8}}, // A1 deletes the retry's lease; the retry's stale write; it deletes B's
	},
	// A writer of the right region at an old epoch: refused by SAFE's
	// region check, written by UNSAFE.
	"region-failback": {
		engine.Safe: {42, 42, 42, world.WrongRegion, []execution{
			{"daily-summary", 41, "REJECTED", world.WrongRegion},
			{"daily-summary", 42, "COMMITTED", ""},
		}, nil},
		engine.Unsafe: {42, 42, 42, "STALE_WRITE", []execution{
			{"daily-summary", 41, "COMMITTED", ""},
			{"daily-summary", 42, "COMMITTED", ""},
		}, []int{2}},
	},
	// Two outbox workers: OUT's claim on 42's row runs out while it stalls,
	// OUT2 reconciles the row by querying (SAFE: applied once) or by
	// sending it again under a new OperationId (UNSAFE: twice).
	"claim-expiry": {
		engine.Safe: {2, 2, 43, engine.VerdictMatch, []execution{
			{"daily-summary", 42, "COMMITTED", ""},
			{"daily-summary", 43, "COMMITTED", ""},
		}, nil},
		engine.Unsafe: {2, 3, 43, "DUPLICATE_EFFECT", []execution{
			{"daily-summary", 42, "COMMITTED", ""},
			{"daily-summary", 43, "COMMITTED", ""},
		}, []int{4, 4, 4}}, // applied twice; the retry's receipt is for no row, the row has none
	},
	// Token 1 twice: under epochs 2 and 3 (SAFE), two executions; under
	// epoch 2 both (UNSAFE), one OperationId and one execution, and the
	// row changed by a write with none of its own.
	"token-reuse": {
		engine.Safe: {2, 2, 1, engine.VerdictMatch, []execution{
			{"daily-summary", 1, "COMMITTED", ""},
			{"daily-summary", 1, "COMMITTED", ""},
		}, nil},
		engine.Unsafe: {2, 2, 1, "DUPLICATE_WRITE", []execution{
			{"daily-summary", 1, "COMMITTED", ""},
		}, []int{3}},
	},
}

func TestCatalog(t *testing.T) {
	require.ElementsMatch(t, scenarios.IDs(), keys(catalog), "every scenario has its row here")
	// The ids come from the files' names, a scenario from its file alone:
	// they must agree with the compiled catalog, and be one scenario.
	var ids []string
	for _, s := range scenarios.All() {
		ids = append(ids, s.ID)
		byID, ok := scenarios.ByID(s.ID)
		require.True(t, ok, s.ID)
		require.Same(t, s, byID, s.ID)
	}
	require.Equal(t, ids, scenarios.IDs(), "the catalog's ids, in its order")
	storetest.Redises(t, func(t *testing.T, redis *redisstore.Coordination) {
		// One database for the whole catalog: every run starts by seeding it.
		db := storetest.Database(t)
		for _, s := range scenarios.All() {
			for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
				t.Run(s.ID+"/"+mode.String(), func(t *testing.T) {
					want := catalog[s.ID][mode]
					lab := newLabOn(t, redis, db, s, mode)
					require.NoError(t, lab.RunGuided(context.Background()))
					got, err := lab.Result(context.Background())
					require.NoError(t, err)

					require.Equal(t, want.expected, got.Expected, "expected")
					require.Equal(t, want.final, got.Final, "final")
					require.Equal(t, want.fence, got.Mark, "last accepted fence")
					require.Equal(t, want.verdict, got.Verdict, "verdict")
					require.Equal(t, want.executions, executionsOf(got), "executions")
					require.Equal(t, want.broken, brokenOf(got), "broken invariants")
					epoch := int64(2)
					if (s.ID == "counter-loss" || s.ID == "token-reuse") && mode == engine.Safe {
						epoch = 3
					}
					require.Equal(t, epoch, world.FiguresOf(got).NamespaceEpoch, "namespace epoch")
					require.True(t, got.AsPredicted(), "the catalog's prediction agrees")
				})
			}
		}
	})
}

// The guided order is the seed's timeline: a contended acquire in SAFE
// cross-job-collision makes B wait, and UNSAFE lets both jobs in.
func TestCrossJobCollisionContention(t *testing.T) {
	ctx := context.Background()
	s, _ := scenarios.ByID("cross-job-collision")
	for mode, wantContended := range map[engine.Mode]bool{engine.Safe: true, engine.Unsafe: false} {
		lab := newLab(t, storetest.Embedded(t), s, mode)
		require.NoError(t, lab.RunGuided(ctx))
		contended := false
		for _, e := range lab.Events() {
			if e.Code == "B_ACQUIRE" && e.State == "CONTENDED" {
				contended = true
				require.Contains(t, e.Detail, "worker-A with token 41")
			}
		}
		require.Equal(t, wantContended, contended, mode.String())
	}
}

func newLab(t *testing.T, redis *redisstore.Coordination, s *engine.Scenario, mode engine.Mode) *engine.Lab {
	t.Helper()
	return newLabOn(t, redis, storetest.Database(t), s, mode)
}

func newLabOn(t *testing.T, redis *redisstore.Coordination, db engine.Database, s *engine.Scenario, mode engine.Mode) *engine.Lab {
	t.Helper()
	redis.FollowLabClock() // a real server's keys on the lab clock, as fencelab keeps them
	backends := engine.Backends{Coordination: redis, Database: db, HoldTTL: 30 * time.Second}
	lab, err := engine.NewLab(context.Background(), backends, s, mode)
	require.NoError(t, err)
	t.Cleanup(func() { lab.Close(context.Background()) })
	return lab
}

func executionsOf(r engine.Result) []execution {
	var out []execution
	for _, e := range world.RowsOf(r.Ledger).Executions {
		out = append(out, execution{e.JobName, e.FencingToken, e.State, e.Rejection})
	}
	return out
}

func brokenOf(r engine.Result) []int {
	var out []int
	for _, b := range r.Breaks {
		out = append(out, b.Invariant)
	}
	return out
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// lease overrun: token 41's write is rejected STALE_FENCE and token 42's
// state stays, with the guard as PostgreSQL evaluated it.
func TestLeaseOverrun(t *testing.T) {
	ctx := context.Background()
	s, _ := scenarios.ByID("lease-overrun")
	lab := newLab(t, storetest.Embedded(t), s, engine.Safe)
	require.NoError(t, lab.RunGuided(ctx))
	events := lab.Events()
	last := events[len(events)-1]
	require.Equal(t, "A_WRITE", last.Code)
	require.Equal(t, "REJECTED", last.State)
	require.Equal(t, "incoming 41 > last accepted 42 → false", last.Guard)
	result, err := lab.Result(ctx)
	require.NoError(t, err)
	require.Equal(t, int64(42), result.Final)
	require.Equal(t, int64(42), result.Mark)
}

// End to end: the lease key vanishes under worker A; B's newer token commits
// 42; A's older token is rejected. Business row, checkpoint, execution and
// outbox changed together for B's write and not at all for A's.
func TestEndToEndLeaseKeyDeleted(t *testing.T) {
	storetest.Redises(t, func(t *testing.T, redis *redisstore.Coordination) {
		ctx := context.Background()
		s, _ := scenarios.ByID("lease-overrun")
		lab := newLab(t, redis, s, engine.Safe)
		require.NoError(t, lab.Do(ctx, engine.Do("A"))) // leader
		require.NoError(t, lab.Do(ctx, engine.Do("A"))) // token 41

		lease := labKeys(t, redis, ":lease", "leader:")
		require.Len(t, lease, 2)
		require.NoError(t, redis.Delete(ctx, lease...))

		for range 3 { // B: leader, token 42, write
			require.NoError(t, lab.Do(ctx, engine.Do("B")))
		}
		require.NoError(t, lab.Do(ctx, engine.Do("A"))) // A writes with 41

		state, err := lab.Backends().Database.Connect(ctx, "check")
		require.NoError(t, err)
		defer state.Close(ctx)
		ledger, err := state.State(ctx)
		require.NoError(t, err)
		resource, _ := world.RowsOf(ledger).Resource(scenarios.ConflictKey)
		require.Equal(t, int64(42), resource.SummaryValue)
		require.Equal(t, int64(42), resource.LastAcceptedFence)
		require.Equal(t, []world.Checkpoint{{ConflictKey: scenarios.ConflictKey, FencingToken: 42, SchemaVersion: 1, SummaryValue: 42}}, world.RowsOf(ledger).Checkpoints)
		require.Len(t, world.RowsOf(ledger).Executions, 2)
		committed, rejected := world.RowsOf(ledger).Executions[0], world.RowsOf(ledger).Executions[1]
		require.Equal(t, "COMMITTED", committed.State)
		require.Equal(t, int64(42), committed.FencingToken)
		require.Equal(t, "REJECTED", rejected.State)
		require.Equal(t, int64(41), rejected.FencingToken)
		require.Equal(t, world.StaleFence, rejected.Rejection)
		require.Len(t, world.RowsOf(ledger).Outbox, 1)
		require.Equal(t, committed.OperationID, world.RowsOf(ledger).Outbox[0].OperationID)
		require.Empty(t, world.CheckLedger(world.RowsOf(ledger), 0))
	})
}

func labKeys(t *testing.T, redis *redisstore.Coordination, contains ...string) []string {
	t.Helper()
	all, err := redis.Keys(context.Background())
	require.NoError(t, err)
	var out []string
	for _, k := range all {
		for _, c := range contains {
			if strings.Contains(k.Key, c) {
				out = append(out, k.Key)
				break
			}
		}
	}
	return out
}

// Every run starts from the seeded state, whatever the previous run left.
func TestRunsStartFromTheSeed(t *testing.T) {
	ctx := context.Background()
	redis := storetest.Embedded(t)
	db := storetest.Database(t)
	s, _ := scenarios.ByID("lease-overrun")
	backends := engine.Backends{Coordination: redis, Database: db, HoldTTL: 30 * time.Second}
	for _, mode := range []engine.Mode{engine.Unsafe, engine.Safe, engine.Safe} {
		lab, err := engine.NewLab(ctx, backends, s, mode)
		require.NoError(t, err)
		require.NoError(t, lab.RunGuided(ctx))
		result, err := lab.Result(ctx)
		require.NoError(t, err)
		require.True(t, result.AsPredicted(), "%s after an earlier run: %+v", mode, result)
		require.Len(t, world.RowsOf(result.Ledger).Executions, 2)
		lab.Close(ctx)
	}
}

// A paused actor cannot step; undo puts back the state before the last
// action and the guided order resumes from there.
func TestPauseAndUndo(t *testing.T) {
	ctx := context.Background()
	s, _ := scenarios.ByID("lease-overrun")
	lab := newLab(t, storetest.Embedded(t), s, engine.Safe)
	require.NoError(t, lab.Do(ctx, engine.Pause("A", "GC pause")))
	require.ErrorIs(t, lab.Do(ctx, engine.Do("A")), engine.ErrPaused)
	require.NoError(t, lab.Do(ctx, engine.Resume("A")))

	require.NoError(t, lab.Undo(ctx)) // undo the resume
	a, err := lab.Actor("A")
	require.NoError(t, err)
	require.True(t, a.Paused)
	require.NoError(t, lab.Undo(ctx)) // undo the pause
	require.False(t, a.Paused)
	require.ErrorIs(t, lab.Undo(ctx), engine.ErrNothingToUndo)

	require.NoError(t, lab.RunGuided(ctx))
	require.NoError(t, lab.Undo(ctx)) // A's rejected write is gone again
	result, err := lab.Result(ctx)
	require.NoError(t, err)
	require.Len(t, world.RowsOf(result.Ledger).Executions, 1)
	require.Equal(t, "write summary", a.NextStep())
	require.NoError(t, lab.Next(ctx))
	require.ErrorIs(t, lab.Next(ctx), engine.ErrGuidedDone)
	result, err = lab.Result(ctx)
	require.NoError(t, err)
	require.True(t, result.AsPredicted())
}
