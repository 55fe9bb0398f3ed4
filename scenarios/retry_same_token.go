package scenarios

import "github.com/fencelab/fencelab/engine"

// retrySameToken: A adds 10 to the summary with token 41; the commit lands
// but its reply is lost (a client-side timeout), so A cannot tell, and
// sends the same write again with the same token. SAFE's fence compares
// with <, never <=: 41 is not above the last accepted 41, so the retry is
// recognised as the write already there and refused. UNSAFE's naive write
// adds in place, unconditionally, and its retry is a new request: +10
// twice.
func retrySameToken() *engine.Scenario {
	a := newAdder("A", "daily-summary", 10)
	a.losesReply, a.addsInPlace = true, true
	return &engine.Scenario{
		ID:       "retry-same-token",
		Title:    "Retry with the same token: a commit whose reply was lost",
		Story:    "A commits +10 with token 41 but the reply is lost (a client-side timeout); A sends the same write again with the same token",
		Seed:     sharedSeed(),
		Expected: 10,
		Actors: func(engine.Mode) []engine.ActorSpec {
			return []engine.ActorSpec{a.spec(a.acquireLease(), a.writeSummary(), a.retryWrite(), a.releaseLease())}
		},
		Guided: func(engine.Mode) []engine.Action {
			return []engine.Action{
				engine.Do("A"), // token 41
				engine.Do("A"), // commits +10; the reply is lost
				engine.Do("A"), // the retry: refused (SAFE) or applied again (UNSAFE)
				engine.Do("A"), // release
			}
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 10, Fence: 41, Verdict: engine.StaleFence},
			engine.Unsafe: {Final: 20, Fence: 41, Verdict: "DUPLICATE_WRITE"},
		},
	}
}
