package pgledger

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
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

// aheadConn is a connection Open opens before Connect asks for it, or one
// a closed Ledger gave back (idle).
type aheadConn struct {
	name string
	done chan struct{} // closed once conn or err is set and the warm is over
	conn *pgx.Conn
	err  error
	idle bool
	// expire ends a connection given back that nobody took in time.
	expire *time.Timer
}

// Connections given back. A check opens labs for every scenario and mode
// (a matrix, for every guard too), each with a connection per actor, and
// a new connection is a new server process that must read the catalog
// again: most of what opening a lab cost. So a Ledger closed clean gives
// its connection back (Ledger.Close), and Connect hands it out again,
// under the new actor's name.
//
// At most maxIdle connections given back are kept, across the process's
// databases, each for idleFor: what the labs of a check have open at
// once, for as long as it takes the next scenario's labs to open. A
// database kept open without labs (a test's) then holds no server
// processes for long.
const (
	maxIdle = 24
	idleFor = 2 * time.Second
)

// idleConns counts the connections given back, across databases;
// keeping lists the databases that may keep some (ReleaseIdle).
var (
	idleConns atomic.Int32
	keeping   sync.Map // *Database → struct{}
)

// ReleaseIdle ends every connection given back and kept, across the
// process's databases — fencelab's own and those logged in as a file's
// role: before a client that is not fencelab's connects (bench's
// pgbench), or when the server has no connection left for a new one, the
// server processes they hold are let go. It says how many it ended.
func ReleaseIdle() (released int) {
	keeping.Range(func(k, _ any) bool {
		d := k.(*Database)
		d.ahead.mu.Lock()
		var idle []*aheadConn
		d.ahead.conns = slices.DeleteFunc(d.ahead.conns, func(a *aheadConn) bool {
			if a.idle {
				idle = append(idle, a)
				a.given()
			}
			return a.idle
		})
		d.ahead.mu.Unlock()
		for _, a := range idle {
			closeAhead(a)
		}
		released += len(idle) + d.releaseCodeIdle(false)
		return true
	})
	return released
}

// keepIdle keeps a connection given back under name; false when enough
// are kept.
func (d *Database) keepIdle(name string, conn *pgx.Conn) bool {
	d.ahead.mu.Lock()
	defer d.ahead.mu.Unlock()
	if d.ahead.closed {
		return false
	}
	if idleConns.Add(1) > maxIdle {
		idleConns.Add(-1)
		return false
	}
	done := make(chan struct{})
	close(done)
	a := &aheadConn{name: name, conn: conn, done: done, idle: true}
	a.expire = time.AfterFunc(idleFor, func() {
		if d.untake(a) {
			closeAhead(a)
		}
	})
	d.ahead.conns = append(d.ahead.conns, a)
	keeping.Store(d, struct{}{})
	return true
}

// untake removes a from the connections kept, if it is still there.
func (d *Database) untake(a *aheadConn) bool {
	d.ahead.mu.Lock()
	defer d.ahead.mu.Unlock()
	i := slices.Index(d.ahead.conns, a)
	if i < 0 {
		return false
	}
	d.ahead.conns = slices.Delete(d.ahead.conns, i, i+1)
	a.given()
	return true
}

// given is the bookkeeping of a connection given back leaving the kept
// ones (taken, expired or closed).
func (a *aheadConn) given() {
	if a.idle {
		a.expire.Stop()
		idleConns.Add(-1)
	}
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
	// closed: the database is closing; nothing is given back any more.
	closed bool
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
	i := slices.IndexFunc(d.ahead.conns, func(c *aheadConn) bool { return c.name == name })
	if i < 0 {
		// One given back under another name does as well, renamed.
		i = slices.IndexFunc(d.ahead.conns, func(c *aheadConn) bool { return c.idle })
	}
	var a *aheadConn
	if i >= 0 {
		a = d.ahead.conns[i]
		d.ahead.conns = slices.Delete(d.ahead.conns, i, i+1)
		a.given()
	}
	d.ahead.mu.Unlock()
	if a == nil {
		return nil, nil
	}
	if a.idle && a.name != name {
		err := within(ctx, func(ctx context.Context) error {
			_, err := a.conn.Exec(ctx, "SELECT set_config('application_name', $1, false)", "fencelab-"+name)
			return err
		})
		if err != nil {
			go closeAhead(a)
			return nil, nil
		}
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
	d.ahead.conns, d.ahead.closed = nil, true
	for _, a := range conns {
		a.given()
	}
	d.ahead.mu.Unlock()
	keeping.Delete(d)
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
