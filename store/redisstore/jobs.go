package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
)

// Jobs is one actor's client for the job scripts and the naive commands.
// It needs more than redis.Scripter: the UNSAFE steps are plain commands.
type Jobs struct {
	rdb   redis.Cmdable
	keys  keyspace
	clock *labClock // as Leases's
}

func (j *Jobs) AcquireJob(ctx context.Context, target, jobID string, total int, createdAt time.Time, ttl, pointerTTL time.Duration) (world.JobGrant, error) {
	var reply []string
	keys := []string{j.keys.running(target), j.keys.job(target, jobID)}
	err := j.clock.around(ctx, keys, []time.Duration{ttl, pointerTTL}, func() (err error) {
		reply, err = acquireJobScript.Run(ctx, j.rdb, keys,
			jobID, total, ttl.Milliseconds(), createdAt.UnixMilli(), target, pointerTTL.Milliseconds()).StringSlice()
		return err
	})
	if err != nil {
		return world.JobGrant{}, fmt.Errorf("redisstore: acquire job for %s: %w", target, err)
	}
	if len(reply) != 2 {
		return world.JobGrant{}, fmt.Errorf("redisstore: acquire job for %s: unexpected script reply %q", target, reply)
	}
	return world.JobGrant{Reused: reply[0] == "REUSED", JobID: reply[1]}, nil
}

func (j *Jobs) TransitionJob(ctx context.Context, target, jobID, to string, without engine.GuardSet) (world.TransitionResult, error) {
	var reply []any
	keys := []string{j.keys.job(target, jobID), j.keys.running(target)}
	err := j.clock.around(ctx, keys, nil, func() (err error) {
		reply, err = transitionScript.Run(ctx, j.rdb, keys,
			world.JobRunning, to, jobID, removed(without, world.GuardTerminal, world.GuardPointer)).Slice()
		return err
	})
	if err != nil {
		return world.TransitionResult{}, fmt.Errorf("redisstore: transition %s to %s: %w", jobID, to, err)
	}
	word := func(i int) string {
		if i < len(reply) {
			s, _ := reply[i].(string)
			return s
		}
		return ""
	}
	switch word(0) {
	case "APPLIED":
		cleared := word(2)
		return world.TransitionResult{Applied: true, Status: word(1), PointerCleared: cleared, PointerReleased: cleared == jobID}, nil
	case "REJECTED":
		return world.TransitionResult{Refusal: word(1), Status: word(2)}, nil
	default:
		return world.TransitionResult{}, fmt.Errorf("redisstore: transition %s: %w", jobID, engine.ErrNotFound)
	}
}

func (j *Jobs) ReportProgress(ctx context.Context, target, jobID string, processed int, results string, now time.Time) (bool, error) {
	var n int
	key := j.keys.job(target, jobID)
	err := j.clock.around(ctx, []string{key}, nil, func() (err error) {
		n, err = progressScript.Run(ctx, j.rdb, []string{key}, processed, results, now.UnixMilli()).Int()
		return err
	})
	if err != nil {
		return false, fmt.Errorf("redisstore: progress of %s: %w", jobID, err)
	}
	return n == 1, nil
}

func (j *Jobs) ReadJob(ctx context.Context, target, jobID string) (world.Job, bool, error) {
	fields, err := j.rdb.HGetAll(ctx, j.keys.job(target, jobID)).Result()
	if err != nil {
		return world.Job{}, false, fmt.Errorf("redisstore: read %s: %w", jobID, err)
	}
	if len(fields) == 0 {
		return world.Job{}, false, nil
	}
	return parseJob(target, jobID, fields), true, nil
}

func parseJob(target, jobID string, f map[string]string) world.Job {
	job := world.Job{ID: jobID, Target: target, Status: f["status"], Results: f["results"]}
	job.Total, _ = strconv.Atoi(f["total"])
	job.Processed, _ = strconv.Atoi(f["processed"])
	if ms, err := strconv.ParseInt(f["createdAt"], 10, 64); err == nil {
		job.CreatedAt = time.UnixMilli(ms).UTC()
	}
	if ms, err := strconv.ParseInt(f["heartbeat"], 10, 64); err == nil {
		job.Heartbeat = time.UnixMilli(ms).UTC()
	}
	return job
}

