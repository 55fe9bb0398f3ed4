package pgledger

import (
	"context"
	"crypto/hmac"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
)

// A file's SQL runs as a role of its own, and nothing of a file's is ever
// touched by fencelab's own user. That user is the ephemeral cluster's
// superuser, and often the owner of a database a user points it at: a
// trigger, a CHECK constraint, a cast, a rule or a default a file defined
// runs as whoever writes or reads the file's rows, so fencelab's own
// connections never do. The boundary is the server's, not a list of
// refusals fencelab keeps (scenarios refuse what they can see at the
// file's line, as a friendly first line).
//
// The role (one per database, fencelab_code_ and a hash of the database's
// name) can log in and do nothing else: no superuser, no CREATEDB,
// CREATEROLE, REPLICATION or BYPASSRLS, a member of nothing. Everything
// that touches the file's objects goes on a connection that logged in as
// it (its session_user; SET ROLE would not do, since code could RESET it):
// the setup, each step's statements, a session's locks, the file's part of
// every dump (its rows, its invariants and value) and of every restore,
// and the cancel of its statement. fencelab's own user makes the file's
// schema, owns it (so it can drop the schema with whatever the role made
// in it, without being a member of the role: a user with only CREATEROLE
// may not make a schema another role owns) and lets the role use it and
// create in it; it reads the catalog to learn the schema's tables, and
// never reads or writes a row of them.
//
// The role lives for one run: made at the first setup, with a new
// password, and dropped when the database closes — what it owns goes
// first, dropped by the role itself (DROP OWNED BY CURRENT_USER), so
// fencelab's user need not be its member. A role an earlier run left (a
// killed run, or run --keep's) is dropped the same way before the new one
// is made. Where fencelab's user may not make roles, no file's SQL runs
// there: Database.CodeRole says why, and SetupCode fails saying what the
// user needs.

// codeRole is the role a database's files run as.
type codeRole struct {
	name string
	// password is set when the role is made (a server that asks for a
	// password asks it of the role too); never shown.
	password string
}

// roles is what a Database knows of its files' role: made once, by the
// first SetupCode; and the connections logged in as it that closed
// Ledgers gave back, for the next lab's (a check opens labs by the
// dozen, and a new connection is a new server process to start).
type roles struct {
	mu      sync.Mutex
	role    *codeRole
	refused string // why no role could be made: no file's SQL runs here
	idle    []idleCode
	closed  bool
}

// idleCode is a connection logged in as the role, given back: its search
// path is schema's.
type idleCode struct {
	conn   *pgx.Conn
	schema string
	expire *time.Timer
}

// codeRoleName is the role of a database's files.
func codeRoleName(database string) string {
	sum := sha256.Sum256([]byte(database))
	return "fencelab_code_" + hex.EncodeToString(sum[:6])
}

// CodeRole names the role a file's SQL runs as, or says why the server
// let fencelab make none (no file's SQL then runs); both empty before a
// file was set up.
func (d *Database) CodeRole() (role, refused string) {
	d.roles.mu.Lock()
	defer d.roles.mu.Unlock()
	if d.roles.role != nil {
		return d.roles.role.name, ""
	}
	return "", d.roles.refused
}

// ErrNoCodeRole is a database where fencelab may not make the role a
// file's SQL runs as: a file's code does not run there.
var ErrNoCodeRole = lang.Error("PostgreSQL would not let fencelab make the role a file's SQL runs as")

// noCodeRole says why no file's SQL runs on the database, and what the
// user needs.
func (d *Database) noCodeRole(refused string) error {
	return lang.Error("%w (%s): a file's SQL runs only as a role of its own; give %s CREATEROLE, or leave out --pg to use fencelab's own PostgreSQL",
		ErrNoCodeRole, refused, d.config.User)
}

