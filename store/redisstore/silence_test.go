package redisstore_test

import (
	"github.com/fencelab/fencelab/scenarios/world"

	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
)

// freeze stops the redis-server of a unix:// URL (SIGSTOP) until the test
// ends, or until the function it returns continues it.
func freeze(t *testing.T, url string) (thaw func()) {
	t.Helper()
	socket := strings.TrimPrefix(url, "unix://")
	paths, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, path := range paths {
		raw, _ := os.ReadFile(path)
		if strings.Contains(string(raw), "redis-server") && strings.Contains(string(raw), socket) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
			thaw := func() { syscall.Kill(pid, syscall.SIGCONT) }
			t.Cleanup(thaw)
			return thaw
		}
	}
	t.Fatalf("no redis-server for %s", socket)
	return nil
}

// A server's silence is one deadline for every run of the process on it:
// once a command of one run found it silent, the runs closed after it skip
// their cleanup there at once (one of them following the lab clock, whose
// refresh stops asking) rather than each wait out another (check --all's
// labs, closed one after another).
func TestASilentServerIsOneDeadlineForEveryRunOnIt(t *testing.T) {
	ctx := context.Background()
	url := storetest.RealRedisURL(t)
	var runs []*redisstore.Coordination
	for range 3 {
		c, err := redisstore.Connect(ctx, url)
		require.NoError(t, err)
		require.NoError(t, c.Client("A").(world.RedisClient).Bootstrap(ctx, key, 2, 40))
		runs = append(runs, c)
	}
	stopClock := runs[2].FollowLabClock()
	defer stopClock()
	_, err := runs[2].Client("A").(world.RedisClient).AcquireLease(ctx, key, "worker-A", time.Minute, 2, 0)
	require.NoError(t, err) // a lab key the lab clock keeps
	freeze(t, url)
	_, err = runs[0].Keys(ctx)
	require.ErrorIs(t, err, redisstore.ErrNoAnswer)
	time.Sleep(time.Second) // the lab clock's refresh is out, on the frozen server
	for i, c := range runs {
		began := time.Now()
		err := c.Close()
		require.True(t, errors.Is(err, redisstore.ErrNoAnswer), "%v", err)
		require.Less(t, time.Since(began), time.Second, "run %d's close waited on the silent server", i)
	}
}

// So is a connect that finds it silent (the first question, whether it is
// a cluster, goes on a probe of its own): a run started before it skips
// its cleanup at once. (check's second lab connects while the first is at
// work; frozen in between, the check took two deadlines.)
func TestAConnectThatFindsTheServerSilentSaysSoForEveryRun(t *testing.T) {
	ctx := context.Background()
	url := storetest.RealRedisURL(t)
	first, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	require.NoError(t, first.Client("A").(world.RedisClient).Bootstrap(ctx, key, 2, 40))
	freeze(t, url)
	_, err = redisstore.Connect(ctx, url)
	require.ErrorIs(t, err, redisstore.ErrNoAnswer)
	began := time.Now()
	err = first.Close()
	require.True(t, errors.Is(err, redisstore.ErrNoAnswer), "%v", err)
	require.Less(t, time.Since(began), time.Second, "the first run's close waited on the silent server")
}

// A server silent for a while and back again (a CLIENT PAUSE over, a
// process continued) is the run's again: the lab clock's refresh asks it,
// and the run ends cleaning up its keys, not leaving them for the next
// run to sweep (the explorer, quit after such a freeze, left them).
func TestAServerBackFromSilenceIsCleanedUpAtClose(t *testing.T) {
	ctx := context.Background()
	url := storetest.RealRedisURL(t)
	c, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	stopClock := c.FollowLabClock()
	defer stopClock()
	require.NoError(t, c.Client("A").(world.RedisClient).Bootstrap(ctx, key, 2, 40))
	thaw := freeze(t, url)
	_, err = c.Keys(ctx)
	require.ErrorIs(t, err, redisstore.ErrNoAnswer)
	thaw()
	time.Sleep(time.Second) // the lab clock asks every quarter second
	require.NoError(t, c.Close(), "the run's keys are deleted")
	other, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	defer other.Close()
	left, err := redisstore.ScanRaw(ctx, other, c.Prefix()+"*")
	require.NoError(t, err)
	require.Empty(t, left)
}

// A step that finds the lab clock's refresh in flight on a server that
// froze waits for it, and then one probe more, not a deadline of its own:
// the status line said "within 3s" 6–9 s after the key.
func TestAStepBehindTheLabClocksRefreshWaitsOneDeadline(t *testing.T) {
	ctx := context.Background()
	url := storetest.RealRedisURL(t)
	c, err := redisstore.Connect(ctx, url)
	require.NoError(t, err)
	defer c.Close()
	stopClock := c.FollowLabClock()
	defer stopClock()
	require.NoError(t, c.Client("A").(world.RedisClient).Bootstrap(ctx, key, 2, 40))
	_, err = c.Client("A").(world.RedisClient).AcquireLease(ctx, key, "worker-A", time.Minute, 2, 0)
	require.NoError(t, err) // a lab key: the refresh keeps its TTL
	freeze(t, url)
	time.Sleep(400 * time.Millisecond) // a refresh is on its way to the frozen server
	began := time.Now()
	_, err = c.LostKeys(ctx, true)
	require.ErrorIs(t, err, redisstore.ErrNoAnswer)
	require.Less(t, time.Since(began), redisstore.CallTimeout+time.Second, "the step waited out a deadline of its own")
}

// A server that went away (stopped, killed) is as good as silent: a
// command says so in fencelab's words, and the runs that end after it do
// not dial it again for their cleanup (go-redis dials a refusing server
// five times: 0.4 s a run, 16 labs of a check).
func TestAServerThatWentAwayIsNotDialedAgainAtClose(t *testing.T) {
	ctx := context.Background()
	url, stop := storetest.RedisServerToStop(t)
	var runs []*redisstore.Coordination
	for range 2 {
		c, err := redisstore.Connect(ctx, url)
		require.NoError(t, err)
		require.NoError(t, c.Client("A").(world.RedisClient).Bootstrap(ctx, key, 2, 40))
		runs = append(runs, c)
	}
	stop()
	_, err := runs[0].Client("A").(world.RedisClient).AcquireLease(ctx, key, "worker-A", time.Minute, 2, 0)
	require.ErrorIs(t, err, redisstore.ErrGone)
	require.Contains(t, err.Error(), "Redis went away (stopped or restarted?)")
	err = runs[1].Close()
	require.ErrorIs(t, err, redisstore.ErrNoAnswer)
	require.NotContains(t, err.Error(), "dial", "the second run dialed the server again for its cleanup")
	runs[0].Close()
}
