package redisstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fencelab/fencelab/engine"
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
// socket), and names a command that ran out of it. While the server is
// known silent, a command has silentProbe only: one deadline is what a
// silent server costs a step or a run, not one per command it sends.
type deadlineHook struct {
	// silent is the server's, shared by every Coordination of the process
	// on it (silenceOf): set when a command runs out of time, cleared by
	// the next one answered.
	silent *atomic.Bool
}

// silentProbe bounds a command sent to a server already found silent:
// long enough for one that answers again (a CLIENT PAUSE over, a process
// continued) to be heard from, short enough that the commands a step or a
// teardown sends after the first timeout do not each wait out another.
const silentProbe = 250 * time.Millisecond

// within is how long the next command may wait for its answer.
func (h deadlineHook) within() time.Duration {
	if h.silent.Load() {
		return silentProbe
	}
	return CallTimeout
}

// silences are the servers this process found silent, by address: the
// first command to run out of CallTimeout says so for all, and the runs
// that end after it skip their cleanup on that server rather than each
// wait out a deadline of its own (check's labs, closed one after another,
// each with its cleanup and its lab clock's refresh).
var silences sync.Map // address → *atomic.Bool

func silenceOf(address string) *atomic.Bool {
	s, _ := silences.LoadOrStore(address, new(atomic.Bool))
	return s.(*atomic.Bool)
}

// heard notes what a command's end says of the server: silent when it ran
// out of time or went away, heard from when anything came back.
func (h deadlineHook) heard(err error, timedOut bool) {
	switch {
	case timedOut, wentAway(err):
		h.silent.Store(true)
	case err == nil || isReply(err):
		h.silent.Store(false)
	}
}

// ErrGone is a server that closed the connection or refused a new one
// (stopped, restarted, killed): as good as silent for the runs that end
// after it, which skip their cleanup there rather than each dial it again
// (go-redis dials a refusing server five times, 0.4 s a run).
var ErrGone = lang.Error("Redis went away")

var errGone = lang.Error("%w (stopped or restarted?)", ErrGone)

// wentAway is a command that failed on its connection, after go-redis's
// retry: closed by the server (EOF, reset) or refused anew. The caller's
// own end (a client closed) is not.
func wentAway(err error) bool {
	for _, gone := range []error{io.EOF, io.ErrUnexpectedEOF, syscall.ECONNREFUSED, syscall.ECONNRESET, syscall.EPIPE, syscall.ENOENT} {
		if errors.Is(err, gone) {
			return true
		}
	}
	return false
}

// Unreachable is an error of a command that found the server silent or
// gone (another process's: a stress worker's).
func Unreachable(err error) bool { return errors.Is(err, ErrNoAnswer) || errors.Is(err, ErrGone) }

// said is the error a command ends with: the server's silence, or its
// going away, in fencelab's words, with the driver's beside it.
func said(err error, timedOut bool) error {
	switch {
	case timedOut:
		return errNoAnswer
	case wentAway(err):
		return fmt.Errorf("%w: %w", errGone, err)
	}
	return err
}

// ranOut: a command sent at sent failed as its deadline passed, after
// waiting at least silentProbe — the hook's deadline or its caller's (a
// lab clock's refresh, a step, each with CallTimeout of its own): the
// server was silent that long. A caller's cancellation (Ctrl-C), or a
// deadline of its own too short to say anything of the server, is not.
func ranOut(bounded context.Context, err error, sent time.Time) bool {
	if err == nil || engine.HostClock().Sub(sent) < silentProbe {
		return false
	}
	// The socket's read deadline is the context's, set a moment before
	// the context's own timer fires: either may be the one that ended it.
	var timeout net.Error
	return errors.Is(bounded.Err(), context.DeadlineExceeded) || errors.As(err, &timeout) && timeout.Timeout()
}

// isReply is an error the server sent (a redis.Error: WRONGTYPE, NOSCRIPT,
// a refusal of an ACL), as opposed to one of the connection's.
func isReply(err error) bool {
	var reply redis.Error
	return errors.As(err, &reply)
}

func (h deadlineHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h deadlineHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		bounded, cancel := context.WithTimeout(ctx, h.within())
		defer cancel()
		sent := engine.HostClock() // times the command: not the lab's clock
		err := next(bounded, cmd)
		timedOut := ranOut(bounded, err, sent)
		h.heard(err, timedOut)
		if told := said(err, timedOut); told != err {
			err = told
			cmd.SetErr(err)
		}
		return err
	}
}

func (h deadlineHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		bounded, cancel := context.WithTimeout(ctx, h.within())
		defer cancel()
		sent := engine.HostClock() // times the command: not the lab's clock
		err := next(bounded, cmds)
		timedOut := ranOut(bounded, err, sent)
		h.heard(err, timedOut)
		if told := said(err, timedOut); told != err {
			err = told
			for _, cmd := range cmds {
				cmd.SetErr(err)
			}
		}
		return err
	}
}
