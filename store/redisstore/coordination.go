// Package redisstore is the coordination side of fencelab on Redis
// (go-redis): leases and fencing tokens as Lua scripts, on the embedded
// miniredis or on a real server.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/alicebob/miniredis/v2"
	miniserver "github.com/alicebob/miniredis/v2/server"
	"github.com/redis/go-redis/v9"
	lua "github.com/yuin/gopher-lua"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/redact"
)

var _ world.Coordination = (*Coordination)(nil)

// ErrClosed is the error of a client used after it was closed.
var ErrClosed = redis.ErrClosed

// Coordination is one Redis server — the embedded one or a real one — or a
// Redis Cluster.
type Coordination struct {
	// trustCode: a file's code may run as fencelab's own user where the
	// server makes no user for it (codeuser.go).
	trustCode bool
	server    server
	admin     redis.UniversalClient
	embedded  *miniredis.Miniredis // nil for a real server
	describe  string
	keys      keyspace
	// url reaches the server from another process of the run (Endpoint);
	// joined: this is such a process, which leaves the run's keys to the
	// run.
	url    string
	joined bool
	// unreached: the first contact failed, so nothing of the run's was
	// written; Close has nothing to delete.
	unreached atomic.Bool
	// scriptStuck: a file's script holds the embedded server (Code).
	scriptStuck atomic.Bool
	// stopAlive stops renewing this run's alive key (runs.go).
	stopAlive func()

	mu      sync.Mutex
	clients map[string]redis.UniversalClient
	// code is the run's Redis user for a file's code, once asked for, and
	// codeClients the actors' connections logged in as it (codeuser.go).
	code        *codeUser
	codeClients map[string]redis.UniversalClient
	// functions are the libraries the run loaded for a file's scripts
	// on a Redis of the user's (functions.go).
	functions scriptFunctions
	// clock keeps a real server's lab keys on the lab clock while a lab
	// runs (FollowLabClock); nil on the embedded server and for stress.
	clock *labClock
	// wallClockHook is FollowWallClock's hook before every command of the
	// embedded server, while it follows the wall clock; a restart, which
	// makes a new server, sets it again.
	wallClockHook miniserver.Hook
}

// The embedded server builds a Lua state for every script call, with a
// value stack (RegistrySize slots) and a call stack (CallStackSize frames)
// of a fixed size, zeroed and then collected each time: at gopher-lua's
// defaults, 80 and 30 KB a call, about half of what a lease's acquire and
// release allocated (432 KB; 273 KB with these sizes). fencelab's scripts
// (scripts/) are flat, a few dozen values deep at most; these still leave
// any of them ample room.
func init() {
	lua.RegistrySize = 1024
	lua.CallStackSize = 64
}

// StartEmbedded starts an in-process miniredis. Its clock is the lab clock:
// keys expire only when the lab advances time.
func StartEmbedded() (*Coordination, error) {
	mr := miniredis.NewMiniRedis()
	if err := mr.Start(); err != nil {
		return nil, fmt.Errorf("redisstore: start miniredis: %w", err)
	}
	// Its TCP address is for what runs outside the process (stress
	// --procs, a redis-cli); the process's own clients talk to it over
	// in-memory pipes: a lab's every step is a few Redis calls, and a
	// loopback socket costs each of them system calls on both ends.
	inProcess := func(context.Context, string, string) (net.Conn, error) {
		client, served := net.Pipe()
		mr.Server().ServeConn(newReplyBuffer(served))
		return pipeConn{client}, nil
	}
	c := newCoordination(server{single: &redis.Options{Addr: mr.Addr(), Dialer: inProcess}}, "miniredis", keyspace{prefix: Prefix})
	c.embedded = mr
	c.url = "redis://" + mr.Addr()
	return c, nil
}

// pipeConn is a client's end of an in-memory pipe to the embedded server.
// The server closing it (a lab's Redis restart) is io.EOF to every call,
// as a socket the server closed is to go-redis, which then sends the
// command again on a new connection: over a pipe, a command that failed
// so never reached the server.
type pipeConn struct{ net.Conn }

// closedIsEOF says io.EOF for a pipe the server closed (net.Pipe says
// io.ErrClosedPipe to a write or a deadline set).
func closedIsEOF(err error) error {
	if errors.Is(err, io.ErrClosedPipe) {
		return io.EOF
	}
	return err
}

func (p pipeConn) Write(b []byte) (int, error) {
	n, err := p.Conn.Write(b)
	return n, closedIsEOF(err)
}

