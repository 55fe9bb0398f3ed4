package pgledger

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fencelab/fencelab/engine"
)

// A file's SQL runs as a role of its own, not as fencelab's. fencelab's
// user is the ephemeral cluster's superuser, and often the owner of a
// database a user points it at: what a file's statements may do must be
// the server's rule, not a list of refusals fencelab keeps (scenarios
// refuses what it can see at the file's line; this is what holds where it
// cannot see).
//
// The role (one per database, fencelab_code_ and a hash of the database's
// name) can log in and do nothing else: no superuser, no CREATEDB,
// CREATEROLE, REPLICATION or BYPASSRLS, no membership in anything. It
// owns the file's schema — made with AUTHORIZATION, so the setup's tables
// are its own — and nothing else: schema fencelab is not its to read.
// Every statement of a file goes on a connection logged in as the role
// (Ledger.codeConnection): the setup, each step's statements, a session's
// locks; SET ROLE would not do, since code could RESET it. The file's
// invariants and value are functions the role owns, SECURITY DEFINER, so
// the dump that fencelab's own connection reads them in runs them as the
// role too. fencelab's user is made a member of the role, which lets its
// connections read and restore the file's rows as they do fencelab's.
//
// On a server where fencelab's user may not make roles, the file's SQL
// runs as that user, as it did before, and Database.CodeRole says why.

// codeRole is the role a database's files run as.
type codeRole struct {
	name string
	// password is set when the role is taken (a server that asks for a
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
	refused string // why no role could be made: the file's SQL runs as fencelab's user
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

// CodeRole names the role a file's SQL runs as, or says why it runs as
// fencelab's own user (the server let fencelab make no role); both empty
// before a file was set up.
func (d *Database) CodeRole() (role, refused string) {
	d.roles.mu.Lock()
	defer d.roles.mu.Unlock()
	if d.roles.role != nil {
		return d.roles.role.name, ""
	}
	return "", d.roles.refused
}

// takeCodeRole makes the database's role for files' code if it is not
// there, and gives it a new password either way; nil (with the reason
// kept) where the server refuses fencelab's user the right to.
func (l *Ledger) takeCodeRole(ctx context.Context) (*codeRole, error) {
	d := l.db
	d.roles.mu.Lock()
	defer d.roles.mu.Unlock()
	if d.roles.role != nil || d.roles.refused != "" {
		return d.roles.role, nil
	}
	secret := make([]byte, 24)
	rand.Read(secret)
	role := &codeRole{name: codeRoleName(d.config.Database), password: hex.EncodeToString(secret)}
	q := pgx.Identifier{role.name}.Sanitize()
	attributes := "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT PASSWORD " + pgQuote(role.password)
	err := within(engine.Housekeeping(ctx), func(ctx context.Context) error {
		_, err := l.conn.Exec(ctx, "CREATE ROLE "+q+" "+attributes)
		var pg *pgconn.PgError
		if errors.As(err, &pg) && pg.Code == "42710" { // there already: a run before this one made it
			_, err = l.conn.Exec(ctx, "ALTER ROLE "+q+" "+attributes)
		}
		if err != nil {
			return err
		}
		// What an earlier run's file may have set as the role's own
		// session defaults goes: no run inherits another's settings.
		if _, err := l.conn.Exec(ctx, "ALTER ROLE "+q+" RESET ALL"); err != nil {
			return err
		}
		// fencelab's user reads and restores the role's rows.
		_, err = l.conn.Exec(ctx, "GRANT "+q+" TO CURRENT_USER")
		var granted *pgconn.PgError
		if errors.As(err, &granted) && granted.Code == "0LP01" { // granted already
			err = nil
		}
		return err
	})
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Code == "42501" {
		d.roles.refused = ServerSaid(err)
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("pgledger: make the role a file's SQL runs as: %w", err)
	}
	d.roles.role = role
	return role, nil
}

// codeConnection is the connection a file's statements go on: with a
// role, the connection's own, logged in as the role with the file's
// schema as its search_path (opened at the first statement after a
// setup, and again after the next); without one, the connection itself.
func (l *Ledger) codeConnection(ctx context.Context) (*pgx.Conn, error) {
	c := l.db.code.Load()
	if c == nil || c.role == nil {
		if c != nil && l.searchPath != c.name {
			// The connection's own setting, made once, outside any
			// transaction (a SET inside one would go with its rollback).
			err := within(ctx, func(ctx context.Context) error {
				_, err := l.conn.Exec(engine.Housekeeping(ctx), "SET search_path TO "+pgx.Identifier{c.name}.Sanitize())
				return err
			})
			if err != nil {
				return nil, err
			}
			l.searchPath = c.name
		}
		l.ranCode = true
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
	if c := l.db.code.Load(); c != nil && c.role != nil {
		if conn := l.code.Load(); conn != nil && l.codeFor == c {
			return conn
		}
		return nil
	}
	return l.conn
}
