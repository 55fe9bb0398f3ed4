package scenarios

import "github.com/fencelab/fencelab/engine"

// leaseOverrun: A takes token 41 and stops for a GC pause; its leases
// expire, B takes over with 42 and commits; A wakes up and writes with 41.
// Each worker writes the summary its own run computed, which the seed
// labels with the run's token.
func leaseOverrun() *engine.Scenario {
	value := func(m *engine.Memory) int64 { return m.Token }
	a := newWorker("A", "daily-summary", value)
	b := newWorker("B", "daily-summary", value)
	return &engine.Scenario{
		ID:       "lease-overrun",
		Title:    "Lease overrun: a paused worker comes back with an old token",
		Story:    "A takes token 41, pauses (GC), its lease expires, B takes 42 and commits 42, A resumes and writes 41",
		Seed:     sharedSeed(),
		Expected: 42,
		Actors: func(engine.Mode) []engine.ActorSpec {
			return []engine.ActorSpec{
				a.spec(a.acquireLeader(), a.acquireLease(), a.writeSummary()),
				b.spec(b.acquireLeader(), b.acquireLease(), b.writeSummary()),
			}
		},
		Guided: func(engine.Mode) []engine.Action {
			return []engine.Action{
				engine.Do("A"), engine.Do("A"),
				engine.Pause("A", "GC pause"),
				engine.AdvanceToNextExpiry(),
				engine.Do("B"), engine.Do("B"), engine.Do("B"),
				engine.Resume("A"),
				engine.Do("A"),
			}
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 42, Fence: 42, Verdict: engine.StaleFence},
			engine.Unsafe: {Final: 41, Fence: 41, Verdict: "STALE_OVERWRITE"},
		},
	}
}
