package scenarios

import "github.com/fencelab/fencelab/engine"

// counterLoss: A takes 41 and pauses; B takes 42 and commits; Redis restarts
// without persistence and loses the counter; C wants to commit 43; A
// resumes. SAFE refuses to hand out tokens from zero again: the operator
// bumps the namespace epoch 2 → 3, C commits with (3, 1), and A's (2, 41) is
// rejected. UNSAFE's acquire recreates the counter from zero: C gets token 1
// under the old epoch and its write can never pass the fence of 42.
func counterLoss() *engine.Scenario {
	token := func(m *engine.Memory) int64 { return m.Token }
	a := newWorker("A", "daily-summary", token)
	b := newWorker("B", "daily-summary", token)
	c := newWorker("C", "daily-summary", func(*engine.Memory) int64 { return 43 })
	for _, w := range []*worker{&a, &b, &c} {
		w.alwaysFenced, w.naiveAcquire = true, true
	}
	return &engine.Scenario{
		ID:       "counter-loss",
		Title:    "Counter loss: Redis forgets the fencing counter",
		Story:    "A takes 41 and pauses; B takes 42 and commits; Redis restarts without persistence; C wants to commit 43; A resumes",
		Seed:     sharedSeed(),
		Expected: 43,
		// UNSAFE never reaches 43: every write of C is refused.
		Shortfall: engine.VerdictStuck,
		Actors: func(mode engine.Mode) []engine.ActorSpec {
			op := operatorSpec(restartRedis(), bumpNamespaceRedis(3), bumpNamespaceDatabase(3))
			if mode == engine.Unsafe {
				op = operatorSpec(restartRedis())
			}
			return []engine.ActorSpec{
				a.spec(a.acquireLease(), a.writeSummary()),
				b.spec(b.acquireLease(), b.writeSummary()),
				c.spec(c.acquireLease(), c.writeSummary()),
				op,
			}
		},
		Guided: func(mode engine.Mode) []engine.Action {
			start := []engine.Action{
				engine.Do("A"), engine.Pause("A", "GC pause"), engine.AdvanceToNextExpiry(),
				engine.Do("B"), engine.Do("B"),
				engine.Do(operatorName), // Redis restarts
			}
			end := []engine.Action{engine.Resume("A"), engine.Do("A")}
			if mode == engine.Unsafe {
				return append(append(start, engine.Do("C"), engine.Do("C")), end...)
			}
			middle := []engine.Action{
				engine.Do("C"),                                   // refused: history lost
				engine.Do(operatorName), engine.Do(operatorName), // epoch 3 in Redis, then PostgreSQL
				engine.Do("C"), // Redis is at epoch 3: C moves to it
				engine.Do("C"), // token 1 under epoch 3
				engine.Do("C"), // commits 43 with (3, 1)
			}
			return append(append(start, middle...), end...)
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 43, Fence: 1, Verdict: engine.StaleNamespace},
			engine.Unsafe: {Final: 42, Fence: 42, Verdict: engine.VerdictStuck},
		},
	}
}
