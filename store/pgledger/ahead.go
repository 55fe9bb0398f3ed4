package pgledger

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Connections opened ahead. A run's start waits on PostgreSQL in a line:
// the run lock's connection, the schema's check, then the lab's own
// connections, one for the lab and one per actor, whose new server
// processes are slow at their first statements (they read the catalog
// entries of every table they touch: a first fenced write took four times
// a later one). Open takes the names of the first lab's connections and
// opens them as soon as its own connection is open, while it takes the
// run lock and checks the schema; once the schema is ready each is warmed
// (Warm); Connect hands them out by name.

// aheadConn is a connection Open opens before Connect asks for it.
type aheadConn struct {
	name string
	done chan struct{} // closed once conn or err is set and the warm is over
	conn *pgx.Conn
	err  error
}

// ahead is what a Database keeps of its connections opened ahead.
type ahead struct {
	mu    sync.Mutex
	conns []*aheadConn // not yet handed out
	// schema is closed once Open knows the schema is ready (schemaOK) or
	// that it will not be: a warm before that could read tables a
	// migration is about to change.
	schema    chan struct{}
	schemaOK  bool
	closeOnce sync.Once
}

// openAhead starts opening the named connections, each in a goroutine of
// its own, warmed once the schema is ready.
func (d *Database) openAhead(ctx context.Context, names []string) {
	d.ahead.schema = make(chan struct{})
	for _, name := range names {
		a := d.keepAhead(name, nil)
		go func() {
			defer close(a.done)
			a.conn, a.err = connect(ctx, d.named(name))
			if a.err != nil {
				return
			}
			<-d.ahead.schema
			if !d.ahead.schemaOK {
				return
			}
			// A warm that fails leaves the connection cold, which is all
			// it saves; one that broke it is opened anew by Connect.
			_ = (&Ledger{conn: a.conn, db: d}).Warm(ctx)
		}()
	}
}

// keepAhead lists a connection opened ahead under name, for takeAhead;
// conn is nil while it is being opened.
func (d *Database) keepAhead(name string, conn *pgx.Conn) *aheadConn {
	a := &aheadConn{name: name, conn: conn, done: make(chan struct{})}
	d.ahead.mu.Lock()
	defer d.ahead.mu.Unlock()
	d.ahead.conns = append(d.ahead.conns, a)
	return a
}

// schemaReady tells the connections opened ahead whether they may warm.
func (d *Database) schemaReady(ok bool) {
	if d.ahead.schema == nil {
		return
	}
	d.ahead.closeOnce.Do(func() {
		d.ahead.schemaOK = ok
		close(d.ahead.schema)
	})
}

// adopt hands conn out as the connection opened ahead under name, warmed
// as the others are (Options.Exclusive: the connection Open used).
func (d *Database) adopt(ctx context.Context, name string, conn *pgx.Conn) {
	a := d.keepAhead(name, conn)
	go func() {
		defer close(a.done)
		_ = (&Ledger{conn: conn, db: d}).Warm(ctx)
	}()
}

// takeAhead hands out the connection opened ahead under name, if any, once
// it is open and warmed; nil if there is none, or it could not be opened
// (the caller opens one itself, and says why if that fails too).
func (d *Database) takeAhead(ctx context.Context, name string) (*pgx.Conn, error) {
	d.ahead.mu.Lock()
	var a *aheadConn
	for i, c := range d.ahead.conns {
		if c.name == name {
			a = c
			d.ahead.conns = append(d.ahead.conns[:i:i], d.ahead.conns[i+1:]...)
			break
		}
	}
	d.ahead.mu.Unlock()
	if a == nil {
		return nil, nil
	}
	select {
	case <-a.done:
	case <-ctx.Done():
		go closeAhead(a)
		return nil, ctx.Err()
	}
	if a.err != nil || a.conn.IsClosed() {
		return nil, nil
	}
	return a.conn, nil
}

// closeAheads closes the connections opened ahead that nobody took, once
// their goroutines are done (a connect or a warm ends within its timeout).
func (d *Database) closeAheads() {
	d.schemaReady(false)
	d.ahead.mu.Lock()
	conns := d.ahead.conns
	d.ahead.conns = nil
	d.ahead.mu.Unlock()
	for _, a := range conns {
		closeAhead(a)
	}
}

func closeAhead(a *aheadConn) {
	<-a.done
	if a.conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		a.conn.Close(ctx)
	}
}