// takeCodeRole makes the database's role for files' code, with a new
// password, once per Database: a role of the name that an earlier run
// left is dropped first. Where the server refuses fencelab's user the
// right to, it fails with ErrNoCodeRole (and CodeRole says why).
func (l *Ledger) takeCodeRole(ctx context.Context) (*codeRole, error) {
	d := l.db
	d.roles.mu.Lock()
	defer d.roles.mu.Unlock()
	if d.roles.role != nil {
		return d.roles.role, nil
	}
	if d.roles.refused != "" {
		return nil, d.noCodeRole(d.roles.refused)
	}
	role := &codeRole{name: codeRoleName(d.config.Database), password: newPassword()}
	q := pgx.Identifier{role.name}.Sanitize()
	err := d.sweepCode(ctx, l.conn, role.name)
	if err == nil {
		err = within(engine.Housekeeping(ctx), func(ctx context.Context) error {
			_, err := l.conn.Exec(ctx, "CREATE ROLE "+q+" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT PASSWORD "+pgQuote(scramVerifier(role.password)))
			return err
		})
	}
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "42501" {
		d.roles.refused = ServerSaid(err)
		return nil, d.noCodeRole(d.roles.refused)
	}
	if err != nil {
		return nil, fmt.Errorf("pgledger: make the role a file's SQL runs as: %w", err)
	}
	d.roles.role = role
	return role, nil
}

func newPassword() string {
	secret := make([]byte, 24)
	rand.Read(secret)
	return hex.EncodeToString(secret)
}

// scramVerifier is what the server keeps of a password (SCRAM-SHA-256, as
// PostgreSQL writes it), sent in its place: a server that logs statements
// logs no password of fencelab's. The connection still logs in with the
// password, however the server asks for it.
func scramVerifier(password string) string {
	salt := make([]byte, 16)
	rand.Read(salt)
	return scramVerifierSalted(password, salt)
}

func scramVerifierSalted(password string, salt []byte) string {
	salted, err := pbkdf2.Key(sha256.New, password, salt, 4096, sha256.Size)
	if err != nil {
		panic(err) // only for lengths pbkdf2 refuses, which these are not
	}
	mac := func(key []byte, text string) []byte {
		h := hmac.New(sha256.New, key)
		h.Write([]byte(text))
		return h.Sum(nil)
	}
	stored := sha256.Sum256(mac(salted, "Client Key"))
	b64 := base64.StdEncoding.EncodeToString
	return "SCRAM-SHA-256$4096:" + b64(salt) + "$" + b64(stored[:]) + ":" + b64(mac(salted, "Server Key"))
}

// sweepCode drops what an earlier run's file left on the database: the
// schemas of files (fencelab_code_…; a run holds the run lock, so none is
// another run's) and the role roleName, with whatever it owns. It runs
// before a run's first setup.
func (d *Database) sweepCode(ctx context.Context, conn *pgx.Conn, roleName string) error {
	var left []string
	var roleLeft bool
	err := within(engine.Housekeeping(ctx), func(ctx context.Context) error {
		rows, err := conn.Query(ctx, `SELECT nspname::text FROM pg_catalog.pg_namespace WHERE nspname LIKE 'fencelab\_code\_%'`)
		if err != nil {
			return err
		}
		if left, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return err
		}
		return conn.QueryRow(ctx, `SELECT EXISTS (SELECT FROM pg_catalog.pg_roles WHERE rolname = $1)`, roleName).Scan(&roleLeft)
	})
	if err != nil {
		return err
	}
	for _, schema := range left {
		if err := dropSchemaOn(ctx, conn, schema); err != nil {
			return err
		}
	}
	if roleLeft {
		return d.dropRole(ctx, conn, roleName)
	}
	return nil
}

