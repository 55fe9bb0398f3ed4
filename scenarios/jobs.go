package scenarios

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
)

// The second seed: a job started by a request runs in a worker and keeps
// its status, progress and results in a Redis hash; the results reach
// PostgreSQL only through an apply step that requires SUCCESS. SAFE takes
// the job with one Lua acquireJob and changes its status with the Lua
// transition; UNSAFE runs the naive commands one by one.

const (
	// JobTarget is the evaluation whose comments the job rewrites.
	JobTarget = "evaluation-17"
	jobItems  = 3
	// jobTTL is the TTL of the job hash and its running pointer.
	jobTTL = time.Hour
	// jobDeadline is the absolute deadline of a job, from its createdAt.
	jobDeadline = 10 * time.Minute
	jobResults  = "3 comments rewritten"
	// DeadlineExceeded is the poller's refusal of a job past its deadline.
	DeadlineExceeded = "DEADLINE_EXCEEDED"
)

// request is an API request that starts the job (or reuses the running one).
type request struct {
	name  string // R1
	jobID string // the id it creates: job-1
	// leasedPointer gives the running pointer the lab's lease TTL instead
	// of the job hash's hour: the pointer is then a lease on the target's
	// run right, and the two keys part ways while the job runs.
	leasedPointer bool
}

func (r request) pointerLife(t *engine.Turn) time.Duration {
	if r.leasedPointer {
		return t.HoldTTL()
	}
	return jobTTL
}

// callCreateJob is the index of the HSET among the calls of SAFE's acquire
// step (vocabulary: acquire-job), where a lookup that found no pointer goes on.
const callCreateJob = 2

func (r request) acquireJob() engine.Call {
	return engine.Call{Name: "acquireJob (Lua)", Touches: stampJobs, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		if t.Off(world.GuardAtomicAcquire) {
			return r.getRunning().Run(ctx, t)
		}
		grant, err := world.Jobs(t).AcquireJob(ctx, JobTarget, r.jobID, jobItems, t.Now(), jobTTL, r.pointerLife(t))
		if err != nil {
			return 0, err
		}
		m := world.MemoryOf(t)
		m.JobID, m.JobReused = grant.JobID, grant.Reused
		if grant.Reused {
			t.Emitf(engine.LayerCoordination, "ACQUIRE_JOB", "REUSED", "%s is running for %s: %s returns it and starts no worker",
				grant.JobID, JobTarget, r.name)
			t.Narrate("One script looked for the running job and would have created it in the same step, so the second request can only find the first one's job.")
			return engine.Advance, nil
		}
		t.Emitf(engine.LayerCoordination, "ACQUIRE_JOB", "ACQUIRED", "%s created with its running pointer in one script; its worker starts", grant.JobID)
		t.Narrate("%s creates %s and points the running key at it in one script: no other request can slip in between.", r.name, grant.JobID)
		return engine.Advance, nil
	}}
}

// getRunning is the naive lookup's first round trip: GET the pointer.
func (r request) getRunning() engine.Call {
	return engine.Call{Name: "GET running key", Touches: readJobs, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		id, found, err := world.Jobs(t).GetRunning(ctx, JobTarget)
		if err != nil {
			return 0, err
		}
		if found {
			world.MemoryOf(t).Seen = world.Sighting{Found: true, Pointer: id}
			t.Emitf(engine.LayerCoordination, "GET_RUNNING", "READ", "running key → %s: %s will read its status", id, r.name)
			t.Narrate("%s finds the running key pointing at %s; whether that job still runs is a second read, and anything can happen in between.", r.name, id)
			return engine.Continue, nil
		}
		t.Emitf(engine.LayerCoordination, "GET_RUNNING", "READ", "no running job for %s: %s will create one", JobTarget, r.name)
		t.Narrate("%s saw no running job. Nothing stops another request from seeing the same before either writes.", r.name)
		return engine.ContinueAt(callCreateJob), nil
	}}
}

