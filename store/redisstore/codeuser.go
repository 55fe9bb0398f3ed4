package redisstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
)

// On a Redis server of yours, a scenario file's commands and scripts run
// as a Redis user made for the run (fencelab-code-RUN), whose ACL lets it
// touch the run's keys (~fencelab:RUN:*) with the commands a file may
// send, EVAL, EVALSHA and FCALL (functions.go), and nothing else: no other key, no server-wide
// command, no channel. The Lua frame (luaframe.go) refuses such calls
// first, where it can see them; the ACL is the server's own rule where it
// cannot (a script the frame missed a way out of). The user has a new
// random password each run, which fencelab never prints, and is deleted
// when the run ends (or, for a run that was killed, by the next run that
// makes one). The embedded server has no ACL: it is fencelab's own process,
// and the frame is its rule.
//
// A server that will not make the user (fencelab's own user may not run
// ACL, or the server has none) runs none of a file's code, unless the run
// was told to trust it (TrustCode, --trust-code): it then runs as
// fencelab's own user, kept to the run's keys by the frame alone, and
// CodeUser says why, for the run to say so once.

// codeUserPrefix starts the name of every run's code user.
const codeUserPrefix = "fencelab-code-"

// codeUser is the run's code user, once made (or refused).
type codeUser struct {
	name, password string
	// refused is the server's answer when it would not make the user.
	refused string
}

// codeUserRules are the ACL rules of a run's code user, after its name.
func (c *Coordination) codeUserRules(password string) []any {
	// What go-redis itself sends too: PING, the client's name, SELECT for
	// a database other than 0, and on a cluster the slot map and the
	// command table.
	rules := []any{"reset", "on", ">" + password, "~" + c.keys.prefix + "*", "resetchannels", "-@all",
		"+eval", "+evalsha", "+fcall", "+ping", "+client|setname", "+select", "+cluster|slots", "+command"}
	for _, name := range slices.Sorted(maps.Keys(engine.RedisCommands)) {
		rules = append(rules, "+"+name)
	}
	return rules
}

