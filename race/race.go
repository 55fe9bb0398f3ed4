// Package race repeats the second seed's forced interleaving on N distinct
// key sets, against the same Redis scripts and naive commands the lab uses,
// and counts what happened from the Redis state afterwards. It can also let
// two requests run truly concurrently and count the duplicates.
package race

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
)

// Redis is what a race needs: clients of its own and a reader of job keys.
type Redis interface {
	Client(actor string) engine.RedisClient
	JobsMatching(ctx context.Context, targets string) (world.JobsState, error)
	DeleteJobs(ctx context.Context, targets string) error
}

const (
	total = 3
	ttl   = time.Hour
	// prefix starts every race target, so a race never touches a lab job.
	prefix = "race-"
)

// Report is the figures of one forced run, each counted in Redis.
type Report struct {
	N int
	// GET -> SET
	NaiveJobHashes, NaiveUnreferenced int
	// Lua acquire
	Acquired, Reused, LuaJobHashes int
	// Terminal transition: jobs that ended SUCCESS after FAILED.
	LateSuccessBefore, LateSuccessAfter int
	// Pointer ownership
	LateSuccessRejected, PointersPreserved int
	// Failures lists the SAFE invariants that did not hold.
	Failures []string
}

// Print writes the report in the seed's words.
func (r Report) Print(w io.Writer) {
	fmt.Fprintf(w, "%d forced interleaving scenarios\n", r.N)
	fmt.Fprintf(w, "GET -> SET: job hashes=%d, unreferenced jobs=%d\n", r.NaiveJobHashes, r.NaiveUnreferenced)
	fmt.Fprintf(w, "Lua acquire: acquired=%d, reused=%d, job hashes=%d\n", r.Acquired, r.Reused, r.LuaJobHashes)
	fmt.Fprintf(w, "Terminal transition: late SUCCESS before=%d, after=%d\n", r.LateSuccessBefore, r.LateSuccessAfter)
	fmt.Fprintf(w, "Pointer ownership: late SUCCESS rejected=%d, current pointers preserved=%d\n", r.LateSuccessRejected, r.PointersPreserved)
	if len(r.Failures) == 0 {
		fmt.Fprintln(w, "All invariants passed")
		return
	}
	fmt.Fprintf(w, "Invariants failed: %s\n", strings.Join(r.Failures, "; "))
}