// readRunning is the naive lookup's second round trip: the status of the
// job the pointer named; a RUNNING job is reused.
func (r request) readRunning() engine.Call {
	return engine.Call{Name: "read the running job", Touches: readJobs, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		m := world.MemoryOf(t)
		id := m.Seen.Pointer
		if id == "" {
			return engine.Continue, nil
		}
		job, ok, err := world.Jobs(t).ReadJob(ctx, JobTarget, id)
		if err != nil {
			return 0, err
		}
		if ok && job.Status == world.JobRunning {
			m.JobID, m.JobReused = id, true
			t.Emitf(engine.LayerCoordination, "GET_RUNNING", "REUSED", "running key → %s (RUNNING): %s returns it", id, r.name)
			t.Narrate("%s finds %s running and hands it back instead of starting another — even if nobody is working on it.", r.name, id)
			return engine.Finish, nil
		}
		status := "gone"
		if ok {
			status = job.Status
		}
		t.Emitf(engine.LayerCoordination, "GET_RUNNING", "READ", "%s is %s: %s will create a job of its own", id, status, r.name)
		t.Narrate("%s sees %s is %s, so it will start a job of its own.", r.name, id, status)
		return engine.Continue, nil
	}}
}

func (r request) createJobHash() engine.Call {
	return engine.Call{Name: "HSET job hash", Touches: stampJobs, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		if err := world.Jobs(t).CreateJobHash(ctx, JobTarget, r.jobID, jobItems, t.Now(), jobTTL); err != nil {
			return 0, err
		}
		world.MemoryOf(t).JobID = r.jobID
		t.Emitf(engine.LayerCoordination, "HSET_JOB", "CREATED", "%s created RUNNING (0/%d); the running key is not set yet", r.jobID, jobItems)
		t.Narrate("%s writes %s as RUNNING, but the running key does not point at it yet: for a moment nobody can find it.", r.name, r.jobID)
		return engine.Continue, nil
	}}
}

func (r request) setRunning() engine.Call {
	return engine.Call{Name: "SET running key", Touches: writeJobs, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		if err := world.Jobs(t).SetRunning(ctx, JobTarget, r.jobID, r.pointerLife(t)); err != nil {
			return 0, err
		}
		t.Emitf(engine.LayerCoordination, "SET_RUNNING", "WRITTEN", "running key → %s; its worker starts", r.jobID)
		t.Narrate("%s points the running key at %s — whatever it pointed at before is now unreachable.", r.name, r.jobID)
		return engine.Advance, nil
	}}
}

// jobWorker processes the job its request started, then marks it SUCCESS.
type jobWorker struct {
	name    string // W1
	request string // R1
}

func (w jobWorker) process() engine.Step {
	return engine.Step{Name: "process items", Touches: withPeers(stampJobs, w.request), Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		req := world.Remembers(t.Peer(w.request))
		switch {
		case req.JobReused:
			t.Emitf(engine.LayerAPI, "START", "NOT_STARTED", "%s reused %s: no worker of its own was started", w.request, req.JobID)
			t.Narrate("%s has nothing to do: %s reused a job that was already running.", w.name, w.request)
			return engine.Finish, nil
		case req.JobID == "":
			t.Emitf(engine.LayerAPI, "START", "IDLE", "%s has started no job yet", w.request)
			t.Narrate("%s waits: %s has not started a job yet.", w.name, w.request)
			return engine.Wait, nil
		}
		world.MemoryOf(t).JobID = req.JobID
		found, err := world.Jobs(t).ReportProgress(ctx, JobTarget, req.JobID, jobItems, jobResults, t.Now())
		if err != nil {
			return 0, err
		}
		if !found {
			t.Emitf(engine.LayerAPI, "PROCESS", "GONE", "%s is gone from Redis (its TTL ended); %s stops", req.JobID, w.name)
			t.Narrate("%s's job expired from Redis before it began, so it stops.", w.name)
			return engine.Finish, nil
		}
		t.Emitf(engine.LayerAPI, "PROCESS", "PROCESSED", "%s processed %d/%d items of %s; the results wait in Redis",
			w.name, jobItems, jobItems, req.JobID)
		t.Narrate("%s does the work of %s and leaves its results in Redis, beating its heartbeat as it goes.", w.name, req.JobID)
		return engine.Advance, nil
	}}
}

