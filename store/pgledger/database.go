// Package pgledger is the database side of fencelab on PostgreSQL (pgx):
// the schema's migrations, the fenced mutation and its UNSAFE twin, and the
// reads behind a snapshot. Everything it touches is in schema fencelab.
package pgledger

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/store/redact"
	"github.com/fencelab/fencelab/store/replybound"
)

var (
	_ engine.Database = (*Database)(nil)
	_ engine.Ledger   = (*Ledger)(nil)
)

// ConnectTimeout bounds each connection attempt, so a server that is down
// gets a clear answer within seconds.
const ConnectTimeout = 3 * time.Second

// CallTimeout bounds every call to the server, on the client (a frozen
// server answers nothing, not even a cancel) and on the server
// (statement_timeout, lock_timeout): a server that is down, frozen or stuck
// behind a lock is reported in seconds instead of waited on for ever.
const CallTimeout = 5 * time.Second

// serverTimeout is the statement_timeout of fencelab's sessions: the
// server gives up a little before the client does, so a statement stuck
// ends with the server's own word for it. lockTimeout, their lock_timeout,
// is shorter still: a statement that waited for a lock all along ends
// saying so, not as one that ran too long.
const (
	serverTimeout = CallTimeout - 500*time.Millisecond
	lockTimeout   = serverTimeout - 500*time.Millisecond
)

// ErrNoAnswer is a call or connection the server did not answer in time.
var ErrNoAnswer = lang.Error("PostgreSQL did not answer")

func noAnswer(within time.Duration) error {
	return lang.Error("%w within %s (stopped, frozen or overloaded?)", ErrNoAnswer, within)
}

// within runs fn with a context that ends after CallTimeout; a call that
// ran out of time says ErrNoAnswer.
func within(ctx context.Context, fn func(context.Context) error) error {
	if engine.OnWire(ctx) {
		// An actor's round trips each get CallTimeout once they are let
		// go (wireTracer): waiting for its turn is not the server's time.
		// A trip that ran out of it is the server's silence, said so
		// (pgx says "timeout: context deadline exceeded", wherever in a
		// batch it was).
		err := fn(ctx)
		if err != nil && ctx.Err() == nil && pgconn.Timeout(err) && !errors.Is(err, ErrNoAnswer) {
			return fmt.Errorf("%w (%v)", noAnswer(CallTimeout), err)
		}
		return err
	}
	bounded, cancel := context.WithTimeoutCause(ctx, CallTimeout, ErrNoAnswer)
	defer cancel()
	err := fn(bounded)
	if err != nil && ctx.Err() == nil && errors.Is(context.Cause(bounded), ErrNoAnswer) {
		return noAnswer(CallTimeout)
	}
	return err
}

// connect opens a connection; a server that does not answer within
// ConnectTimeout says ErrNoAnswer.
func connect(ctx context.Context, config *pgx.ConnConfig) (*pgx.Conn, error) {
	conn, err := pgx.ConnectConfig(ctx, config)
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) && pgErr.Code == "53300" && ReleaseIdle() > 0 {
		// The server's connections (or the role's) are spent, some on
		// connections kept for reuse: they went, and the connection is
		// asked for again — a few times over a moment, since the server
		// counts a closed connection's process until it has exited.
		for wait := 10 * time.Millisecond; ; wait *= 2 {
			conn, err = pgx.ConnectConfig(ctx, config)
			if !errors.As(err, &pgErr) || pgErr.Code != "53300" || wait > 640*time.Millisecond {
				break
			}
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(wait):
			}
		}
	}
	if err != nil && ctx.Err() == nil && pgconn.Timeout(err) {
		return nil, noAnswer(config.ConnectTimeout)
	}
	return conn, err
}

// Database opens per-actor connections to one PostgreSQL database. While it
// is open it holds the database's fencelab run lock, so two fencelab runs
// never share the schema's rows at once.
type Database struct {
	config   *pgx.ConnConfig
	describe string
	dsn      string // without its password
	hidden   bool   // the DSN given had a password
	lock     *pgx.Conn
	// writes counts the transactions and statements fencelab's own
	// connections sent that may change schema fencelab; codeWrites those
	// the file's role's connections sent, which may change the file's
	// schema (and nothing else: each part of a dump changes only through
	// its own connections).
	writes, codeWrites atomic.Uint64
	// flying counts the actors' round trips sent and not yet answered: a
	// dump read while one is out may not hold once it is answered, with
	// no write counted after it (readback.go).
	flying atomic.Int32
	back   readBack
	ahead  ahead
	// code is a scenario file's schema, once a lab set it up (code.go);
	// roles the role its SQL runs as (coderole.go).
	code  atomic.Pointer[codeSchema]
	roles roles
}