// Forced runs the forced interleaving on n key sets. now stamps createdAt;
// progress, if not nil, hears how many key sets are done after each.
func Forced(ctx context.Context, rdb Redis, n int, now time.Time, progress func(done, n int)) (Report, error) {
	r := Report{N: n}
	if err := rdb.DeleteJobs(ctx, prefix+"*"); err != nil {
		return r, err
	}
	a, b := rdb.Client("race-a").(world.RedisClient), rdb.Client("race-b").(world.RedisClient)
	target := func(kind string, i int) string { return fmt.Sprintf("%s%s-%d", prefix, kind, i) }

	for i := 0; i < n; i++ {
		// GET -> SET: both requests look before either creates.
		t := target("get-set", i)
		for _, c := range []world.RedisClient{a, b} {
			if _, _, err := c.GetRunning(ctx, t); err != nil {
				return r, err
			}
		}
		for _, step := range []func() error{
			func() error { return a.CreateJobHash(ctx, t, "job-a", total, now, ttl) },
			func() error { return b.CreateJobHash(ctx, t, "job-b", total, now, ttl) },
			func() error { return a.SetRunning(ctx, t, "job-a", ttl) },
			func() error { return b.SetRunning(ctx, t, "job-b", ttl) },
		} {
			if err := step(); err != nil {
				return r, err
			}
		}

		// Lua acquire: the look and the create are one script.
		t = target("lua", i)
		for _, req := range []struct {
			c  world.RedisClient
			id string
		}{{a, "job-a"}, {b, "job-b"}} {
			grant, err := req.c.AcquireJob(ctx, t, req.id, total, now, ttl, ttl)
			if err != nil {
				return r, err
			}
			if grant.Reused {
				r.Reused++
			} else {
				r.Acquired++
			}
		}

		// Terminal transition, naive: the poll's HSET FAILED, then the late
		// worker's HSET SUCCESS.
		t = target("terminal-naive", i)
		if _, err := a.AcquireJob(ctx, t, "job-a", total, now, ttl, ttl); err != nil {
			return r, err
		}
		if err := b.SetJobStatus(ctx, t, "job-a", world.JobFailed); err != nil {
			return r, err
		}
		if err := a.SetJobStatus(ctx, t, "job-a", world.JobSuccess); err != nil {
			return r, err
		}
		// ... and with the transition script.
		t = target("terminal-lua", i)
		if _, err := a.AcquireJob(ctx, t, "job-a", total, now, ttl, ttl); err != nil {
			return r, err
		}
		for _, step := range []struct {
			c  world.RedisClient
			to string
		}{{b, world.JobFailed}, {a, world.JobSuccess}} {
			if _, err := step.c.TransitionJob(ctx, t, "job-a", step.to, 0); err != nil {
				return r, err
			}
		}

		// Pointer ownership: job 1 fails (its pointer released), job 2 is
		// acquired, job 1's worker finishes late.
		t = target("pointer", i)
		if _, err := a.AcquireJob(ctx, t, "job-1", total, now, ttl, ttl); err != nil {
			return r, err
		}
		if _, err := b.TransitionJob(ctx, t, "job-1", world.JobFailed, 0); err != nil {
			return r, err
		}
		if _, err := b.AcquireJob(ctx, t, "job-2", total, now, ttl, ttl); err != nil {
			return r, err
		}
		if _, err := a.TransitionJob(ctx, t, "job-1", world.JobSuccess, 0); err != nil {
			return r, err
		}
		if progress != nil {
			progress(i+1, n)
		}
	}
	return r, r.count(ctx, rdb)
}

// count reads the figures from Redis and checks the SAFE invariants.
func (r *Report) count(ctx context.Context, rdb Redis) error {
	read := func(kind string) (world.JobsState, error) { return rdb.JobsMatching(ctx, prefix+kind+"-*") }
	fail := func(format string, args ...any) { r.Failures = append(r.Failures, fmt.Sprintf(format, args...)) }

	naive, err := read("get-set")
	if err != nil {
		return err
	}
	r.NaiveJobHashes = len(naive.Jobs)
	for _, j := range naive.Jobs {
		if naive.Running[j.Target] != j.ID {
			r.NaiveUnreferenced++
		}
	}

	lua, err := read("lua")
	if err != nil {
		return err
	}
	r.LuaJobHashes = len(lua.Jobs)
	perTarget := map[string]int{}
	for _, j := range lua.Jobs {
		perTarget[j.Target]++
		if lua.Running[j.Target] != j.ID {
			fail("Lua acquire left %s of %s unreferenced", j.ID, j.Target)
		}
	}
	for target, n := range perTarget {
		if n != 1 {
			fail("Lua acquire made %d jobs for %s", n, target)
		}
	}
	if r.Acquired != r.LuaJobHashes {
		fail("Lua acquire answered acquired %d times but %d job hashes exist", r.Acquired, r.LuaJobHashes)
	}

	before, err := read("terminal-naive")
	if err != nil {
		return err
	}
	r.LateSuccessBefore = countStatus(before, "job-a", world.JobSuccess)
	after, err := read("terminal-lua")
	if err != nil {
		return err
	}
	r.LateSuccessAfter = countStatus(after, "job-a", world.JobSuccess)
	if failed := countStatus(after, "job-a", world.JobFailed); failed != r.N {
		fail("terminal transition: %d of %d jobs stayed FAILED", failed, r.N)
	}

	pointer, err := read("pointer")
	if err != nil {
		return err
	}
	r.LateSuccessRejected = countStatus(pointer, "job-1", world.JobFailed)
	for _, id := range pointer.Running {
		if id == "job-2" {
			r.PointersPreserved++
		}
	}
	if r.LateSuccessAfter != 0 {
		fail("%d late SUCCESS after FAILED with the transition script", r.LateSuccessAfter)
	}
	if r.LateSuccessRejected != r.N || r.PointersPreserved != r.N {
		fail("pointer ownership: %d rejected, %d pointers preserved of %d", r.LateSuccessRejected, r.PointersPreserved, r.N)
	}
	return nil
}

