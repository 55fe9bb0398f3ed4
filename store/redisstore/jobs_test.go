package redisstore_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
)

var created = time.Date(2026, 6, 18, 9, 0, 0, 0, time.UTC)

// Many concurrent callers, one running key: exactly one acquires, and every
// other reuses its job.
func TestAcquireJobUnderConcurrentCallers(t *testing.T) {
	storetest.Redises(t, func(t *testing.T, c *redisstore.Coordination) {
		ctx := context.Background()
		require.NoError(t, c.Wipe(ctx))
		const callers = 32
		grants := make([]world.JobGrant, callers)
		errs := make([]error, callers)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				client := c.Client(fmt.Sprintf("caller-%d", i)).(world.RedisClient)
				<-start
				grants[i], errs[i] = client.AcquireJob(ctx, "target", fmt.Sprintf("job-%d", i), 3, created, time.Hour, time.Hour)
			}()
		}
		close(start)
		wg.Wait()
		acquired := ""
		for i := range callers {
			require.NoError(t, errs[i])
			if !grants[i].Reused {
				require.Empty(t, acquired, "two callers acquired")
				acquired = grants[i].JobID
			}
		}
		require.NotEmpty(t, acquired)
		for _, g := range grants {
			require.Equal(t, acquired, g.JobID)
		}
		state, err := c.Jobs(ctx)
		require.NoError(t, err)
		require.Len(t, state.Jobs, 1)
		require.Equal(t, acquired, state.Running["target"])
	})
}

// The transition script: only from RUNNING; SUCCESS needs the pointer;
// FAILED is allowed without it and releases only its own pointer.
func TestTransitionJob(t *testing.T) {
	storetest.Redises(t, func(t *testing.T, c *redisstore.Coordination) {
		ctx := context.Background()
		require.NoError(t, c.Wipe(ctx))
		j := c.Client("A").(world.RedisClient)

		_, err := j.AcquireJob(ctx, "t", "job-1", 3, created, time.Hour, time.Hour)
		require.NoError(t, err)
		res, err := j.TransitionJob(ctx, "t", "job-1", world.JobFailed, 0)
		require.NoError(t, err)
		require.Equal(t, world.TransitionResult{Applied: true, Status: world.JobFailed, PointerReleased: true, PointerCleared: "job-1"}, res)

		res, err = j.TransitionJob(ctx, "t", "job-1", world.JobSuccess, 0)
		require.NoError(t, err)
		require.Equal(t, world.TransitionResult{Refusal: world.IllegalTransition, Status: world.JobFailed}, res, "terminal states never change")

		_, err = j.AcquireJob(ctx, "t", "job-2", 3, created, time.Hour, time.Hour)
		require.NoError(t, err)
		res, err = j.TransitionJob(ctx, "t", "job-1", world.JobSuccess, 0)
		require.NoError(t, err)
		require.Equal(t, world.NotOwner, res.Refusal, "another job holds the pointer")

		// A RUNNING job that lost its pointer: no SUCCESS, but FAILED, and
		// the other job's pointer stays.
		require.NoError(t, j.CreateJobHash(ctx, "t", "job-3", 3, created, time.Hour))
		res, err = j.TransitionJob(ctx, "t", "job-3", world.JobSuccess, 0)
		require.NoError(t, err)
		require.Equal(t, world.NotOwner, res.Refusal)
		res, err = j.TransitionJob(ctx, "t", "job-3", world.JobFailed, 0)
		require.NoError(t, err)
		require.Equal(t, world.TransitionResult{Applied: true, Status: world.JobFailed}, res)
		running, found, err := j.GetRunning(ctx, "t")
		require.NoError(t, err)
		require.True(t, found)
		require.Equal(t, "job-2", running)

		res, err = j.TransitionJob(ctx, "t", "job-2", world.JobSuccess, 0)
		require.NoError(t, err)
		require.Equal(t, world.TransitionResult{Applied: true, Status: world.JobSuccess, PointerReleased: true, PointerCleared: "job-2"}, res)

		_, err = j.TransitionJob(ctx, "t", "no-such-job", world.JobFailed, 0)
		require.ErrorIs(t, err, engine.ErrNotFound)
	})
}

// Each of the transition's guards, removed alone, lets through exactly
// what it refused: without terminal a FAILED job succeeds where the
// pointer is its own; without pointer a job that lost the pointer succeeds
// and deletes the pointer another job holds.
func TestTransitionJobWithoutItsGuards(t *testing.T) {
	storetest.Redises(t, func(t *testing.T, c *redisstore.Coordination) {
		ctx := context.Background()
		require.NoError(t, c.Wipe(ctx))
		j := c.Client("A").(world.RedisClient)

		// A FAILED job whose pointer still names it (set again by hand).
		_, err := j.AcquireJob(ctx, "t", "job-1", 3, created, time.Hour, time.Hour)
		require.NoError(t, err)
		_, err = j.TransitionJob(ctx, "t", "job-1", world.JobFailed, 0)
		require.NoError(t, err)
		require.NoError(t, j.SetRunning(ctx, "t", "job-1", time.Hour))
		res, err := j.TransitionJob(ctx, "t", "job-1", world.JobSuccess, 0)
		require.NoError(t, err)
		require.Equal(t, world.IllegalTransition, res.Refusal)
		res, err = j.TransitionJob(ctx, "t", "job-1", world.JobSuccess, engine.Guards(world.GuardTerminal))
		require.NoError(t, err)
		require.Equal(t, world.TransitionResult{Applied: true, Status: world.JobSuccess, PointerReleased: true, PointerCleared: "job-1"}, res)

		// A RUNNING job that lost the pointer to job-3.
		require.NoError(t, j.CreateJobHash(ctx, "t", "job-2", 3, created, time.Hour))
		_, err = j.AcquireJob(ctx, "t", "job-3", 3, created, time.Hour, time.Hour)
		require.NoError(t, err)
		res, err = j.TransitionJob(ctx, "t", "job-2", world.JobSuccess, engine.Guards(world.GuardTerminal))
		require.NoError(t, err)
		require.Equal(t, world.NotOwner, res.Refusal, "the pointer guard still refuses")
		res, err = j.TransitionJob(ctx, "t", "job-2", world.JobSuccess, engine.Guards(world.GuardPointer))
		require.NoError(t, err)
		require.Equal(t, world.TransitionResult{Applied: true, Status: world.JobSuccess, PointerCleared: "job-3"}, res)
		_, found, err := j.GetRunning(ctx, "t")
		require.NoError(t, err)
		require.False(t, found, "job-3's pointer is gone")
	})
}
