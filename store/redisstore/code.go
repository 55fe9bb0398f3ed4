package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/redis/go-redis/v9"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
)

// Code runs a scenario file's own Redis code on an actor's connection: a
// Lua script or one command, whose keys are put below the run's namespace
// (the file names them as it likes; nothing outside the namespace is
// named). The command goes through the client's hooks like every other:
// it is one round trip of the actor's call.
type Code struct {
	// own is the actor's connection; the code goes on the one logged in
	// as the run's code user where the server has one (codeuser.go).
	own          redis.UniversalClient
	coordination *Coordination
	actor        string
	keys         keyspace
	clock        *labClock
	// embedded: the server is the in-process miniredis, whose Lua is
	// gopher-lua's; stuck is set when a script of a file's holds it past
	// the call's deadline (Close then leaves the server to the process's
	// end: closing it would wait for the script).
	embedded bool
	stuck    *atomic.Bool
}

var _ engine.CodeStore = (*Code)(nil)

// RunCode sends the call and reads its reply. On the embedded server, what
// the run's keys hold afterwards is held to storedBudget.
func (c *Code) RunCode(ctx context.Context, call engine.RedisCall) (engine.CodeReply, error) {
	said, err := c.runCode(ctx, call)
	if err == nil && c.embedded && c.coordination.embeddedBytes() > storedBudget {
		return engine.CodeReply{}, &engine.CodeFailure{Err: ErrStoredBudget}
	}
	return said, err
}

// storedBudget is how many bytes the keys on the embedded server may hold
// in all: it runs in fencelab's own process, and a script within its
// string budget could APPEND that much to a key step after step. (A
// variable only for the tests.)
var storedBudget = 64 << 20

// ErrStoredBudget is a run whose keys passed storedBudget on the
// embedded server.
var ErrStoredBudget = fmt.Errorf("the run's keys hold more than %d MiB, fencelab's budget for the embedded Redis, which is fencelab's own memory (a value grown step after step?)", storedBudget>>20)

