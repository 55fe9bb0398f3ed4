package scenarios

import (
	"github.com/fencelab/fencelab/engine"
)

// The four scenarios of the second seed. Job ids: R1 creates job-1, R2
// job-2; W1 and W2 are their workers.

var (
	r1 = request{name: "R1", jobID: "job-1"}
	r2 = request{name: "R2", jobID: "job-2"}
	w1 = jobWorker{name: "W1", request: "R1"}
	w2 = jobWorker{name: "W2", request: "R2"}
)

// asyncJobAcquire: two requests for one target both look for a running job
// before either creates one.
func asyncJobAcquire() *engine.Scenario {
	return &engine.Scenario{
		ID:       "async-job-acquire",
		Title:    "Async job acquire: two requests, one target",
		Story:    "two requests for one target both look for a running job before either creates one",
		Seed:     sharedSeed(),
		Expected: 1,
		Measure:  measureJobHashes,
		Actors: func(mode engine.Mode) []engine.ActorSpec {
			return []engine.ActorSpec{r1.spec(mode), r2.spec(mode), w1.spec(mode), w2.spec(mode)}
		},
		Guided: func(mode engine.Mode) []engine.Action {
			if mode == engine.Unsafe {
				return []engine.Action{
					engine.Do("R1"), engine.Do("R2"), // both GET: nothing running
					engine.Do("R1"), engine.Do("R2"), // both HSET a job
					engine.Do("R1"), engine.Do("R2"), // both SET the pointer; the last wins
					engine.Do("W1"), engine.Do("W2"), // two workers run
				}
			}
			return []engine.Action{engine.Do("R1"), engine.Do("R2"), engine.Do("W1"), engine.Do("W2")}
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 1, Verdict: engine.VerdictMatch},
			engine.Unsafe: {Final: 2, Verdict: "DUPLICATE_JOB"},
		},
	}
}

// terminalTransition: a status poll marks a job FAILED at its absolute
// 10-minute deadline; its worker then finishes.
func terminalTransition() *engine.Scenario {
	return &engine.Scenario{
		ID:       "terminal-transition",
		Title:    "Terminal transition: SUCCESS after FAILED",
		Story:    "a status poll marks a job FAILED at its absolute 10-minute deadline; its worker then finishes",
		Seed:     sharedSeed(),
		Expected: 0,
		Measure:  measureApplied,
		Actors: func(mode engine.Mode) []engine.ActorSpec {
			return []engine.ActorSpec{r1.spec(mode), w1.spec(mode), poller{watch: "R1"}.spec(mode), applyAPI("R1")}
		},
		Guided: func(mode engine.Mode) []engine.Action {
			start := []engine.Action{engine.Do("R1")}
			if mode == engine.Unsafe {
				start = []engine.Action{engine.Do("R1"), engine.Do("R1"), engine.Do("R1")}
			}
			middle := []engine.Action{engine.Do("W1"), engine.AdvanceBy(jobDeadline), engine.Do("P")}
			end := []engine.Action{engine.Do("W1"), engine.Do("AP")}
			if mode == engine.Unsafe {
				middle = append(middle, engine.Do("P")) // DEL running key
				end = []engine.Action{engine.Do("W1"), engine.Do("W1"), engine.Do("AP")}
			}
			return append(append(start, middle...), end...)
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 0, Verdict: engine.IllegalTransition},
			engine.Unsafe: {Final: 1, Verdict: "TERMINAL_OVERWRITE"},
		},
	}
}

// pointerOwnership: job 1 lost the running key (it failed at its deadline,
// then job 2 was acquired); job 1's worker finishes late.
func pointerOwnership() *engine.Scenario {
	return &engine.Scenario{
		ID:       "pointer-ownership",
		Title:    "Pointer ownership: a late worker and a newer job",
		Story:    "job 1 lost the running key (failed, then job 2 acquired); job 1's worker finishes late",
		Seed:     sharedSeed(),
		Expected: 1,
		Measure:  measureCurrentPointer,
		Actors: func(mode engine.Mode) []engine.ActorSpec {
			return []engine.ActorSpec{r1.spec(mode), w1.spec(mode), poller{watch: "R1"}.spec(mode), r2.spec(mode)}
		},
		Guided: func(mode engine.Mode) []engine.Action {
			if mode == engine.Unsafe {
				return []engine.Action{
					engine.Do("R1"), engine.Do("R1"), engine.Do("R1"),
					engine.Do("W1"), engine.AdvanceBy(jobDeadline), engine.Do("P"), engine.Do("P"),
					engine.Do("R2"), engine.Do("R2"), engine.Do("R2"),
					engine.Do("W1"), engine.Do("W1"), // DEL running key (job-2's), HSET SUCCESS
				}
			}
			return []engine.Action{
				engine.Do("R1"), engine.Do("W1"), engine.AdvanceBy(jobDeadline), engine.Do("P"),
				engine.Do("R2"), engine.Do("W1"),
			}
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 1, Verdict: engine.NotOwner},
			engine.Unsafe: {Final: 0, Verdict: "POINTER_STOLEN"},
		},
	}
}

// workerStartFailure: the process dies right after writing the running
// key, before the worker starts.
func workerStartFailure() *engine.Scenario {
	return &engine.Scenario{
		ID:        "worker-start-failure",
		Title:     "Worker start failure: a RUNNING job nobody runs",
		Story:     "the process dies right after writing the running key, before the worker starts",
		Seed:      sharedSeed(),
		Expected:  2,
		Measure:   measureJobHashes,
		Shortfall: engine.VerdictStuck,
		Actors: func(mode engine.Mode) []engine.ActorSpec {
			return []engine.ActorSpec{r1.spec(mode), crash("W1"), w1.spec(mode), poller{watch: "R1"}.spec(mode), r2.spec(mode), w2.spec(mode)}
		},
		Guided: func(mode engine.Mode) []engine.Action {
			if mode == engine.Unsafe {
				return []engine.Action{
					engine.Do("R1"), engine.Do("R1"), engine.Do("R1"), engine.Do("X"),
					engine.AdvanceBy(jobDeadline), engine.Do("P"),
					engine.Do("R2"), engine.Do("W2"), // R2 reuses the dead job
				}
			}
			return []engine.Action{
				engine.Do("R1"), engine.Do("X"), engine.AdvanceBy(jobDeadline), engine.Do("P"),
				engine.Do("R2"), engine.Do("W2"), engine.Do("W2"),
			}
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 2, Verdict: DeadlineExceeded},
			engine.Unsafe: {Final: 1, Verdict: engine.VerdictStuck},
		},
	}
}
