package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
)

// Following the wall clock, the embedded server never lets a command find
// a key whose TTL has ended, however late its ticker is: each command
// brings the clock up to now first, as a real server checks a key's TTL
// when a command touches it. (A stress run under -race saw a lease
// outlive its TTL by 114 ms, and called its own release another's.)
func TestFollowingTheWallClockACommandNeverFindsAKeyPastItsTTL(t *testing.T) {
	defer redisstore.SetWallClockTick(time.Hour)() // a ticker that never comes
	ctx := context.Background()
	c := storetest.Embedded(t)
	stop := c.FollowWallClock()
	defer stop()
	require.NoError(t, redisstore.SetRawFor(ctx, c, "short", "x", 30*time.Millisecond))
	_, err := redisstore.GetRaw(ctx, c, "short")
	require.NoError(t, err, "alive within its TTL")
	time.Sleep(60 * time.Millisecond)
	_, err = redisstore.GetRaw(ctx, c, "short")
	require.ErrorIs(t, err, redis.Nil, "its TTL has ended")

	// A restart makes a new server, which follows the wall clock too.
	restarted, err := c.Restart(ctx)
	require.NoError(t, err)
	require.True(t, restarted)
	require.NoError(t, redisstore.SetRawFor(ctx, c, "short", "x", 30*time.Millisecond))
	time.Sleep(60 * time.Millisecond)
	_, err = redisstore.GetRaw(ctx, c, "short")
	require.ErrorIs(t, err, redis.Nil, "its TTL has ended, after a restart")
}
