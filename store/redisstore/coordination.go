// Package redisstore is the coordination side of fencelab on Redis
// (go-redis): leases and fencing tokens as Lua scripts, on the embedded
// miniredis or on a real server.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/fencelab/fencelab/engine"
)

var _ engine.Coordination = (*Coordination)(nil)

// PingTimeout bounds the first contact with a server.
const PingTimeout = 3 * time.Second

// Coordination is one Redis server: the embedded one or a real one.
type Coordination struct {
	options  *redis.Options
	admin    *redis.Client
	embedded *miniredis.Miniredis // nil for a real server
	describe string

	mu      sync.Mutex
	clients map[string]*redis.Client
}

// StartEmbedded starts an in-process miniredis. Its clock is the lab clock:
// keys expire only when the lab advances time.
func StartEmbedded() (*Coordination, error) {
	mr := miniredis.NewMiniRedis()
	if err := mr.Start(); err != nil {
		return nil, fmt.Errorf("redisstore: start miniredis: %w", err)
	}
	c := newCoordination(&redis.Options{Addr: mr.Addr()}, "miniredis")
	c.embedded = mr
	return c, nil
}

// Connect uses the real server behind a redis:// URL. Its TTLs run on the
// wall clock.
func Connect(ctx context.Context, url string) (*Coordination, error) {
	options, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("redisstore: %w", err)
	}
	return ConnectOptions(ctx, options, redactURL(url))
}

// ConnectOptions is Connect for options built by hand (a unix socket in tests).
func ConnectOptions(ctx context.Context, options *redis.Options, describe string) (*Coordination, error) {
	options.DialTimeout = PingTimeout
	options.MaxRetries = 1
	c := newCoordination(options, describe)
	pingCtx, cancel := context.WithTimeout(ctx, PingTimeout)
	defer cancel()
	if err := c.admin.Ping(pingCtx).Err(); err != nil {
		c.Close()
		return nil, fmt.Errorf("redisstore: reach %s: %w", describe, err)
	}
	return c, nil
}

// quietLogger drops go-redis's own log lines: fencelab reports a failure
// once, as one line, where it happens.
type quietLogger struct{}

func (quietLogger) Printf(context.Context, string, ...any) {}

func init() { redis.SetLogger(quietLogger{}) }

func newCoordination(options *redis.Options, describe string) *Coordination {
	admin := *options
	admin.ClientName = "fencelab-lab"
	return &Coordination{
		options:  options,
		admin:    redis.NewClient(&admin),
		describe: describe,
		clients:  map[string]*redis.Client{},
	}
}

// redactURL hides a password for display.
func redactURL(url string) string {
	at := strings.LastIndex(url, "@")
	scheme := strings.Index(url, "://")
	if at < 0 || scheme < 0 {
		return url
	}
	return url[:scheme+3] + "…@" + url[at+1:]
}

// client is an actor's Redis connection: the lease and job stores over one
// go-redis client.
type client struct {
	*Leases
	*Jobs
}

// Client is an actor's own connection, named fencelab-ACTOR on the server.
func (c *Coordination) Client(actor string) engine.RedisClient {
	c.mu.Lock()
	defer c.mu.Unlock()
	rdb, ok := c.clients[actor]
	if !ok {
		options := *c.options
		options.ClientName = "fencelab-" + actor
		rdb = redis.NewClient(&options)
		c.clients[actor] = rdb
	}
	return client{Leases: NewLeases(rdb), Jobs: &Jobs{rdb: rdb}}
}

// Jobs reads every lab job hash and running pointer.
func (c *Coordination) Jobs(ctx context.Context) (engine.JobsState, error) {
	return readJobs(ctx, c.admin, "*")
}

// JobsMatching reads the job hashes and pointers of the targets matching a
// glob ("race-lua-*").
func (c *Coordination) JobsMatching(ctx context.Context, targets string) (engine.JobsState, error) {
	return readJobs(ctx, c.admin, targets)
}

// DeleteJobs deletes the job keys of the targets matching a glob.
func (c *Coordination) DeleteJobs(ctx context.Context, targets string) error {
	var keys []string
	iter := c.admin.Scan(ctx, 0, jobPrefix+"{"+targets+"}:*", 500).Iterator()
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		return fmt.Errorf("redisstore: scan jobs: %w", err)
	}
	for len(keys) > 0 {
		batch := keys[:min(len(keys), 500)]
		keys = keys[len(batch):]
		if err := c.admin.Del(ctx, batch...).Err(); err != nil {
			return fmt.Errorf("redisstore: delete jobs: %w", err)
		}
	}
	return nil
}

// Wipe deletes the lab's keys, found by SCAN on the prefix.
func (c *Coordination) Wipe(ctx context.Context) error {
	keys, err := c.scan(ctx)
	if err != nil {
		return err
	}
	if len(keys) == 0 {
		return nil
	}
	if err := c.admin.Del(ctx, keys...).Err(); err != nil {
		return fmt.Errorf("redisstore: delete lab keys: %w", err)
	}
	return nil
}

