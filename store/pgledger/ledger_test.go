package pgledger_test

import (
	"context"
	"fmt"
	"github.com/fencelab/fencelab/scenarios/world"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/storetest"
)

var start = time.Date(2026, 7, 31, 23, 0, 0, 0, time.UTC)

func seed() world.Seed {
	return world.Seed{
		ConflictKey: "summary:tenant-a:2026-07", TenantID: "tenant-a", MembershipRevision: 7,
		RegionID: "region-a", RegionEpoch: 3, NamespaceEpoch: 2,
		MinimumWriterVersion: 2, CheckpointSchemaVersion: 1, Now: start,
	}
}

// write is a fenced write that passes every configuration check.
func write(token int64, value int64) world.Write {
	return world.Write{
		OperationID: fmt.Sprintf("op-%d", token), JobName: "daily-summary", TenantID: "tenant-a",
		ConflictKey: "summary:tenant-a:2026-07", Owner: "worker", Token: token, NamespaceEpoch: 2,
		MembershipRevision: 7, RegionID: "region-a", RegionEpoch: 3, ContractVersion: 2, CheckpointSchema: 1,
		Value: value, Now: start.Add(time.Second),
	}
}

func seeded(t *testing.T) engine.Ledger {
	t.Helper()
	l := storetest.Ledger(t)
	require.NoError(t, l.(world.Ledger).Seed(context.Background(), seed()))
	return l
}

// Fenced mutation on PostgreSQL: fence 100 commits and 99 is rejected; the
// rejected write leaves no checkpoint or outbox row of its own.
func TestFencedMutationRejectsAnOlderFence(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := seeded(t)

	res, err := l.(world.Ledger).FencedMutation(ctx, write(100, 1000))
	require.NoError(t, err)
	require.Equal(t, world.WriteResult{Committed: true, Guard: "incoming 100 > last accepted none → true"}, res)

	res, err = l.(world.Ledger).FencedMutation(ctx, write(99, 990))
	require.NoError(t, err)
	require.Equal(t, world.WriteResult{Rejection: world.StaleFence, Guard: "incoming 99 > last accepted 100 → false"}, res)

	state, err := l.State(ctx)
	require.NoError(t, err)
	resource, _ := world.RowsOf(state).Resource("summary:tenant-a:2026-07")
	require.Equal(t, int64(100), resource.LastAcceptedFence)
	require.Equal(t, int64(1000), resource.SummaryValue)
	require.Len(t, world.RowsOf(state).Checkpoints, 1)
	require.Equal(t, int64(100), world.RowsOf(state).Checkpoints[0].FencingToken)
	require.Len(t, world.RowsOf(state).Outbox, 1)
	require.Equal(t, "PENDING", world.RowsOf(state).Outbox[0].Status)
	require.Len(t, world.RowsOf(state).Executions, 2)
	require.Equal(t, "COMMITTED", world.RowsOf(state).Executions[0].State)
	require.Equal(t, "REJECTED", world.RowsOf(state).Executions[1].State)
	require.Equal(t, world.StaleFence, world.RowsOf(state).Executions[1].Rejection)

	// An equal fence is no newer either.
	res, err = l.(world.Ledger).FencedMutation(ctx, write(100, 1))
	require.NoError(t, err)
	require.Equal(t, world.StaleFence, res.Rejection)
}

// Each configuration check, in DESIGN §4's order, and the reason it gives.
func TestFencedMutationChecksTheConfiguration(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(*world.Write)
		reason string
		guard  string
	}{
		{"membership revision 8", func(w *world.Write) { w.MembershipRevision = 8 }, world.StaleMembership,
			"incoming revision 8 = current 7 → false"},
		{"region-b", func(w *world.Write) { w.RegionID = "region-b" }, world.WrongRegion,
			"incoming region-b epoch 3 = current region-a epoch 3 → false"},
		{"contract version 1", func(w *world.Write) { w.ContractVersion = 1 }, world.IncompatibleVersion,
			"incoming contract 1 ≥ required 2 → false"},
		{"namespace epoch 1", func(w *world.Write) { w.NamespaceEpoch = 1 }, world.StaleNamespace,
			"incoming namespace epoch 1 = current 2 → false"},
		// Membership is checked before region: the first failing check wins.
		{"revision and region both off", func(w *world.Write) { w.MembershipRevision = 8; w.RegionID = "region-b" },
			world.StaleMembership, "incoming revision 8 = current 7 → false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			l := seeded(t)
			w := write(100, 1000)
			tc.change(&w)
			res, err := l.(world.Ledger).FencedMutation(ctx, w)
			require.NoError(t, err)
			require.Equal(t, world.WriteResult{Rejection: tc.reason, Guard: tc.guard}, res)

			state, err := l.State(ctx)
			require.NoError(t, err)
			resource, _ := world.RowsOf(state).Resource(w.ConflictKey)
			require.Zero(t, resource.SummaryValue)
			require.Zero(t, resource.LastAcceptedFence)
			require.Empty(t, world.RowsOf(state).Checkpoints)
			require.Empty(t, world.RowsOf(state).Outbox)
			require.Len(t, world.RowsOf(state).Executions, 1)
			require.Equal(t, tc.reason, world.RowsOf(state).Executions[0].Rejection)
		})
	}
}

