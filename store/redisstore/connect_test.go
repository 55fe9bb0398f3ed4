package redisstore_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/redisstore"
)

// A URL where nothing listens is refused at once, and said so: go-redis's
// own retries once dialled again until the deadline, and the run said
// the server "did not answer … frozen or overloaded?" of a refused port.
// A server that takes the connection and never answers is the one that
// did not answer.
func TestConnectTellsARefusedPortFromASilentServer(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	url := "redis://" + closed.Addr().String()
	require.NoError(t, closed.Close())
	_, err = redisstore.Connect(ctx, url)
	require.ErrorContains(t, err, "connection refused")
	require.NotErrorIs(t, err, redisstore.ErrNoAnswer)

	silent := silentServer(t)
	_, err = redisstore.Connect(ctx, "redis://"+silent)
	require.ErrorIs(t, err, redisstore.ErrNoAnswer)
}

// A server that hangs up is asked once, not again and again until the
// deadline: the first question is one dial, no retries.
func TestConnectAsksAServerThatHangsUpOnce(t *testing.T) {
	t.Parallel()
	addr, accepted := hangingUp(t, "tcp", "127.0.0.1:0")
	_, err := redisstore.Connect(context.Background(), "redis://"+addr)
	require.ErrorContains(t, err, "hung up without an answer")
	require.ErrorContains(t, err, "wants TLS (rediss://)")
	require.Equal(t, 1, accepted())
}

// silentServer listens on a local TCP port, takes every connection and
// reads nothing, answers nothing; its address.
func silentServer(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	t.Cleanup(func() { l.Close() })
	return l.Addr().String()
}

// hangingUp listens on network and address, and closes every connection
// it takes at once; accepted says how many it took.
func hangingUp(t *testing.T, network, address string) (addr string, accepted func() int) {
	l, err := net.Listen(network, address)
	require.NoError(t, err)
	var n atomic.Int32
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { l.Close() })
	return l.Addr().String(), func() int { return int(n.Load()) }
}

// The same of a socket file: asked once, and the hang-up named; a socket
// file nothing serves is said so.
func TestConnectOverASocketFileAsksOnce(t *testing.T) {
	t.Parallel()
	// Short: a socket's path holds about a hundred bytes, and macOS's
	// t.TempDir() is nearly that long already.
	dir, err := os.MkdirTemp("", "fl")
	require.NoError(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	_, err = redisstore.Connect(context.Background(), "unix://"+filepath.Join(dir, "none.sock"))
	require.ErrorContains(t, err, "no such file or directory")

	path, accepted := hangingUp(t, "unix", filepath.Join(dir, "redis.sock"))
	_, err = redisstore.Connect(context.Background(), "unix://"+path)
	require.ErrorContains(t, err, "hung up without an answer")
	require.ErrorContains(t, err, "not a Redis server's socket")
	require.Equal(t, 1, accepted())
}

// Over TLS (rediss://) a hang-up is not put down to a server that wants
// TLS.
func TestConnectOverTLSToAServerThatHangsUp(t *testing.T) {
	t.Parallel()
	addr, _ := hangingUp(t, "tcp", "127.0.0.1:0")
	_, err := redisstore.Connect(context.Background(), "rediss://"+addr)
	require.ErrorContains(t, err, "one that does not speak TLS")
	require.NotContains(t, err.Error(), "wants TLS")
}

// In a cluster's list of nodes, the node that did not answer is named.
func TestConnectNamesTheClusterNodeThatDidNotAnswer(t *testing.T) {
	t.Parallel()
	silent := silentServer(t)
	_, err := redisstore.Connect(context.Background(), "redis://"+silent+",127.0.0.1:1")
	require.ErrorIs(t, err, redisstore.ErrNoAnswer)
	require.ErrorContains(t, err, "node "+silent)
}

// The caller's own end (Ctrl-C) while a server is silent is the caller's,
// not a server that did not answer.
func TestConnectCancelledIsNotNoAnswer(t *testing.T) {
	t.Parallel()
	silent := silentServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err := redisstore.Connect(ctx, "redis://"+silent)
	require.ErrorIs(t, err, context.Canceled)
	require.NotErrorIs(t, err, redisstore.ErrNoAnswer)
}