// takeCodeUser makes the run's code user, the first time a file's code
// runs; it returns nil where the code runs as fencelab's own user. A
// server that did not answer (busy with another client's script, gone)
// refused nothing: that is the error, and the next call asks again.
func (c *Coordination) takeCodeUser(ctx context.Context) (*codeUser, error) {
	if c.embedded != nil || c.joined {
		return nil, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.code != nil {
		if c.code.refused != "" {
			return nil, nil
		}
		return c.code, nil
	}
	var raw [16]byte
	rand.Read(raw[:])
	u := &codeUser{name: codeUserPrefix + c.keys.id, password: hex.EncodeToString(raw[:])}
	args := append([]any{"acl", "setuser", u.name}, c.codeUserRules(u.password)...)
	if err := c.onEveryNode(ctx, func(ctx context.Context, node redis.UniversalClient) error {
		return node.Do(ctx, args...).Err()
	}); err != nil {
		if !isReply(err) || transient(err) {
			return nil, err
		}
		u.refused = strings.TrimPrefix(err.Error(), "ERR ")
		c.code = u
		return nil, nil
	}
	c.code = u
	// A killed run left its user behind; one that may make users may
	// delete those too. (A run with no file code asks nothing of the
	// server's ACL: a user of fencelab's kept from ACL sees no refusal.)
	// The sweep is housekeeping: a failure of it leaves a user whose
	// password nobody knows, and the next sweep tries again.
	_ = c.sweepCodeUsers(ctx)
	return u, nil
}

// onEveryNode runs f on the server, or on every node of a cluster: a
// cluster's nodes keep their ACLs apart.
func (c *Coordination) onEveryNode(ctx context.Context, f func(context.Context, redis.UniversalClient) error) error {
	if cluster, ok := c.admin.(*redis.ClusterClient); ok {
		return cluster.ForEachShard(ctx, func(ctx context.Context, node *redis.Client) error { return f(ctx, node) })
	}
	return f(ctx, c.admin)
}

// CodeUser names the Redis user a file's code runs as, once a file's code
// has run; refused is the server's answer where it would not make one, and
// the code ran as fencelab's own user (trusted: --trust-code; untrusted,
// it did not run at all, and said so).
func (c *Coordination) CodeUser() (user, refused string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.code == nil || c.code.refused != "" && !c.trustCode {
		return "", ""
	}
	if c.code.refused != "" {
		return "", c.code.refused
	}
	return c.code.name, ""
}

// TrustCode lets a file's code run as fencelab's own user on a server
// that will not make a user for it (--trust-code).
func (c *Coordination) TrustCode(trust bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.trustCode = trust
}

// ErrNoCodeUser is a real Redis where fencelab may make no user for a
// file's code, which then does not run there.
var ErrNoCodeUser = lang.Error("Redis would not let fencelab make the user a file's code runs as")

// codeClient is the connection an actor's file code goes on: logged in as
// the run's code user where there is one, else — where the run trusts the
// file's code, or the server is the embedded one, whose rule is the
// frame — the actor's own. Like the actor's, its round trips go through
// the wire hook: each is a step.
func (c *Coordination) codeClient(ctx context.Context, actor string, own redis.UniversalClient) (redis.UniversalClient, error) {
	if c.embedded != nil || c.joined {
		// No user to make, and no lock to take: c.mu may be held by one
		// waiting for the embedded server a stuck script holds.
		return own, nil
	}
	u, err := c.takeCodeUser(ctx)
	if err != nil {
		return nil, err
	}
	if u == nil {
		c.mu.Lock()
		refused, trusted := "", c.trustCode
		if c.code != nil {
			refused = c.code.refused
		}
		c.mu.Unlock()
		if refused != "" && !trusted {
			return nil, lang.Error("%w (%s): a file's code runs on a Redis of yours only as a user of its own; let fencelab's user run ACL SETUSER and ACL DELUSER, or pass --trust-code to run it as fencelab's own user",
				ErrNoCodeUser, refused)
		}
		return own, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if rdb, ok := c.codeClients[actor]; ok {
		return rdb, nil
	}
	rdb := c.server.as(u.name, u.password).client("fencelab-code-"+actor, wireHook{})
	c.codeClients[actor] = rdb
	return rdb, nil
}

// dropCodeUser deletes the run's code user, if it made one.
func (c *Coordination) dropCodeUser(ctx context.Context) error {
	c.mu.Lock()
	u := c.code
	c.mu.Unlock()
	if u == nil || u.refused != "" {
		return nil
	}
	return c.onEveryNode(ctx, func(ctx context.Context, node redis.UniversalClient) error {
		return node.Do(ctx, "acl", "deluser", u.name).Err()
	})
}

// runGone says whether run id is gone: its alive key has run out (a run
// that was killed, or ended without its cleanup).
func (c *Coordination) runGone(ctx context.Context, id string) (bool, error) {
	n, err := c.admin.Exists(ctx, aliveKey(id)).Result()
	if err != nil {
		return false, fmt.Errorf("redisstore: look for run %s: %w", id, err)
	}
	return n == 0, nil
}

// sweepCodeUsers deletes the code users of runs that are gone: a run that
// was killed left its user behind. A server whose ACL fencelab's user may
// not read has none of fencelab's.
func (c *Coordination) sweepCodeUsers(ctx context.Context) error {
	users, err := c.admin.Do(ctx, "acl", "users").StringSlice()
	var said redis.Error
	if errors.As(err, &said) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("redisstore: list the server's users: %w", err)
	}
	for _, name := range users {
		id, ours := strings.CutPrefix(name, codeUserPrefix)
		if !ours || id == c.keys.id {
			continue
		}
		gone, err := c.runGone(ctx, id)
		if err != nil {
			return err
		}
		if gone {
			if err := c.onEveryNode(ctx, func(ctx context.Context, node redis.UniversalClient) error {
				return node.Do(ctx, "acl", "deluser", name).Err()
			}); err != nil {
				return fmt.Errorf("redisstore: delete the user of run %s: %w", id, err)
			}
		}
	}
	return nil
}

// transient is a server's answer that says nothing of what fencelab's user
// may do, only of the moment: a script holding the server (BUSY), a
// server still loading its data, a cluster between masters.
func transient(err error) bool {
	for _, word := range []string{"BUSY", "LOADING", "TRYAGAIN", "CLUSTERDOWN", "MASTERDOWN"} {
		if strings.HasPrefix(err.Error(), word) {
			return true
		}
	}
	return false
}