func (j *Jobs) GetRunning(ctx context.Context, target string) (string, bool, error) {
	id, err := j.rdb.Get(ctx, j.keys.running(target)).Result()
	if errors.Is(err, redis.Nil) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("redisstore: get running job of %s: %w", target, err)
	}
	return id, true, nil
}

// CreateJobHash is the naive HSET of a new job (with its TTL, in one
// MULTI): the running pointer is written by a later, separate step.
func (j *Jobs) CreateJobHash(ctx context.Context, target, jobID string, total int, createdAt time.Time, ttl time.Duration) error {
	key := j.keys.job(target, jobID)
	err := j.clock.around(ctx, []string{key}, []time.Duration{ttl}, func() error {
		_, err := j.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
			p.HSet(ctx, key, "status", world.JobRunning, "total", total, "processed", 0,
				"createdAt", createdAt.UnixMilli(), "target", target)
			p.PExpire(ctx, key, ttl)
			return nil
		})
		return err
	})
	if err != nil {
		return fmt.Errorf("redisstore: create job %s: %w", jobID, err)
	}
	return nil
}

func (j *Jobs) SetRunning(ctx context.Context, target, jobID string, ttl time.Duration) error {
	key := j.keys.running(target)
	err := j.clock.around(ctx, []string{key}, []time.Duration{ttl}, func() error {
		return j.rdb.Set(ctx, key, jobID, ttl).Err()
	})
	if err != nil {
		return fmt.Errorf("redisstore: set running job of %s: %w", target, err)
	}
	return nil
}

func (j *Jobs) SetJobStatus(ctx context.Context, target, jobID, status string) error {
	key := j.keys.job(target, jobID)
	err := j.clock.around(ctx, []string{key}, nil, func() error {
		return j.rdb.HSet(ctx, key, "status", status).Err()
	})
	if err != nil {
		return fmt.Errorf("redisstore: set status of %s: %w", jobID, err)
	}
	return nil
}

func (j *Jobs) DeleteRunning(ctx context.Context, target string) error {
	key := j.keys.running(target)
	err := j.clock.around(ctx, []string{key}, nil, func() error {
		return j.rdb.Del(ctx, key).Err()
	})
	if err != nil {
		return fmt.Errorf("redisstore: delete running key of %s: %w", target, err)
	}
	return nil
}

// readJobs reads every job hash and running pointer of the targets matching
// a glob, the reads pipelined in batches.
func readJobs(ctx context.Context, rdb redis.UniversalClient, keys keyspace, targets string) (world.JobsState, error) {
	state := world.JobsState{Running: map[string]string{}}
	names, err := scanKeys(ctx, rdb, keys.jobs(targets))
	if err != nil {
		return state, err
	}
	for len(names) > 0 {
		batch := names[:min(len(names), scanBatch)]
		names = names[len(batch):]
		pipe := rdb.Pipeline()
		reads := make([]redis.Cmder, len(batch))
		for i, key := range batch {
			if _, name, _ := keys.parseJob(key); name == "running" {
				reads[i] = pipe.Get(ctx, key)
			} else {
				reads[i] = pipe.HGetAll(ctx, key)
			}
		}
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			return state, fmt.Errorf("redisstore: read jobs: %w", err)
		}
		for i, key := range batch {
			target, name, ok := keys.parseJob(key)
			if !ok {
				continue
			}
			switch read := reads[i].(type) {
			case *redis.StringCmd: // the running pointer; gone meanwhile is redis.Nil
				if id, err := read.Result(); err == nil {
					state.Running[target] = id
				}
			case *redis.MapStringStringCmd:
				if fields := read.Val(); len(fields) > 0 {
					job := parseJob(target, name, fields)
					job.Key = key
					state.Jobs = append(state.Jobs, job)
				}
			}
		}
	}
	return state, nil
}
