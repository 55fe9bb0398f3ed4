package pgledger

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/store/replybound"
)

// The checker reads the whole schema (State) after every step that wrote,
// on the lab's own connection: a second round trip for each write. With
// read-back on, a write sends the dump statement behind its own, in the
// same round trip, and the State read after it takes that dump instead of
// asking again. A round trip costs both processes about as much as the
// dump itself on a small machine, and the checker makes thousands a
// second.
//
// A dump read back is the schema as it was after that write, so it stands
// for the schema only while no other write was sent: it is kept with the
// write count it was read at. A database whose connections write at once
// (the explorer's actors need not wait for each other) must leave it off:
// a dump read back by one write may miss another one's commit counted
// before it. The checker's labs write one step at a time.

// readBack is a Database's last dump read back, and whether writes read
// one.
type readBack struct {
	mu   sync.Mutex
	on   bool
	at   uint64 // the write count the dump was read at
	dump string
	// codeAt, codeDump: the file's part of a dump as last read, at the
	// count of the role's writes, for the schema codeOf.
	codeOf   *codeSchema
	codeAt   uint64
	codeDump string
}

// ReadBack turns read-back on or off for every connection of the database.
// Off, the last dump read back is forgotten.
func (d *Database) ReadBack(on bool) {
	d.back.mu.Lock()
	defer d.back.mu.Unlock()
	d.back.on, d.back.at, d.back.dump = on, 0, ""
	d.back.codeOf, d.back.codeAt, d.back.codeDump = nil, 0, ""
}

// reading says whether a write should read the dump back.
func (d *Database) reading() bool {
	d.back.mu.Lock()
	defer d.back.mu.Unlock()
	return d.back.on
}

// readAt keeps a dump read back by the write counted as the at-th.
func (d *Database) readAt(at uint64, dump string) {
	d.back.mu.Lock()
	defer d.back.mu.Unlock()
	if d.back.on {
		d.back.at, d.back.dump = at, dump
	}
}

// lastDump is the dump the last write read back, while no write was
// counted since it.
func (d *Database) lastDump() (string, bool) {
	d.back.mu.Lock()
	defer d.back.mu.Unlock()
	if !d.back.on || d.back.dump == "" || d.back.at != d.writes.Load() {
		return "", false
	}
	return d.back.dump, true
}

// lastCodeDump is the file's part of a dump as last read, while none of
// the role's connections wrote since.
func (d *Database) lastCodeDump(c *codeSchema) (string, bool) {
	d.back.mu.Lock()
	defer d.back.mu.Unlock()
	if !d.back.on || d.back.codeOf != c || d.back.codeAt != d.codeWrites.Load() {
		return "", false
	}
	return d.back.codeDump, true
}

// readCodeAt keeps the file's part of a dump, read at the at-th of the
// role's writes.
func (d *Database) readCodeAt(c *codeSchema, at uint64, dump string) {
	d.back.mu.Lock()
	defer d.back.mu.Unlock()
	if d.back.on {
		d.back.codeOf, d.back.codeAt, d.back.codeDump = c, at, dump
	}
}

// readDump reads the schema's dump: fencelab's part on the connection
// itself, a file's part on a connection logged in as the file's role,
// each unless the part is known still to hold (a write read it back, or
// State read it, and no write of that part's connections was counted
// since). A part read while an actor's round trip is out is not kept: it
// may be answered without another write counted.
func (l *Ledger) readDump(ctx context.Context) (string, error) {
	own, known := l.db.lastDump()
	if !known {
		at, quiet := l.db.writes.Load(), l.db.flying.Load() == 0
		err := within(ctx, func(ctx context.Context) error { return l.conn.QueryRow(ctx, sqlDump).Scan(&own) })
		if err != nil {
			return "", err
		}
		if quiet && l.db.flying.Load() == 0 {
			l.db.readAt(at, own)
		}
	}
	c := l.db.code.Load()
	if c == nil || c.dump == "" {
		return own, nil
	}
	part, known := l.db.lastCodeDump(c)
	if !known {
		conn, err := l.codeConnection(ctx)
		if err != nil {
			return "", err
		}
		if conn.PgConn().TxStatus() != 'I' {
			// Inside a transaction the read would show what is not
			// committed; the lab reads on a connection of its own.
			return "", errors.New("pgledger: the file's rows read inside a transaction")
		}
		at, quiet := l.db.codeWrites.Load(), l.db.flying.Load() == 0
		err = within(engine.Housekeeping(ctx), func(ctx context.Context) error { return conn.QueryRow(ctx, c.dump).Scan(&part) })
		if replybound.Passed(err) {
			// The file's rows made it so: the file is what to change.
			return "", &engine.CodeFailure{Err: fmt.Errorf("the file's tables and values, read after the action: %w", engine.ErrReplyTooLarge)}
		}
		var pg *pgconn.PgError
		if errors.As(err, &pg) && (pg.Code == "57014" || pg.Code == "55P03") {
			// The server answers, and stopped the read at fencelab's limit:
			// the file's tables are too big to read after every action,
			// or a transaction of the file's keeps readers out.
			return "", &engine.CodeFailure{Err: lang.Error("the file's tables, read after every action, could not be read within fencelab's limits (%s): too many rows, or a lock of the file's that keeps readers out (LOCK TABLE … ACCESS EXCLUSIVE?)", ServerSaid(err))}
		}
		if err != nil {
			return "", fmt.Errorf("the file's rows: %w", err)
		}
		if quiet && l.db.flying.Load() == 0 {
			l.db.readCodeAt(c, at, part)
		}
	}
	return joinDump(own, part), nil
}

