package redisstore

import (
	"context"
	"time"
)

// SetRaw and GetRaw reach around the scripts, for tests that need a key no
// script would write.
func SetRaw(ctx context.Context, c *Coordination, key, value string) error {
	return c.admin.Set(ctx, key, value, 0).Err()
}

// SetRawFor is SetRaw with a TTL.
func SetRawFor(ctx context.Context, c *Coordination, key, value string, ttl time.Duration) error {
	return c.admin.Set(ctx, key, value, ttl).Err()
}

func GetRaw(ctx context.Context, c *Coordination, key string) (string, error) {
	return c.admin.Get(ctx, key).Result()
}

// StopEmbedded stops the embedded server, as Restart does first, and says
// the address it gave up.
func StopEmbedded(c *Coordination) string {
	addr := c.embedded.Addr()
	c.embedded.Close()
	return addr
}

// ScanRaw lists every key matching a pattern, whoever made it.
func ScanRaw(ctx context.Context, c *Coordination, pattern string) ([]string, error) {
	return scanKeys(ctx, c.admin, pattern)
}

// Abandon ends a run as SIGKILL would after its alive key ran out: no
// cleanup, no renewal, no alive key.
func Abandon(ctx context.Context, c *Coordination) error {
	c.stopAlive()
	if err := c.admin.Del(ctx, aliveKey(c.keys.id)).Err(); err != nil {
		return err
	}
	c.unreached.Store(true) // so Close leaves the keys
	c.Close()
	return nil
}

// Given is the TTL a call set, as the lab clock learns it.
var Given = given

// SetWallClockTick sets how often FollowWallClock's ticker moves the
// embedded server's clock, until the test ends.
func SetWallClockTick(d time.Duration) (restore func()) {
	old := wallClockTick
	wallClockTick = d
	return func() { wallClockTick = old }
}

// Framed and RefusedByGuard are the script frame's, for the tests of its
// guard on a real server.
func Framed(script, namespace string, gopherLua bool) string {
	framedScript, err := framed(script, namespace, gopherLua)
	if err != nil {
		panic(err)
	}
	return framedScript
}

func RefusedByGuard(reply string) bool { return refusedByGuard(reply) }

// SetStringBudget sets what a script may build, for a test; the returned
// func puts it back.
func SetStringBudget(n int) func() {
	old := stringBudget
	stringBudget = n
	return func() { stringBudget = old }
}

// OverStringBudget says whether a script's error reply is its string
// budget's.
func OverStringBudget(reply string) bool { return overStringBudget(reply) }

// FramedError is framed's refusal of a script, if any.
func FramedError(script, namespace string, gopherLua bool) error {
	_, err := framed(script, namespace, gopherLua)
	return err
}

// StopOwnScript is what a call past its deadline does on a Redis of the
// user's: it says whether it killed the script running (only a call of
// function name with nonce).
func StopOwnScript(c *Coordination, name, nonce string) string {
	switch c.stopOwnScript(name, nonce) {
	case scriptKilled:
		return "killed"
	case scriptEnded:
		return "not ours, or ended"
	case scriptWrote:
		return "wrote"
	case scriptOther:
		return "another's"
	}
	return "not asked"
}

// SetStoredBudget sets what the embedded server's keys may hold, and
// returns the function that puts it back.
func SetStoredBudget(n int) func() {
	old := storedBudget
	storedBudget = n
	return func() { storedBudget = old }
}