func (p pipeConn) SetDeadline(t time.Time) error { return closedIsEOF(p.Conn.SetDeadline(t)) }

func (p pipeConn) SetReadDeadline(t time.Time) error { return closedIsEOF(p.Conn.SetReadDeadline(t)) }

func (p pipeConn) SetWriteDeadline(t time.Time) error {
	return closedIsEOF(p.Conn.SetWriteDeadline(t))
}

// Connect uses the real server behind a redis:// URL — or the Redis
// Cluster, when the URL lists several nodes (redis://H1:P1,H2:P2) or its
// one server is a cluster's node. Its TTLs run on the wall clock. The run
// gets a namespace of its own on the server (fencelab:RUN:), which Close
// deletes.
func Connect(ctx context.Context, url string) (*Coordination, error) {
	s, err := parseServer(url)
	if err != nil {
		return nil, fmt.Errorf("redisstore: %w", err)
	}
	describe := redact.URL(url)
	s, err = detectCluster(ctx, s)
	if err != nil && ctx.Err() != nil {
		return nil, context.Cause(ctx) // the caller's end, not the server's silence
	}
	if err != nil {
		return nil, lang.Error("redisstore: reach %s: %w", describe, err)
	}
	if s.isCluster() {
		describe = "cluster " + describe
	}
	c, err := connectServer(ctx, s, describe)
	if err == nil {
		c.url = url
	}
	return c, err
}

// ConnectShared is Connect for a run that shares its keys with other runs,
// on any machines, that give the same name (stress --shared): they live
// under fencelab:shared:NAME:, and no run deletes them when it ends.
func ConnectShared(ctx context.Context, url, name string) (*Coordination, error) {
	c, err := Connect(ctx, url)
	if err != nil {
		return nil, err
	}
	// Connect found the server and swept the keys of killed runs; the
	// run's own namespace holds nothing yet, and goes with its alive key.
	c.Close()
	shared, err := Join(ctx, Endpoint{URL: url, Cluster: c.server.isCluster(), Namespace: SharedNamespace(name)})
	if err != nil {
		return nil, err
	}
	shared.describe = c.describe
	return shared, nil
}

// SharedNamespace is where the runs sharing name keep their keys.
func SharedNamespace(name string) string { return Prefix + "shared:" + name + ":" }

// noAnswerIfTimedOut names a probe that ran out of CallTimeout — the
// probe's deadline, or a socket's read or write timeout — as a server that
// did not answer. The caller's own end (Ctrl-C) is told apart by Connect.
func noAnswerIfTimedOut(err error) error {
	var timeout net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.As(err, &timeout) && timeout.Timeout() {
		return errNoAnswer
	}
	return err
}

// Endpoint is how another process of the same run reaches the server and
// the run's keys. It carries the URL whole, password and all: pass it
// privately (a pipe), never on a command line.
type Endpoint struct {
	URL       string `json:"url"`
	Cluster   bool   `json:"cluster,omitempty"`
	Namespace string `json:"namespace"`
}

// Endpoint is this run's, for a worker process (stress --procs).
func (c *Coordination) Endpoint() Endpoint {
	return Endpoint{URL: c.url, Cluster: c.server.isCluster(), Namespace: c.keys.prefix}
}

// Join connects a worker process to its run's server and keys. It
// announces nothing and deletes nothing: the run that made the keys does
// that when it ends.
func Join(ctx context.Context, e Endpoint) (*Coordination, error) {
	s, err := parseServer(e.URL)
	if err != nil {
		return nil, fmt.Errorf("redisstore: %w", err)
	}
	if !strings.HasPrefix(e.Namespace, Prefix) {
		return nil, fmt.Errorf("redisstore: join %q: not a fencelab namespace", e.Namespace)
	}
	if e.Cluster && !s.isCluster() {
		s = server{cluster: clusterOptions(s.single, []string{s.single.Addr})}
	}
	if !s.isCluster() {
		s.single.DialTimeout = CallTimeout
		s.single.MaxRetries = 1
	}
	c := newCoordination(s, redact.URL(e.URL), keyspace{prefix: e.Namespace})
	c.url, c.joined = e.URL, true
	if err := c.admin.Ping(ctx).Err(); err != nil {
		c.Close()
		return nil, fmt.Errorf("redisstore: reach %s: %w", c.describe, err)
	}
	return c, nil
}

