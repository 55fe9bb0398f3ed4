package pgledger

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fencelab/fencelab/engine"
)

// The checker restores a saved state at the start of most schedules it
// takes up, and then, most often, writes at once. Sent apart, the restore
// is a round trip of its own, and a round trip costs both processes more
// than the few statements of a restore (on a 2-core machine, about a
// third of PostgreSQL's time was the kernel waking it up). So a restore
// can wait for the connection's next statement and go in front of it, in
// the same round trip and the same transaction.
//
// A trip that carries a restore and fails may have taken the restore back
// with the rest of its transaction (PostgreSQL refused a statement), or
// not (the statements went through and their answer did not, or did not
// scan). So the restore is then sent again on its own, whole — every table
// emptied and filled, which is right whatever the schema holds — and the
// schema is restored whether the write behind it went through or not, as
// if the two had gone apart. If that fails too, the connection is closed:
// what its schema holds is not known, and a lab whose connection is lost
// connects again and replays its log (engine.Lab.Reconnect). A
// transaction of several trips, or a read, sends the restore on its own
// first.

// RestoreWithNext is Restore sent in front of the next statement this
// connection sends. Until then the schema still holds from.
//
// A file's part of it goes on the connection logged in as the file's
// role, in a trip of its own before the next one (sendCodeRestore).
func (l *Ledger) RestoreWithNext(from, to engine.LedgerDump) error {
	own, code, err := l.restoreBatch(from, to)
	if err != nil {
		return err
	}
	if l.restoreNext == nil {
		l.restoreNext = &waitingRestore{}
	}
	l.restoreNext.to = to
	for _, q := range own.QueuedQueries {
		l.restoreNext.statements = append(l.restoreNext.statements, restoreStatement{sql: q.SQL, args: q.Arguments})
	}
	for _, q := range code.QueuedQueries {
		l.restoreNext.code = append(l.restoreNext.code, restoreStatement{sql: q.SQL, args: q.Arguments})
	}
	return nil
}

// waitingRestore is a restore waiting for the next trip: the dump it
// restores, and its statements (in the order given, when several
// restores wait) — fencelab's tables', and a file's (code).
type waitingRestore struct {
	to         engine.LedgerDump
	statements []restoreStatement
	code       []restoreStatement
}

// sendCodeRestore sends the file's part of a restore waiting for the next
// trip, on the connection logged in as the file's role; if that fails,
// the file's part is sent once more whole, and if that fails too the
// connection is closed, as sendAgain does: what the schema holds is not
// known, and the lab connects again and replays its log.
func (l *Ledger) sendCodeRestore(ctx context.Context) error {
	waiting := l.restoreNext
	if waiting == nil || len(waiting.code) == 0 {
		return nil
	}
	batch := &pgx.Batch{}
	for _, s := range waiting.code {
		batch.Queue(s.sql, s.args...)
	}
	waiting.code = nil
	err := l.codeTrip(ctx, batch)
	if err == nil {
		return nil
	}
	if _, whole, again := l.restoreBatch("", waiting.to); again == nil {
		again = l.codeTrip(context.WithoutCancel(ctx), whole)
		if again == nil {
			return fmt.Errorf("pgledger: restore the file's rows: %w", err)
		}
	}
	closing, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	l.conn.Close(closing)
	return fmt.Errorf("pgledger: restore the file's rows: %w", err)
}

type restoreStatement struct {
	sql  string
	args []any
}

// takeRestore hands over the restore waiting for the next trip (nil: none).
func (l *Ledger) takeRestore() *waitingRestore {
	waiting := l.restoreNext
	l.restoreNext = nil
	return waiting
}

// queue puts the restore's statements in a batch, after its first at
// (BEGIN, or none), and says how many went in. A batch is sent once, so
// each statement is queued anew.
func (w *waitingRestore) queue(batch *pgx.Batch, at int) int {
	if w == nil || len(w.statements) == 0 {
		return 0
	}
	queued := make([]*pgx.QueuedQuery, 0, len(batch.QueuedQueries)+len(w.statements))
	queued = append(queued, batch.QueuedQueries[:at]...)
	for _, s := range w.statements {
		queued = append(queued, &pgx.QueuedQuery{SQL: s.sql, Arguments: s.args})
	}
	batch.QueuedQueries = append(queued, batch.QueuedQueries[at:]...)
	return len(w.statements)
}

// readRestore reads the results of a restore's n statements in a batch.
func readRestore(results pgx.BatchResults, n int) error {
	for range n {
		if _, err := results.Exec(); err != nil {
			return fmt.Errorf("pgledger: restore: %w", err)
		}
	}
	return nil
}

// sendRestore sends a restore waiting for the next trip on its own, if
// there is one.
func (l *Ledger) sendRestore(ctx context.Context) error {
	ctx = engine.Housekeeping(ctx) // the lab's, not a round trip of the actor's
	if err := l.sendCodeRestore(ctx); err != nil {
		return err
	}
	waiting := l.takeRestore()
	if waiting == nil {
		return nil
	}
	batch := &pgx.Batch{}
	waiting.queue(batch, 0)
	if err := l.oneTrip(ctx, batch, false, nil); err != nil {
		l.sendAgain(ctx, waiting)
		return fmt.Errorf("pgledger: restore: %w", err)
	}
	return nil
}

// sendAgain sends a restore whose trip failed once more, on its own and
// whole; if that fails too, it closes the connection. The trip's own
// error is the one to report.
func (l *Ledger) sendAgain(ctx context.Context, waiting *waitingRestore) {
	if waiting == nil || l.conn.IsClosed() {
		return
	}
	ctx = engine.Housekeeping(ctx) // the lab's, even after an actor's trip that was not let go
	whole, _, err := l.restoreBatch("", waiting.to)
	if err == nil {
		err = l.oneTrip(context.WithoutCancel(ctx), whole, false, nil) // within CallTimeout
	}
	if err != nil {
		closing, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer cancel()
		l.conn.Close(closing)
	}
}
