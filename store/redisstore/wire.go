package redisstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/fencelab/fencelab/engine"
)

// wireHook makes every command and pipeline an actor's client sends a
// round trip of the actor's call (engine.Send): the lab lets each go on
// its own, so another actor can act between any two, whatever store method
// sends them. It is the client's outermost hook, so the time a command
// waits for its turn does not count against CallTimeout.
type wireHook struct{}

func (wireHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (wireHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if handshake(cmd) {
			return next(ctx, cmd) // a new connection's, not the actor's code
		}
		back, err := engine.Send(ctx, engine.RoundTrip{Backend: engine.BackendRedis, Text: commandText(cmd)})
		if err != nil {
			cmd.SetErr(err)
			return err
		}
		err = next(ctx, cmd)
		if noScript(cmd, err) {
			// Script.Run sends the script itself next, as part of this
			// round trip: the reply is that one's.
			return err
		}
		back("")
		return err
	}
}

func (wireHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if len(cmds) > 0 && handshake(cmds[0]) {
			return next(ctx, cmds) // a new connection's handshake
		}
		texts := make([]string, len(cmds))
		for i, cmd := range cmds {
			texts[i] = commandText(cmd)
		}
		back, err := engine.Send(ctx, engine.RoundTrip{Backend: engine.BackendRedis, Text: strings.Join(texts, "; ")})
		if err != nil {
			for _, cmd := range cmds {
				cmd.SetErr(err)
			}
			return err
		}
		err = next(ctx, cmds)
		back("")
		return err
	}
}

// handshake reports whether cmd is one go-redis sends on a connection it
// just opened.
func handshake(cmd redis.Cmder) bool {
	switch strings.ToLower(cmd.Name()) {
	case "hello", "auth", "select", "client", "readonly":
		return true
	}
	return false
}

func noScript(cmd redis.Cmder, err error) bool {
	name := strings.ToLower(cmd.Name())
	return (name == "evalsha" || name == "evalsha_ro") && err != nil && strings.HasPrefix(err.Error(), "NOSCRIPT")
}

// commandText is a command as a person reads it: its words, a script's
// digest shortened.
func commandText(cmd redis.Cmder) string {
	args := cmd.Args()
	words := make([]string, len(args))
	for i, a := range args {
		words[i] = fmt.Sprint(a)
	}
	if len(words) > 1 && strings.HasPrefix(strings.ToLower(words[0]), "evalsha") && len(words[1]) > 12 {
		words[1] = words[1][:12] + "…"
	}
	return strings.Join(words, " ")
}