func (w jobWorker) markSuccess() engine.Step {
	return engine.Step{Name: "mark SUCCESS (Lua)", Touches: writeJobs, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		id := world.MemoryOf(t).JobID
		result, err := world.Jobs(t).TransitionJob(ctx, JobTarget, id, world.JobSuccess, t.Unguarded(world.GuardTerminal, world.GuardPointer))
		if errors.Is(err, engine.ErrNotFound) {
			t.Emitf(engine.LayerCoordination, "SUCCESS", "GONE", "%s is gone from Redis (its TTL ended): nothing to mark", id)
			t.Narrate("%s expired from Redis before its worker finished, so there is nothing left to mark.", id)
			return engine.Advance, nil
		}
		if err != nil {
			return 0, err
		}
		if result.Applied {
			switch result.PointerCleared {
			case id:
				t.Emitf(engine.LayerCoordination, "SUCCESS", "APPLIED", "%s RUNNING → SUCCESS; running key released", id)
				t.Narrate("%s finishes: the script marks it SUCCESS and releases the running key in the same step.", id)
			case "":
				t.Emitf(engine.LayerCoordination, "SUCCESS", "APPLIED", "%s → SUCCESS; it held no running key", id)
				t.Narrate("%s is marked SUCCESS although it no longer holds the running key: nothing checked whose run this was.", id)
			default:
				t.Emitf(engine.LayerCoordination, "SUCCESS", "APPLIED", "%s → SUCCESS, and it deleted the running key of %s", id, result.PointerCleared)
				t.Narrate("%s succeeds late and deletes the running key, which named %s: the newer job is running with nothing pointing at it.", id, result.PointerCleared)
			}
			return engine.Advance, nil
		}
		guard := fmt.Sprintf("%s is %s, not RUNNING → false", id, result.Status)
		if result.Refusal == world.NotOwner {
			guard = fmt.Sprintf("running key → %s → false", id)
		}
		t.Emit(engine.LayerCoordination, "SUCCESS", "REJECTED", guard,
			"late SUCCESS of %s refused (%s); the job stays %s", id, result.Refusal, result.Status)
		t.Refuse(result.Refusal)
		if result.Refusal == world.NotOwner {
			t.Narrate("%s lost its running key to a newer job, so the script refuses its SUCCESS: the apply step will never publish a run that lost ownership.", id)
		} else {
			t.Narrate("%s already ended as %s; a terminal state never changes, however late the worker finishes.", id, result.Status)
		}
		return engine.Advance, nil
	}}
}

// setSuccessNaive is the naive markSuccess: HSET status SUCCESS, whatever
// the status was.
func (w jobWorker) setSuccessNaive() engine.Step {
	return engine.Step{Name: "HSET status SUCCESS", Touches: writeJobs, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		id := world.MemoryOf(t).JobID
		before := statusBefore(t, id)
		if err := world.Jobs(t).SetJobStatus(ctx, JobTarget, id, world.JobSuccess); err != nil {
			return 0, err
		}
		t.Emitf(engine.LayerCoordination, "SUCCESS", "WRITTEN", "HSET %s status SUCCESS (it was %s)", id, before)
		if before == world.JobFailed {
			t.Narrate("The plain HSET turns a FAILED job into SUCCESS: RUNNING → FAILED → SUCCESS, and the apply API now believes it.")
		} else {
			t.Narrate("The plain HSET marks %s SUCCESS without asking whether it still holds the running key; the apply API will believe it.", id)
		}
		return engine.Advance, nil
	}}
}

// statusBefore is a job's status as it was before this call, for the
// narration ("it was FAILED"): the naive write itself reads nothing.
func statusBefore(t *engine.Turn, id string) string {
	for _, j := range world.ReadingOf(t.Before()).Jobs.Jobs {
		if j.Target == JobTarget && j.ID == id {
			return j.Status
		}
	}
	return "gone"
}

