package redisstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"

	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/store/replybound"
)

// server is what a Coordination talks to: one Redis server, or a Redis
// Cluster. Every script's keys share a hash tag (keys.go), so each script
// runs on the one node that owns their slot; what reads or deletes many
// keys goes to every master (scanKeys) or key by key (deleteKeys).
type server struct {
	single  *redis.Options        // nil for a cluster
	cluster *redis.ClusterOptions // nil for a single server
}

func (s server) isCluster() bool { return s.cluster != nil }

// client is a go-redis client of the server named name on it (CLIENT
// SETNAME), with CallTimeout on every command (deadlineHook).
func (s server) client(name string, hooks ...redis.Hook) redis.UniversalClient {
	var rdb redis.UniversalClient
	if s.cluster != nil {
		options := *s.cluster
		options.ClientName = name
		rdb = redis.NewClusterClient(&options)
	} else {
		options := *s.single
		options.ClientName = name
		rdb = redis.NewClient(&options)
	}
	for _, h := range hooks {
		rdb.AddHook(h)
	}
	rdb.AddHook(deadlineHook{silent: s.silence()})
	return rdb
}

// unbounded is a client of the server without a name or the deadline
// hook, for questions that may wait on a busy server longer than
// CallTimeout (their context bounds them). A name would cost a CLIENT
// SETNAME, which a server busy with a script refuses.
func (s server) unbounded() redis.UniversalClient {
	if s.cluster != nil {
		return redis.NewClusterClient(s.cluster)
	}
	return redis.NewClient(s.single)
}

// as is the server logged in to as another user.
func (s server) as(user, password string) server {
	if s.cluster != nil {
		o := *s.cluster
		o.Username, o.Password = user, password
		s.cluster = &o
		return s
	}
	o := *s.single
	o.Username, o.Password = user, password
	s.single = &o
	return s
}

// silence is the server's shared flag of silence (silenceOf), by the
// address its clients dial.
func (s server) silence() *atomic.Bool {
	if s.cluster != nil {
		addrs := append([]string(nil), s.cluster.Addrs...)
		sort.Strings(addrs)
		return silenceOf("cluster " + strings.Join(addrs, ","))
	}
	return silenceOf(fmt.Sprintf("%s %s db %d", s.single.Network, s.single.Addr, s.single.DB))
}

// bounded sets fencelab's timeouts on the server's options.
func (s server) bounded() server {
	// No maintenance-notification handshake: fencelab talks to servers it
	// names, and the handshake's fallback logs through the process logger.
	// No CLIENT SETINFO either: one command fewer for a user's ACL to
	// allow (docs/backends.md, "A Redis user of its own").
	off := &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	if s.cluster != nil {
		o := *s.cluster
		o.MaintNotificationsConfig = off
		o.DisableIdentity = true
		o.ContextTimeoutEnabled = true
		o.DialTimeout, o.ReadTimeout, o.WriteTimeout = CallTimeout, CallTimeout, CallTimeout
		o.MaxRetries = 1
		if o.Dialer == nil {
			o.Dialer = redis.NewDialer(&redis.Options{DialTimeout: o.DialTimeout, TLSConfig: o.TLSConfig})
		}
		o.Dialer = replybound.Dial(o.Dialer) // no one reply read past its bound
		return server{cluster: &o}
	}
	o := *s.single
	o.MaintNotificationsConfig = off
	o.DisableIdentity = true
	o.ContextTimeoutEnabled = true
	o.ReadTimeout, o.WriteTimeout = CallTimeout, CallTimeout
	if o.Dialer == nil {
		o.Dialer = redis.NewDialer(&o)
	}
	o.Dialer = replybound.Dial(o.Dialer) // no one reply read past its bound
	return server{single: &o}
}

