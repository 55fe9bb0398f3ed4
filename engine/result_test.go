package engine

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVerdict(t *testing.T) {
	committed := func(token int64) Execution { return Execution{State: "COMMITTED", FencingToken: token} }
	rejected := func(reason string) Execution { return Execution{State: "REJECTED", Rejection: reason} }
	for _, tc := range []struct {
		name            string
		expected, final int64
		executions      []Execution
		breaks          []Break
		want            string
	}{
		{"all committed, right value", 30, 30, []Execution{committed(41), committed(42)}, nil, VerdictMatch},
		{"the guard that fired", 42, 42, []Execution{committed(42), rejected(StaleFence)}, nil, StaleFence},
		{"the last guard that fired", 43, 43, []Execution{rejected(StaleFence), committed(1), rejected(StaleNamespace)}, nil, StaleNamespace},
		{"wrong value, nobody refused", 30, 20, []Execution{committed(0), committed(0)}, nil, VerdictLostUpdate},
		{"wrong value, writes refused", 43, 42, []Execution{committed(42), rejected(StaleFence)}, nil, VerdictStuck},
		{"a broken invariant wins", 42, 41, []Execution{committed(42), committed(41)},
			[]Break{{Invariant: 1, Anomaly: "STALE_OVERWRITE"}}, "STALE_OVERWRITE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Verdict(tc.expected, tc.final, tc.executions, tc.breaks))
		})
	}
}

func TestCheckLedger(t *testing.T) {
	tenant := Tenant{TenantID: "t", MembershipRevision: 7, RegionID: "r", RegionEpoch: 3, Active: true}
	rollout := Rollout{NamespaceEpoch: 2, MinimumWriterVersion: 2, CheckpointSchemaVersion: 1}
	exec := func(id string, token int64) Execution {
		return Execution{OperationID: id, TenantID: "t", Owner: "w", FencingToken: token, NamespaceEpoch: 2,
			MembershipRevision: 7, RegionID: "r", RegionEpoch: 3, State: "COMMITTED", ContractVersion: 2}
	}
	state := func(execs ...Execution) LedgerState {
		s := LedgerState{Tenants: []Tenant{tenant}, Rollout: rollout, Executions: execs,
			Resources:   []Resource{{ConflictKey: "k", SummaryValue: 5, LastAcceptedFence: 42}},
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
}