// deleteRunningNaive DELs the running key without asking whose it is. The
// job it means to release is its own, or, with jobOf, that actor's.
func deleteRunningNaive(name, jobOf string) engine.Step {
	return engine.Step{Name: name, Touches: withPeers(writeJobs, jobOf), Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		pointer, found := world.ReadingOf(t.Before()).Jobs.Running[JobTarget]
		if err := world.Jobs(t).DeleteRunning(ctx, JobTarget); err != nil {
			return 0, err
		}
		own := world.MemoryOf(t).JobID
		if jobOf != "" {
			own = world.Remembers(t.Peer(jobOf)).JobID
		}
		switch {
		case !found:
			t.Emitf(engine.LayerCoordination, "DEL_RUNNING", "DELETED", "DEL running key: there was none")
			t.Narrate("The running key is deleted, though nothing was there to delete.")
		case pointer == own:
			t.Emitf(engine.LayerCoordination, "DEL_RUNNING", "DELETED", "DEL running key (it pointed at %s)", pointer)
			t.Narrate("The running key that pointed at %s is deleted, so the next request will start afresh.", pointer)
		default:
			t.Emitf(engine.LayerCoordination, "DEL_RUNNING", "DELETED", "DEL running key — it pointed at %s, not %s", pointer, own)
			t.Narrate("An unconditional DEL: the old job's cleanup deletes the running key of %s, the job that is running now.", pointer)
		}
		return engine.Advance, nil
	}}
}

// poller is the status endpoint a client polls, for the job of R1. SAFE
// fails a RUNNING job at its absolute deadline, createdAt + 10 minutes on
// the lab clock, with the Lua transition. UNSAFE times out on a heartbeat
// instead (10 minutes without progress, and a job that never reported any
// is "still starting"), and fails with a plain HSET and DEL. Either reads
// the job first and acts on what it read in a second round trip.
type poller struct{ watch string }

func (p poller) job(ctx context.Context, t *engine.Turn) (world.Job, bool, error) {
	id := world.Remembers(t.Peer(p.watch)).JobID
	if id == "" {
		return world.Job{}, false, nil
	}
	return world.Jobs(t).ReadJob(ctx, JobTarget, id)
}

// pollDeadline reads the job; a RUNNING one past its deadline is failed by
// the next call. Without the deadline guard nothing fails it.
func (p poller) pollDeadline() engine.Call {
	return engine.Call{Name: "read the job's status", Touches: withPeers(engine.Touching(world.TouchJobs|engine.TouchClock, 0), p.watch), Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		job, found, err := p.job(ctx, t)
		if err != nil {
			return 0, err
		}
		if !found {
			t.Emitf(engine.LayerAPI, "POLL", "IDLE", "no job of %s to poll", p.watch)
			t.Narrate("The poller waits: %s has no job yet.", p.watch)
			return engine.Wait, nil
		}
		deadline := job.CreatedAt.Add(jobDeadline)
		if job.Status != world.JobRunning {
			t.Emitf(engine.LayerAPI, "POLL", job.Status, "%s is %s", job.ID, job.Status)
			t.Narrate("The poller sees %s is already %s and leaves it.", job.ID, job.Status)
			return engine.Advance, nil
		}
		if t.Now().Before(deadline) {
			t.Emitf(engine.LayerAPI, "POLL", "RUNNING", "%s RUNNING %d/%d; deadline in %s", job.ID, job.Processed, job.Total,
				deadline.Sub(t.Now()).Round(time.Second))
			t.Narrate("The poller reads %s RUNNING before its deadline and leaves it: running slowly is not failing.", job.ID)
			return engine.Wait, nil
		}
		if t.Off(world.GuardDeadline) {
			t.Emitf(engine.LayerAPI, "POLL", "RUNNING", "%s RUNNING past its deadline: nothing fails it (the deadline guard is removed)", job.ID)
			t.Narrate("Without the deadline, a job nobody runs stays RUNNING, and every request that comes reuses it.")
			return engine.Wait, nil
		}
		world.MemoryOf(t).Seen = world.Sighting{Found: true, Job: job}
		t.Emitf(engine.LayerAPI, "POLL", "OVERDUE", "%s RUNNING past its deadline (createdAt + 10m = %s): the poller fails it next",
			job.ID, clock(t, deadline))
		t.Narrate("The poller reads %s RUNNING and past its deadline; it fails it in its next call, whatever happens to the job in between.", job.ID)
		return engine.Continue, nil
	}}
}

