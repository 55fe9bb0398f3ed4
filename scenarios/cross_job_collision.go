package scenarios

import "github.com/fencelab/fencelab/engine"

// crossJobCollision: two differently named jobs add to the same summary.
// SAFE leases the resource (the conflict key), so the second job waits for
// the first, and its fenced write adds to the summary it reads under the
// row lock. UNSAFE locks by job name only: both locks are granted, both
// read 0, the second write wins.
func crossJobCollision() *engine.Scenario {
	a := newAdder("A", "daily-summary", 10)
	b := newAdder("B", "backfill-summary", 20)
	return &engine.Scenario{
		ID:       "cross-job-collision",
		Title:    "Cross-job collision: two jobs, one resource",
		Story:    "jobs daily-summary (+10) and backfill-summary (+20) change the same resource",
		Seed:     sharedSeed(),
		Expected: 30,
		Actors: func(mode engine.Mode) []engine.ActorSpec {
			if mode == engine.Unsafe {
				return []engine.ActorSpec{
					a.spec(a.acquireLeader(), a.readSummary(), a.writeSummary(), a.releaseLeader()),
					b.spec(b.acquireLeader(), b.readSummary(), b.writeSummary(), b.releaseLeader()),
				}
			}
			return []engine.ActorSpec{
				a.spec(a.acquireLeader(), a.acquireLease(), a.readSummary(), a.writeSummary(), a.releaseLease()),
				b.spec(b.acquireLeader(), b.acquireLease(), b.readSummary(), b.writeSummary(), b.releaseLease()),
			}
		},
		Guided: func(mode engine.Mode) []engine.Action {
			if mode == engine.Unsafe {
				return []engine.Action{
					engine.Do("A"), engine.Do("B"),
					engine.Do("A"), engine.Do("B"),
					engine.Do("A"), engine.Do("B"),
					engine.Do("A"), engine.Do("B"),
				}
			}
			return []engine.Action{
				engine.Do("A"), engine.Do("B"),
				engine.Do("A"),                                 // A: token 41
				engine.Do("B"),                                 // B: contended, waits
				engine.Do("A"), engine.Do("A"), engine.Do("A"), // A reads 0, commits 10, releases
				engine.Do("B"),                                 // B: token 42
				engine.Do("B"), engine.Do("B"), engine.Do("B"), // B reads 10, commits 30, releases
			}
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 30, Fence: 42, Verdict: engine.VerdictMatch},
			engine.Unsafe: {Final: 20, Fence: 0, Verdict: engine.VerdictLostUpdate},
		},
	}
}