func (c *Coordination) scan(ctx context.Context) ([]string, error) {
	var keys []string
	iter := c.admin.Scan(ctx, 0, Prefix+"*", 200).Iterator()
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		return nil, fmt.Errorf("redisstore: scan lab keys: %w", err)
	}
	sort.Strings(keys)
	return keys, nil
}

// Keys reads every lab key with its value and remaining TTL. A key that
// expires between SCAN and read is left out.
func (c *Coordination) Keys(ctx context.Context) ([]engine.RedisKey, error) {
	names, err := c.scan(ctx)
	if err != nil {
		return nil, err
	}
	out := make([]engine.RedisKey, 0, len(names))
	for _, name := range names {
		pipe := c.admin.Pipeline()
		typ := pipe.Type(ctx, name)
		ttl := pipe.PTTL(ctx, name)
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			return nil, fmt.Errorf("redisstore: read %s: %w", name, err)
		}
		key := engine.RedisKey{Key: name, Type: typ.Val(), TTL: ttl.Val()}
		switch key.Type {
		case "none":
			continue
		case "string":
			v, err := c.admin.Get(ctx, name).Result()
			if errors.Is(err, redis.Nil) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("redisstore: read %s: %w", name, err)
			}
			key.Value = v
		case "hash":
			fields, err := c.admin.HGetAll(ctx, name).Result()
			if err != nil {
				return nil, fmt.Errorf("redisstore: read %s: %w", name, err)
			}
			key.Value = formatHash(fields)
		}
		out = append(out, key)
	}
	return out, nil
}

func formatHash(fields map[string]string) string {
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, name := range names {
		parts[i] = name + "=" + fields[name]
	}
	return strings.Join(parts, " ")
}

// Elapse lets d pass for key expiry. The embedded server fast-forwards.
// A real server's TTLs run on the wall clock, so it waits — but only until
// the last lab key that d would expire is gone: advancing the lab clock ten
// minutes past a job's deadline does not wait ten minutes, and longer TTLs
// are left as they are.
func (c *Coordination) Elapse(ctx context.Context, d time.Duration) error {
	if c.embedded != nil {
		c.embedded.FastForward(d)
		return nil
	}
	keys, err := c.Keys(ctx)
	if err != nil {
		return err
	}
	var wait time.Duration
	for _, k := range keys {
		if k.TTL > 0 && k.TTL <= d {
			wait = max(wait, k.TTL+10*time.Millisecond)
		}
	}
	select {
	case <-time.After(min(wait, d)):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Restart loses every key. The embedded server really stops and starts
// again, empty, on the same address; clients reconnect. A real server is
// somebody's: only the lab's keys are deleted, standing in for a restart.
func (c *Coordination) Restart(ctx context.Context) (bool, error) {
	if c.embedded == nil {
		return false, c.Wipe(ctx)
	}
	c.embedded.Close()
	c.embedded.FlushAll()
	if err := c.embedded.Restart(); err != nil {
		return false, fmt.Errorf("redisstore: restart miniredis: %w", err)
	}
	return true, nil
}

func (c *Coordination) Virtual() bool    { return c.embedded != nil }
func (c *Coordination) Describe() string { return c.describe }

// Close closes every client and stops the embedded server.
func (c *Coordination) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, client := range c.clients {
		client.Close()
	}
	c.clients = map[string]*redis.Client{}
	err := c.admin.Close()
	if c.embedded != nil {
		c.embedded.Close()
	}
	return err
}

// ValidateURL checks a redis:// URL without connecting.
func ValidateURL(url string) error {
	_, err := redis.ParseURL(url)
	return err
}

// Delete removes lab keys by name, as a key that vanishes from under a
// worker (an eviction, an operator's mistake). Names outside the prefix are
// refused: the lab never deletes what is not its own.
func (c *Coordination) Delete(ctx context.Context, keys ...string) error {
	for _, k := range keys {
		if !strings.HasPrefix(k, Prefix) {
			return fmt.Errorf("redisstore: refusing to delete %q: not a lab key", k)
		}
	}
	if err := c.admin.Del(ctx, keys...).Err(); err != nil {
		return fmt.Errorf("redisstore: delete %v: %w", keys, err)
	}
	return nil
}

// LeaseHolder reads the resource lease of a conflict key.
func (c *Coordination) LeaseHolder(ctx context.Context, conflictKey string) (string, int64, bool, error) {
	value, err := c.admin.Get(ctx, keysFor(conflictKey).lease).Result()
	if errors.Is(err, redis.Nil) {
		return "", 0, false, nil
	}
	if err != nil {
		return "", 0, false, fmt.Errorf("redisstore: read lease of %s: %w", conflictKey, err)
	}
	// owner|token; the owner may itself contain '|', the token never does.
	i := strings.LastIndexByte(value, '|')
	if i < 0 {
		return value, 0, true, nil
	}
	token, err := strconv.ParseInt(value[i+1:], 10, 64)
	if err != nil {
		return value, 0, true, nil
	}
	return value[:i], token, true, nil
}
