package redisstore

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"time"
)

// A run on a real server announces that it is alive with a key of its own,
// fencelab:alive:RUN, which it renews while it runs and deletes at its end.
// A run killed outright (SIGKILL, a crash) cannot delete its keys; the next
// run to connect finds namespaces whose run is no longer alive and deletes
// them, so a user's Redis does not collect them. A run frozen for longer
// than aliveFor may find its keys gone when it wakes: the lab then reports
// lost history, as it would after any Redis data loss.
const (
	aliveFor   = 5 * time.Minute
	aliveEvery = time.Minute
)

// runNamespace matches a run's key and captures its id: fencelab:RUN:….
var runNamespace = regexp.MustCompile(`^` + regexp.QuoteMeta(Prefix) + `([0-9a-f]{8}):`)

func aliveKey(id string) string { return Prefix + "alive:" + id }

// announce sets this run's alive key and keeps it alive until stop is
// called.
func (c *Coordination) announce(ctx context.Context) error {
	host, _ := os.Hostname()
	key := aliveKey(c.keys.id)
	value := fmt.Sprintf("fencelab pid %d on %s", os.Getpid(), host)
	if err := c.admin.Set(ctx, key, value, aliveFor).Err(); err != nil {
		return fmt.Errorf("redisstore: announce run: %w", err)
	}
	renew, stop := context.WithCancel(context.Background())
	c.stopAlive = stop
	go func() {
		ticker := time.NewTicker(aliveEvery)
		defer ticker.Stop()
		for {
			select {
			case <-renew.Done():
				return
			case <-ticker.C:
				c.admin.Set(renew, key, value, aliveFor)
			}
		}
	}()
	return nil
}

// sweepDeadRuns deletes the keys of runs that are no longer alive. It
// touches only keys of the form fencelab:RUN:….
func (c *Coordination) sweepDeadRuns(ctx context.Context) error {
	names, err := scanKeys(ctx, c.admin, Prefix+"*")
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, name := range names {
		m := runNamespace.FindStringSubmatch(name)
		if m == nil || m[1] == c.keys.id || seen[m[1]] {
			continue
		}
		seen[m[1]] = true
		n, err := c.admin.Exists(ctx, aliveKey(m[1])).Result()
		if err != nil {
			return fmt.Errorf("redisstore: look for run %s: %w", m[1], err)
		}
		if n == 0 {
			if err := c.deleteMatching(ctx, Prefix+m[1]+":*"); err != nil {
				return err
			}
		}
	}
	return nil
}