// A resource whose namespace epoch moved on rejects with STALE_NAMESPACE
// even when the rollout marker was not bumped with it.
func TestFencedMutationReloadsTheNamespace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := seed()
	l := storetest.Ledger(t)
	require.NoError(t, l.(world.Ledger).Seed(ctx, s))
	// The marker says 2, the resource says 3.
	w := write(100, 1)
	w.NamespaceEpoch = 2
	conn := pgledger.RawConn(t, l)
	_, err := conn.Exec(ctx, `UPDATE fencelab.resources SET namespace_epoch = 3`)
	require.NoError(t, err)
	res, err := l.(world.Ledger).FencedMutation(ctx, w)
	require.NoError(t, err)
	require.Equal(t, world.StaleNamespace, res.Rejection)
	require.Equal(t, "incoming namespace epoch 2 = resource's 3 → false", res.Guard)
}

// The UNSAFE write takes any token, even one below the last accepted.
func TestUnfencedMutationOverwrites(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := seeded(t)
	_, err := l.(world.Ledger).UnfencedMutation(ctx, write(42, 42))
	require.NoError(t, err)
	res, err := l.(world.Ledger).UnfencedMutation(ctx, write(41, 41))
	require.NoError(t, err)
	require.True(t, res.Committed)
	state, err := l.State(ctx)
	require.NoError(t, err)
	resource, _ := world.RowsOf(state).Resource("summary:tenant-a:2026-07")
	require.Equal(t, int64(41), resource.LastAcceptedFence)
	require.Equal(t, int64(41), resource.SummaryValue)
	require.Len(t, world.RowsOf(state).Outbox, 2)
}

// Seeding twice leaves exactly the seeded rows.
func TestSeedResets(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := seeded(t)
	_, err := l.(world.Ledger).FencedMutation(ctx, write(100, 1000))
	require.NoError(t, err)
	require.NoError(t, l.(world.Ledger).Seed(ctx, seed()))
	state, err := l.State(ctx)
	require.NoError(t, err)
	require.Len(t, world.RowsOf(state).Resources, 1)
	require.Zero(t, world.RowsOf(state).Resources[0].SummaryValue)
	require.Empty(t, world.RowsOf(state).Executions)
	require.Empty(t, world.RowsOf(state).Outbox)
	require.Empty(t, world.RowsOf(state).Checkpoints)
	require.Equal(t, world.Rollout{NamespaceEpoch: 2, MinimumWriterVersion: 2, CheckpointSchemaVersion: 1}, world.RowsOf(state).Rollout)
}

// Migrating twice is a no-op; a schema named fencelab that fencelab did not
// create is refused and left as it was.
func TestMigrate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("twice", func(t *testing.T) {
		dsn := storetest.NewDatabaseDSN(t, false)
		first, err := pgledger.Open(ctx, dsn, pgledger.Options{})
		require.NoError(t, err)
		require.NoError(t, first.Close())
		second, err := pgledger.Open(ctx, dsn, pgledger.Options{})
		require.NoError(t, err)
		require.NoError(t, second.Close())
	})

	t.Run("foreign schema", func(t *testing.T) {
		dsn := storetest.NewDatabaseDSN(t, false)
		conn, err := pgx.Connect(ctx, dsn)
		require.NoError(t, err)
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, `CREATE SCHEMA fencelab; CREATE TABLE fencelab.precious (v int); INSERT INTO fencelab.precious VALUES (1)`)
		require.NoError(t, err)

		_, err = pgledger.Open(ctx, dsn, pgledger.Options{})
		require.ErrorIs(t, err, pgledger.ErrForeignSchema)

		var tables []string
		rows, err := conn.Query(ctx, `SELECT table_name FROM information_schema.tables WHERE table_schema = 'fencelab'`)
		require.NoError(t, err)
		tables, err = pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		require.Equal(t, []string{"precious"}, tables)
	})
}

