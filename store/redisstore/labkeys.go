package redisstore

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
)

// Reading the lab's keys whole. On a real server that takes a SCAN and two
// pipelined round trips. The embedded server is the process's own, so its
// keys are read straight from its memory: the same keys, values and TTLs the
// wire would return, without the round trips — the checker reads them after
// every step it takes, thousands of times a second.

// Keys reads every lab key with its value and remaining TTL. On a real
// server kept on the lab clock the lab's key names are known (labclock.go)
// and the TTLs are the lab's; otherwise SCAN finds the keys, and a key that
// expires between SCAN and read is left out.
func (c *Coordination) Keys(ctx context.Context) ([]engine.RedisKey, error) {
	if c.embedded != nil {
		return c.embeddedKeys(c.keys.prefix), nil
	}
	k := c.labClock()
	var names []string
	if k != nil {
		// Not while the keeper renews TTLs, which the read would show.
		k.mu.Lock()
		defer k.mu.Unlock()
		names = slices.Sorted(maps.Keys(k.names)) // the lab's keys are among them
	} else {
		var err error
		if names, err = scanKeys(ctx, c.admin, c.keys.all()); err != nil {
			return nil, err
		}
	}
	out := make([]engine.RedisKey, 0, len(names))
	for len(names) > 0 {
		batch := names[:min(len(names), scanBatch)]
		names = names[len(batch):]
		keys, err := c.readKeys(ctx, batch)
		if err != nil {
			return nil, err
		}
		out = append(out, keys...)
	}
	if k != nil {
		k.labTTLs(out)
	}
	return out, nil
}

// embeddedKeys reads the embedded server's keys under a prefix, sorted.
func (c *Coordination) embeddedKeys(prefix string) []engine.RedisKey {
	mr := c.embedded
	var out []engine.RedisKey
	for _, name := range mr.Keys() {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		key := engine.RedisKey{Key: name, Type: mr.Type(name), TTL: mr.TTL(name), Role: c.keys.role(name)}
		if key.TTL == 0 {
			key.TTL = -1 // as PTTL says of a key without one
		}
		switch key.Type {
		case "string":
			value, err := mr.Get(name)
			if err != nil {
				continue
			}
			key.Value = value
		case "hash":
			fields, err := mr.HKeys(name)
			if err != nil || len(fields) == 0 {
				continue
			}
			key.Fields = make(map[string]string, len(fields))
			for _, f := range fields {
				key.Fields[f] = mr.HGet(name, f)
			}
			key.Value = formatHash(key.Fields)
			key.Stamps = c.keys.stamps(name)
		case "":
			continue
		}
		out = append(out, key)
	}
	return out
}

