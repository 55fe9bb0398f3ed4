package redisstore

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fencelab/fencelab/lang"
)

// CallTimeout bounds each command or pipeline, its one retry included: a
// server that is down or frozen is reported in seconds. (A frozen server
// accepts connections into its backlog and answers nothing, so without a
// bound a command, its retry and the new connection's handshake each wait
// out a read timeout.)
const CallTimeout = 3 * time.Second

// ErrNoAnswer is a command the server did not answer within CallTimeout.
var ErrNoAnswer = lang.Error("Redis did not answer")

var errNoAnswer = lang.Error("%w within %s (stopped, frozen or overloaded?)", ErrNoAnswer, CallTimeout)

// deadlineHook puts CallTimeout on every command and pipeline of a client
// (the client must have ContextTimeoutEnabled, so the deadline reaches the
// socket), and names a command that ran out of it.
type deadlineHook struct {
	timedOut *atomic.Bool // set when a command runs out of time
}

func (h deadlineHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h deadlineHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		bounded, cancel := context.WithTimeout(ctx, CallTimeout)
		defer cancel()
		err := next(bounded, cmd)
		if err != nil && ctx.Err() == nil && bounded.Err() != nil {
			h.timedOut.Store(true)
			err = errNoAnswer
			cmd.SetErr(err)
		}
		return err
	}
}

func (h deadlineHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		bounded, cancel := context.WithTimeout(ctx, CallTimeout)
		defer cancel()
		err := next(bounded, cmds)
		if err != nil && ctx.Err() == nil && bounded.Err() != nil {
			h.timedOut.Store(true)
			err = errNoAnswer
			for _, cmd := range cmds {
				cmd.SetErr(err)
			}
		}
		return err
	}
}
