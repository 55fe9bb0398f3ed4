package scenarios

import "github.com/fencelab/fencelab/engine"

// staleRelease: A takes the lease with token 41 and pauses past it; B
// takes it with 42; A wakes and renews before it writes, as a heartbeat
// would; C wants the lease too. SAFE's renew and release change a lease
// only if it still holds the caller's owner and token: A's renew finds
// B's lease, changes nothing, and A stops; C waits until B is done. UNSAFE
// renews and releases whatever lease is there: A's renew extends B's
// lease, A's release deletes it, and C takes a lease while B still
// believes it holds one.
func staleRelease() *engine.Scenario {
	token := func(m *engine.Memory) int64 { return m.Token }
	a := newWorker("A", "daily-summary", token)
	b := newWorker("B", "daily-summary", token)
	c := newWorker("C", "daily-summary", token)
	for _, w := range []*worker{&a, &b, &c} {
		w.naiveLeases = true
	}
	return &engine.Scenario{
		ID:       "stale-release",
		Title:    "Stale release: a paused worker renews and releases a lease that is no longer its own",
		Story:    "A takes 41 and pauses past its lease; B takes 42; A wakes, renews and releases; C wants the lease while B still holds it",
		Seed:     sharedSeed(),
		Expected: 43,
		Actors: func(engine.Mode) []engine.ActorSpec {
			return []engine.ActorSpec{
				a.spec(a.acquireLease(), a.renewLease(), a.writeSummary(), a.releaseLease()),
				b.spec(b.acquireLease(), b.writeSummary(), b.releaseLease()),
				c.spec(c.acquireLease(), c.writeSummary(), c.releaseLease()),
			}
		},
		Guided: func(mode engine.Mode) []engine.Action {
			start := []engine.Action{
				engine.Do("A"), engine.Pause("A", "GC pause"), engine.AdvanceToNextExpiry(),
				engine.Do("B"), // token 42
				engine.Resume("A"),
				engine.Do("A"), // renew: refused (SAFE: A stops) or B's lease extended (UNSAFE)
			}
			if mode == engine.Unsafe {
				return append(start,
					engine.Do("A"), engine.Do("A"), // writes 41; releases — B's lease
					engine.Do("C"), engine.Do("C"), // token 43 while B holds 42; commits 43
					engine.Do("B"), engine.Do("B"), // commits 42 over 43; releases — C's lease
					engine.Do("C"))
			}
			return append(start,
				engine.Do("C"),                 // contended: B holds the lease
				engine.Do("B"), engine.Do("B"), // commits 42, releases
				engine.Do("C"), engine.Do("C"), engine.Do("C")) // token 43, commits 43, releases
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 43, Fence: 43, Verdict: LeaseLost},
			engine.Unsafe: {Final: 42, Fence: 42, Verdict: "LEASE_STOLEN"},
		},
	}
}