// dropRole drops a files' role and what it owns in the database. What it
// owns is dropped by the role itself, logged in with a new password
// (fencelab's user may change the password of a role it may drop), so
// fencelab's user need not be its member; DROP OWNED runs no code of the
// file's.
func (d *Database) dropRole(ctx context.Context, conn *pgx.Conn, name string) error {
	q := pgx.Identifier{name}.Sanitize()
	password := newPassword()
	err := within(engine.Housekeeping(ctx), func(ctx context.Context) error {
		_, err := conn.Exec(ctx, "ALTER ROLE "+q+" LOGIN PASSWORD "+pgQuote(scramVerifier(password)))
		return err
	})
	if err != nil {
		return fmt.Errorf("drop the role %s: %w", name, err)
	}
	config := d.config.Copy()
	config.User, config.Password = name, password
	config.RuntimeParams["application_name"] = "fencelab-cleanup"
	// What the role's code may have set as its own defaults (ALTER ROLE
	// … SET) gives way to what the connection asks for.
	config.RuntimeParams["search_path"] = "pg_catalog"
	config.RuntimeParams["default_transaction_read_only"] = "off"
	as, err := connect(engine.Housekeeping(ctx), config)
	if err != nil {
		return fmt.Errorf("connect as %s to drop what it owns: %w", name, err)
	}
	err = within(engine.Housekeeping(ctx), func(ctx context.Context) error {
		_, err := as.Exec(ctx, "DROP OWNED BY CURRENT_USER")
		return err
	})
	closeConn(as)
	if err != nil {
		return fmt.Errorf("drop what %s owns: %w", name, err)
	}
	return within(engine.Housekeeping(ctx), func(ctx context.Context) error {
		_, err := conn.Exec(ctx, "DROP ROLE "+q)
		return err
	})
}

// dropCodeRole drops the run's role at the database's close, unless a
// file's schema is kept (run --keep: its tables are the role's, for psql;
// the next run drops both).
func (d *Database) dropCodeRole() error {
	d.roles.mu.Lock()
	role := d.roles.role
	d.roles.role = nil
	d.roles.mu.Unlock()
	if role == nil || d.code.Load() != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*CallTimeout)
	defer cancel()
	conn := d.lock
	if conn == nil || conn.IsClosed() {
		var err error
		if conn, err = connect(ctx, d.config); err != nil {
			return fmt.Errorf("pgledger: drop the role %s: %w", role.name, err)
		}
		defer closeConn(conn)
	}
	if err := d.dropRole(ctx, conn, role.name); err != nil {
		return fmt.Errorf("pgledger: %w", err)
	}
	return nil
}

// codeConnection is the connection a file's statements go on: the
// connection's own, logged in as the role with the file's schema as its
// search_path (opened at the first statement after a setup, and again
// after the next).
func (l *Ledger) codeConnection(ctx context.Context) (*pgx.Conn, error) {
	c := l.db.code.Load()
	if c == nil {
		if role, refused := l.db.CodeRole(); role != "" || refused != "" {
			// A file was set up on this database, or refused one: none
			// of its statements goes on fencelab's own connection.
			return nil, errors.New("pgledger: no file's schema is set up for its statement")
		}
		// No file was ever set up here: the statement is fencelab's own
		// (a step written in Go sends its SQL this way), not a file's,
		// whose SQL always comes with a schema and its role.
		return l.conn, nil
	}
	if conn := l.code.Load(); conn != nil && l.codeFor == c && !conn.IsClosed() {
		return conn, nil
	}
	l.closeCode(ctx)
	conn, err := l.db.connectAs(ctx, l.name, c)
	if err != nil {
		return nil, err
	}
	l.code.Store(conn)
	l.codeFor = c
	return conn, nil
}

// connectAs opens a connection logged in as the file's role, named for
// actor, with the file's schema as its search_path — or hands out one a
// closed Ledger gave back for the same schema, its session reset.
func (d *Database) connectAs(ctx context.Context, actor string, c *codeSchema) (*pgx.Conn, error) {
	if conn := d.takeCode(c.name); conn != nil {
		// As a pooler resets a server connection between clients: no
		// lock, setting, cursor or temporary table of the last one's
		// stays. (Not DISCARD ALL: it would drop the statements pgx has
		// prepared without pgx knowing.)
		err := within(engine.Housekeeping(ctx), func(ctx context.Context) error {
			_, err := conn.Exec(ctx, "CLOSE ALL; UNLISTEN *; RESET ALL; DISCARD TEMP; SELECT pg_advisory_unlock_all()")
			return err
		})
		if err == nil {
			return conn, nil
		}
		closing, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeWithin)
		conn.Close(closing)
		cancel()
	}
	config := d.named(actor)
	config.Tracer = wireTracer{db: d, code: true}
	config.User, config.Password = c.role.name, c.role.password
	config.RuntimeParams["search_path"] = c.name
	conn, err := connect(engine.Housekeeping(ctx), config)
	if err != nil {
		return nil, fmt.Errorf("pgledger: connect as %s, the role a file's SQL runs as: %w", c.role.name, err)
	}
	return conn, nil
}

