package pgledger

import (
	"context"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/replybound"
)

// A scenario file's own tables live in a schema of their own (engine's
// code.go): SetupCode makes it again at every reset of a lab, and from
// then on a dump holds its tables and the values of its queries (its
// invariants, its business value) beside fencelab's, so the checker's
// state key and its restores cover the file's rows as they cover
// fencelab's. The file's part of a dump is read, and restored, on a
// connection logged in as the file's role, never on fencelab's own
// (coderole.go): reading or writing a row runs what the file defined on
// it. The two parts are read apart and joined: each changes only through
// its own connections (the role may not touch schema fencelab, and
// fencelab's connections never touch the file's), so each is read again
// only once its own connections wrote.

// codeSchema is a file's schema as SetupCode found it after the setup.
type codeSchema struct {
	name string
	// role is the role its SQL runs as (coderole.go).
	role      *codeRole
	tables    []table
	sequences []string // regclass constants
	values    []string // the values' names, as in CodeState.Values
	// dump is the statement that reads the file's part of a dump, on a
	// connection of the role's ("": the file has no table, sequence or
	// value). Every name in it is the catalog's own (pg_catalog.…), so
	// a search_path the file's code set changes nothing of it.
	dump string
}

// codeTablePrefix starts the name of a file's table in a dump, and
// codeValuePrefix a value's: names no table of fencelab's has.
const (
	codeTablePrefix = "code."
	codeValuePrefix = "code!"
)

// valueQuote is the dollar quote of a value's function body: a new random
// one at each setup, so the value's text (the file's) cannot end it and
// write statements of its own around the function (scenarios refuse
// $fencelab too, as a first line).
func valueQuote() string { return "$fencelab_value_" + newPassword()[:16] + "$" }

// allTables are the tables a dump holds: fencelab's, then a file's.
func (d *Database) allTables() []table {
	if c := d.code.Load(); c != nil {
		return append(slices.Clone(tables), c.tables...)
	}
	return tables
}

// codeSequences are the file's sequences, as regclass constants, with
// their names in the dump.
func (c *codeSchema) codeSequences() (names, regclasses []string) {
	for _, r := range c.sequences {
		names, regclasses = append(names, codeTablePrefix+r+".seq"), append(regclasses, pgQuote(c.name+"."+r)+"::pg_catalog.regclass")
	}
	return names, regclasses
}

func pgQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// SetupCode makes schema again, empty, runs setup in it in one
// transaction as the file's role, and reads from then on its tables and
// the values' queries with the rest of the state. A statement the server
// refuses is an *engine.CodeError naming it ("setup.2", or a value's
// name). On a database where fencelab may not make the role, nothing of
// the file's runs: the error says what the user needs.
func (l *Ledger) SetupCode(ctx context.Context, schema string, setup []string, values map[string]string) error {
	l.db.code.Store(nil)
	l.db.codeWrites.Add(1)
	role, err := l.takeCodeRole(ctx)
	if err != nil {
		return err
	}
	c := &codeSchema{name: schema, role: role}
	q := pgx.Identifier{schema}.Sanitize()
	err = within(ctx, func(ctx context.Context) error {
		if err := dropSchemaOn(ctx, l.conn, schema); err != nil {
			return err
		}
		// fencelab's user owns the schema (it may drop it, with whatever
		// the role made in it); the role creates in it and owns what it
		// creates.
		_, err := l.conn.Exec(ctx, "CREATE SCHEMA "+q+"; GRANT USAGE, CREATE ON SCHEMA "+q+" TO "+pgx.Identifier{role.name}.Sanitize())
		if err != nil {
			return err
		}
		// The session probe is fencelab's own, made before the file's
		// setup runs, so the role may call it (as itself: it is no
		// SECURITY DEFINER) but not replace it with one that lies.
		_, err = l.conn.Exec(ctx, fmt.Sprintf(sessionLocksFunction, q), pgx.QueryExecModeSimpleProtocol)
		return err
	})
	if err != nil {
		return fmt.Errorf("pgledger: make the file's schema: %w", err)
	}
	setupConn, err := l.db.connectAs(ctx, "setup", c)
	if err != nil {
		l.dropSchema(ctx, schema)
		return err
	}
	defer l.db.giveCode(ctx, setupConn, c.name)
	names := slices.Sorted(maps.Keys(values))
	running := 0 // the setup's statement under way, for a deadline
	err = within(ctx, func(ctx context.Context) error {
		tx, err := setupConn.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx))
		if _, err := tx.Exec(ctx, "SET LOCAL search_path TO "+q); err != nil {
			return err
		}
		for i, stmt := range setup {
			running = i
			if _, err := tx.Exec(ctx, stmt, pgx.QueryExecModeSimpleProtocol); err != nil {
				return &engine.CodeError{Where: "setup." + strconv.Itoa(i), Said: ServerSaid(err)}
			}
		}
		// Counted before the commit, so a setup of too many objects
		// leaves none (every name written in full: the role's own
		// operators and functions stand in for nothing here).
		var objects int
		if err := tx.QueryRow(ctx, `SELECT pg_catalog.count(*) FROM pg_catalog.pg_depend
			 WHERE refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass
			   AND refobjid OPERATOR(pg_catalog.=) (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname OPERATOR(pg_catalog.=) $1)`,
			schema).Scan(&objects); err != nil {
			return err
		}
		if objects > MostCodeObjects {
			return &engine.CodeError{Where: "setup.0", Said: fmt.Sprintf("the setup made %d objects (tables, views, types, functions, …): a file may make at most %d", objects, MostCodeObjects)}
		}
		// Each value is a function of the schema, the role's, with the
		// schema as its search_path; the file's part of a dump calls it
		// on a connection of the role's.
		quote := valueQuote()
		for i, name := range names {
			fn := fmt.Sprintf("%s.fencelab_value_%d", q, i)
			body := "SELECT pg_catalog.to_json((" + values[name] + "))"
			if strings.Contains(body, quote) {
				return &engine.CodeError{Where: name, Said: "the value's text holds fencelab's own quote"}
			}
			create := fmt.Sprintf("CREATE FUNCTION %s() RETURNS pg_catalog.json LANGUAGE sql STABLE SET search_path = %s AS %s%s%s",
				fn, q, quote, body, quote)
			if _, err := tx.Exec(ctx, create, pgx.QueryExecModeSimpleProtocol); err != nil {
				return &engine.CodeError{Where: name, Said: ServerSaid(err)}
			}
			if _, err := tx.Exec(ctx, "SELECT "+fn+"()", pgx.QueryExecModeSimpleProtocol); err != nil {
				return &engine.CodeError{Where: name, Said: ServerSaid(err)}
			}
		}
		return tx.Commit(ctx)
	})
	if errors.Is(err, ErrNoAnswer) && l.answers(ctx) {
		// The server answers: the setup itself ran past the call's time,
		// its statements each within their limits (the file's to make
		// smaller), not a server that went away.
		err = &engine.CodeError{Where: "setup." + strconv.Itoa(running), Said: fmt.Sprintf(
			"the setup ran past fencelab's limit of %s for it (it runs in one transaction, in one call's time): make it smaller", CallTimeout)}
	}
	if err != nil {
		// Nothing of a setup that failed half-way is left: its
		// transaction rolled back, and the schema made for it goes too.
		l.dropSchema(ctx, schema)
	}
	var codeErr *engine.CodeError
	if errors.As(err, &codeErr) {
		return codeErr
	}
	if err != nil {
		return fmt.Errorf("pgledger: set up the file's schema: %w", err)
	}
	// The catalog says what the setup made: fencelab's connection reads
	// names there, and no row of the file's.
	err = within(ctx, func(ctx context.Context) error {
		rows, err := l.conn.Query(ctx, `
			SELECT c.relname::pg_catalog.text, c.relkind::pg_catalog.text,
			       coalesce((SELECT pg_catalog.string_agg(a.attname::pg_catalog.text, ', ' ORDER BY pg_catalog.array_position(i.indkey::pg_catalog.int2[], a.attnum))
			                   FROM pg_catalog.pg_index i JOIN pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) i.indrelid AND a.attnum OPERATOR(pg_catalog.=) ANY(i.indkey)
			                  WHERE i.indrelid OPERATOR(pg_catalog.=) c.oid AND i.indisprimary), '')
			  FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
			 WHERE n.nspname OPERATOR(pg_catalog.=) $1 AND c.relkind IN ('r', 'S')
			 ORDER BY c.relname`, schema)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var name, kind, key string
			if err := rows.Scan(&name, &kind, &key); err != nil {
				return err
			}
			if kind == "S" {
				c.sequences = append(c.sequences, pgx.Identifier{name}.Sanitize())
				continue
			}
			c.tables = append(c.tables, table{name: codeTablePrefix + name, order: key,
				ref: q + "." + pgx.Identifier{name}.Sanitize(), noKey: key == ""})
		}
		return rows.Err()
	})
	if err != nil {
		return fmt.Errorf("pgledger: read the file's schema: %w", err)
	}
	if n := len(c.tables) + len(c.sequences); n > MostCodeRelations {
		// Every table is read after every action, in one statement.
		l.dropSchema(ctx, schema)
		return &engine.CodeError{Where: "setup.0", Said: fmt.Sprintf("the setup made %d tables and sequences: a file may make at most %d (fencelab reads every one after each action)", n, MostCodeRelations)}
	}
	var parts []string
	for _, t := range c.tables {
		parts = append(parts, fmt.Sprintf(`%s, (SELECT coalesce(pg_catalog.json_agg(r ORDER BY %s), '[]'::pg_catalog.json) FROM ONLY %s r)`,
			pgQuote(t.name), t.orderBy(), t.ref))
	}
	seqNames, seqClasses := c.codeSequences()
	for i := range seqNames {
		parts = append(parts, fmt.Sprintf(`%s, pg_catalog.pg_sequence_last_value(%s)`, pgQuote(seqNames[i]), seqClasses[i]))
	}
	for i, name := range names {
		c.values = append(c.values, name)
		parts = append(parts, fmt.Sprintf(`%s, %s.fencelab_value_%d()`, pgQuote(codeValuePrefix+name), q, i))
	}
	if len(parts) > 0 {
		c.dump = "SELECT pg_catalog.json_build_object(" + strings.Join(parts, ", ") + ")::pg_catalog.text"
	}
	l.db.code.Store(c)
	l.setUp = c
	l.db.codeWrites.Add(1)
	return nil
}

