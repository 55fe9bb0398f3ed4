package redisstore_test

import (
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
// ends.
func freeze(t *testing.T, url string) {
	t.Helper()
	socket := strings.TrimPrefix(url, "unix://")
	paths, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, path := range paths {
		raw, _ := os.ReadFile(path)
		if strings.Contains(string(raw), "redis-server") && strings.Contains(string(raw), socket) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
			t.Cleanup(func() { syscall.Kill(pid, syscall.SIGCONT) })
			return
		}
	}
	t.Fatalf("no redis-server for %s", socket)
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
		require.NoError(t, c.Client("A").Bootstrap(ctx, key, 2, 40))
		runs = append(runs, c)
	}
	stopClock := runs[2].FollowLabClock()
	defer stopClock()
	_, err := runs[2].Client("A").AcquireLease(ctx, key, "worker-A", time.Minute, 2, 0)
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