// ConnectOptions is Connect for options built by hand (a unix socket in tests).
func ConnectOptions(ctx context.Context, options *redis.Options, describe string) (*Coordination, error) {
	c, err := connectServer(ctx, server{single: options}, describe)
	if err == nil {
		c.url = urlOf(options)
	}
	return c, err
}

// connectServer connects to a real server or cluster, announces the run
// and sweeps the keys of runs that were killed.
func connectServer(ctx context.Context, s server, describe string) (*Coordination, error) {
	if !s.isCluster() {
		s.single.DialTimeout = CallTimeout
		s.single.MaxRetries = 1
	}
	c := newCoordination(s, describe, runKeyspace())
	// The client bounds the ping itself (CallTimeout) and names a server
	// that does not answer.
	if err := c.admin.Ping(ctx).Err(); err != nil {
		c.unreached.Store(true) // nothing was written; nothing to delete
		c.Close()
		return nil, lang.Error("redisstore: reach %s: %w", describe, refused(err))
	}
	if err := c.announce(ctx); err != nil {
		c.unreached.Store(true)
		c.Close()
		return nil, err
	}
	if err := c.sweepDeadRuns(ctx); err != nil {
		c.Close()
		return nil, fmt.Errorf("redisstore: delete the keys of runs that were killed: %w", err)
	}
	return c, nil
}

// DriverLog sends go-redis's own log lines to w. The driver has one logger
// for the whole process, so only the program's owner (main) sets it:
// fencelab reports a failure once, as one line, where it happens, and a
// driver line in the middle of the explorer's screen would corrupt it.
func DriverLog(w io.Writer) { redis.SetLogger(driverLogger{w}) }

type driverLogger struct{ w io.Writer }

func (l driverLogger) Printf(_ context.Context, format string, args ...any) {
	fmt.Fprintf(l.w, "redis: "+format+"\n", args...)
}

func newCoordination(s server, describe string, keys keyspace) *Coordination {
	c := &Coordination{
		server:   s.bounded(),
		describe: describe,
		keys:     keys,
		clients:  map[string]redis.UniversalClient{},

		codeClients: map[string]redis.UniversalClient{},
	}
	c.admin = c.server.client("fencelab-lab")
	return c
}

// client is an actor's Redis connection: the lease and job stores over one
// go-redis client.
var _ world.RedisClient = client{}

type client struct {
	*Leases
	*Jobs
	*Code
}

// Client is an actor's own connection, named fencelab-ACTOR on the server.
func (c *Coordination) Client(actor string) engine.RedisClient {
	c.mu.Lock()
	defer c.mu.Unlock()
	rdb, ok := c.clients[actor]
	if !ok {
		rdb = c.server.client("fencelab-"+actor, wireHook{})
		c.clients[actor] = rdb
	}
	return client{Leases: &Leases{rdb: rdb, keys: c.keys, clock: c.clock}, Jobs: &Jobs{rdb: rdb, keys: c.keys, clock: c.clock},
		Code: &Code{own: rdb, coordination: c, actor: actor, keys: c.keys, clock: c.clock, embedded: c.embedded != nil, stuck: &c.scriptStuck}}
}

// Jobs reads every lab job hash and running pointer.
func (c *Coordination) Jobs(ctx context.Context) (world.JobsState, error) {
	return c.JobsMatching(ctx, "*")
}

// JobsMatching reads the job hashes and pointers of the targets matching a
// glob ("race-lua-*").
func (c *Coordination) JobsMatching(ctx context.Context, targets string) (world.JobsState, error) {
	if c.embedded != nil {
		return c.embeddedJobs(targets), nil
	}
	return readJobs(ctx, c.admin, c.keys, targets)
}

// DeleteJobs deletes the job keys of the targets matching a glob.
func (c *Coordination) DeleteJobs(ctx context.Context, targets string) error {
	return c.deleteMatching(ctx, c.keys.jobs(targets))
}

// Wipe deletes the lab's keys, found by SCAN on the prefix.
func (c *Coordination) Wipe(ctx context.Context) error {
	c.labClock().forget(nil)
	return c.deleteMatching(ctx, c.keys.all())
}

// scanBatch is how many keys one SCAN, pipeline or UNLINK handles.
const scanBatch = 500

// deleteMatching deletes the keys matching a pattern of the keyspace.
func (c *Coordination) deleteMatching(ctx context.Context, pattern string) error {
	keys, err := scanKeys(ctx, c.admin, pattern)
	if err != nil {
		return err
	}
	if err := deleteKeys(ctx, c.admin, keys); err != nil {
		return fmt.Errorf("redisstore: delete lab keys: %w", err)
	}
	return nil
}