// joinDump is a dump of fencelab's part and a file's: two JSON objects as
// PostgreSQL writes them, made one.
func joinDump(own, code string) string {
	inner := strings.TrimPrefix(code, "{")
	if strings.TrimSpace(strings.TrimSuffix(inner, "}")) == "" {
		return own
	}
	return strings.TrimSuffix(own, "}") + ", " + inner
}

// oneTrip runs a batch of writes as one round trip: its statements, then
// one Sync, so they run in one implicit transaction — all or none — with
// no BEGIN and COMMIT of their own to wait for. each, if set, reads the
// statements' results in order (nil: they are only executed). With
// read-back on and readBack set, the dump follows in the same trip. A
// restore waiting for the connection's next statement (RestoreWithNext)
// goes in front, and each never sees its results; if the trip fails, the
// restore is sent again (sendAgain).
//
// An actor's write (readBack set) goes as two round trips instead
// (twoTrips), its COMMIT apart.
func (l *Ledger) oneTrip(ctx context.Context, batch *pgx.Batch, readBack bool, each func(pgx.BatchResults) error) error {
	if err := l.sendCodeRestore(engine.Housekeeping(ctx)); err != nil {
		return err
	}
	if readBack && engine.OnWire(ctx) && l.conn.PgConn().TxStatus() == 'I' {
		return l.twoTrips(ctx, batch, each)
	}
	restore := l.takeRestore()
	restored := restore.queue(batch, 0)
	// An actor's trip is counted by the tracer as it goes out (wire.go).
	var at uint64
	onWire := engine.OnWire(ctx)
	if !onWire {
		at = l.db.writes.Add(1)
	}
	// Inside a transaction of the actor's own the dump would show what is
	// not committed: the lab reads what others can see.
	readBack = readBack && l.db.reading() && l.conn.PgConn().TxStatus() == 'I'

	if readBack {
		batch.Queue(sqlDump)
	}
	err := within(ctx, func(ctx context.Context) error {
		shape := &tripShape{front: restored, back: boolInt(readBack)}
		results := l.conn.SendBatch(context.WithValue(ctx, tripShapeKey{}, shape), batch)
		if onWire {
			at = shape.at
		}
		err := readRestore(results, restored)
		if err == nil && each != nil {
			err = each(results)
		} else if err == nil {
			for range batch.Len() - restored - boolInt(readBack) {
				if _, err = results.Exec(); err != nil {
					break
				}
			}
		}
		if err == nil && readBack {
			err = l.keepDump(results, at)
		}
		if closed := results.Close(); err == nil {
			err = closed
		}
		return err
	})
	if err != nil {
		l.sendAgain(ctx, restore)
	}
	return err
}

// twoTrips runs an actor's batch of writes as a transaction of two round
// trips: BEGIN with the statements, then COMMIT (with the dump behind it,
// read back). Between them the transaction holds its row locks, so the
// checker can send another actor's statement there and have it wait for
// them, as beside a slower server (engine.RoundTrip's Opens and Commits).
// A restore waiting for the next statement goes in front, committed on
// its own before the BEGIN: a BEGIN later in a pipeline takes the
// statements before it into its transaction, which would hide the restore
// from the lab until the write's commit.
func (l *Ledger) twoTrips(ctx context.Context, batch *pgx.Batch, each func(pgx.BatchResults) error) error {
	if err := l.sendCodeRestore(engine.Housekeeping(ctx)); err != nil {
		return err
	}
	restore := l.takeRestore()
	open := &pgx.Batch{QueuedQueries: batch.QueuedQueries}
	restored := restore.queue(open, 0)
	front := restored
	if restored > 0 {
		open.QueuedQueries = slices.Insert(open.QueuedQueries, restored, &pgx.QueuedQuery{SQL: "COMMIT"})
		front++
	}
	open.QueuedQueries = slices.Insert(open.QueuedQueries, front, &pgx.QueuedQuery{SQL: "BEGIN"})
	err := within(ctx, func(ctx context.Context) error {
		results := l.conn.SendBatch(context.WithValue(ctx, tripShapeKey{}, &tripShape{front: front, opens: true}), open)
		err := readRestore(results, front+1) // the restore, its COMMIT, the BEGIN
		if err == nil && each != nil {
			err = each(results)
		} else if err == nil {
			for range batch.Len() {
				if _, err = results.Exec(); err != nil {
					break
				}
			}
		}
		if closed := results.Close(); err == nil {
			err = closed
		}
		return err
	})
	if err != nil {
		_ = l.EndTransaction(engine.Housekeeping(context.WithoutCancel(ctx)))
		l.sendAgain(ctx, restore)
		return err
	}
	if err := l.commitApart(ctx); err != nil {
		_ = l.EndTransaction(engine.Housekeeping(context.WithoutCancel(ctx)))
		return err
	}
	return nil
}

// commitApart is twoTrips' second round trip: COMMIT, and the dump read
// back behind it while read-back is on.
func (l *Ledger) commitApart(ctx context.Context) error {
	readBack := l.db.reading()
	commit := &pgx.Batch{}
	commit.Queue("COMMIT")
	if readBack {
		commit.Queue(sqlDump)
	}
	return within(ctx, func(ctx context.Context) error {
		shape := &tripShape{back: boolInt(readBack), commits: true}
		results := l.conn.SendBatch(context.WithValue(ctx, tripShapeKey{}, shape), commit)
		_, err := results.Exec()
		if err == nil && readBack {
			err = l.keepDump(results, shape.at)
		}
		if closed := results.Close(); err == nil {
			err = closed
		}
		return err
	})
}

// keepDump reads the dump a batch read back as the at-th write.
func (l *Ledger) keepDump(results pgx.BatchResults, at uint64) error {
	var dump string
	if err := results.QueryRow().Scan(&dump); err != nil {
		return fmt.Errorf("read the schema back: %w", err)
	}
	l.db.readAt(at, dump)
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