// closeWithin bounds closing a connection: a server that does not answer
// the goodbye is left to notice the closed socket.
const closeWithin = time.Second

// closeCode gives back the connection the file's statements went on, if
// it is the connection's own: kept for the next lab while it is clean (no
// transaction open), ended otherwise.
func (l *Ledger) closeCode(ctx context.Context) {
	conn, c := l.code.Swap(nil), l.codeFor
	l.codeFor = nil
	if conn == nil {
		return
	}
	l.db.giveCode(ctx, conn, c.name)
}

// giveCode keeps a connection logged in as the role for the next
// connectAs of schema, for idleFor, or ends it.
func (d *Database) giveCode(ctx context.Context, conn *pgx.Conn, schema string) {
	if !conn.IsClosed() && conn.PgConn().TxStatus() == 'I' {
		d.roles.mu.Lock()
		keep := !d.roles.closed && len(d.roles.idle) < maxIdle
		if keep {
			idle := idleCode{conn: conn, schema: schema}
			idle.expire = time.AfterFunc(idleFor, func() {
				if d.untakeCode(conn) {
					closeConn(conn)
				}
			})
			d.roles.idle = append(d.roles.idle, idle)
			keeping.Store(d, struct{}{}) // for ReleaseIdle
		}
		d.roles.mu.Unlock()
		if keep {
			return
		}
	}
	closeConn(conn)
}

// takeCode hands out a connection kept for schema, if one is.
func (d *Database) takeCode(schema string) *pgx.Conn {
	d.roles.mu.Lock()
	defer d.roles.mu.Unlock()
	for i, idle := range d.roles.idle {
		if idle.schema == schema {
			idle.expire.Stop()
			d.roles.idle = slices.Delete(d.roles.idle, i, i+1)
			return idle.conn
		}
	}
	return nil
}

// untakeCode removes conn from those kept, if it is still there.
func (d *Database) untakeCode(conn *pgx.Conn) bool {
	d.roles.mu.Lock()
	defer d.roles.mu.Unlock()
	i := slices.IndexFunc(d.roles.idle, func(idle idleCode) bool { return idle.conn == conn })
	if i < 0 {
		return false
	}
	d.roles.idle = slices.Delete(d.roles.idle, i, i+1)
	return true
}

// releaseCodeIdle ends every connection logged in as the role that is
// kept (ReleaseIdle), and keeps none from then on when the database
// closes. It says how many it ended.
func (d *Database) releaseCodeIdle(closing bool) int {
	d.roles.mu.Lock()
	idle := d.roles.idle
	d.roles.idle = nil
	d.roles.closed = d.roles.closed || closing
	d.roles.mu.Unlock()
	for _, i := range idle {
		i.expire.Stop()
		closeConn(i.conn)
	}
	return len(idle)
}

func closeConn(conn *pgx.Conn) {
	closing, cancel := context.WithTimeout(context.Background(), closeWithin)
	defer cancel()
	conn.Close(closing)
}

// sessionConn is the connection whose session holds what a file's
// statements left in it (its advisory locks): nil when none was opened.
func (l *Ledger) sessionConn() *pgx.Conn {
	if c := l.db.code.Load(); c != nil {
		if conn := l.code.Load(); conn != nil && l.codeFor == c {
			return conn
		}
	}
	return nil
}