// ParseConfig parses a DSN (URL or keyword/value) with fencelab's timeouts.
func ParseConfig(dsn string) (*pgx.ConnConfig, error) {
	config, err := pgx.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	if config.ConnectTimeout == 0 || config.ConnectTimeout > ConnectTimeout {
		config.ConnectTimeout = ConnectTimeout
	}
	// The server gives up a little before the client does, so a statement
	// stuck behind a lock ends with the server's own word for it.
	config.DialFunc = replybound.Dial(config.DialFunc) // no one reply read past its bound
	config.BuildFrontend = replybound.Frontend
	config.RuntimeParams["statement_timeout"] = fmt.Sprint(serverTimeout.Milliseconds())
	config.RuntimeParams["lock_timeout"] = fmt.Sprint(lockTimeout.Milliseconds())
	config.RuntimeParams["idle_in_transaction_session_timeout"] = fmt.Sprint((10 * CallTimeout).Milliseconds())
	// A lab's commits need not wait for the disk: a crash of the server
	// loses a lab's last steps, never makes a reader see what was not
	// committed. It is a setting of fencelab's own sessions only.
	config.RuntimeParams["synchronous_commit"] = "off"
	// fencelab's own sessions name schema fencelab's objects in full, and
	// find everything else in the catalog alone: a function or operator
	// someone made in a schema on the default path (public, where an old
	// database lets anyone create) is never one of theirs.
	config.RuntimeParams["search_path"] = "pg_catalog"
	return config, nil
}

// Options configure Open.
type Options struct {
	// Describe is the header's name for the database ("postgres 15
	// (ephemeral)"); empty: "postgres HOST".
	Describe string
	// Waiting hears, once, who holds the run lock when Open has to wait.
	Waiting func(holder string)
	// Dial, if set, makes every connection (the ephemeral cluster's proves
	// who serves its socket).
	Dial pgconn.DialFunc
	// Joining: the database is a run's that holds its run lock and has
	// migrated it — a stress worker process joins its parent's run, so it
	// takes no lock and migrates nothing.
	Joining bool
	// Shared: the run shares the database with other runs that share it
	// too — stress runs of one --shared resource, from many machines. It
	// takes the run lock shared, so they run at once while a run that
	// seeds the whole schema waits for them all, and they for it.
	Shared bool
	// Purpose is what the run is, for the lock holder's name that another
	// run waiting for it shows ("run", "stress"); empty: "run".
	Purpose string
	// Exclusive: the database is the caller's alone — fencelab's own
	// cluster, whose slot it holds locked, so no other run reaches it.
	// Open takes no run lock, and the connection it checks the schema on
	// is handed out as the first of Ahead: a server process fewer to
	// start and to stop.
	Exclusive bool
	// Ahead names connections Connect will be asked for soon (the first
	// lab's): Open opens them while it takes the run lock, and warms them
	// once the schema is ready (ahead.go).
	Ahead []string
	// Repaired hears, once, what was damaged in schema fencelab (or, on
	// fencelab's own cluster, the database) that Open found and made
	// again (migrate.go's repairSchema).
	Repaired func(found string)
	// Parked hears, once, the shared resources (stress --shared) whose
	// rows a run that is not Shared finds or puts aside (shared.go): they
	// are out of the lab's tables until the next shared run.
	Parked func(conflictKeys []string)
}