// parseServer reads a --redis URL: redis://HOST:PORT/DB for one server, or
// redis://H1:P1,H2:P2,… for the nodes of a Redis Cluster (user, password
// and options as for one server; database 0, the only one a cluster has).
func parseServer(raw string) (server, error) {
	scheme, rest, found := strings.Cut(raw, "://")
	if !found {
		options, err := redis.ParseURL(raw) // go-redis says what is wrong
		if err != nil {
			return server{}, err
		}
		return server{single: options}, nil
	}
	// The hosts are the authority's, after the user info.
	end := strings.IndexAny(rest, "/?")
	if end < 0 {
		end = len(rest)
	}
	authority := rest[:end]
	at := strings.LastIndexByte(authority, '@') + 1
	hosts := strings.Split(authority[at:], ",")
	first := scheme + "://" + authority[:at] + hosts[0] + rest[end:]
	options, err := redis.ParseURL(first)
	if err != nil {
		return server{}, err
	}
	if len(hosts) == 1 {
		return server{single: options}, nil
	}
	if options.DB != 0 {
		return server{}, lang.Error("a Redis Cluster has database 0 only")
	}
	if options.Network == "unix" {
		return server{}, lang.Error("a Redis Cluster's nodes are HOST:PORT addresses")
	}
	addrs := make([]string, len(hosts))
	for i, h := range hosts {
		if h == "" {
			return server{}, lang.Error("an empty address in %q", authority[at:])
		}
		if _, err := url.Parse(scheme + "://" + h); err != nil {
			return server{}, err
		}
		addrs[i] = h
		if !strings.Contains(h, ":") {
			addrs[i] = h + ":6379"
		}
	}
	return server{cluster: clusterOptions(options, addrs)}, nil
}

// clusterOptions are a cluster's options from one node's.
func clusterOptions(node *redis.Options, addrs []string) *redis.ClusterOptions {
	return &redis.ClusterOptions{
		Addrs:     addrs,
		Username:  node.Username,
		Password:  node.Password,
		TLSConfig: node.TLSConfig,
	}
}

// ErrRefused is a server that answered and refused what was asked of it
// — a wrong password, a database it does not have, a node that is not a
// cluster's — which is the configuration's fault, not the server's absence.
var ErrRefused = lang.Error("Redis refused")

// refused marks a server's error reply as ErrRefused.
func refused(err error) error {
	var reply redis.Error
	if errors.As(err, &reply) && !errors.Is(err, ErrRefused) {
		return lang.Error("%w: %w", ErrRefused, err)
	}
	return err
}