// readKeys reads the type, TTL and value of a batch of keys in one
// pipelined round trip: the type is not known before the reply, so each
// key is read both as a string and as a hash, and the read that fits its
// type is kept (the other answers WRONGTYPE).
func (c *Coordination) readKeys(ctx context.Context, names []string) ([]engine.RedisKey, error) {
	pipe := c.admin.Pipeline()
	types := make([]*redis.StatusCmd, len(names))
	ttls := make([]*redis.DurationCmd, len(names))
	strs := make([]*redis.StringCmd, len(names))
	hashes := make([]*redis.MapStringStringCmd, len(names))
	for i, name := range names {
		types[i], ttls[i] = pipe.Type(ctx, name), pipe.PTTL(ctx, name)
		strs[i], hashes[i] = pipe.Get(ctx, name), pipe.HGetAll(ctx, name)
	}
	// An error of one command (WRONGTYPE, or redis.Nil for a key gone)
	// is that command's; only a failed round trip fails the read.
	if _, err := pipe.Exec(ctx); err != nil && types[0].Err() != nil {
		return nil, fmt.Errorf("redisstore: read lab keys: %w", err)
	}
	out := make([]engine.RedisKey, 0, len(names))
	for i, name := range names {
		key := engine.RedisKey{Key: name, Type: types[i].Val(), TTL: ttls[i].Val(), Role: c.keys.role(name)}
		switch key.Type {
		case "string":
			value, err := strs[i].Result()
			if err != nil {
				continue // expired meanwhile
			}
			key.Value = value
		case "hash":
			if len(hashes[i].Val()) == 0 {
				continue
			}
			key.Fields = hashes[i].Val()
			key.Value = formatHash(key.Fields)
			key.Stamps = c.keys.stamps(name)
		case "none":
			continue
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

// embeddedJobs is readJobs on the embedded server's memory.
func (c *Coordination) embeddedJobs(targets string) world.JobsState {
	return c.jobsIn(c.embeddedKeys(c.keys.jobPrefix()), targets)
}

// JobsIn is the job hashes and running pointers among keys as Keys read
// them: what Jobs would read, without reading again.
func (c *Coordination) JobsIn(keys []engine.RedisKey) world.JobsState {
	return c.jobsIn(keys, "*")
}

func (c *Coordination) jobsIn(keys []engine.RedisKey, targets string) world.JobsState {
	state := world.JobsState{Running: map[string]string{}}
	for _, key := range keys {
		target, name, ok := c.keys.parseJob(key.Key)
		if matched, _ := path.Match(targets, target); !ok || !matched {
			continue
		}
		switch {
		case name == "running" && key.Type == "string":
			state.Running[target] = key.Value
		case name != "running" && key.Type == "hash":
			job := parseJob(target, name, key.Fields)
			job.Key = key.Key
			state.Jobs = append(state.Jobs, job)
		}
	}
	return state
}

// Restore makes the lab's keys exactly to, as Keys read them, with their
// names relative to the namespace (a copy taken on another lab fits this
// one): every other lab key is deleted, and each key gets its value back
// with the TTL it had left (its lab time, on the embedded server and on a
// real one kept on the lab clock; on a real one on the wall clock, that
// much wall-clock time from now). from, when known, is what the lab's keys
// are now: a real server is then written only where they differ — the
// checker restores a state after almost every step it explores, and most
// differ from the last in a key or two.
func (c *Coordination) Restore(ctx context.Context, from, to []engine.RedisKey) error {
	for _, k := range to {
		if k.Type != "string" && k.Type != "hash" {
			return fmt.Errorf("redisstore: restore %s: a %s key cannot be copied", k.Key, k.Type)
		}
	}
	if c.embedded != nil {
		c.restoreEmbedded(to)
		return nil
	}
	clock := c.labClock()
	if from == nil {
		if err := c.Wipe(ctx); err != nil {
			return err
		}
	}
	if clock != nil {
		// The keeper renews what the lab clock knows: not while the keys
		// change under it.
		clock.mu.Lock()
		defer clock.mu.Unlock()
	}
	// On the lab clock a key's server TTL is its lab TTL and the slack.
	serverTTL := func(ttl time.Duration) time.Duration {
		if clock != nil && ttl > 0 {
			return ttl + keepSlack
		}
		return max(ttl, 0)
	}
	now := make(map[string]engine.RedisKey, len(from))
	for _, k := range from {
		now[k.Key] = k
	}
	// One transaction on one server; a cluster's keys live in many slots,
	// which no one transaction spans.
	pipe := c.admin.TxPipeline()
	if c.server.isCluster() {
		pipe = c.admin.Pipeline()
	}
	wanted := make(map[string]bool, len(to))
	for _, k := range to {
		wanted[k.Key] = true
		name := c.keys.prefix + k.Key
		was, had := now[k.Key]
		switch {
		case had && sameValue(was, k) && was.TTL == k.TTL:
			continue
		case had && sameValue(was, k) && k.TTL > 0:
			pipe.PExpire(ctx, name, serverTTL(k.TTL))
		case had && sameValue(was, k):
			pipe.Persist(ctx, name)
		case k.Type == "string":
			pipe.Set(ctx, name, k.Value, serverTTL(k.TTL))
		default:
			if had {
				pipe.Del(ctx, name) // no field of the old hash stays
			}
			pipe.HSet(ctx, name, flatten(k.Fields))
			if k.TTL > 0 {
				pipe.PExpire(ctx, name, serverTTL(k.TTL))
			}
		}
	}
	for _, k := range from {
		if !wanted[k.Key] {
			pipe.Unlink(ctx, c.keys.prefix+k.Key)
		}
	}
	if pipe.Len() > 0 {
		if _, err := pipe.Exec(ctx); err != nil {
			return fmt.Errorf("redisstore: restore lab keys: %w", err)
		}
	}
	if clock != nil {
		clock.become(c.keys.prefix, to)
	}
	return nil
}

// restoreEmbedded is Restore on the embedded server's memory.
func (c *Coordination) restoreEmbedded(keys []engine.RedisKey) {
	mr := c.embedded
	for _, name := range mr.Keys() {
		if c.keys.owns(name) {
			mr.Del(name)
		}
	}
	for _, k := range keys {
		name := c.keys.prefix + k.Key
		if k.Type == "string" {
			mr.Set(name, k.Value)
		} else {
			mr.HSet(name, flatten(k.Fields)...)
		}
		if k.TTL > 0 {
			mr.SetTTL(name, k.TTL)
		}
	}
}

// sameValue reports whether two reads of a key hold the same value.
func sameValue(a, b engine.RedisKey) bool {
	if a.Type != b.Type {
		return false
	}
	if a.Type == "hash" {
		return maps.Equal(a.Fields, b.Fields)
	}
	return a.Value == b.Value
}

// flatten lists a hash's fields and values, fields sorted.
func flatten(fields map[string]string) []string {
	names := make([]string, 0, len(fields))
	for f := range fields {
		names = append(names, f)
	}
	sort.Strings(names)
	out := make([]string, 0, 2*len(names))
	for _, f := range names {
		out = append(out, f, fields[f])
	}
	return out
}