func (c *Code) runCode(ctx context.Context, call engine.RedisCall) (engine.CodeReply, error) {
	rdb, err := c.coordination.codeClient(ctx, c.actor, c.own)
	if errors.Is(err, ErrNoCodeUser) {
		return engine.CodeReply{}, &engine.CodeFailure{Err: err}
	}
	if err != nil {
		// The server did not answer, or was busy: not the file's doing.
		return engine.CodeReply{}, err
	}
	keys := make([]string, len(call.Keys))
	for i, k := range call.Keys {
		keys[i] = c.keys.prefix + k
	}
	for _, at := range call.KeyAt {
		if at < len(call.Words) && world.OwnKeyName(call.Words[at]) {
			return engine.CodeReply{}, &engine.CodeFailure{Err: ownKeyError(call.Words[at])}
		}
	}
	for _, k := range call.Keys {
		if world.OwnKeyName(k) {
			return engine.CodeReply{}, &engine.CodeFailure{Err: ownKeyError(k)}
		}
	}
	var named []string
	var cmd *redis.Cmd
	if call.Script != "" {
		named = keys
		script, err := framed(call.Script, c.keys.prefix, c.embedded)
		if err != nil {
			return engine.CodeReply{}, &engine.CodeFailure{Err: err}
		}
		// On a Redis of the user's the script is a function of the run's,
		// called with a nonce of the call's (functions.go).
		function, lineShift, asFunction := "", 0, false
		if !c.embedded {
			function, lineShift, asFunction = c.coordination.functionFor(ctx, script)
		}
		callNonce := nonce()
		err = c.clock.around(ctx, named, call.TTLs, func() error {
			if asFunction {
				args := []any{"fcall", function, len(keys)}
				for _, k := range keys {
					args = append(args, k)
				}
				for _, a := range call.Args {
					args = append(args, a)
				}
				cmd = rdb.Do(ctx, append(args, callNonce)...)
				if said := cmd.Err(); isReply(said) {
					cmd.SetErr(serverSaid(functionError(said.Error(), function, lineShift)))
				}
				return replyErr(cmd.Err())
			}
			args := make([]any, len(call.Args))
			for i, a := range call.Args {
				args[i] = a
			}
			cmd = redis.NewScript(script).Run(ctx, rdb, keys, args...)
			return replyErr(cmd.Err())
		})
		switch {
		case errors.Is(err, engine.ErrReplyTooLarge):
			return engine.CodeReply{}, &engine.CodeFailure{Err: err}
		case err == nil && isReply(cmd.Err()) && overBudget(cmd.Err().Error()):
			return engine.CodeReply{}, &engine.CodeFailure{Err: ErrScriptBudget}
		case err == nil && isReply(cmd.Err()) && overStringBudget(cmd.Err().Error()):
			return engine.CodeReply{}, &engine.CodeFailure{Err: ErrStringBudget}
		case err == nil && isReply(cmd.Err()) && strings.Contains(cmd.Err().Error(), deepMark):
			return engine.CodeReply{}, &engine.CodeFailure{Err: ErrDeepReply}
		case err == nil && isReply(cmd.Err()) && strings.Contains(cmd.Err().Error(), replyMark):
			return engine.CodeReply{}, &engine.CodeFailure{Err: engine.ErrReplyTooLarge}
		case err == nil && isReply(cmd.Err()) && refusedByGuard(cmd.Err().Error()):
			// The guard's words, without the server's dressing of them.
			said := cmd.Err().Error()
			said = said[strings.Index(said, guardMark)+len(guardMark)+2:]
			said, _, _ = strings.Cut(said, " script: ")
			said, _, _ = strings.Cut(said, "stack traceback:") // gopher-lua's
			return engine.CodeReply{}, &engine.CodeFailure{Err: errors.New(strings.TrimSpace(said))}
		case errors.Is(err, ErrNoAnswer) && c.embedded:
			c.stuck.Store(true)
			return engine.CodeReply{}, &engine.CodeFailure{Err: lang.Error(
				"the script did not end within %s, and the embedded Redis cannot stop a script: the run ends here", CallTimeout)}
		case errors.Is(err, ErrNoAnswer) && asFunction:
			return engine.CodeReply{}, &engine.CodeFailure{Err: stuckScriptError(c.coordination.stopOwnScript(function, callNonce), true)}
		case errors.Is(err, ErrNoAnswer):
			return engine.CodeReply{}, &engine.CodeFailure{Err: stuckScriptError(scriptNotAsked, false)}
		}
		return reply(cmd, err)
	}
	args := make([]any, len(call.Words))
	for i, w := range call.Words {
		args[i] = w
	}
	for _, at := range call.KeyAt {
		full := c.keys.prefix + call.Words[at]
		args[at] = full
		named = append(named, full)
	}
	err = c.clock.around(ctx, named, call.TTLs, func() error {
		cmd = rdb.Do(ctx, args...)
		return replyErr(cmd.Err())
	})
	if errors.Is(err, engine.ErrReplyTooLarge) {
		return engine.CodeReply{}, &engine.CodeFailure{Err: err}
	}
	return reply(cmd, err)
}

// replyErr keeps what the server answered out of the call's error: a nil
// or an error reply is the code's answer, not a failed round trip.
func replyErr(err error) error {
	var said redis.Error
	if err == nil || errors.Is(err, redis.Nil) || errors.As(err, &said) {
		return nil
	}
	return err
}

// reply reads a command's answer as a person reads it.
func reply(cmd *redis.Cmd, err error) (engine.CodeReply, error) {
	if err != nil {
		return engine.CodeReply{}, err
	}
	if cmd == nil {
		return engine.CodeReply{}, fmt.Errorf("redisstore: no reply")
	}
	var said redis.Error
	switch e := cmd.Err(); {
	case errors.Is(e, redis.Nil):
		return engine.CodeReply{Text: "nil", Nil: true}, nil
	case errors.As(e, &said):
		return engine.CodeReply{Text: strings.TrimPrefix(said.Error(), "ERR "), Error: true}, nil
	}
	return engine.CodeReply{Text: replyText(cmd.Val())}, nil
}

func replyText(v any) string {
	switch v := v.(type) {
	case nil:
		return "nil"
	case string:
		return v
	case int64:
		return strconv.FormatInt(v, 10)
	case bool:
		if v {
			return "1"
		}
		return "0"
	case []any:
		words := make([]string, len(v))
		for i, w := range v {
			words[i] = replyText(w)
		}
		return "[" + strings.Join(words, " ") + "]"
	}
	return fmt.Sprint(v)
}
