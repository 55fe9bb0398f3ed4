package redisstore_test

import (
	"context"
	"net"
	"testing"

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

	silent, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer silent.Close()
	go func() { // takes connections, reads nothing, answers nothing
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	_, err = redisstore.Connect(ctx, "redis://"+silent.Addr().String())
	require.ErrorIs(t, err, redisstore.ErrNoAnswer)
}

// A server that hangs up is asked once, not again and again until the
// deadline: the first question is one dial, no retries.
func TestConnectAsksAServerThatHangsUpOnce(t *testing.T) {
	t.Parallel()
	hangsUp, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	accepted := make(chan struct{}, 100)
	go func() {
		for {
			c, err := hangsUp.Accept()
			if err != nil {
				return
			}
			accepted <- struct{}{}
			c.Close()
		}
	}()
	_, err = redisstore.Connect(context.Background(), "redis://"+hangsUp.Addr().String())
	require.ErrorContains(t, err, "hung up without an answer")
	require.NoError(t, hangsUp.Close())
	require.Len(t, accepted, 1)
}
