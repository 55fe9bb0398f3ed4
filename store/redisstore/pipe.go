package redisstore

import (
	"net"
	"sync"
)

// replyBuffer is the embedded server's end of an in-memory pipe to one of
// the process's clients. net.Pipe holds nothing: a write waits until the
// other end has read it all. A client sending a long pipeline (500
// UNLINKs) reads no reply before it has written the last command, while
// the server, having read the first, waits to write its reply — each
// waiting for the other. A socket's buffers keep them apart; so does this:
// the server's replies wait in memory, and one goroutine hands them to the
// client as it reads.
type replyBuffer struct {
	net.Conn
	mu      sync.Mutex
	ready   *sync.Cond
	pending []byte
	closed  bool
	err     error // the pipe's, once a hand-over failed
}

func newReplyBuffer(conn net.Conn) *replyBuffer {
	b := &replyBuffer{Conn: conn}
	b.ready = sync.NewCond(&b.mu)
	go b.handOver()
	return b
}

// Write keeps p for the client; it fails only once the pipe has.
func (b *replyBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return 0, b.err
	}
	if b.closed {
		return 0, net.ErrClosed
	}
	b.pending = append(b.pending, p...)
	b.ready.Signal()
	return len(p), nil
}

// handOver writes what the server wrote to the pipe, in order, until the
// connection is closed.
func (b *replyBuffer) handOver() {
	for {
		b.mu.Lock()
		for len(b.pending) == 0 && !b.closed {
			b.ready.Wait()
		}
		if b.closed {
			b.mu.Unlock()
			return
		}
		out := b.pending
		b.pending = nil
		b.mu.Unlock()
		if _, err := b.Conn.Write(out); err != nil {
			b.mu.Lock()
			b.err = err
			b.mu.Unlock()
			return
		}
	}
}

// Close closes the pipe; replies not handed over yet are dropped, as a
// socket closed by its server drops what its client never read.
func (b *replyBuffer) Close() error {
	b.mu.Lock()
	b.closed = true
	b.ready.Signal()
	b.mu.Unlock()
	return b.Conn.Close()
}