// Open takes the database's run lock — when another fencelab run holds it,
// Options.Waiting hears who, and Open waits until it is free or ctx ends —
// then migrates the database, puts the rows of shared resources aside (or,
// for a Shared run, back), and returns it. Close releases the lock.
func Open(ctx context.Context, dsn string, opts Options) (*Database, error) {
	config, err := ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("pgledger: %w", err)
	}
	if opts.Dial != nil {
		config.DialFunc = replybound.Dial(opts.Dial)
	}
	describe := opts.Describe
	if describe == "" {
		describe = "postgres " + config.Host
	}
	shown := redact.PostgresDSN(dsn)
	d := &Database{config: config, describe: describe, dsn: shown, hidden: shown != dsn}
	if opts.Joining {
		return d, nil
	}
	// The connections opened ahead wait for the run lock's: the first
	// connection to a server just started is slower when others start
	// beside it, and the lock's is on the way of the whole start.
	ahead := opts.Ahead
	if opts.Exclusive && len(ahead) > 0 {
		ahead = ahead[1:] // the lock's connection becomes the first
	}
	lockConfig := config
	if opts.Exclusive && len(opts.Ahead) > 0 {
		// The lock's connection is handed out later as an actor's (adopt),
		// and given back and handed out again under any name: it must be
		// made as every actor's is, its round trips on the wire.
		lockConfig = d.named(opts.Ahead[0])
	}
	if d.lock, err = takeRunLock(ctx, lockConfig, opts, func() { d.openAhead(ctx, ahead) }); err != nil {
		d.closeAheads()
		return nil, err
	}
	if !opts.Shared {
		if ready, labBytes := readyAsItIs(ctx, d.lock, opts.Exclusive); ready {
			if labBytes > bloatedLab {
				compactLab(ctx, d.lock)
			}
			d.opened(ctx, opts)
			return d, nil
		}
	}
	// Runs that share the database migrate one at a time.
	if err := holdLock(ctx, d.lock, migrateLockKey, false, nil); err != nil {
		d.Close()
		return nil, err
	}
	repaired, err := migrateOrRepair(ctx, config, opts.Exclusive)
	if err != nil {
		d.Close()
		return nil, err
	}
	if repaired != "" && opts.Repaired != nil {
		opts.Repaired(repaired)
	}
	// Shared resources' rows move under the same lock: one run at a time.
	if opts.Shared {
		err = unparkShared(ctx, d.lock)
	} else {
		var parked []string
		parked, err = parkShared(ctx, d.lock)
		if len(parked) > 0 && opts.Parked != nil {
			opts.Parked(parked)
		}
	}
	if err != nil {
		d.Close()
		return nil, err
	}
	if err := within(ctx, func(ctx context.Context) error {
		_, err := d.lock.Exec(ctx, `SELECT pg_advisory_unlock($1)`, migrateLockKey)
		return err
	}); err != nil {
		d.Close()
		return nil, fmt.Errorf("pgledger: after migrating: %w", err)
	}
	d.opened(ctx, opts)
	return d, nil
}

// opened ends an Open that succeeded: the connections opened ahead may
// warm, and on a database of the caller's alone the connection Open used
// joins them as the first.
func (d *Database) opened(ctx context.Context, opts Options) {
	d.schemaReady(true)
	if opts.Exclusive && len(opts.Ahead) > 0 {
		d.adopt(ctx, opts.Ahead[0], d.lock)
		d.lock = nil
	}
}

// The advisory locks (per database) of fencelab's runs: the run lock, held
// for as long as a run uses the database ("fencelab" in ASCII), and the
// migration lock, held while one migrates.
const (
	runLockKey     int64 = 0x66656e63656c6162
	migrateLockKey int64 = 0x66656e63656c6162 + 1
)

// takeRunLock holds the run lock on a connection of its own — exclusive,
// or shared with the runs that share it too (Options.Shared); the server
// releases it when that connection ends, however the run ends. connected
// runs once the connection is open, before the lock is asked. A database
// of the caller's alone (Options.Exclusive) needs no lock: the connection
// is Open's only, named as the first of Options.Ahead, which it becomes.
func takeRunLock(ctx context.Context, config *pgx.ConnConfig, opts Options, connected func()) (*pgx.Conn, error) {
	config = config.Copy()
	host, _ := os.Hostname()
	purpose := opts.Purpose
	if purpose == "" {
		purpose = "run"
	}
	if !opts.Exclusive || len(opts.Ahead) == 0 {
		config.RuntimeParams["application_name"] = fmt.Sprintf("fencelab %s (pid %d on %s)", purpose, os.Getpid(), host)
	}
	conn, err := connect(ctx, config)
	if err != nil {
		return nil, fmt.Errorf("pgledger: connect: %w", err)
	}
	connected()
	if opts.Exclusive {
		return conn, nil
	}
	if err := holdLock(ctx, conn, runLockKey, opts.Shared, opts.Waiting); err != nil {
		conn.Close(context.WithoutCancel(ctx))
		return nil, err
	}
	return conn, nil
}

