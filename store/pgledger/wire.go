package pgledger

import (
	"context"
	"errors"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fencelab/fencelab/engine"
)

// wireTracer makes every statement and batch an actor's connection sends a
// round trip of the actor's call (engine.Send), whatever the method that
// sends it: a transaction is its BEGIN, each statement and its COMMIT, so
// another actor can act between any two while the transaction holds its
// locks, as PostgreSQL does. pgx calls a tracer before it writes a
// statement and once its reply is read, on the caller's goroutine. The
// deadline of a round trip starts once it is let go, not while it waits
// for its turn.
//
// code marks a connection logged in as a file's role: its trips count as
// writes of the file's part of the schema (Database.codeWrites).
type wireTracer struct {
	db   *Database
	code bool
}

type (
	wireBackKey  struct{}
	tripShapeKey struct{}
)

// tripShape is what oneTrip puts around an actor's statements in its
// batch: a restore in front and a read-back behind are the lab's, not
// part of the round trip's text. at is the write count the trip went out
// as, for the dump it reads back.
type tripShape struct {
	front, back int
	at          uint64
	// opens, commits: the trip is a write's BEGIN and statement, or its
	// COMMIT (twoTrips; engine.RoundTrip).
	opens, commits bool
}

type wireEnd struct {
	back   func(string)
	cancel context.CancelFunc
	db     *Database
}

func (t wireTracer) start(ctx context.Context, text string, shape *tripShape) context.Context {
	if !engine.OnWire(ctx) {
		return ctx
	}
	trip := engine.RoundTrip{Backend: engine.BackendPostgres, Text: text}
	if shape != nil {
		trip.Opens, trip.Commits = shape.opens, shape.commits
	}
	back, err := engine.Send(ctx, trip)
	if err != nil {
		gone, cancel := context.WithCancelCause(ctx)
		cancel(err) // pgx sends nothing on a context already done
		return gone
	}
	// Counted when it goes out, not when it was asked for: what the lab
	// read while it waited for its turn did not see it. Any statement of
	// a transaction may change what the lab reads.
	counter := &t.db.writes
	if t.code {
		counter = &t.db.codeWrites
	}
	at := counter.Add(1)
	if shape != nil {
		shape.at = at
	}
	t.db.flying.Add(1)
	bounded, cancel := context.WithTimeoutCause(ctx, CallTimeout, engine.ErrAbandoned)
	return context.WithValue(bounded, wireBackKey{}, wireEnd{back: back, cancel: cancel, db: t.db})
}

func end(ctx context.Context, reply string) {
	if e, ok := ctx.Value(wireBackKey{}).(wireEnd); ok {
		e.db.flying.Add(-1)
		e.back(reply)
		e.cancel()
	}
}

func (t wireTracer) TraceQueryStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryStartData) context.Context {
	return t.start(ctx, statementText(data.SQL), nil)
}

func (t wireTracer) TraceQueryEnd(ctx context.Context, _ *pgx.Conn, data pgx.TraceQueryEndData) {
	end(ctx, data.CommandTag.String())
}

func (t wireTracer) TraceBatchStart(ctx context.Context, _ *pgx.Conn, data pgx.TraceBatchStartData) context.Context {
	shape, _ := ctx.Value(tripShapeKey{}).(*tripShape)
	queries := data.Batch.QueuedQueries
	if shape != nil && shape.front+shape.back <= len(queries) {
		queries = queries[shape.front : len(queries)-shape.back]
	}
	texts := make([]string, len(queries))
	for i, q := range queries {
		texts[i] = statementText(q.SQL)
	}
	return t.start(ctx, strings.Join(texts, "; "), shape)
}

func (t wireTracer) TraceBatchQuery(context.Context, *pgx.Conn, pgx.TraceBatchQueryData) {}

func (t wireTracer) TraceBatchEnd(ctx context.Context, _ *pgx.Conn, _ pgx.TraceBatchEndData) {
	end(ctx, "")
}

// statementText is a statement on one line.
func statementText(sql string) string { return strings.Join(strings.Fields(sql), " ") }

// BackendPID is the server process of the connection (engine.LockWatcher):
// while a file's statement is out, of the connection it went on.
func (l *Ledger) BackendPID() uint32 {
	if l.busy.Load() {
		if conn := l.code.Load(); conn != nil {
			return conn.PgConn().PID()
		}
	}
	return l.conn.PgConn().PID()
}

// BlockedBy says which server processes hold a lock that the server
// process pid waits for.
func (l *Ledger) BlockedBy(ctx context.Context, pid uint32) ([]uint32, error) {
	var blockers []uint32
	err := within(ctx, func(ctx context.Context) error {
		return l.conn.QueryRow(ctx, `SELECT coalesce(array_agg(b::bigint), '{}') FROM unnest(pg_blocking_pids($1)) AS b`, int32(pid)).Scan(&blockers)
	})
	return blockers, err
}

// CancelStatement cancels the statement of pid, a connection of the lab's
// own (the caller knows it from BackendPID). A connection logged in as a
// file's role is cancelled by the role itself, on a connection of its
// own: fencelab's user need not be its member.
func (l *Ledger) CancelStatement(ctx context.Context, pid uint32) error {
	cancel := func(conn *pgx.Conn) error {
		return within(ctx, func(ctx context.Context) error {
			_, err := conn.Exec(ctx, `SELECT pg_catalog.pg_cancel_backend($1)`, int32(pid))
			return err
		})
	}
	err := cancel(l.conn)
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "42501" && l.db.code.Load() != nil {
		conn, connErr := l.codeConnection(ctx)
		if connErr != nil || conn.PgConn().TxStatus() != 'I' {
			return err
		}
		return cancel(conn)
	}
	return err
}

// EndTransaction rolls back the connection's open transaction, if any,
// and that of the connection its file's statements go on.
func (l *Ledger) EndTransaction(ctx context.Context) error {
	for _, conn := range []*pgx.Conn{l.conn, l.code.Load()} {
		if conn == nil || conn.IsClosed() || conn.PgConn().TxStatus() == 'I' {
			continue
		}
		err := within(ctx, func(ctx context.Context) error {
			_, err := conn.Exec(ctx, "rollback")
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

var _ engine.LockWatcher = (*Ledger)(nil)
