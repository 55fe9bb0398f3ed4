package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/store/pgcluster"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/redact"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/replybound"
	"github.com/fencelab/fencelab/stress"
	"github.com/fencelab/fencelab/untrusted"
)

// Exit codes of DESIGN §9, and 130 for an interrupt, as shells count it.
const (
	exitOK          = 0
	exitUnexpected  = 1 // the outcome differs from the catalog, or the run failed
	exitUsage       = 2
	exitUnreachable = 3
	exitInterrupted = 130 // 128 + SIGINT, as shells count it
	exitBrokenPipe  = 128 + 13
)

// exitError is an error with the exit code it should end fencelab with.
type exitError struct {
	code int
	err  error
	// said is the error's line as a phrase, to be said in the user's
	// language; empty for an error that wraps a driver's or the system's
	// words, which are said as they are.
	said lang.Phrase
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// line is the error as report prints it, in language l.
func (e *exitError) line(l lang.Lang) string {
	if e.said.Format != "" {
		return e.said.In(l)
	}
	if s, ok := e.err.(interface{ In(lang.Lang) string }); ok {
		return engine.OneLine(errors.New(s.In(l)))
	}
	return engine.OneLine(e.err)
}

// usageError is a refusal of the command line or the configuration (exit 2).
func usageError(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...), said: lang.P(format, args...)}
}

// outcomeError is a run that ended otherwise than the catalog says (exit 1).
func outcomeError(format string, args ...any) error {
	return &exitError{code: exitUnexpected, err: fmt.Errorf(format, args...), said: lang.P(format, args...)}
}

func unreachable(err error) error { return &exitError{code: exitUnreachable, err: err} }

// config is the global flags.
type config struct {
	redisURL    string
	pgDSN       string
	allowUnsafe bool
	// trustCode: a file's Redis code may run as fencelab's own user on a
	// --redis where no user of its own can be made (--trust-code).
	trustCode bool
	leaseTTL  time.Duration
	verbose   bool
	// lang is the language of the narration and of a talk's texts.
	lang lang.Lang
	// pgConnections is how many connections the ephemeral server must
	// take (stress: one per worker); 0: its default.
	pgConnections int
	// shared names the resource a stress run shares with other runs, on
	// any machines: its Redis keys are shared, and the database's run
	// lock is taken shared.
	shared string
	// purpose is the command, for the name of the database's run lock
	// holder that another run waiting for it shows.
	purpose string
	// without is the set of guards removed from SAFE (--without).
	without engine.GuardSet
	// wallClock: the command's workers race on the wall clock (stress,
	// race); every other command runs labs, whose keys a real Redis keeps
	// on the lab clock.
	wallClock bool
	// firstLab names the connections of the first lab the command opens
	// (engine.LabConnections): the database opens them ahead.
	firstLab []string
}

// labLeaseTTL is a lab's lease TTL: its keys expire on the lab clock, on
// the embedded Redis and a real one alike, so a long TTL costs nothing.
const labLeaseTTL = 30 * time.Second

// The shortest lease TTLs a backend honours. The embedded Redis keeps
// milliseconds exactly on the lab clock. On a real server the TTL a call
// sets runs on the wall clock until the lab reads it back (a round trip or
// two, more on a loaded machine), and stress's workers race on the wall
// clock: a shorter lease would expire under them.
const (
	minEmbeddedLeaseTTL = 10 * time.Millisecond
	minRealLeaseTTL     = 500 * time.Millisecond
)

// backends is what a command runs on, with whatever must be stopped.
type backends struct {
	engine.Backends
	redis    *redisstore.Coordination
	database *pgledger.Database
	cluster  *pgcluster.Cluster
	// ephemeral: the database is fencelab's own throw-away cluster.
	ephemeral bool
	// userSaid: the line saying a file's Redis code runs as fencelab's
	// own user was written (sayCodeRole).
	userSaid atomic.Bool
	// keptSchema is the file's schema run --keep left for psql.
	keptSchema string
}

