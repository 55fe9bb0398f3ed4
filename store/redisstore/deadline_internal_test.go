package redisstore

import (
	"context"
	"errors"
	"net"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A command that ends on the socket's read deadline (set from the
// context's, a moment before its timer fires) ran out as much as one that
// ends on the context's: said as the server's silence, not as a raw "i/o
// timeout" (helper-9 saw one in eleven frozen checks).
func TestACommandEndedByItsSocketsDeadlineRanOut(t *testing.T) {
	sent := time.Now().Add(-CallTimeout)
	readTimeout := &net.OpError{Op: "read", Net: "tcp", Err: os.ErrDeadlineExceeded}
	require.True(t, ranOut(context.Background(), readTimeout, sent))
	expired, cancel := context.WithDeadline(context.Background(), time.Now())
	defer cancel()
	require.True(t, ranOut(expired, context.DeadlineExceeded, sent))

	cancelled, stop := context.WithCancel(context.Background())
	stop()
	require.False(t, ranOut(cancelled, context.Canceled, sent), "the caller's own end")
	require.False(t, ranOut(context.Background(), errors.New("WRONGTYPE"), sent))
	require.False(t, ranOut(context.Background(), readTimeout, time.Now()), "too soon to say anything of the server")
}
