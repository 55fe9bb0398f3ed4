package redisstore

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fencelab/fencelab/engine"
)

// A lab's keys expire on the lab clock: the embedded server's clock is the
// lab's own, and moves only when the lab advances it. A real server's TTLs
// run on the wall clock, so while someone reads the screen, a lease would
// run out there that has not run out in the lab. To keep a real server on
// the lab clock, the lab keeps, for each of its keys with a TTL, the time
// it has left on the lab clock (its lab TTL), and the server's TTL a little
// above it:
//
//   - between actions the server's TTL is the lab TTL plus keepSlack,
//     renewed every keepEvery, so the key is there as long as the lab says
//     and still expires on the server, within seconds, if fencelab is
//     killed (redis-cli shows that TTL);
//   - the lab clock advancing by d takes d off every lab TTL, and the keys
//     whose lab TTL runs out are deleted then: they expire on the lab clock;
//   - an actor's call that passes a TTL may set it (a lease taken or
//     renewed). Just before it, the keys it names get a marker TTL no call
//     sets (markerTTL); just after, each key still near the marker was left
//     alone and keeps its lab TTL, and a key with any other TTL was given
//     it by the call: its lab TTL is the TTL the call passed (what the
//     server shows, a few milliseconds less, is matched to it). A call that
//     passes none sets none (an HSET keeps a key's TTL); it may delete the
//     keys it names, which the next read of the lab's keys finds gone.
//
// Every key of the lab is named by a call, a restore or a bootstrap before
// it exists (a script touches only the keys it is given), so the lab clock
// also knows the lab's key names: a read of the lab's keys asks for them,
// in one round trip, rather than SCANning the server for them first.
//
// A key that vanishes from the server between actions — fencelab stopped
// for longer than keepSlack (Ctrl-Z, a suspended laptop) and its TTL ran
// out on the wall clock, or somebody deleted it — is no longer the lab
// clock's: the lab is told (LostKeys) and says so.
const (
	keepEvery = 250 * time.Millisecond
	keepSlack = time.Second
	markerTTL = 100 * 24 * time.Hour
)

// labClock is the lab TTLs of a real server's lab keys, by full key name.
type labClock struct {
	c  *Coordination
	mu sync.Mutex
	// ttl is what each lab key with a TTL has left on the lab clock.
	ttl map[string]time.Duration
	// names are every key a call or a restore named since the last wipe:
	// the lab's keys are among them. named are the keys calls named since
	// the lab's keys were last read: one of them gone was deleted by a
	// call, not lost.
	names, named map[string]bool
	// lost are the keys that vanished outside any action, not yet told.
	lost []string
	stop func()
}

// FollowLabClock keeps a real server's lab keys on the lab clock until
// stop is called (see above): Elapse is then instant, and a lab can undo,
// travel in time and be checked as on the embedded server. The embedded
// server follows the lab clock anyway.
func (c *Coordination) FollowLabClock() (stop func()) {
	if c.embedded != nil || c.labClock() != nil {
		return func() {}
	}
	k := &labClock{c: c, ttl: map[string]time.Duration{}, names: map[string]bool{}, named: map[string]bool{}}
	done, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(keepEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				// A server that stopped answering is the next action's
				// to report; while it is silent there is nothing to keep,
				// and it is asked (within silentProbe) whether it is back:
				// the run's cleanup and next actions are then its again.
				if c.server.silence().Load() {
					c.admin.Ping(context.Background())
					continue
				}
				// No deadline of its own: the one on each command
				// (deadlineHook) starts when it is sent, not while keep
				// waits for an action's call to end.
				k.keep(context.Background())
			}
		}
	}()
	var once sync.Once
	k.stop = func() {
		once.Do(func() {
			close(done)
			<-stopped
		})
	}
	c.mu.Lock()
	c.clock = k
	c.mu.Unlock()
	return func() {
		k.stop()
		c.mu.Lock()
		c.clock = nil
		c.mu.Unlock()
	}
}

// LostKeys are the lab keys that vanished from a real server outside any
// action since the last call (their TTL ran out on the wall clock while
// fencelab was stopped, or somebody deleted them); now renews the lab's
// TTLs first, which finds a key gone since the keeper last did. The
// embedded server loses none.
func (c *Coordination) LostKeys(ctx context.Context, now bool) ([]string, error) {
	k := c.labClock()
	if k == nil {
		return nil, nil
	}
	if now {
		if err := k.keep(ctx); err != nil {
			return nil, err
		}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	lost := k.lost
	k.lost = nil
	return lost, nil
}

func (c *Coordination) labClock() *labClock {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.clock
}

// keep renews the server's TTL of every lab key to its lab TTL plus the
// slack. A key that is gone is lost.
func (k *labClock) keep(ctx context.Context) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.ttl) == 0 {
		return nil
	}
	names := make([]string, 0, len(k.ttl))
	for name := range k.ttl {
		names = append(names, name)
	}
	slices.Sort(names)
	results, err := k.pin(ctx, names)
	if err != nil {
		return err
	}
	for i, name := range names {
		if !results[i] {
			k.gone(name)
		}
	}
	return nil
}

// gone drops a lab key the server no longer has: deleted by a call that
// named it, or else lost.
func (k *labClock) gone(name string) {
	delete(k.ttl, name)
	if !k.named[name] {
		k.lost = append(k.lost, name)
	}
}

// pin sets the server's TTL of each named key to its lab TTL plus the
// slack, and reports which keys were there.
func (k *labClock) pin(ctx context.Context, names []string) ([]bool, error) {
	pipe := k.c.admin.Pipeline()
	cmds := make([]*redis.BoolCmd, len(names))
	for i, name := range names {
		cmds[i] = pipe.PExpire(ctx, name, k.ttl[name]+keepSlack)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, fmt.Errorf("redisstore: keep lab TTLs: %w", err)
	}
	out := make([]bool, len(cmds))
	for i, cmd := range cmds {
		out[i] = cmd.Val()
	}
	return out, nil
}