// sayCodeRole writes, once, that a file's Redis code runs as fencelab's
// own user, where the server would not let fencelab make the user it runs
// as otherwise (redisstore's codeuser.go): a reader of the run must know
// that only fencelab's refusals keep the file's code to its keys. (A
// file's SQL never runs as fencelab's user: where no role can be made for
// it, the run stops, pgledger.ErrNoCodeRole.)
func (b *backends) sayCodeRole(w io.Writer, l lang.Lang) {
	if b.redis != nil {
		if _, refused := b.redis.CodeUser(); refused != "" && b.userSaid.CompareAndSwap(false, true) {
			fmt.Fprint(w, l.T("fencelab: Redis would not make the user a file's Redis code runs as (%s): it runs as fencelab's own user, kept to the run's keys by fencelab's refusals alone\n",
				untrusted.Line(refused)))
		}
	}
}

// check validates the flags before anything is started. What it prints of
// a DSN or URL has its password taken out.
func (c config) check() error {
	if c.leaseTTL < 0 {
		return usageError("--lease-ttl must be positive, got %s", c.leaseTTL)
	}
	if c.leaseTTL > engine.MaxHoldTTL {
		return usageError("--lease-ttl must be at most %s, got %s", engine.MaxHoldTTL, c.leaseTTL)
	}
	if c.leaseTTL > 0 && c.redisURL == "" && c.leaseTTL < minEmbeddedLeaseTTL {
		return usageError("--lease-ttl %s is below %s, the shortest the lab clock keeps", c.leaseTTL, minEmbeddedLeaseTTL)
	}
	if c.leaseTTL > 0 && c.redisURL != "" && c.leaseTTL < minRealLeaseTTL {
		return usageError("--lease-ttl %s is too short for a real Redis, whose TTLs run on the wall clock while a call is under way; use at least %s",
			c.leaseTTL, minRealLeaseTTL)
	}
	if c.redisURL != "" {
		if err := redisstore.ValidateURL(c.redisURL); err != nil {
			// The line is redacted whole when it is reported.
			return usageError("--redis %s: %v (want redis://HOST:PORT/DB, or a cluster's redis://H1:P1,H2:P2)", redact.URL(c.redisURL), err)
		}
	}
	if c.pgDSN != "" {
		if _, err := pgledger.ParseConfig(c.pgDSN); err != nil {
			// pgx quotes the DSN in its message; say only what is wrong.
			msg := err.Error()
			if i := strings.LastIndex(msg, "`: "); i >= 0 {
				msg = msg[i+3:]
			}
			return usageError("--pg %s: malformed DSN: %s", redact.PostgresDSN(c.pgDSN), engine.OneLine(errors.New(msg)))
		}
	}
	return nil
}

// startBackends brings up Redis and PostgreSQL as the flags say. notify
// hears what the start is waiting for (another run using --pg's database).
// On error, whatever was started is stopped again.
func startBackends(ctx context.Context, c config, notify func(string)) (*backends, error) {
	b := &backends{}
	coordination, err := startRedis(ctx, c)
	if err != nil {
		return nil, err
	}
	b.redis, b.Coordination = coordination, coordination

	b.HoldTTL, b.HoldTTLGiven = c.leaseTTL, c.leaseTTL != 0
	b.Lang = c.lang
	b.Without = c.without
	if b.HoldTTL == 0 {
		b.HoldTTL = labLeaseTTL
	}

	waiting := func(holder string) {
		if notify != nil {
			notify(c.lang.T("another fencelab run is using this database (%s); waiting for it to end — Ctrl-C to give up", holder))
		}
	}
	// Said at the start: the run does not show them, and a psql meanwhile
	// does not find them.
	parked := func(conflictKeys []string) {
		if notify != nil {
			notify(c.lang.T("the rows of shared resource %s are put aside while this run reseeds the lab's tables; the next stress --shared puts them back",
				strings.Join(conflictKeys, ", ")))
		}
	}
	repaired := func(where string) func(found string) {
		return func(found string) {
			if notify != nil {
				notify(c.lang.T("schema fencelab in %s was damaged (%s): fencelab made it again, empty", where, found))
			}
		}
	}
	if c.pgDSN != "" {
		b.database, err = pgledger.Open(ctx, c.pgDSN, pgledger.Options{Waiting: waiting, Parked: parked, Shared: c.shared != "", Purpose: c.purpose,
			Ahead: c.firstLab, Repaired: repaired(c.lang.T("--pg's database"))})
		if err != nil {
			b.stop()
			return nil, classify(ctx, err)
		}
		b.Database = b.database
		return b, nil
	}

	b.cluster, err = pgcluster.Start(ctx, pgcluster.Options{MaxConnections: c.pgConnections})
	if errors.Is(err, pgcluster.ErrNoServer) {
		b.stop()
		return nil, noServerError()
	}
	if err != nil {
		b.stop()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if isLocalIO(err) {
			return nil, localIO(err) // the cache directory, not the server
		}
		if errors.Is(err, pgcluster.ErrSocketPathTooLong) || errors.Is(err, pgcluster.ErrCannotEnter) {
			return nil, &exitError{code: exitUsage, err: err} // a cache directory to change
		}
		return nil, unreachable(err)
	}
	b.ephemeral = true
	if b.cluster.Remade != "" && notify != nil {
		notify(c.lang.T("fencelab's cached PostgreSQL in %s did not start (%s): fencelab made it again, empty", b.cluster.SlotDir, b.cluster.Remade))
	}
	b.database, err = pgledger.Open(ctx, b.cluster.DSN(pgcluster.Database), pgledger.Options{
		Describe: c.lang.T("postgres %d (ephemeral)", b.cluster.Binaries.Major),
		Waiting:  waiting,
		Dial:     b.cluster.Dial,
		// The slot is this process's: no other run reaches its server.
		Exclusive: true,
		Ahead:     c.firstLab,
		Repaired:  repaired(c.lang.T("fencelab's cached PostgreSQL")),
	})
	if err != nil {
		b.stop()
		return nil, classify(ctx, err)
	}
	b.Database = b.database
	return b, nil
}

