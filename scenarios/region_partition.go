package scenarios

import "github.com/fencelab/fencelab/engine"

// regionBTokens is the conflict key of region-b's own token source, which a
// partition leaves it with.
const regionBTokens = ConflictKey + "@region-b"

// regionPartition: region-a epoch 3 is authoritative; a partitioned region-b
// worker with a local token of 100 writes. The big token does not help it:
// SAFE checks the region and its epoch.
func regionPartition() *engine.Scenario {
	b := newWorker("B", "daily-summary", func(m *engine.Memory) int64 { return m.Token })
	b.region, b.regionEp, b.tokenKey = "region-b", 1, regionBTokens
	return &engine.Scenario{
		ID:       "region-partition",
		Title:    "Region partition: a cut-off region with its own tokens",
		Story:    "region-a epoch 3 is authoritative; a partitioned region-b worker with local token 100 writes",
		Seed:     sharedSeed(),
		Expected: 0,
		Actors: func(engine.Mode) []engine.ActorSpec {
			return []engine.ActorSpec{
				operatorSpec(partitionRegion()),
				b.spec(b.acquireLease(), b.writeSummary()),
			}
		},
		Guided: func(engine.Mode) []engine.Action {
			return []engine.Action{engine.Do(operatorName), engine.Do("B"), engine.Do("B")}
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 0, Fence: 0, Verdict: engine.WrongRegion},
			engine.Unsafe: {Final: 100, Fence: 100, Verdict: "STALE_WRITE"},
		},
	}
}
