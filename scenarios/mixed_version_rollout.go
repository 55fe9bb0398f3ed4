package scenarios

import "github.com/fencelab/fencelab/engine"

// mixedVersionRollout: a deploy raises the checkpoint schema to 2 and the
// minimum writer version to 2 while an old writer (contract 1) holds token
// 1. SAFE checks the writer's contract against the rollout marker.
func mixedVersionRollout() *engine.Scenario {
	seed := sharedSeed()
	seed.CounterStart = 0 // the old writer's token is 1
	seed.MinimumWriterVersion = 1
	w := newWorker("W", "daily-summary", func(m *engine.Memory) int64 { return m.Token })
	w.contract = 1
	return &engine.Scenario{
		ID:       "mixed-version-rollout",
		Title:    "Mixed-version rollout: an old writer after the deploy",
		Story:    "the deploy raises checkpoint schema to 2 and minimum writer to 2; an old writer (contract 1, token 1) writes",
		Seed:     seed,
		Expected: 0,
		Actors: func(engine.Mode) []engine.ActorSpec {
			return []engine.ActorSpec{
				w.spec(w.acquireLease(), w.writeSummary()),
				operatorSpec(rollout(2, 2)),
			}
		},
		Guided: func(engine.Mode) []engine.Action {
			return []engine.Action{engine.Do("W"), engine.Do(operatorName), engine.Do("W")}
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 0, Fence: 0, Verdict: engine.IncompatibleVersion},
			engine.Unsafe: {Final: 1, Fence: 1, Verdict: "STALE_WRITE"},
		},
	}
}
