package scenarios

import "github.com/fencelab/fencelab/engine"

// dynamicTenant: a job triggered at membership revision 7 is still running
// when the operator removes the tenant (revision 8). SAFE re-checks the
// membership in the write's transaction; UNSAFE writes from the snapshot it
// was triggered with.
func dynamicTenant() *engine.Scenario {
	seed := sharedSeed()
	seed.CounterStart = 6 // the job's token is 7
	a := newWorker("A", "daily-summary", func(m *engine.Memory) int64 { return m.Token })
	return &engine.Scenario{
		ID:       "dynamic-tenant",
		Title:    "Dynamic tenant: the tenant moves while its job runs",
		Story:    "triggered at membership revision 7; the operator removes the tenant (revision 8) before the write",
		Seed:     seed,
		Expected: 0,
		Actors: func(engine.Mode) []engine.ActorSpec {
			return []engine.ActorSpec{
				a.spec(a.acquireLease(), a.writeSummary()),
				operatorSpec(removeTenant(8)),
			}
		},
		Guided: func(engine.Mode) []engine.Action {
			return []engine.Action{engine.Do("A"), engine.Do(operatorName), engine.Do("A")}
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 0, Fence: 0, Verdict: engine.StaleMembership},
			engine.Unsafe: {Final: 7, Fence: 7, Verdict: "STALE_WRITE"},
		},
	}
}