// dropSchemaOn drops a file's schema, with everything in it, on
// fencelab's own connection, which owns the schema: dropping runs nothing
// of the file's.
//
// The schema's objects go first, a few at a time, newest first (what
// reads a table goes before the table): one DROP SCHEMA … CASCADE takes a
// lock on every object in it at once, and a schema of a few thousand
// objects (tables, views, types) is past what the server's lock table
// holds (max_locks_per_transaction) — no run could drop it again, and
// every later one would fail on it. Each object is found by its
// dependency on the schema and named by the server (pg_identify_object);
// a drop that fails (an array type goes with its element type) is left
// to the next, or to the schema's.
func dropSchemaOn(ctx context.Context, conn *pgx.Conn, schema string) error {
	ctx = engine.Housekeeping(ctx)
	for {
		var drops []string
		err := within(ctx, func(ctx context.Context) error {
			rows, err := conn.Query(ctx, `
				SELECT o.type, o.identity
				  FROM pg_catalog.pg_depend d
				  CROSS JOIN LATERAL pg_catalog.pg_identify_object(d.classid, d.objid, 0) o
				 WHERE d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass
				   AND d.refobjid OPERATOR(pg_catalog.=) (SELECT oid FROM pg_catalog.pg_namespace WHERE nspname OPERATOR(pg_catalog.=) $1)
				   AND d.objsubid OPERATOR(pg_catalog.=) 0
				 ORDER BY d.objid DESC
				 LIMIT $2`, schema, dropBatch)
			if err != nil {
				return err
			}
			defer rows.Close()
			for rows.Next() {
				var kind, identity string
				if err := rows.Scan(&kind, &identity); err != nil {
					return err
				}
				if what, ok := dropWhat[kind]; ok {
					drops = append(drops, "DROP "+what+" IF EXISTS "+identity+" CASCADE")
				}
			}
			return rows.Err()
		})
		if err != nil {
			return err
		}
		if len(drops) < dropBatch/2 {
			break // few enough to go with the schema
		}
		dropped := 0
		err = within(ctx, func(ctx context.Context) error {
			for _, drop := range drops {
				if _, err := conn.Exec(ctx, drop); err == nil {
					dropped++
				} else if !isServerError(err) {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if dropped == 0 {
			break // nothing more this way: the schema's drop says why
		}
	}
	return within(ctx, func(ctx context.Context) error {
		_, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE")
		return err
	})
}

// dropWhat is the DROP of each kind of object pg_identify_object names
// that a file's role may make in its schema; what is none of them (a
// constraint, a trigger, a rule) goes with its table.
var dropWhat = map[string]string{
	"table": "TABLE", "view": "VIEW", "materialized view": "MATERIALIZED VIEW", "sequence": "SEQUENCE",
	"foreign table": "FOREIGN TABLE", "index": "INDEX", "type": "TYPE", "composite type": "TYPE",
	"domain": "DOMAIN", "function": "FUNCTION", "procedure": "PROCEDURE", "aggregate": "AGGREGATE",
	"operator": "OPERATOR", "collation": "COLLATION", "conversion": "CONVERSION", "statistics object": "STATISTICS",
	"text search configuration": "TEXT SEARCH CONFIGURATION", "text search dictionary": "TEXT SEARCH DICTIONARY",
	"operator class": "OPERATOR CLASS", "operator family": "OPERATOR FAMILY",
}

// isServerError is an error the server answered (the connection goes on).
func isServerError(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg)
}

// MostCodeObjects is how many objects a file's setup may make in its
// schema, of every kind: far more than a design needs, and far fewer than
// would fill the server's lock table when the schema is dropped.
const MostCodeObjects = 500

// MostCodeRelations is how many tables and sequences a file's setup may
// make: the state's read builds one JSON object of them all, with the
// file's values, and PostgreSQL's functions take at most 100 arguments.
const MostCodeRelations = 40

// dropBatch is how many of a file's objects dropSchemaOn looks at a time
// (and drops one by one while there are more than half as many).
const dropBatch = 100

// dropSchema drops a file's schema that is not to be kept.
func (l *Ledger) dropSchema(ctx context.Context, schema string) {
	dropSchemaOn(context.WithoutCancel(ctx), l.conn, schema)
}

// DropCode drops a file's schema with everything in it — unless a lab
// opened since (a reload of the file on the same database) set it up
// again: the schema is then that lab's.
func (l *Ledger) DropCode(ctx context.Context, schema string) error {
	if l.setUp == nil || !l.db.code.CompareAndSwap(l.setUp, nil) {
		return nil
	}
	l.setUp = nil
	l.closeCode(ctx)
	return dropSchemaOn(ctx, l.conn, schema)
}

// InTransaction reports whether the connection (or the one its file's
// statements go on) has a transaction open.
func (l *Ledger) InTransaction() bool {
	open := func(c *pgx.Conn) bool { return c != nil && !c.IsClosed() && c.PgConn().TxStatus() != 'I' }
	return open(l.conn) || open(l.code.Load())
}

// Statement sends one statement of a file's code on the actor's
// connection, as written, in one round trip, in the file's schema: the
// first column of its first row is the reply. A transaction begun with it
// stays open until a statement ends it, its locks held meanwhile, as on
// any connection.
func (l *Ledger) Statement(ctx context.Context, sql string) (engine.CodeReply, error) {
	if err := l.sendRestore(ctx); err != nil {
		return engine.CodeReply{}, err
	}
	conn, err := l.codeConnection(ctx)
	if err != nil {
		return engine.CodeReply{}, err
	}
	l.db.codeWrites.Add(1)
	l.sessionKnown.Store(false)
	l.busy.Store(true)
	defer l.busy.Store(false)
	var out engine.CodeReply
	pid := conn.PgConn().PID()
	err = within(ctx, func(ctx context.Context) error {
		rows, err := conn.Query(ctx, sql, pgx.QueryExecModeSimpleProtocol)
		if err != nil {
			return err
		}
		defer rows.Close()
		out.Nil, out.Text = true, "null"
		if rows.Next() {
			values, err := rows.Values()
			if err != nil {
				return err
			}
			if len(values) > 0 && values[0] != nil {
				out.Nil, out.Text = false, sqlText(values[0])
			}
		}
		for rows.Next() {
		}
		rows.Close()
		out.Rows = rows.CommandTag().RowsAffected()
		return rows.Err()
	})
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		// The code's mistake, in the server's words.
		return out, &engine.CodeError{Said: ServerSaid(err)}
	}
	if replybound.Passed(err) {
		return out, engine.ErrReplyTooLarge
	}
	if errors.Is(err, ErrNoAnswer) && l.answers(ctx) {
		// The server answers, and the statement did not end within the
		// call's deadline, past the limits fencelab's sessions set (a
		// statement the server does not stop, or a file that changed its
		// own session's): the file's statement ran too long, not a server
		// that went away. It is stopped, not left to run on the server.
		l.cancelCode(ctx, pid)
		return out, &engine.CodeError{Said: fmt.Sprintf("the statement ran past fencelab's limit of %s per statement, and the server had not stopped it: fencelab cancelled it", CallTimeout)}
	}
	return out, err
}

// answers says whether the server answers fencelab's own connection at
// once.
func (l *Ledger) answers(ctx context.Context) bool {
	if l.conn.IsClosed() {
		return false
	}
	probe, cancel := context.WithTimeout(engine.Housekeeping(context.WithoutCancel(ctx)), time.Second)
	defer cancel()
	_, err := l.conn.Exec(probe, "SELECT 1")
	return err == nil
}

// cancelCode cancels the statement of pid, a connection logged in as the
// file's role that gave up on it: as fencelab's user where it may, else
// as the role, on a connection of its own.
func (l *Ledger) cancelCode(ctx context.Context, pid uint32) {
	ctx = engine.Housekeeping(context.WithoutCancel(ctx))
	if err := l.CancelStatement(ctx, pid); err == nil {
		return
	}
	c := l.db.code.Load()
	if c == nil {
		return
	}
	conn, err := l.db.connectAs(ctx, "cancel", c)
	if err != nil {
		return
	}
	defer l.db.giveCode(ctx, conn, c.name)
	within(ctx, func(ctx context.Context) error {
		_, err := conn.Exec(ctx, "SELECT pg_catalog.pg_cancel_backend($1)", int32(pid))
		return err
	})
}

// sqlText is a column's value as psql shows it.
func sqlText(v any) string {
	if valuer, ok := v.(driver.Valuer); ok {
		if dv, err := valuer.Value(); err == nil && dv != nil {
			v = dv
		}
	}
	switch v := v.(type) {
	case string:
		return v
	case []byte:
		return string(v)
	case bool:
		if v {
			return "true"
		}
		return "false"
	}
	return fmt.Sprint(v)
}

// PrepareCode has PostgreSQL parse each statement on a connection of the
// file's role, in the schema the last SetupCode made, as the unnamed
// statement of the protocol's Parse: it checks the statement's names and
// types (a typo, an unknown column) and runs nothing.
func (l *Ledger) PrepareCode(ctx context.Context, statements map[string]string) error {
	c := l.db.code.Load()
	if c == nil {
		return nil
	}
	conn, err := l.db.connectAs(ctx, "prepare", c)
	if err != nil {
		return err
	}
	defer l.db.giveCode(ctx, conn, c.name)
	return within(ctx, func(ctx context.Context) error {
		for _, key := range slices.Sorted(maps.Keys(statements)) {
			_, err := conn.PgConn().Prepare(ctx, "", statements[key], nil)
			var pg *pgconn.PgError
			switch {
			case err == nil:
				continue
			case !errors.As(err, &pg):
				return fmt.Errorf("pgledger: prepare the file's statements: %w", err)
			}
			where := key
			if bare, ok := statements[key+".unguarded"]; ok {
				// The statement without its guards' text parses: the
				// mistake is in a guard's.
				if _, err := conn.PgConn().Prepare(ctx, "", bare, nil); err == nil {
					where = key + ".guards"
				}
			}
			return &engine.CodeError{Where: where, Said: ServerSaid(err)}
		}
		return nil
	})
}

// ServerSaid is what the server said of a statement it refused, as one
// line: its message and SQLSTATE.
func ServerSaid(err error) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		said := fmt.Sprintf("%s: %s (SQLSTATE %s)", strings.ToLower(pg.Severity), pg.Message, pg.Code)
		// fencelab set the limit the statement ran into: name it.
		switch {
		case pg.Code == "57014" && strings.Contains(pg.Message, "statement timeout"):
			said += fmt.Sprintf(" — past fencelab's statement_timeout of %s per statement", serverTimeout)
		case pg.Code == "55P03" && strings.Contains(pg.Message, "lock timeout"):
			said += fmt.Sprintf(" — past fencelab's lock_timeout of %s per statement", lockTimeout)
		}
		return said
	}
	return err.Error()
}