// holdLock takes an advisory lock on conn, for the session. It polls with
// pg_try_advisory_lock rather than blocking in pg_advisory_lock, so a
// server that stops answering is still noticed; waiting, if set, hears
// once who holds the lock.
func holdLock(ctx context.Context, conn *pgx.Conn, key int64, shared bool, waiting func(holder string)) error {
	told := false
	for {
		var taken bool
		err := within(ctx, func(ctx context.Context) error {
			if shared {
				return conn.QueryRow(ctx, `SELECT pg_try_advisory_lock_shared($1)`, key).Scan(&taken)
			}
			return conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, key).Scan(&taken)
		})
		if err != nil {
			if conn.IsClosed() && ctx.Err() == nil && !errors.Is(err, ErrNoAnswer) {
				// The connection ended under the call (a deadline of an
				// earlier one closed it, or the server went): said as the
				// server's silence, which it is.
				err = fmt.Errorf("%w (%v)", noAnswer(CallTimeout), err)
			}
			return fmt.Errorf("pgledger: take the run lock: %w", err)
		}
		if taken {
			return nil
		}
		if !told && waiting != nil {
			waiting(lockHolder(ctx, conn))
			told = true
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// lockHolder names the session that holds the run lock, as far as the
// server lets this user see it.
func lockHolder(ctx context.Context, conn *pgx.Conn) string {
	var holder string
	err := within(ctx, func(ctx context.Context) error {
		return conn.QueryRow(ctx, `
			SELECT coalesce(nullif(a.application_name, ''), 'server process ' || l.pid)
			       || coalesce(', since ' || to_char(a.backend_start, 'HH24:MI:SS'), '')
			  FROM pg_locks l LEFT JOIN pg_stat_activity a ON a.pid = l.pid
			 WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
			   AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
			   AND l.classid::bigint = ($1::bigint >> 32) AND l.objid::bigint = ($1::bigint & 4294967295)`, runLockKey).Scan(&holder)
	})
	if err != nil {
		return "another fencelab run"
	}
	return holder
}

// Close releases the run lock and closes the connections opened ahead
// that nobody took. The rows stay, for psql.
func (d *Database) Close() error {
	d.closeAheads()
	d.releaseCodeIdle(true)
	keeping.Delete(d)
	// The run's role for files goes with the run (coderole.go).
	dropped := d.dropCodeRole()
	if d.lock == nil {
		return dropped
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	// The run lock is let go by a round trip, before the connection
	// closes: the server ends a closed connection's session (and its
	// locks) a moment later, and a run started right after this one would
	// find the lock still held and say it waits. A server that does not
	// answer lets it go when the connection ends, as before.
	d.lock.Exec(ctx, `SELECT pg_advisory_unlock_all()`)
	err := d.lock.Close(ctx)
	d.lock = nil
	return errors.Join(dropped, err)
}

// Connect opens a connection of the actor's own, named after it in
// pg_stat_activity. One Open opened ahead under that name (Options.Ahead)
// is handed out once it is warm.
func (d *Database) Connect(ctx context.Context, actor string) (engine.Ledger, error) {
	conn, err := d.takeAhead(ctx, actor)
	if err == nil && conn == nil {
		conn, err = connect(ctx, d.named(actor))
	}
	if err != nil {
		return nil, fmt.Errorf("pgledger: connect %s: %w", actor, err)
	}
	return &Ledger{conn: conn, db: d, name: actor}, nil
}

// named is the configuration of an actor's connection.
func (d *Database) named(actor string) *pgx.ConnConfig {
	config := d.config.Copy()
	config.RuntimeParams["application_name"] = "fencelab-" + actor
	config.Tracer = wireTracer{db: d}
	return config
}

// Writes counts the transactions and statements that may have changed
// the schema, sent by any connection Connect opened. While it stands
// still, the schema is as the last State read it (for fencelab's own
// connections: a psql session of the user's is not counted).
func (d *Database) Writes() uint64 { return d.writes.Load() + d.codeWrites.Load() }

func (d *Database) Describe() string { return d.describe }

// DSN is the connection string without its password: psql asks for the
// password, or reads PGPASSWORD.
func (d *Database) DSN() string { return d.dsn }

// PasswordHidden reports whether the DSN given had a password that DSN()
// leaves out.
func (d *Database) PasswordHidden() bool { return d.hidden }