func startRedis(ctx context.Context, c config) (*redisstore.Coordination, error) {
	if c.redisURL == "" {
		coordination, err := redisstore.StartEmbedded()
		if err != nil {
			return nil, unreachable(err)
		}
		return coordination, nil
	}
	connect := redisstore.Connect
	if c.shared != "" {
		connect = func(ctx context.Context, url string) (*redisstore.Coordination, error) {
			return redisstore.ConnectShared(ctx, url, c.shared)
		}
	}
	coordination, err := connect(ctx, c.redisURL)
	if err != nil {
		return nil, classify(ctx, unreachable(err))
	}
	if !c.wallClock {
		coordination.FollowLabClock() // Close stops it
	}
	coordination.TrustCode(c.trustCode)
	return coordination, nil
}

func noServerError() error {
	return unreachable(fmt.Errorf("no PostgreSQL server binaries found: install them (%s) or pass --pg postgres://USER@HOST/DB",
		pgcluster.InstallHint()))
}

// stop releases the database's run lock, deletes the run's keys from a
// real Redis, closes the connections and stops the ephemeral cluster. Its
// error is what was left behind (keys on a Redis that stopped answering).
func (b *backends) stop() error {
	if b.database != nil {
		b.database.Close()
	}
	var err error
	if b.redis != nil {
		err = b.redis.Close()
	}
	if b.cluster != nil {
		b.cluster.Stop()
	}
	return err
}

// warnUnasked tells, of a command that passed, the guards --without took
// out that no step asked for in where (the guided order, any schedule):
// SAFE ran as it does with them, which a reader of "SAFE's promise kept
// without owner" would not guess (a guard the file never names, say).
func warnUnasked(stderr io.Writer, c config, asked engine.GuardSet, where string) {
	if unasked := c.without &^ asked; unasked != 0 {
		fmt.Fprint(stderr, c.lang.T("fencelab: warning: --without %s: no step asked for it in %s, so SAFE ran as it does with it\n", unasked.String(), where))
	}
}

// warnLeftovers tells what a command that otherwise succeeded left behind.
// A command that failed has said why in its one line already.
func warnLeftovers(stderr io.Writer, leftover, failed error) {
	if leftover != nil && failed == nil {
		fmt.Fprintf(stderr, "fencelab: warning: %s\n", untrusted.Line(engine.ServerNames(engine.OneLine(leftover))))
	}
}

// interrupted ends a command that a signal (or its caller) cancelled: exit
// 128+signal, and a line naming the signal.
func interrupted(ctx context.Context) error {
	if errors.Is(context.Cause(ctx), errBrokenPipe) {
		return &exitError{code: exitBrokenPipe} // nobody to tell
	}
	var s signalled
	if errors.As(context.Cause(ctx), &s) {
		return &exitError{code: 128 + int(s.sig), err: s, said: s.phrase()}
	}
	return &exitError{code: exitInterrupted, err: errors.New("interrupted"), said: lang.P("interrupted")}
}