// codeState decodes a file's tables and values from a dump's parts.
func codeState(parts map[string]json.RawMessage) (engine.CodeState, error) {
	var out engine.CodeState
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range parts {
			if !yield(n) {
				return
			}
		}
	}) {
		raw := parts[name]
		if v, ok := strings.CutPrefix(name, codeValuePrefix); ok {
			if out.Values == nil {
				out.Values = map[string]json.RawMessage{}
			}
			out.Values[v] = raw
			continue
		}
		t, ok := strings.CutPrefix(name, codeTablePrefix)
		if !ok || strings.HasSuffix(t, ".seq") {
			continue
		}
		var rows []json.RawMessage
		if err := json.Unmarshal(raw, &rows); err != nil {
			return out, fmt.Errorf("the rows of %s: %w", t, err)
		}
		ct := engine.CodeTable{Name: t}
		for i, row := range rows {
			columns, err := columnsOf(row)
			if err != nil {
				return out, err
			}
			if i == 0 {
				ct.Columns = columns
			}
			var values map[string]json.RawMessage
			if err := json.Unmarshal(row, &values); err != nil {
				return out, err
			}
			cells := make([]string, len(ct.Columns))
			for j, col := range ct.Columns {
				cells[j] = cellText(values[col])
			}
			ct.Rows = append(ct.Rows, cells)
		}
		out.Tables = append(out.Tables, ct)
	}
	return out, nil
}

// cellText is a JSON value as a cell shows it: a string without quotes.
func cellText(v json.RawMessage) string {
	var s string
	if json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}