// One run at a time per database: a second Open waits, says once who holds
// the database, and goes on when the first closes; an interrupted wait
// ends at once.
func TestRunLock(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := storetest.NewDatabaseDSN(t, false)
	first, err := pgledger.Open(ctx, dsn, pgledger.Options{})
	require.NoError(t, err)

	waits := make(chan string, 4)
	opened := make(chan error, 1)
	go func() {
		second, err := pgledger.Open(ctx, dsn, pgledger.Options{Waiting: func(holder string) { waits <- holder }})
		if err == nil {
			second.Close()
		}
		opened <- err
	}()
	holder := <-waits
	require.Contains(t, holder, "fencelab run (pid ")
	select {
	case err := <-opened:
		t.Fatalf("the second run did not wait: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	require.NoError(t, first.Close())
	select {
	case err := <-opened:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("the second run still waits after the first closed")
	}
	require.Empty(t, waits, "told more than once")

	third, err := pgledger.Open(ctx, dsn, pgledger.Options{})
	require.NoError(t, err)
	defer third.Close()
	cancelled, cancel := context.WithCancel(ctx)
	time.AfterFunc(200*time.Millisecond, cancel)
	started := time.Now()
	_, err = pgledger.Open(cancelled, dsn, pgledger.Options{})
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, time.Since(started), 2*time.Second)
}

// Two reconcilers at the same moment: only one claims the row (on main
// both took it: the row was selected FOR UPDATE SKIP LOCKED and never
// marked).
func TestReconciliationClaimIsExclusive(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := storetest.Database(t)
	var reconcilers [2]engine.Ledger
	for i := range reconcilers {
		l, err := db.Connect(ctx, fmt.Sprintf("reconciler-%d", i))
		require.NoError(t, err)
		defer l.Close(ctx)
		reconcilers[i] = l
	}
	now := start.Add(time.Minute)
	for round := range 10 {
		first := reconcilers[0]
		require.NoError(t, first.(world.Ledger).Seed(ctx, seed()))
		_, err := first.(world.Ledger).FencedMutation(ctx, write(42, 42))
		require.NoError(t, err)
		row, _, err := first.(world.Ledger).ClaimNextOutbox(ctx, now, 30*time.Second)
		require.NoError(t, err)
		require.NoError(t, first.(world.Ledger).RecordOutcome(ctx, world.Outcome{OperationID: row.OperationID, Status: "RECONCILIATION_REQUIRED", Now: now, Attempt: row.AttemptCount}))

		var took [2]bool
		var errs [2]error
		var wg sync.WaitGroup
		begin := make(chan struct{})
		for i, l := range reconcilers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-begin
				_, took[i], errs[i] = l.(world.Ledger).ClaimForReconciliation(ctx, now, 30*time.Second)
			}()
		}
		close(begin)
		wg.Wait()
		require.NoError(t, errs[0])
		require.NoError(t, errs[1])
		require.True(t, took[0] != took[1], "round %d: claimed by %v", round, took)
	}
	_, took, err := reconcilers[1].(world.Ledger).ClaimForReconciliation(ctx, now.Add(31*time.Second), 30*time.Second)
	require.NoError(t, err)
	require.True(t, took, "a reconciliation claim that expired is taken again")
}