// failAtDeadline fails the job the poller found overdue, with the Lua
// transition: the job may have moved on since it was read.
func (p poller) failAtDeadline() engine.Call {
	return engine.Call{Name: "mark FAILED (Lua)", Touches: stampJobs, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		job := world.MemoryOf(t).Seen.Job
		deadline := job.CreatedAt.Add(jobDeadline)
		result, err := world.Jobs(t).TransitionJob(ctx, JobTarget, job.ID, world.JobFailed, t.Unguarded(world.GuardTerminal, world.GuardPointer))
		if errors.Is(err, engine.ErrNotFound) {
			t.Emitf(engine.LayerAPI, "POLL", "GONE", "%s expired while being polled", job.ID)
			t.Narrate("%s expired from Redis while the poller looked at it.", job.ID)
			return engine.Advance, nil
		}
		if err != nil {
			return 0, err
		}
		if !result.Applied {
			t.Emitf(engine.LayerAPI, "POLL", result.Status, "%s could not be failed: %s", job.ID, result.Refusal)
			t.Narrate("The poller could not fail %s: %s.", job.ID, result.Refusal)
			return engine.Advance, nil
		}
		released := lang.P("the running key was not its own and stays")
		switch result.PointerCleared {
		case job.ID:
			released = lang.P("its running key is released")
		case "":
		default:
			released = lang.P("the running key of %s is deleted", result.PointerCleared)
		}
		t.Emit(engine.LayerAPI, "POLL", "FAILED", fmt.Sprintf("now %s ≥ createdAt + 10m = %s → true", clock(t, t.Now()), clock(t, deadline)),
			"%s → FAILED at its deadline; %s", job.ID, released)
		t.Refuse(DeadlineExceeded)
		t.Narrate("The deadline counts from createdAt, not from the last heartbeat: a job whose worker never started still ends, and the next request can start afresh.")
		return engine.Advance, nil
	}}
}

func clock(t *engine.Turn, at time.Time) string {
	return engine.FormatClock(at.Sub(world.SeedIn(t).Now))
}

func (p poller) pollHeartbeat() engine.Call {
	return engine.Call{Name: "read the job's status", Touches: withPeers(engine.Touching(world.TouchJobs|engine.TouchClock, 0), p.watch), Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		job, found, err := p.job(ctx, t)
		if err != nil {
			return 0, err
		}
		switch {
		case !found:
			t.Emitf(engine.LayerAPI, "POLL", "IDLE", "no job of %s to poll", p.watch)
			t.Narrate("The poller waits: %s has no job yet.", p.watch)
			return engine.Wait, nil
		case job.Status != world.JobRunning:
			t.Emitf(engine.LayerAPI, "POLL", job.Status, "%s is %s", job.ID, job.Status)
			t.Narrate("The poller sees %s is already %s and leaves it.", job.ID, job.Status)
			return engine.Advance, nil
		case job.Heartbeat.IsZero():
			t.Emitf(engine.LayerAPI, "POLL", "RUNNING", "%s RUNNING, no heartbeat yet: still starting", job.ID)
			t.Narrate("A heartbeat timeout never fires for a job that never beat: the dead job looks like one that is still starting.")
			return engine.Wait, nil
		case t.Now().Sub(job.Heartbeat) < jobDeadline:
			t.Emitf(engine.LayerAPI, "POLL", "RUNNING", "%s RUNNING, last heartbeat %s ago", job.ID, t.Now().Sub(job.Heartbeat).Round(time.Second))
			return engine.Wait, nil
		}
		world.MemoryOf(t).Seen = world.Sighting{Found: true, Job: job}
		t.Emitf(engine.LayerAPI, "POLL", "OVERDUE", "%s RUNNING, no heartbeat for 10m: the poller fails it next", job.ID)
		t.Narrate("The poller reads %s RUNNING with no heartbeat for ten minutes; it fails it in its next call.", job.ID)
		return engine.Continue, nil
	}}
}

