package scenarios

import "github.com/fencelab/fencelab/engine"

// pointerSplit: job 1's running pointer is a lease on the target's run
// right, with the lab's lease TTL (30s on the embedded Redis); its hash
// lives an hour.
// The pointer expires while job 1 still runs; R2 starts job 2; job 1's
// worker finishes late. SAFE's transition lets a job succeed only while
// the pointer names it, and clear only a pointer that names it: job 1's
// SUCCESS is refused and job 2's pointer stays. UNSAFE's late worker DELs
// the running key — job 2's — and sets SUCCESS, which the apply API then
// publishes.
func pointerSplit() *engine.Scenario {
	first := request{name: "R1", jobID: "job-1", leasedPointer: true}
	second := request{name: "R2", jobID: "job-2", leasedPointer: true}
	return &engine.Scenario{
		ID:       "pointer-split",
		Title:    "Pointer split: the running key expires before its job does",
		Story:    "job 1's running key, a lease with the lease TTL, expires while its hash (1h) still says RUNNING; R2 starts job 2; job 1's worker finishes late",
		Seed:     sharedSeed(),
		Expected: 0,
		Measure:  measureApplied,
		Actors: func(mode engine.Mode) []engine.ActorSpec {
			return []engine.ActorSpec{first.spec(mode), w1.spec(mode), second.spec(mode), applyAPI("R1")}
		},
		Guided: func(mode engine.Mode) []engine.Action {
			if mode == engine.Unsafe {
				return []engine.Action{
					engine.Do("R1"), engine.Do("R1"), engine.Do("R1"), engine.Do("W1"),
					engine.AdvanceToNextExpiry(), // the running key's lease TTL
					engine.Do("R2"), engine.Do("R2"), engine.Do("R2"),
					engine.Do("W1"), engine.Do("W1"), // DEL running key (job-2's), HSET SUCCESS
					engine.Do("AP"),
				}
			}
			return []engine.Action{
				engine.Do("R1"), engine.Do("W1"),
				engine.AdvanceToNextExpiry(), // the running key's lease TTL
				engine.Do("R2"), engine.Do("W1"), engine.Do("AP"),
			}
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 0, Verdict: engine.NotOwner},
			engine.Unsafe: {Final: 1, Verdict: "POINTER_STOLEN"},
		},
	}
}
