package redisstore

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/fencelab/fencelab/engine"
)

// Reading the lab's keys whole. On a real server that takes a SCAN and two
// pipelined round trips. The embedded server is the process's own, so its
// keys are read straight from its memory: the same keys, values and TTLs the
// wire would return, without the round trips — the checker reads them after
// every step it takes, thousands of times a second.

// Keys reads every lab key with its value and remaining TTL. A key that
// expires between SCAN and read is left out.
func (c *Coordination) Keys(ctx context.Context) ([]engine.RedisKey, error) {
	if c.embedded != nil {
		return c.embeddedKeys(c.keys.prefix), nil
	}
	names, err := scanKeys(ctx, c.admin, c.keys.all())
	if err != nil {
		return nil, err
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

// readKeys reads the type, TTL and value of a batch of keys in two
// pipelined round trips.
func (c *Coordination) readKeys(ctx context.Context, names []string) ([]engine.RedisKey, error) {
	pipe := c.admin.Pipeline()
	types := make([]*redis.StatusCmd, len(names))
	ttls := make([]*redis.DurationCmd, len(names))
	for i, name := range names {
		types[i], ttls[i] = pipe.Type(ctx, name), pipe.PTTL(ctx, name)
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("redisstore: read lab keys: %w", err)
	}
	pipe = c.admin.Pipeline()
	values := make([]redis.Cmder, len(names))
	for i, name := range names {
		switch types[i].Val() {
		case "string":
			values[i] = pipe.Get(ctx, name)
		case "hash":
			values[i] = pipe.HGetAll(ctx, name)
		}
	}
	if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("redisstore: read lab keys: %w", err)
	}
	out := make([]engine.RedisKey, 0, len(names))
	for i, name := range names {
		key := engine.RedisKey{Key: name, Type: types[i].Val(), TTL: ttls[i].Val(), Role: c.keys.role(name)}
		switch v := values[i].(type) {
		case nil:
			if key.Type == "none" {
				continue
			}
		case *redis.StringCmd:
			value, err := v.Result()
			if err != nil {
				continue // expired between the two reads
			}
			key.Value = value
		case *redis.MapStringStringCmd:
			if len(v.Val()) == 0 {
				continue
			}
			key.Fields = v.Val()
			key.Value = formatHash(key.Fields)
			key.Stamps = c.keys.stamps(name)
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
func (c *Coordination) embeddedJobs(targets string) engine.JobsState {
	state := engine.JobsState{Running: map[string]string{}}
	for _, key := range c.embeddedKeys(c.keys.jobPrefix()) {
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

// Restore makes the lab's keys exactly keys, as Keys read them, with their
// names relative to the namespace (a copy taken on another lab fits this
// one): every other lab key is deleted, and each key gets its value back
// with the TTL it had left (its lab time, on the embedded server; on a real
// one, that much wall-clock time from now).
func (c *Coordination) Restore(ctx context.Context, keys []engine.RedisKey) error {
	for _, k := range keys {
		if k.Type != "string" && k.Type != "hash" {
			return fmt.Errorf("redisstore: restore %s: a %s key cannot be copied", k.Key, k.Type)
		}
	}
	if c.embedded != nil {
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
		return nil
	}
	if err := c.Wipe(ctx); err != nil {
		return err
	}
	// One transaction on one server; a cluster's keys live in many slots,
	// which no one transaction spans.
	pipe := c.admin.TxPipeline()
	if c.server.isCluster() {
		pipe = c.admin.Pipeline()
	}
	for _, k := range keys {
		name := c.keys.prefix + k.Key
		if k.Type == "string" {
			pipe.Set(ctx, name, k.Value, max(k.TTL, 0))
			continue
		}
		pipe.HSet(ctx, name, flatten(k.Fields))
		if k.TTL > 0 {
			pipe.PExpire(ctx, name, k.TTL)
		}
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("redisstore: restore lab keys: %w", err)
	}
	return nil
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