// around runs an actor's call that names keys and may set TTLs among ttls,
// and learns the lab TTLs it leaves (see the package comment above).
func (k *labClock) around(ctx context.Context, keys []string, ttls []time.Duration, call func() error) error {
	if k == nil {
		return call()
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, name := range keys {
		k.names[name], k.named[name] = true, true
	}
	if len(ttls) == 0 {
		return call()
	}
	for _, ttl := range ttls {
		if ttl >= markerTTL/2 {
			return fmt.Errorf("redisstore: a TTL of %s is longer than the lab clock keeps on a real server", ttl)
		}
	}
	pipe := k.c.admin.Pipeline()
	for _, name := range keys {
		if _, ok := k.ttl[name]; ok {
			pipe.PExpire(ctx, name, markerTTL)
		}
	}
	if pipe.Len() > 0 {
		if _, err := pipe.Exec(ctx); err != nil {
			return fmt.Errorf("redisstore: mark lab TTLs: %w", err)
		}
	}
	began := engine.HostClock()
	err := call()
	// Learn what the call left even when it failed: it may have run on
	// the server and only its answer been lost.
	if settled := k.settle(ctx, keys, ttls, began); err == nil {
		err = settled
	}
	return err
}

// settle reads the TTLs of the keys a call begun at began named and
// brings them back to the lab clock, in one round trip (lab_ttls.lua): a
// key still near the marker keeps its lab TTL, a key with another TTL takes
// the one the call gave it, a key without one or gone leaves the lab clock.
func (k *labClock) settle(ctx context.Context, keys []string, ttls []time.Duration, began time.Time) error {
	args := make([]any, 2, 2+len(keys))
	args[0], args[1] = (markerTTL / 2).Milliseconds(), keepSlack.Milliseconds()
	for _, name := range keys {
		lab, ok := k.ttl[name]
		if !ok {
			lab = -time.Millisecond
		}
		args = append(args, lab.Milliseconds())
	}
	left, err := labTTLsScript.Run(ctx, k.c.admin, keys, args...).Int64Slice()
	if err != nil {
		return fmt.Errorf("redisstore: read lab TTLs: %w", err)
	}
	// No TTL the call set has run for longer than this when it is read.
	took := engine.HostSince(began)
	for i, name := range keys {
		ms := time.Duration(left[i]) * time.Millisecond
		switch {
		case ms < 0: // no TTL, or gone
			delete(k.ttl, name)
		case ms > markerTTL/2: // left alone: its lab TTL stays
		default:
			k.ttl[name] = given(ms, ttls, took)
		}
	}
	return nil
}

// given is the TTL a call set, from what the server showed after it: the
// call's TTL that the server's is at most took (and a millisecond of
// rounding) short of, else what the server showed.
func given(left time.Duration, ttls []time.Duration, took time.Duration) time.Duration {
	best := time.Duration(-1)
	for _, ttl := range ttls {
		if ttl >= left && ttl-left <= took+time.Millisecond && (best < 0 || ttl < best) {
			best = ttl
		}
	}
	if best < 0 {
		return left
	}
	return best
}

// elapse takes d off every lab TTL: the keys whose TTL runs out are
// deleted, the others' server TTLs follow, in one round trip.
func (k *labClock) elapse(ctx context.Context, d time.Duration) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	var expired, left []string
	for name, ttl := range k.ttl {
		if ttl <= d {
			expired = append(expired, name)
			delete(k.ttl, name)
			continue
		}
		k.ttl[name] = ttl - d
		left = append(left, name)
	}
	if len(expired)+len(left) == 0 {
		return nil
	}
	slices.Sort(left)
	pipe := k.c.admin.Pipeline()
	for _, name := range expired {
		pipe.Unlink(ctx, name)
	}
	pinned := make([]*redis.BoolCmd, len(left))
	for i, name := range left {
		pinned[i] = pipe.PExpire(ctx, name, k.ttl[name]+keepSlack)
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return fmt.Errorf("redisstore: expire lab keys: %w", err)
	}
	for i, name := range left {
		if !pinned[i].Val() {
			k.gone(name)
		}
	}
	return nil
}

// forget drops what the lab clock knows of keys that were deleted (all of
// them, when names is nil).
func (k *labClock) forget(names []string) {
	if k == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if names == nil {
		k.ttl, k.names, k.named = map[string]time.Duration{}, map[string]bool{}, map[string]bool{}
		return
	}
	for _, name := range names {
		delete(k.ttl, name)
		delete(k.names, name)
	}
}

// labTTLs replaces the server's TTLs in keys just read with the lab's
// (the caller holds k.mu). A lab key the read did not find is lost.
func (k *labClock) labTTLs(keys []engine.RedisKey) {
	found := make(map[string]bool, len(keys))
	for i, key := range keys {
		found[key.Key] = true
		if ttl, ok := k.ttl[key.Key]; ok {
			keys[i].TTL = ttl
		}
	}
	for name := range k.ttl {
		if !found[name] {
			k.gone(name)
		}
	}
	clear(k.named)
}

// become learns the lab TTLs of the lab's keys, just restored to keys
// (names relative to prefix); the caller holds k.mu.
func (k *labClock) become(prefix string, keys []engine.RedisKey) {
	k.ttl = make(map[string]time.Duration, len(keys))
	k.names = make(map[string]bool, len(keys))
	clear(k.named)
	for _, key := range keys {
		k.names[prefix+key.Key] = true
		if key.TTL > 0 {
			k.ttl[prefix+key.Key] = key.TTL
		}
	}
}