func (p poller) failNaive() engine.Call {
	return engine.Call{Name: "HSET status FAILED", Touches: writeJobs, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		job := world.MemoryOf(t).Seen.Job
		if err := world.Jobs(t).SetJobStatus(ctx, JobTarget, job.ID, world.JobFailed); err != nil {
			return 0, err
		}
		t.Emitf(engine.LayerAPI, "POLL", "FAILED", "HSET %s status FAILED: no heartbeat for 10m", job.ID)
		t.Narrate("After ten minutes without a heartbeat the poller marks %s FAILED with a plain write that nothing guards.", job.ID)
		return engine.Advance, nil
	}}
}

// applyResults publishes the watched request's job's results to PostgreSQL
// if the job is SUCCESS: it reads the job in Redis, then writes the
// results in PostgreSQL.
func applyResults(watch string) engine.Step {
	read := engine.Call{Name: "read the job", Touches: withPeers(readJobs, watch), Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		id := world.Remembers(t.Peer(watch)).JobID
		job, found, err := world.Jobs(t).ReadJob(ctx, JobTarget, id)
		if err != nil {
			return 0, err
		}
		if !found || job.Status != world.JobSuccess {
			status := "gone"
			if found {
				status = job.Status
			}
			t.Emitf(engine.LayerDatabase, "APPLY", "NOT_APPLIED", "%s is %s: its results are not applied", id, status)
			t.Narrate("The apply step publishes only a SUCCESS job: %s is %s, so its results stay out of PostgreSQL.", id, status)
			return engine.Advance, nil
		}
		world.MemoryOf(t).Seen = world.Sighting{Found: true, Job: job}
		return engine.Continue, nil
	}}
	apply := engine.Call{Name: "write the results", Touches: stampDB, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		job := world.MemoryOf(t).Seen.Job
		if err := world.LedgerOf(t).ApplyJobResults(ctx, job.ID, JobTarget, job.Results, t.Now()); err != nil {
			return 0, err
		}
		t.Emitf(engine.LayerDatabase, "APPLY", "APPLIED", "%s is SUCCESS: %q written to PostgreSQL", job.ID, job.Results)
		t.Narrate("The apply step sees SUCCESS and publishes %s's results to PostgreSQL — it cannot tell how that SUCCESS came about.", job.ID)
		return engine.Advance, nil
	}}
	return engine.Step{Name: "apply results", Calls: []engine.Call{read, apply}}
}

// crash kills the process that ran a request right after it wrote the
// running key: the worker it was about to start never runs.
func crash(worker string) engine.Step {
	return engine.Step{Name: "crash the process", Touches: withPeers(engine.Footprint{}, worker), Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		t.Peer(worker).Halt("its process crashed before it started")
		t.Emitf(engine.LayerAPI, "CRASH", "CRASHED", "the process died right after writing the running key; %s never starts", worker)
		t.Narrate("The job exists in Redis as RUNNING, but no worker will ever finish it.")
		return engine.Advance, nil
	}}
}

// Measures of the job scenarios, counted in Redis and PostgreSQL.
var (
	measureJobHashes = engine.Measure{Label: "job hashes", Count: func(w engine.Reading) int64 {
		n := 0
		for _, j := range world.ReadingOf(w).Jobs.Jobs {
			if j.Target == JobTarget {
				n++
			}
		}
		return int64(n)
	}}
	measureApplied = engine.Measure{Label: "results applied", Count: func(w engine.Reading) int64 {
		return int64(len(world.RowsOf(w.Ledger).JobResults))
	}}
)

// measureRunningKey counts 1 when the running key still names job: the
// newer job kept its pointer.
func measureRunningKey(job string) engine.Measure {
	return engine.Measure{Label: "current pointers preserved", Count: func(w engine.Reading) int64 {
		if world.ReadingOf(w).Jobs.Running[JobTarget] == job {
			return 1
		}
		return 0
	}}
}