// Invariant 7's columns: a write records what it was computed from and
// what the row held when it landed; a write that adds under the lock reads
// the row as locked, whatever its writer read before.
func TestWritesRecordWhatTheyWereBuiltOn(t *testing.T) {
	ctx := context.Background()
	l := seeded(t)
	stale := int64(0)
	first := write(41, 10)
	first.ReadValue = &stale
	_, err := l.(world.Ledger).FencedMutation(ctx, first)
	require.NoError(t, err)
	second := write(42, 20)
	second.ReadValue = &stale // read before the first write landed
	_, err = l.(world.Ledger).FencedMutation(ctx, second)
	require.NoError(t, err)
	third := write(43, 0)
	third.AddUnderLock, third.Delta = true, 5
	res, err := l.(world.Ledger).FencedMutation(ctx, third)
	require.NoError(t, err)
	require.Equal(t, world.WriteResult{Committed: true, Guard: res.Guard, Read: 20, Value: 25, Previous: 20}, res)

	state, err := l.State(ctx)
	require.NoError(t, err)
	var got [][3]int64
	for _, e := range world.RowsOf(state).Executions {
		require.True(t, e.HasRead)
		got = append(got, [3]int64{e.ReadValue, e.PreviousValue, e.SummaryValue})
	}
	require.Equal(t, [][3]int64{{0, 0, 10}, {0, 10, 20}, {20, 20, 25}}, got)
	breaks := world.CheckLedger(world.RowsOf(state), 0)
	require.Len(t, breaks, 1)
	require.Equal(t, 7, breaks[0].Invariant)
	require.Equal(t, engine.VerdictLostUpdate, breaks[0].Anomaly)
}

// A guard removed from the fenced statement lets through exactly the write
// it alone refused, and says so; the next check in order still refuses.
func TestFencedMutationWithoutAGuard(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		change  func(*world.Write)
		without engine.Guard
		guard   string
	}{
		{"membership", func(w *world.Write) { w.MembershipRevision = 8 }, world.GuardMembership,
			"incoming revision 8 = current 7 → false (membership removed)"},
		{"region", func(w *world.Write) { w.RegionID = "region-b" }, world.GuardRegion,
			"incoming region-b epoch 3 = current region-a epoch 3 → false (region removed)"},
		{"version", func(w *world.Write) { w.ContractVersion = 1 }, world.GuardVersion,
			"incoming contract 1 ≥ required 2 → false (version removed)"},
		{"namespace", func(w *world.Write) { w.NamespaceEpoch = 1 }, world.GuardNamespace,
			"incoming namespace epoch 1 = current 2 → false (namespace removed)"},
		{"fence", func(w *world.Write) { w.Token = 0 }, world.GuardFence,
			"incoming 0 > last accepted none → false (fence removed)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			l := seeded(t)
			w := write(100, 1000)
			tc.change(&w)
			w.Without = engine.Guards(tc.without)
			res, err := l.(world.Ledger).FencedMutation(ctx, w)
			require.NoError(t, err)
			require.True(t, res.Committed, "%+v", res)
			require.Equal(t, tc.guard, res.Guard)
			state, err := l.State(ctx)
			require.NoError(t, err)
			require.Len(t, world.RowsOf(state).Executions, 1)
			require.Equal(t, "COMMITTED", world.RowsOf(state).Executions[0].State)
			require.Len(t, world.RowsOf(state).Outbox, 1)
			require.Empty(t, world.CheckLedger(world.RowsOf(state), 1), "the execution matches the row it wrote")

			// Another guard still refuses.
			again := write(101, 1001)
			again.MembershipRevision, again.Without = 9, w.Without
			if tc.without == world.GuardMembership {
				again.MembershipRevision, again.RegionID = 7, "region-c"
			}
			res, err = l.(world.Ledger).FencedMutation(ctx, again)
			require.NoError(t, err)
			require.False(t, res.Committed)
		})
	}
}

// A write sent again with the same token and OperationId — a retry after
// a lost reply — is refused by the fence (<, never <=) and adds no second
// execution or outbox row. Without the fence it changes the business row a
// second time, with no execution of its own: invariant 3 sees it.
func TestARetryOfTheSameTokenIsRecognised(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	for _, without := range []engine.GuardSet{0, engine.Guards(world.GuardFence)} {
		l := seeded(t)
		w := write(41, 0)
		w.AddUnderLock, w.Delta, w.Without = true, 10, without
		res, err := l.(world.Ledger).FencedMutation(ctx, w)
		require.NoError(t, err)
		require.True(t, res.Committed)
		res, err = l.(world.Ledger).FencedMutation(ctx, w)
		require.NoError(t, err)
		state, err := l.State(ctx)
		require.NoError(t, err)
		require.Len(t, world.RowsOf(state).Executions, 1)
		require.Len(t, world.RowsOf(state).Outbox, 1)
		resource, _ := world.RowsOf(state).Resource(w.ConflictKey)
		if without == 0 {
			require.Equal(t, world.WriteResult{Rejection: world.StaleFence, Guard: "incoming 41 > last accepted 41 → false",
				Read: 10, Value: 20}, res)
			require.EqualValues(t, 10, resource.SummaryValue)
			require.Empty(t, world.CheckLedger(world.RowsOf(state), 0))
			continue
		}
		require.True(t, res.Committed)
		require.EqualValues(t, 20, resource.SummaryValue)
		breaks := world.CheckLedger(world.RowsOf(state), 0)
		require.Len(t, breaks, 1)
		require.Equal(t, 3, breaks[0].Invariant)
		require.Equal(t, "DUPLICATE_WRITE", breaks[0].Anomaly)
	}
}

