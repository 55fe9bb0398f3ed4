// Package replybound keeps a server's one reply from filling fencelab's
// memory: a file's script can answer a 100 MB string, its statement a
// million rows, and a driver reads a reply whole before anyone looks at
// it. Each connection fencelab dials to Redis or PostgreSQL is wrapped so
// that what it reads after each request stops at Limit: the read fails,
// the driver drops the connection, and the call ends with ErrTooLarge
// instead of the reply.
package replybound

import (
	"context"
	"errors"
	"io"
	"net"
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/fencelab/fencelab/engine"
)

// DefaultLimit is how much of one reply fencelab reads: far beyond what
// its own state and a sane step's reply need.
const DefaultLimit = 64 << 20

// limit overrides DefaultLimit where a test sets it (SetLimit): a reply
// past a lower bound without moving 64 MiB on a loaded machine.
var limit atomic.Int64

// Limit is the bound in force.
func Limit() int64 {
	if n := limit.Load(); n > 0 {
		return n
	}
	return DefaultLimit
}

// SetLimit lowers the bound, for a test, until restore is called.
func SetLimit(n int64) (restore func()) {
	was := limit.Swap(n)
	return func() { limit.Store(was) }
}

// ErrTooLarge is a reply that passed Limit.
var ErrTooLarge = engine.ErrReplyTooLarge

// Conn wraps c: the bytes read since its last write are counted, and a
// read past Limit fails.
func Conn(c net.Conn) net.Conn { return &conn{Conn: c} }

type conn struct {
	net.Conn
	// read counts since the last write: a request starts a reply.
	read atomic.Int64
}

func (c *conn) Write(b []byte) (int, error) {
	c.read.Store(0)
	return c.Conn.Write(b)
}

func (c *conn) Read(b []byte) (int, error) {
	left := Limit() - c.read.Load()
	if left < 0 {
		return 0, ErrTooLarge
	}
	// One read may be asked for a whole reply (a driver reading a bulk
	// string into a buffer of its length): it gets no more than the bound.
	if int64(len(b)) > left+1 {
		b = b[:left+1]
	}
	n, err := c.Conn.Read(b)
	c.read.Add(int64(n))
	return n, err
}

// Dial wraps what dial connects.
func Dial(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	if dial == nil {
		var d net.Dialer
		dial = d.DialContext
	}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return Conn(c), nil
	}
}

// Frontend is PostgreSQL's protocol reader with the bound on each message:
// a DataRow's length is in its header, and pgx would make room for all of
// it before the connection's bound is reached.
func Frontend(r io.Reader, w io.Writer) *pgproto3.Frontend {
	f := pgproto3.NewFrontend(r, w)
	f.SetMaxBodyLen(int(Limit()))
	return f
}

// Passed says whether err is a reply that passed the bound, as the
// connection or pgx's reader found it.
func Passed(err error) bool {
	var tooLong *pgproto3.ExceededMaxBodyLenErr
	return errors.Is(err, ErrTooLarge) || errors.As(err, &tooLong)
}