// Elapse lets d pass for key expiry. The embedded server fast-forwards;
// a real server kept on the lab clock has its lab TTLs run down by d
// (labclock.go). A real server on the wall clock is waited on — but only
// until the last lab key that d would expire is gone: advancing ten minutes
// past a job's deadline does not wait ten minutes, and longer TTLs are left
// as they are.
func (c *Coordination) Elapse(ctx context.Context, d time.Duration) error {
	if c.embedded != nil {
		c.embedded.FastForward(d)
		return nil
	}
	if k := c.labClock(); k != nil {
		return k.elapse(ctx, d)
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
	err := c.embedded.Restart()
	if errors.Is(err, syscall.EADDRINUSE) {
		// While it was down, the kernel handed its port to another
		// listener (a port given back is given out again: a check's labs
		// start servers of their own all the while). It comes back on
		// another, as a server restarted elsewhere; the process's own
		// clients reach it over pipes, and only the address it shows
		// changes.
		if err = c.embedded.StartAddr("127.0.0.1:0"); err == nil {
			c.url = "redis://" + c.embedded.Addr()
		}
	}
	if err != nil {
		return false, fmt.Errorf("redisstore: restart miniredis: %w", err)
	}
	c.mu.Lock()
	c.embedded.Server().SetPreHook(c.wallClockHook)
	c.mu.Unlock()
	return true, nil
}

// Virtual reports whether the lab keys' TTLs follow the lab clock: the
// embedded server's always, a real server's while FollowLabClock keeps it.
func (c *Coordination) Virtual() bool { return c.embedded != nil || c.labClock() != nil }

// Embedded reports whether the server is fencelab's own miniredis.
func (c *Coordination) Embedded() bool { return c.embedded != nil }

func (c *Coordination) Describe() string { return c.describe }

// cleanupWithin bounds the deletion of a run's keys when it ends (a few
// SCAN and UNLINK round trips).
const cleanupWithin = 2 * CallTimeout

// Close deletes the run's keys from a real server (the embedded one goes
// away with them), closes every client and stops the embedded server. It
// runs when a command ends, interrupted or not. A server that stopped
// answering is not waited on again: its keys stay, and the error says so.
func (c *Coordination) Close() error {
	// The run's refreshers (its alive key, its lab clock) are stopped
	// before the cleanup, whose deletions their last write must not
	// follow — unless the server is silent: then each may be waiting out
	// a deadline, and closing the clients first ends those waits. Silent
	// is what the server was last found to be, by any command of the
	// process: one that timed out earlier, on a server that has answered
	// since (the lab clock's probe), leaves no keys behind.
	silent := c.embedded == nil && !c.joined && (c.unreached.Load() || c.server.silence().Load())
	stopRefreshers := func() {
		if c.stopAlive != nil {
			c.stopAlive()
		}
		if k := c.labClock(); k != nil {
			k.stop()
		}
	}
	var cleanup error
	switch {
	case c.embedded != nil, c.joined:
		stopRefreshers()
	case silent:
		// Silent for this run or another of the process's: what is left
		// is swept by the next run on the server (sweepDeadRuns).
		cleanup = errNoAnswer
	default:
		stopRefreshers()
		ctx, cancel := context.WithTimeout(context.Background(), cleanupWithin)
		if cleanup = c.Wipe(ctx); cleanup == nil {
			cleanup = c.dropCodeUser(ctx)
		}
		if cleanup == nil {
			cleanup = c.dropFunctions(ctx)
		}
		if cleanup == nil {
			cleanup = c.admin.Del(ctx, aliveKey(c.keys.id)).Err()
		}
		cancel()
	}
	c.mu.Lock()
	for _, client := range c.clients {
		client.Close()
	}
	for _, client := range c.codeClients {
		client.Close()
	}
	c.clients, c.codeClients = map[string]redis.UniversalClient{}, map[string]redis.UniversalClient{}
	err := c.admin.Close()
	c.mu.Unlock()
	if silent {
		stopRefreshers() // their commands failed as the clients closed
	}
	if c.embedded != nil && !c.scriptStuck.Load() {
		c.embedded.Close()
	}
	if cleanup != nil {
		return lang.Error("the run's keys %s* are left on %s (a fencelab run there deletes them once %s have passed): %w", c.keys.prefix, c.describe, aliveFor, cleanup)
	}
	return err
}

// FoundSilent says the server was found silent or gone by another process
// of the run (a stress worker's): as if a command of this one had, Close
// skips its cleanup there until a command is answered again.
func (c *Coordination) FoundSilent() { c.server.silence().Store(true) }

// Namespace is the prefix of every key of this run.
func (c *Coordination) Prefix() string { return c.keys.prefix }

// ValidateURL checks a redis:// URL — one server's, or a cluster's list of
// nodes — without connecting.
func ValidateURL(url string) error {
	_, err := parseServer(url)
	return err
}

// Delete removes lab keys by name, as a key that vanishes from under a
// worker (an eviction, an operator's mistake). Names outside the prefix are
// refused: the lab never deletes what is not its own.
func (c *Coordination) Delete(ctx context.Context, keys ...string) error {
	for _, k := range keys {
		if !c.keys.owns(k) {
			return fmt.Errorf("redisstore: refusing to delete %q: not a lab key", k)
		}
	}
	c.labClock().forget(keys)
	if err := deleteKeys(ctx, c.admin, keys); err != nil {
		return fmt.Errorf("redisstore: delete %v: %w", keys, err)
	}
	return nil
}

// ConflictKeyNames names the three keys of a conflict key.
func (c *Coordination) ConflictKeyNames(conflictKey string) []string {
	k := c.keys.conflict(conflictKey)
	return []string{k.lease, k.counter, k.epoch}
}

// LeaseHolder reads the resource lease of a conflict key.
func (c *Coordination) LeaseHolder(ctx context.Context, conflictKey string) (string, int64, bool, error) {
	value, err := c.admin.Get(ctx, c.keys.conflict(conflictKey).lease).Result()
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

// FollowWallClock makes the embedded server's TTLs run on the wall clock,
// as a real server's do, until stop is called: many workers racing for a
// lease with a real TTL (stress) need no lab clock. A real server follows
// it anyway.
//
// The embedded server's clock moves by steps: a ticker's, and, before a
// command, a step up to now (unless another command is running then). A
// real server checks a key's TTL against its clock when a command touches
// the key, so a command does not find a key its TTL has ended; the ticker
// alone let one, when a busy machine kept the ticker's goroutine waiting
// (under -race, more than 100 ms was seen), and a lease outlived its TTL.
func (c *Coordination) FollowWallClock() (stop func()) {
	if c.embedded == nil {
		return func() {}
	}
	var mu sync.Mutex
	last := engine.HostClock()
	catchUp := func() {
		mu.Lock()
		defer mu.Unlock()
		now := engine.HostClock()
		c.embedded.FastForward(now.Sub(last))
		last = now
	}
	hook := func(*miniserver.Peer, string, ...string) bool {
		// A script's own calls come here too, while the script holds the
		// server's lock (which FastForward takes): its command caught up
		// before it began.
		if !c.embedded.TryLock() {
			return false
		}
		c.embedded.Unlock()
		catchUp()
		return false // the command runs as usual
	}
	setHook := func(hook miniserver.Hook) {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.wallClockHook = hook
		c.embedded.Server().SetPreHook(hook)
	}
	setHook(hook)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		// A few milliseconds is as fine as a real server's expiry, which
		// also lets a key outlive its TTL by a little when nothing
		// touches it.
		tick := time.NewTicker(wallClockTick)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				catchUp()
			}
		}
	}()
	return func() {
		setHook(nil)
		close(done)
		<-stopped
	}
}

// wallClockTick is how often FollowWallClock's ticker moves the embedded
// server's clock (a test starves it).
var wallClockTick = 2 * time.Millisecond

// urlOf is the URL of options built by hand (a unix socket in tests).
func urlOf(o *redis.Options) string {
	if o.Network == "unix" {
		return "unix://" + o.Addr
	}
	return fmt.Sprintf("redis://%s/%d", o.Addr, o.DB)
}

// embeddedBytes is what the embedded server's keys hold, names, fields
// and values (the only types a file's commands make: strings and hashes).
func (c *Coordination) embeddedBytes() int {
	n := 0
	for _, k := range c.embedded.Keys() {
		n += len(k)
		switch c.embedded.Type(k) {
		case "string":
			v, _ := c.embedded.Get(k)
			n += len(v)
		case "hash":
			fields, _ := c.embedded.HKeys(k)
			for _, f := range fields {
				n += len(f) + len(c.embedded.HGet(k, f))
			}
		}
	}
	return n
}