// Without the outbox guard the statement writes the business row and its
// checkpoint only; RecordWrite adds the execution and the outbox row in a
// transaction of its own. In between, invariant 3 is broken.
func TestWithoutTheOutboxTheWriteComesInTwo(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := seeded(t)
	w := write(41, 410)
	w.Without = engine.Guards(world.GuardOutbox)
	res, err := l.(world.Ledger).FencedMutation(ctx, w)
	require.NoError(t, err)
	require.True(t, res.Committed)
	half, err := l.State(ctx)
	require.NoError(t, err)
	require.Empty(t, world.RowsOf(half).Executions)
	require.Empty(t, world.RowsOf(half).Outbox)
	require.Len(t, world.RowsOf(half).Checkpoints, 1)
	breaks := world.CheckLedger(world.RowsOf(half), 0)
	require.Len(t, breaks, 1)
	require.Equal(t, 3, breaks[0].Invariant)
	require.Equal(t, "PARTIAL_COMMIT", breaks[0].Anomaly)
	require.NoError(t, l.(world.Ledger).RecordWrite(ctx, w, res))
	whole, err := l.State(ctx)
	require.NoError(t, err)
	require.Len(t, world.RowsOf(whole).Executions, 1)
	require.Len(t, world.RowsOf(whole).Outbox, 1)
	require.Empty(t, world.CheckLedger(world.RowsOf(whole), 0))

	// A refusal is recorded the same way.
	stale := write(40, 400)
	stale.Without = w.Without
	res, err = l.(world.Ledger).FencedMutation(ctx, stale)
	require.NoError(t, err)
	require.Equal(t, world.StaleFence, res.Rejection)
	require.NoError(t, l.(world.Ledger).RecordWrite(ctx, stale, res))
	state, err := l.State(ctx)
	require.NoError(t, err)
	require.Len(t, world.RowsOf(state).Executions, 2)
	require.Equal(t, world.StaleFence, world.RowsOf(state).Executions[1].Rejection)
}

// Warm has the server process behind a connection prepare the statements
// a writer sends round after round, and the writes that follow use them.
func TestWarmPreparesTheWritersStatements(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	l := seeded(t)
	require.NoError(t, l.(interface{ Warm(context.Context) error }).Warm(ctx))
	var prepared int
	require.NoError(t, pgledger.RawConn(t, l).QueryRow(ctx,
		`SELECT count(*) FROM pg_prepared_statements WHERE statement IN ($1, $2)`,
		pgledger.FencedWriteSQL, `SELECT summary_value FROM fencelab.resources WHERE conflict_key = $1`).Scan(&prepared))
	require.Equal(t, 2, prepared, "the fenced write and the summary's read")

	result, err := l.(world.Ledger).FencedMutation(ctx, write(41, 410))
	require.NoError(t, err)
	require.True(t, result.Committed)
	value, err := l.(world.Ledger).ReadSummary(ctx, seed().ConflictKey)
	require.NoError(t, err)
	require.EqualValues(t, 410, value)
}