func countStatus(s world.JobsState, id, status string) int {
	n := 0
	for _, j := range s.Jobs {
		if j.ID == id && j.Status == status {
			n++
		}
	}
	return n
}

// FreeReport is what truly concurrent requests did.
type FreeReport struct {
	K                              int
	NaiveDuplicates, LuaDuplicates int
}

// Print writes the free-running figures.
func (f FreeReport) Print(w io.Writer) {
	fmt.Fprintf(w, "%d free-running pairs of concurrent requests\n", f.K)
	fmt.Fprintf(w, "GET -> SET: duplicate jobs for %d of %d targets\n", f.NaiveDuplicates, f.K)
	fmt.Fprintf(w, "Lua acquire: duplicate jobs for %d of %d targets\n", f.LuaDuplicates, f.K)
}

// Free runs two requests at once, k times each way, without forcing the
// order, and counts targets that ended with more than one job hash.
func Free(ctx context.Context, rdb Redis, k int, now time.Time, progress func(done, k int)) (FreeReport, error) {
	f := FreeReport{K: k}
	if err := rdb.DeleteJobs(ctx, prefix+"free-*"); err != nil {
		return f, err
	}
	a, b := rdb.Client("race-free-a").(world.RedisClient), rdb.Client("race-free-b").(world.RedisClient)
	naive := func(c world.RedisClient, target, id string) error {
		if _, found, err := c.GetRunning(ctx, target); err != nil || found {
			return err
		}
		if err := c.CreateJobHash(ctx, target, id, total, now, ttl); err != nil {
			return err
		}
		return c.SetRunning(ctx, target, id, ttl)
	}
	lua := func(c world.RedisClient, target, id string) error {
		_, err := c.AcquireJob(ctx, target, id, total, now, ttl, ttl)
		return err
	}
	for i := 0; i < k; i++ {
		for _, run := range []struct {
			kind string
			fn   func(world.RedisClient, string, string) error
		}{{"free-naive", naive}, {"free-lua", lua}} {
			target := fmt.Sprintf("%s%s-%d", prefix, run.kind, i)
			if err := pair(func() error { return run.fn(a, target, "job-a") }, func() error { return run.fn(b, target, "job-b") }); err != nil {
				return f, err
			}
		}
		if progress != nil {
			progress(i+1, k)
		}
	}
	var err error
	if f.NaiveDuplicates, err = duplicates(ctx, rdb, prefix+"free-naive-*"); err != nil {
		return f, err
	}
	f.LuaDuplicates, err = duplicates(ctx, rdb, prefix+"free-lua-*")
	return f, err
}

// pair starts two functions at the same moment and waits for both.
func pair(first, second func() error) error {
	var wg sync.WaitGroup
	start := make(chan struct{})
	errs := make([]error, 2)
	for i, fn := range []func() error{first, second} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = fn()
		}()
	}
	close(start)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func duplicates(ctx context.Context, rdb Redis, targets string) (int, error) {
	s, err := rdb.JobsMatching(ctx, targets)
	if err != nil {
		return 0, err
	}
	per := map[string]int{}
	for _, j := range s.Jobs {
		per[j.Target]++
	}
	n := 0
	for _, count := range per {
		if count > 1 {
			n++
		}
	}
	return n, nil
}
