package scenarios

import "github.com/fencelab/fencelab/engine"

// staleRead: what `fencelab check` found in the seed's own design. Two jobs
// add to one summary under the resource lease and the fenced write. A takes
// token 41 and reads the summary (0), then pauses past its lease; B takes 42
// and reads 0 as well; A wakes and commits 0 + 10 (41 > none: accepted); B
// commits 0 + 20 (42 > 41: accepted). The fence orders the writes, but
// nothing made B's read current: A's +10 is lost although every guard
// passed. UNSAFE is that seed design, the read outside the transaction.
// SAFE keeps the same steps, and its write reads the summary again inside
// the fenced transaction, under the row lock, and adds to that.
func staleRead() *engine.Scenario {
	a := newAdder("A", "daily-summary", 10)
	b := newAdder("B", "backfill-summary", 20)
	for _, w := range []*worker{&a, &b} {
		w.alwaysFenced = true
	}
	return &engine.Scenario{
		ID:    "stale-read",
		Title: "Stale read: a fenced write built on an old read",
		Story: "A reads 0 with token 41 and pauses; B takes 42 and reads 0; both commit through the fence and A's +10 is lost — the seed's design misses it",
		Seed:  sharedSeed(),
		// 0 + 10 + 20.
		Expected: 30,
		Actors: func(engine.Mode) []engine.ActorSpec {
			return []engine.ActorSpec{
				a.spec(a.acquireLease(), a.readSummary(), a.writeSummary(), a.releaseLease()),
				b.spec(b.acquireLease(), b.readSummary(), b.writeSummary(), b.releaseLease()),
			}
		},
		Guided: func(engine.Mode) []engine.Action {
			return []engine.Action{
				engine.Do("A"), engine.Do("A"), // token 41, reads 0
				engine.Pause("A", "GC pause"),
				engine.AdvanceToNextExpiry(),   // A's lease expires
				engine.Do("B"), engine.Do("B"), // token 42, reads 0
				engine.Resume("A"),
				engine.Do("A"),                 // commits 10 with 41 (> none)
				engine.Do("B"),                 // commits with 42 (> 41): 20 from its old read, or 30 under the lock
				engine.Do("A"), engine.Do("B"), // release: A's lease was long gone
			}
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 30, Fence: 42, Verdict: engine.VerdictMatch},
			engine.Unsafe: {Final: 20, Fence: 42, Verdict: engine.VerdictLostUpdate},
		},
	}
}