// A stress run leaves the lab's tables full of dead rows, which the
// ephemeral server's autovacuum never gets to: Open empties tables grown
// that far (a later reset deletes their rows anyway), leaves a lab of
// ordinary size as it is, and gives up at once on a table a session of
// the user's holds.
func TestOpenEmptiesBloatedLabTables(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := storetest.NewDatabaseDSN(t, true)
	db, err := pgledger.Open(ctx, dsn, pgledger.Options{})
	require.NoError(t, err)
	require.NoError(t, db.Close())
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	size := func(table string) int64 {
		var n int64
		require.NoError(t, conn.QueryRow(ctx, `SELECT pg_relation_size($1::regclass)`, "fencelab."+table).Scan(&n))
		return n
	}
	// bloat leaves n dead rows in executions, as n writes of earlier runs
	// put back by their resets do.
	bloat := func(n int) {
		_, err := conn.Exec(ctx, `INSERT INTO fencelab.executions (operation_id, job_name, tenant_id, conflict_key, owner,
			membership_revision, region_id, region_epoch, state, contract_version, created_at, updated_at)
			SELECT 'bloat-' || i, 'job', 't', 'k', 'o', 1, 'r', 1, 'COMMITTED', 1, now(), now() FROM generate_series(1, $1::int) i`, n)
		require.NoError(t, err)
		_, err = conn.Exec(ctx, `DELETE FROM fencelab.executions`)
		require.NoError(t, err)
	}
	_, err = conn.Exec(ctx, `INSERT INTO fencelab.job_results (target, job_id, results, applied_at)
		VALUES ('t', 'j', 'r', now())`)
	require.NoError(t, err)
	rows := func() (n int) {
		require.NoError(t, conn.QueryRow(ctx, `SELECT count(*) FROM fencelab.job_results`).Scan(&n))
		return n
	}

	t.Run("ordinary size", func(t *testing.T) {
		db, err := pgledger.Open(ctx, dsn, pgledger.Options{})
		require.NoError(t, err)
		require.NoError(t, db.Close())
		require.Equal(t, 1, rows(), "a lab of ordinary size is left as it is")
	})

	// A few checks of a scenario leave their lab's tables at a few hundred
	// KB, not a MB, and every state's read of the schema goes through them.
	t.Run("a few checks' worth", func(t *testing.T) {
		bloat(1500)
		require.Greater(t, size("executions"), int64(100<<10))
		require.Less(t, size("executions"), int64(1<<20))
		db, err := pgledger.Open(ctx, dsn, pgledger.Options{})
		require.NoError(t, err)
		require.NoError(t, db.Close())
		require.Zero(t, size("executions"))
	})

	t.Run("held by a session of the user's", func(t *testing.T) {
		bloat(20000)
		require.Greater(t, size("executions"), int64(1<<20))
		holder, err := pgx.Connect(ctx, dsn)
		require.NoError(t, err)
		defer holder.Close(ctx)
		tx, err := holder.Begin(ctx)
		require.NoError(t, err)
		_, err = tx.Exec(ctx, `LOCK TABLE fencelab.outbox IN ACCESS SHARE MODE`)
		require.NoError(t, err)
		started := time.Now()
		db, err := pgledger.Open(ctx, dsn, pgledger.Options{})
		require.NoError(t, err)
		require.NoError(t, db.Close())
		require.Less(t, time.Since(started), 2*time.Second, "Open waited for the user's session")
		require.Greater(t, size("executions"), int64(1<<20), "emptied past a lock")
		require.NoError(t, tx.Rollback(ctx))
	})

	t.Run("bloated", func(t *testing.T) {
		db, err := pgledger.Open(ctx, dsn, pgledger.Options{})
		require.NoError(t, err)
		require.NoError(t, db.Close())
		require.Zero(t, size("executions"))
		require.Zero(t, rows())
	})
}

// The connections Open opens ahead are the ones Connect hands out, named
// after their actors and warm; one asked for that was not opened ahead is
// opened then; those nobody took end with Close, and with an Open that
// gave up.
func TestConnectionsOpenedAhead(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := storetest.NewDatabaseDSN(t, true)
	watcher, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer watcher.Close(ctx)
	sessions := func() (names []string) {
		rows, err := watcher.Query(ctx, `SELECT application_name FROM pg_stat_activity
			WHERE datname = current_database() AND application_name LIKE 'fencelab-%' ORDER BY 1`)
		require.NoError(t, err)
		names, err = pgx.CollectRows(rows, pgx.RowTo[string])
		require.NoError(t, err)
		return names
	}
	gone := func(msg string) {
		require.Eventually(t, func() bool { return len(sessions()) == 0 }, 5*time.Second, 10*time.Millisecond, msg)
	}

	db, err := pgledger.Open(ctx, dsn, pgledger.Options{Ahead: []string{"lab", "A", "unused"}})
	require.NoError(t, err)
	a, err := db.Connect(ctx, "A")
	require.NoError(t, err)
	var name string
	var warm bool
	require.NoError(t, pgledger.RawConn(t, a).QueryRow(ctx, `SELECT current_setting('application_name'),
		EXISTS (SELECT FROM pg_prepared_statements WHERE statement LIKE 'SELECT json_build_object(%')`).Scan(&name, &warm))
	require.Equal(t, "fencelab-A", name)
	require.True(t, warm, "the connection opened ahead read the schema once")
	b, err := db.Connect(ctx, "B")
	require.NoError(t, err)
	require.NoError(t, pgledger.RawConn(t, b).QueryRow(ctx,
		`SELECT EXISTS (SELECT FROM pg_prepared_statements WHERE statement LIKE 'SELECT json_build_object(%')`).Scan(&warm))
	require.False(t, warm, "B was not opened ahead")
	require.ElementsMatch(t, []string{"fencelab-A", "fencelab-B", "fencelab-lab", "fencelab-unused"}, sessions())
	require.NoError(t, a.Close(ctx))
	require.NoError(t, b.Close(ctx))
	require.NoError(t, db.Close())
	gone("the connections nobody took outlived Close")

	// An Open that gives up while another run holds the database.
	holder, err := pgledger.Open(ctx, dsn, pgledger.Options{})
	require.NoError(t, err)
	defer holder.Close()
	cancelled, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	_, err = pgledger.Open(cancelled, dsn, pgledger.Options{Ahead: []string{"lab", "A"}})
	require.ErrorIs(t, err, context.DeadlineExceeded)
	gone("an Open that gave up left its connections opened ahead")
}

