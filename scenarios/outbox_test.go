package scenarios

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/provider"
	"github.com/fencelab/fencelab/store/storetest"
)

// labWith runs a scenario on fresh embedded backends with a provider the
// test can inspect.
func labWith(t *testing.T, s *engine.Scenario, mode engine.Mode) (*engine.Lab, *provider.Provider) {
	t.Helper()
	backends := engine.Backends{Coordination: storetest.Embedded(t), Database: storetest.Database(t), HoldTTL: 30 * time.Second}
	lab, err := engine.NewLab(context.Background(), backends, s, mode)
	require.NoError(t, err)
	t.Cleanup(func() { lab.Close(context.Background()) })
	return lab, world.ProviderIn(lab).(*provider.Provider)
}

func state(t *testing.T, lab *engine.Lab) engine.Snapshot {
	t.Helper()
	s, err := lab.Snapshot(context.Background())
	require.NoError(t, err)
	return s
}

// Non-fenceable effect: after reconciliation the provider executed the
// effect once and applied it once; UNSAFE's retry applies it twice.
func TestNonFenceableEffect(t *testing.T) {
	ctx := context.Background()

	lab, p := labWith(t, mustScenario("non-fenceable-effect"), engine.Safe)
	require.NoError(t, lab.RunGuided(ctx))
	s := state(t, lab)
	require.Equal(t, 1, p.Executed(), "executed once: reconciliation only queries")
	require.Equal(t, []world.Application{{OperationID: "daily-summary/e2/t42", Effect: "daily-summary/e2/t42"}}, p.Applications())
	require.Equal(t, "CONFIRMED", world.RowsOf(s.Ledger).Outbox[0].Status)
	require.Equal(t, "daily-summary/e2/t42", world.RowsOf(s.Ledger).Receipts[0].OperationID)
	require.Empty(t, s.Result.Breaks)

	lab, p = labWith(t, mustScenario("non-fenceable-effect"), engine.Unsafe)
	require.NoError(t, lab.RunGuided(ctx))
	s = state(t, lab)
	require.Len(t, p.Applications(), 2)
	require.Equal(t, "daily-summary/e2/t42/retry-1", p.Applications()[1].OperationID)
	require.Equal(t, 4, s.Result.Breaks[0].Invariant)
}

// deliveryScenario: a write, an outbox worker that claims and dies, and a
// reconciler — to exercise claim expiry and scripted outcomes.
func deliveryScenario(script map[string]string, worker []engine.Step, reconciler []engine.Step) *engine.Scenario {
	seed := sharedSeed()
	seed.CounterStart = 41
	b := newWorker("B", "daily-summary", func(m *world.Memory) int64 { return m.Token })
	return &engine.Scenario{World: &world.Setting{Seed: seed, ProviderScript: script},
		ID: "delivery", Expected: 1, Measure: world.MeasureEffects,
		Actors: func(engine.Mode) []engine.ActorSpec {
			specs := []engine.ActorSpec{b.spec(b.acquireLease(), b.writeSummary()), outboxSpec(worker...)}
			if reconciler != nil {
				specs = append(specs, engine.ActorSpec{Name: "REC", Label: lang.P("reconciler"), Owner: "reconciler", Program: reconciler})
			}
			return specs
		},
		Guided: func(engine.Mode) []engine.Action { return nil },
	}
}

// A worker that claims a row and dies leaves an expired claim; the
// reconciler finds it only after the claim timeout, queries the original
// OperationId (the provider never saw it) and marks it for reconciliation
// rather than executing it.
func TestOutboxClaimExpiryIsReconciled(t *testing.T) {
	ctx := context.Background()
	s := deliveryScenario(nil, []engine.Step{claimOutbox()}, []engine.Step{findUnknown(), queryProvider(), recordOutcome()})
	lab, p := labWith(t, s, engine.Safe)
	for _, a := range []engine.Action{engine.Do("B"), engine.Do("B"), engine.Do(outboxName), engine.Do("REC")} {
		require.NoError(t, lab.Do(ctx, a))
	}
	require.Equal(t, "REC_RECONCILE", last(lab).Code)
	require.Equal(t, "IDLE", last(lab).State, "the claim still holds")

	// The reconciler's program moved on; a second reconciler comes later.
	require.NoError(t, lab.Undo(ctx))
	require.NoError(t, lab.Do(ctx, engine.AdvanceBy(claimTimeout+time.Second)))
	for range 3 {
		require.NoError(t, lab.Do(ctx, engine.Do("REC")))
	}
	snap := state(t, lab)
	require.Equal(t, 0, p.Executed(), "reconciliation never executes")
	require.Equal(t, "RECONCILIATION_REQUIRED", world.RowsOf(snap.Ledger).Outbox[0].Status)
	require.Empty(t, p.Applications())
}

// A DECLINED answer is final, with its receipt, and applies nothing.
func TestOutboxDeclined(t *testing.T) {
	ctx := context.Background()
	s := deliveryScenario(map[string]string{"daily-summary/e2/t42": world.ProviderDeclined},
		[]engine.Step{claimOutbox(), callProvider(), recordOutcome()}, nil)
	lab, p := labWith(t, s, engine.Safe)
	for _, a := range []engine.Action{engine.Do("B"), engine.Do("B"), engine.Do(outboxName), engine.Do(outboxName), engine.Do(outboxName)} {
		require.NoError(t, lab.Do(ctx, a))
	}
	snap := state(t, lab)
	require.Equal(t, "DECLINED", world.RowsOf(snap.Ledger).Outbox[0].Status)
	require.Equal(t, "DECLINED", world.RowsOf(snap.Ledger).Receipts[0].Status)
	require.Empty(t, p.Applications())
}

// Counter loss: acquire refuses while the history is gone; after the epoch
// bump C's (3, 1) commits and A's (2, 41) is rejected STALE_NAMESPACE.
func TestCounterLoss(t *testing.T) {
	ctx := context.Background()
	lab, _ := labWith(t, mustScenario("counter-loss"), engine.Safe)
	require.NoError(t, lab.RunGuided(ctx))
	var refused, committed, rejected bool
	for _, e := range lab.Events() {
		switch {
		case e.Code == "C_ACQUIRE" && e.State == "REFUSED" && !refused:
			refused = true
			require.Contains(t, e.Detail, "Redis lost the fencing history")
		case e.Code == "C_WRITE":
			committed = e.State == "COMMITTED"
			require.Equal(t, "incoming 1 > last accepted none → true", e.Guard)
		case e.Code == "A_WRITE":
			rejected = e.State == "REJECTED"
			require.Equal(t, "incoming namespace epoch 2 = current 3 → false", e.Guard)
		}
	}
	require.True(t, refused && committed && rejected)
	s := state(t, lab)
	r, _ := world.RowsOf(s.Ledger).Resource(ConflictKey)
	require.Equal(t, world.Resource{ConflictKey: ConflictKey, NamespaceEpoch: 3, LastAcceptedFence: 1, SummaryValue: 43, UpdatedAt: r.UpdatedAt}, r)
}

func last(lab *engine.Lab) engine.Event {
	events := lab.Events()
	return events[len(events)-1]
}

func mustScenario(id string) *engine.Scenario {
	s, ok := ByID(id)
	if !ok {
		panic("no scenario " + id)
	}
	return s
}