// classify gives a failure the exit code it ends fencelab with: an
// interrupt is 128+signal whatever it broke on the way; a refusal of the user's
// configuration (wrong password, missing database or privilege, a foreign
// schema) is 2; a server that cannot be reached or stopped answering is 3;
// any other failure of a run is 1 — it is not the server's absence, and
// saying so would send the user looking in the wrong place.
func classify(ctx context.Context, err error) error {
	var (
		exit       *exitError
		failedCode *engine.CodeFailure
	)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return interrupted(ctx)
	case errors.Is(err, pgcluster.ErrUnsafePath):
		return &exitError{code: exitUsage, err: err}
	case errors.Is(err, redisstore.ErrRefused):
		return &exitError{code: exitUsage, err: err}
	case errors.Is(err, pgledger.ErrNoCodeRole):
		return &exitError{code: exitUsage, err: err}
	case errors.Is(err, pgledger.ErrForeignSchema):
		return usageError("%s; fencelab changed nothing (use another database, or drop or rename that schema)", err)
	case refusedConfig(err):
		var connectErr *pgconn.ConnectError
		var pgErr *pgconn.PgError
		if errors.As(err, &connectErr) && errors.As(err, &pgErr) {
			// pgx lists every address and TLS attempt; the server's answer
			// is what the user needs.
			err = lang.Error("PostgreSQL refused the connection: %s: %s (SQLSTATE %s)", pgErr.Severity, pgErr.Message, pgErr.Code)
		}
		return &exitError{code: exitUsage, err: err}
	case errors.As(err, &exit):
		return err
	case errors.As(err, &failedCode), replybound.Passed(err):
		// A file's own code the server refused or stopped: the file is
		// what to change.
		return &exitError{code: exitUsage, err: err}
	case isLocalIO(err):
		return localIO(err)
	case isUnreachable(err):
		return unreachable(err)
	default:
		return &exitError{code: exitUnexpected, err: err}
	}
}

// refusedConfig: the server answered and refused what the user configured.
func refusedConfig(err error) bool {
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		return false
	}
	return strings.HasPrefix(pgErr.Code, "28") || // invalid authorization: password, role
		pgErr.Code == "3D000" || // database does not exist
		pgErr.Code == "42501" // insufficient privilege
}

// isLocalIO: a file or directory of this machine failed, not a server.
// syscall.Errno is a net.Error too, so this must be asked first: a full
// disk is not a backend that cannot be reached.
func isLocalIO(err error) bool {
	var (
		opErr   *net.OpError
		pathErr *fs.PathError
		linkErr *os.LinkError
	)
	if errors.As(err, &opErr) {
		return false // a socket: the server's side
	}
	return errors.As(err, &pathErr) || errors.As(err, &linkErr)
}

// localIO is the exit of a local file failure: 1 when output was lost
// while written (a full disk, an I/O error), 2 when the path itself cannot
// be used (missing, read-only, not a directory, not allowed): another path
// is the answer.
func localIO(err error) error {
	for _, lost := range []error{syscall.ENOSPC, syscall.EDQUOT, syscall.EIO, syscall.EFBIG} {
		if errors.Is(err, lost) {
			return &exitError{code: exitUnexpected, err: err}
		}
	}
	return &exitError{code: exitUsage, err: err}
}

// isUnreachable: the server is down, gone, frozen or refusing connections.
func isUnreachable(err error) bool {
	var (
		netErr     net.Error
		connectErr *pgconn.ConnectError
		pgErr      *pgconn.PgError
	)
	switch {
	case errors.Is(err, pgledger.ErrNoAnswer), errors.Is(err, redisstore.ErrNoAnswer), errors.Is(err, pgconn.ErrConnClosed),
		errors.Is(err, stress.ErrBackendGone),
		errors.As(err, &connectErr), errors.As(err, &netErr),
		errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ENOENT),
		errors.Is(err, redisstore.ErrClosed), errors.Is(err, context.DeadlineExceeded):
		return true
	case errors.As(err, &pgErr):
		return strings.HasPrefix(pgErr.Code, "08") || // connection exception
			strings.HasPrefix(pgErr.Code, "57P") || // server shutting down, crashed, starting
			pgErr.Code == "53300" || // too many connections
			pgErr.Code == "57014" || // statement_timeout: stuck
			pgErr.Code == "55P03" // lock_timeout: stuck behind a lock
	}
	return false
}