// On a database of the caller's alone, Open takes no run lock, and the
// connection it checked the schema on is the first opened ahead: one
// server process fewer.
func TestExclusiveOpenTakesNoLockAndKeepsItsConnection(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := storetest.NewDatabaseDSN(t, true)
	prepared, err := pgledger.Open(ctx, dsn, pgledger.Options{}) // migrates
	require.NoError(t, err)
	require.NoError(t, prepared.Close())
	watcher, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer watcher.Close(ctx)
	require.Eventually(t, func() bool { // its server process ends a moment after Close
		var n int
		require.NoError(t, watcher.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND application_name LIKE 'fencelab%'`).Scan(&n))
		return n == 0
	}, 5*time.Second, 5*time.Millisecond)

	db, err := pgledger.Open(ctx, dsn, pgledger.Options{Exclusive: true, Ahead: []string{"lab", "A"}})
	require.NoError(t, err)
	defer db.Close()
	lab, err := db.Connect(ctx, "lab")
	require.NoError(t, err)
	var sessions []string
	var locks int
	var warm bool
	conn := pgledger.RawConn(t, lab)
	// A's connection opens in the background: wait for it, then see that
	// nothing else is there.
	require.Eventually(t, func() bool {
		rows, err := conn.Query(ctx, `SELECT application_name FROM pg_stat_activity
			WHERE datname = current_database() AND application_name LIKE 'fencelab%' ORDER BY 1`)
		if err == nil {
			sessions, err = pgx.CollectRows(rows, pgx.RowTo[string])
		}
		return err == nil && slices.Contains(sessions, "fencelab-A")
	}, 5*time.Second, 5*time.Millisecond, "A's connection opened ahead")
	require.Equal(t, []string{"fencelab-A", "fencelab-lab"}, sessions, "no connection of Open's own beside the lab's")
	require.NoError(t, conn.QueryRow(ctx, `SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'
		AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`).Scan(&locks))
	require.Zero(t, locks, "a run lock taken")
	require.NoError(t, conn.QueryRow(ctx,
		`SELECT EXISTS (SELECT FROM pg_prepared_statements WHERE statement LIKE 'SELECT json_build_object(%')`).Scan(&warm))
	require.True(t, warm, "the connection Open used is warmed as the others")

	// Every connection handed out is made as an actor's, the one Open
	// used too: given back by one lab and handed out to the next lab's
	// actor, its round trips must still park, or that actor's steps run
	// whole and the check sees none of their races.
	require.True(t, pgledger.OnTheWire(lab), "the connection Open used")
	require.NoError(t, lab.Close(ctx)) // given back, clean
	b, err := db.Connect(ctx, "B")
	require.NoError(t, err)
	defer b.Close(ctx)
	require.True(t, pgledger.RawConn(t, b) == conn, "B was handed the connection the lab gave back")
	require.True(t, pgledger.OnTheWire(b), "the connection given back, handed out to an actor")
	a, err := db.Connect(ctx, "A")
	require.NoError(t, err)
	defer a.Close(ctx)
	require.True(t, pgledger.OnTheWire(a), "a connection opened ahead")
}