// hungUp tells a connection the other end closed — at once, or before
// its answer was read — from one it never answered on.
func hungUp(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// detectCluster asks a single server whether it is a node of a Redis
// Cluster; if it is, the cluster is used from it. For a cluster's list of
// nodes, it asks each: every one must answer, and be a cluster's node.
// Each question has CallTimeout of its own.
func detectCluster(ctx context.Context, s server) (found server, err error) {
	defer func() {
		if errors.Is(err, errNoAnswer) {
			// Said for every client of the process on the server, as a
			// command's deadline says it (deadlineHook): a run that got
			// this far on it skips its cleanup there rather than wait out
			// a deadline more.
			s.silence().Store(true)
		}
	}()
	if s.isCluster() {
		for _, addr := range s.cluster.Addrs {
			enabled, err := clusterEnabled(ctx, &redis.Options{Addr: addr, Username: s.cluster.Username,
				Password: s.cluster.Password, TLSConfig: s.cluster.TLSConfig})
			if err != nil {
				return s, lang.Error("node %s: %w", addr, noAnswerIfTimedOut(err))
			}
			if !enabled {
				return s, lang.Error("%w: %s is not a Redis Cluster node (cluster support is off)", ErrRefused, addr)
			}
		}
		return s, nil
	}
	if s.single.Network == "unix" {
		// No cluster over a socket file; the question is asked all the
		// same, so that a socket nothing serves says so at once.
		_, err := clusterEnabled(ctx, s.single)
		return s, noAnswerIfTimedOut(err)
	}
	// Database 0 for the question: a cluster's node refuses any other.
	probe := *s.single
	probe.DB = 0
	enabled, err := clusterEnabled(ctx, &probe)
	if err != nil || !enabled {
		return s, noAnswerIfTimedOut(err)
	}
	if s.single.DB != 0 {
		return s, lang.Error("%w: the server is a Redis Cluster node, and a cluster has database 0 only", ErrRefused)
	}
	return server{cluster: clusterOptions(s.single, []string{s.single.Addr})}, nil
}

// clusterEnabled asks one server whether it runs with cluster support:
// HELLO says it ("mode"), and any user may send HELLO. INFO, which an ACL
// that keeps a user to its keys usually denies (-@dangerous), is asked
// only of a server whose HELLO does not say; if it is denied too, the
// server is taken for a single one.
//
// The question is the run's first: one dial and no retries, so that a
// server that is not there says so at once (go-redis would dial again and
// again until the call's deadline, and the run then said the server did
// not answer, "frozen or overloaded?", of a refused connection).
func clusterEnabled(ctx context.Context, options *redis.Options) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, CallTimeout)
	defer cancel()
	o := server{single: options}.bounded().single
	o.DialerRetries, o.MaxRetries = 1, -1
	probe := redis.NewClient(o)
	defer probe.Close()
	hello, err := probe.Do(ctx, "HELLO").Result()
	var reply redis.Error
	switch {
	case hungUp(err) && options.Network == "unix":
		return false, lang.Error("it hung up without an answer (%w): not a Redis server's socket, or one with no room for another client", err)
	case hungUp(err) && options.TLSConfig != nil:
		return false, lang.Error("it hung up without an answer (%w): not a Redis server, one that does not speak TLS, or one with no room for another client", err)
	case hungUp(err):
		return false, lang.Error("it hung up without an answer (%w): not a Redis server, one that wants TLS (rediss://), or one with no room for another client", err)
	case err != nil && !errors.As(err, &reply):
		// The server was not reached, or did not answer: INFO would not be either.
		return false, err
	}
	if err == nil {
		if mode, ok := replyField(hello, "mode"); ok {
			return mode == "cluster", nil
		}
	}
	info, err := probe.Info(ctx, "cluster").Result()
	if redis.IsPermissionError(err) {
		return false, nil
	}
	if err != nil {
		return false, refused(err)
	}
	return strings.Contains(info, "cluster_enabled:1"), nil
}

// replyField is a string field of a reply that is a map: a RESP3 map, or
// RESP2's flat list of names and values.
func replyField(reply any, name string) (string, bool) {
	var value any
	switch r := reply.(type) {
	case map[any]any:
		value = r[name]
	case map[string]any:
		value = r[name]
	case []any:
		for i := 0; i+1 < len(r); i += 2 {
			if r[i] == name {
				value = r[i+1]
			}
		}
	}
	s, ok := value.(string)
	return s, ok
}

// scanKeys lists the keys matching a pattern, sorted: on a cluster, the
// keys of every master.
func scanKeys(ctx context.Context, rdb redis.UniversalClient, pattern string) ([]string, error) {
	var keys []string
	scan := func(ctx context.Context, node redis.Cmdable) ([]string, error) {
		var found []string
		iter := node.Scan(ctx, 0, pattern, scanBatch).Iterator()
		for iter.Next(ctx) {
			found = append(found, iter.Val())
		}
		return found, iter.Err()
	}
	var err error
	if cluster, ok := rdb.(*redis.ClusterClient); ok {
		var mu sync.Mutex
		err = cluster.ForEachMaster(ctx, func(ctx context.Context, node *redis.Client) error {
			found, err := scan(ctx, node)
			mu.Lock()
			keys = append(keys, found...)
			mu.Unlock()
			return err
		})
	} else {
		keys, err = scan(ctx, rdb)
	}
	if err != nil {
		return nil, fmt.Errorf("redisstore: scan %s: %w", pattern, err)
	}
	sort.Strings(keys)
	return keys, nil
}

// deleteKeys deletes keys, a pipeline of one UNLINK each: keys of many
// slots cannot go in one command on a cluster.
func deleteKeys(ctx context.Context, rdb redis.UniversalClient, keys []string) error {
	for len(keys) > 0 {
		batch := keys[:min(len(keys), scanBatch)]
		keys = keys[len(batch):]
		pipe := rdb.Pipeline()
		for _, k := range batch {
			pipe.Unlink(ctx, k)
		}
		if _, err := pipe.Exec(ctx); err != nil {
			return err
		}
	}
	return nil
}
