package pgledger

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"

	"github.com/fencelab/fencelab/migrations"
)

// ErrForeignSchema means the server already has a schema named fencelab that
// fencelab did not create. fencelab leaves it alone.
var ErrForeignSchema = errors.New("pgledger: schema fencelab exists but was not created by fencelab")

// schemaMark is the comment fencelab puts on its schema, so a later run can
// tell its own schema from somebody else's of the same name.
const schemaMark = "created by fencelab; holds lab data only"

// migrateWithin bounds all of a migration: a few statements each, well under
// a second on a server that answers.
const migrateWithin = 2 * CallTimeout

// Migrate makes sure schema fencelab exists and is fencelab's, then applies
// the embedded migrations with goose (version table fencelab.goose_db_version).
// Open calls it under the run lock, so two runs never migrate at once.
func Migrate(ctx context.Context, config *pgx.ConnConfig) error {
	_, err := migrateOrRepair(ctx, config, false)
	return err
}

// migrateOrRepair is Migrate that also makes schema fencelab again, empty,
// when it is fencelab's and damaged — every migration recorded as applied,
// and yet not the schema they make (a table dropped, a column changed, a
// trigger or a function someone added) — and says what it found. With
// own (fencelab's own cluster), an event trigger in the database is
// damage too, and goes: nobody but fencelab has that database.
func migrateOrRepair(ctx context.Context, config *pgx.ConnConfig, own bool) (repaired string, err error) {
	ctx, cancel := context.WithTimeoutCause(ctx, migrateWithin, ErrNoAnswer)
	defer cancel()
	repaired, err = migrate(ctx, config, own)
	switch {
	case err == nil:
		return repaired, nil
	case errors.Is(context.Cause(ctx), ErrNoAnswer):
		return "", fmt.Errorf("pgledger: migrate: %w", noAnswer(migrateWithin))
	case errors.Is(err, ErrNoAnswer):
		return "", err
	case ctx.Err() == nil && pgconn.Timeout(err):
		// goose's own connection timed out connecting.
		return "", fmt.Errorf("pgledger: migrate: %w", noAnswer(config.ConnectTimeout))
	}
	return "", err
}

func migrate(ctx context.Context, config *pgx.ConnConfig, own bool) (repaired string, err error) {
	conn, err := connect(ctx, config)
	if err != nil {
		return "", fmt.Errorf("pgledger: connect: %w", err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if repaired, err = repairSchema(ctx, conn, own); err != nil {
		return "", fmt.Errorf("pgledger: make schema fencelab again: %w", err)
	}

	var comment *string
	err = conn.QueryRow(ctx,
		`SELECT obj_description(oid, 'pg_namespace') FROM pg_namespace WHERE nspname = 'fencelab'`).Scan(&comment)
	switch {
	case errors.Is(err, pgx.ErrNoRows):
		if err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `CREATE SCHEMA fencelab`); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `COMMENT ON SCHEMA fencelab IS '`+schemaMark+`'`)
			return err
		}); err != nil {
			return "", fmt.Errorf("pgledger: create schema fencelab: %w", err)
		}
	case err != nil:
		return "", fmt.Errorf("pgledger: look for schema fencelab: %w", err)
	case comment == nil || *comment != schemaMark:
		return "", ErrForeignSchema
	}

	db := stdlib.OpenDB(*config)
	defer db.Close()
	return repaired, applyMigrations(ctx, db)
}

func applyMigrations(ctx context.Context, db *sql.DB) error {
	provider, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS,
		goose.WithTableName("fencelab.goose_db_version"),
		goose.WithDisableGlobalRegistry(true),
	)
	if err != nil {
		return fmt.Errorf("pgledger: migrations: %w", err)
	}
	if _, err := provider.Up(ctx); err != nil {
		return fmt.Errorf("pgledger: apply migrations: %w", err)
	}
	return nil
}

// latestMigration is the version of the newest embedded migration (goose
// numbers them by the digits their file names start with).
func latestMigration() (int64, error) {
	entries, err := migrations.FS.ReadDir(".")
	if err != nil {
		return 0, err
	}
	var latest int64
	for _, e := range entries {
		digits := e.Name()[:strings.IndexFunc(e.Name()+"_", func(r rune) bool { return r < '0' || r > '9' })]
		if v, err := strconv.ParseInt(digits, 10, 64); err == nil {
			latest = max(latest, v)
		}
	}
	if latest == 0 {
		return 0, errors.New("pgledger: no migration embedded")
	}
	return latest, nil
}

// readyAsItIs asks, in one query on a connection already open, whether the
// database needs nothing of Open beyond its run lock: schema fencelab is
// fencelab's, every embedded migration is applied, and no shared resource
// has rows to put aside (none is shared, none is parked). That is the usual
// start, which then opens no connection for goose and takes no migration
// lock. Anything else — no schema yet, a table missing, an error — says
// no, and Open goes the whole way, which says what is wrong. labBytes is
// what table executions takes on disk, without its indexes: every write
// adds a row to it, so it is the first to grow (see compactLab).
//
// On fencelab's own cluster (own), a schema whose shape is not
// schemaShape is not ready either, nor a database with an event trigger;
// elsewhere, a schema missing a table: Open then goes the whole way, which
// makes it again (repairSchema).
func readyAsItIs(ctx context.Context, conn *pgx.Conn, own bool) (ready bool, labBytes int64) {
	latest, err := latestMigration()
	if err != nil {
		return false, 0
	}
	var comment *string
	var version *int64
	var shared, whole bool
	err = within(ctx, func(ctx context.Context) error {
		return conn.QueryRow(ctx, `
			SELECT obj_description(n.oid, 'pg_namespace'),
			       (SELECT max(version_id) FROM fencelab.goose_db_version WHERE is_applied),
			       EXISTS (SELECT FROM fencelab.shared_resources) OR EXISTS (SELECT FROM fencelab.parked_rows),
			       pg_relation_size('fencelab.executions'::regclass),
			       CASE WHEN $2 THEN (`+schemaShapeSQL+`) = $1 AND NOT EXISTS (SELECT FROM pg_catalog.pg_event_trigger)
			            ELSE NOT EXISTS (SELECT FROM pg_catalog.unnest($3::pg_catalog.text[]) AS t(name)
			                              WHERE pg_catalog.to_regclass('fencelab.' OPERATOR(pg_catalog.||) t.name) IS NULL) END
			  FROM pg_namespace n WHERE n.nspname = 'fencelab'`, schemaShape, own, ownRelations()).Scan(&comment, &version, &shared, &labBytes, &whole)
	})
	ready = err == nil && comment != nil && *comment == schemaMark && version != nil && *version == latest && !shared && whole
	return ready, labBytes
}

// bloatedLab is the size of table executions past which Open empties the
// lab's tables at once: a scenario's rows take a page. A stress run leaves
// tens of thousands of dead rows behind (15 MB after a minute, in
// executions, outbox and their indexes), and every later run's reset and
// read of the schema went through them all: `run lease-overrun` took 100
// ms more. A check leaves less, a few thousand rows a run in its labs'
// databases, but reads the schema twice a state: tables grown to 600 KB
// over a dozen checks made check counter-loss about a tenth slower than
// tables kept under 64 KB. Emptying costs Open about 10 ms (new files for
// every table and index): past 64 KB it comes every few checks, while
// runs and the explorer keep executions within a page or two.
const bloatedLab = 64 << 10

// compactLab empties the lab's tables with TRUNCATE, which gives them new,
// empty files. Open calls it when they have grown past bloatedLab, before
// the run's other connections read a table (those opened ahead wait for
// the schema to be ready), and no other run is there: Open holds the run
// lock, or on fencelab's own cluster (Options.Exclusive) the slot. Dead rows are what makes them grow: nothing else
// clears them on the ephemeral server, which lives one command at a time,
// so its autovacuum (a minute between looks) never gets to them; and
// VACUUM would leave a table as long as its last live row. The rows it
// drops are a former run's, which the coming reset deletes anyway.
//
// It is a saving, not a step a run needs: a session of a user's that holds
// a lock on a lab table (a psql in a transaction) makes it give up after
// a moment, and the run goes on as it would have.
func compactLab(ctx context.Context, conn *pgx.Conn) {
	qualified := make([]string, len(tables))
	for i, t := range tables {
		qualified[i] = "fencelab." + t.name
	}
	_ = within(ctx, func(ctx context.Context) error {
		return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, `SET LOCAL lock_timeout = '100ms'`); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "TRUNCATE "+strings.Join(qualified, ", "))
			return err
		})
	})
}

// schemaShapeSQL sums up what schema fencelab holds, as md5 of a line
// for each relation (its kind, its columns' names, types and NOT NULLs),
// constraint, trigger, rule, policy and function: names and kinds only,
// which every supported PostgreSQL writes alike. With every migration
// applied it must be schemaShape: anything else is a schema damaged.
const schemaShapeSQL = `
SELECT pg_catalog.md5(coalesce(pg_catalog.string_agg(part, E'\n' ORDER BY part), '')) FROM (
  SELECT 'relation ' || c.relname || ' ' || c.relkind::pg_catalog.text || ' ' || coalesce((
           SELECT pg_catalog.string_agg(a.attname || ' ' || t.typname || CASE WHEN a.attnotnull THEN ' not null' ELSE '' END, ', ' ORDER BY a.attnum)
             FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid = a.atttypid
            WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '') AS part
    FROM pg_catalog.pg_class c WHERE c.relnamespace = 'fencelab'::pg_catalog.regnamespace
  UNION ALL
  SELECT 'constraint ' || conrelid::pg_catalog.regclass::pg_catalog.text || ' ' || conname || ' ' || contype::pg_catalog.text
    FROM pg_catalog.pg_constraint WHERE connamespace = 'fencelab'::pg_catalog.regnamespace
  UNION ALL
  SELECT 'trigger ' || t.tgname FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
   WHERE c.relnamespace = 'fencelab'::pg_catalog.regnamespace
  UNION ALL
  SELECT 'rule ' || r.rulename FROM pg_catalog.pg_rewrite r JOIN pg_catalog.pg_class c ON c.oid = r.ev_class
   WHERE c.relnamespace = 'fencelab'::pg_catalog.regnamespace
  UNION ALL
  SELECT 'policy ' || p.polname FROM pg_catalog.pg_policy p JOIN pg_catalog.pg_class c ON c.oid = p.polrelid
   WHERE c.relnamespace = 'fencelab'::pg_catalog.regnamespace
  UNION ALL
  SELECT 'function ' || proname FROM pg_catalog.pg_proc WHERE pronamespace = 'fencelab'::pg_catalog.regnamespace
) parts`

// ownRelations are the tables and sequences of schema fencelab that every
// run needs.
func ownRelations() []string {
	names := []string{"goose_db_version", "shared_resources", "parked_rows"}
	for _, t := range tables {
		names = append(names, t.name)
	}
	for _, s := range sequences {
		names = append(names, s.table+"_"+s.column+"_seq")
	}
	return names
}

// schemaShape is what schemaShapeSQL says of schema fencelab with every
// embedded migration applied (TestTheSchemasShapeIsPinned says the new
// one when a migration changes it).
const schemaShape = "777757f7fed65b2e9b07b0ec390385ee"

// repairSchema makes schema fencelab again, empty, when it is fencelab's
// (its mark) and damaged, and says what it found ("": nothing to do).
// Damaged: every migration is recorded as applied, or the record itself
// is gone, and the schema is not what they make. A schema an older
// fencelab made (migrations left to apply) is not judged. On fencelab's
// own cluster (own), an event trigger in the database is damage as well.
func repairSchema(ctx context.Context, conn *pgx.Conn, own bool) (string, error) {
	latest, err := latestMigration()
	if err != nil {
		return "", err
	}
	var (
		marked, recorded bool
		version          *int64
		shape            string
		eventTriggers    []string
	)
	err = conn.QueryRow(ctx, `
		SELECT coalesce(obj_description(n.oid, 'pg_namespace') = $1, false),
		       pg_catalog.to_regclass('fencelab.goose_db_version') IS NOT NULL
		  FROM pg_catalog.pg_namespace n WHERE n.nspname = 'fencelab'`, schemaMark).Scan(&marked, &recorded)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", nil // no schema yet
	}
	if err != nil || !marked {
		return "", err
	}
	if recorded {
		if err := conn.QueryRow(ctx, `SELECT max(version_id) FROM fencelab.goose_db_version WHERE is_applied`).Scan(&version); err != nil {
			return "", err
		}
	}
	if err := conn.QueryRow(ctx, schemaShapeSQL).Scan(&shape); err != nil {
		return "", err
	}
	if own {
		rows, err := conn.Query(ctx, `SELECT evtname::pg_catalog.text FROM pg_catalog.pg_event_trigger`)
		if err != nil {
			return "", err
		}
		if eventTriggers, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
			return "", err
		}
	}
	var missing int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_catalog.unnest($1::pg_catalog.text[]) AS t(name)
		WHERE pg_catalog.to_regclass('fencelab.' OPERATOR(pg_catalog.||) t.name) IS NULL`, ownRelations()).Scan(&missing); err != nil {
		return "", err
	}
	// On fencelab's own cluster the schema must be what the migrations
	// made, to the letter; on a database of the user's, a constraint or
	// an index they added is theirs to keep, and only a missing table
	// (every later run would fail on it) is damage.
	wrong := missing > 0 || own && shape != schemaShape
	var found []string
	damaged := !recorded || version != nil && *version == latest && wrong
	switch {
	case !recorded:
		found = append(found, "its record of migrations is gone")
	case damaged:
		found = append(found, "its tables are not what its migrations made")
	}
	if len(eventTriggers) > 0 {
		found = append(found, fmt.Sprintf("the database has event triggers (%s)", strings.Join(eventTriggers, ", ")))
	}
	if len(found) == 0 {
		return "", nil
	}
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		for _, name := range eventTriggers {
			if _, err := tx.Exec(ctx, "DROP EVENT TRIGGER "+pgx.Identifier{name}.Sanitize()); err != nil {
				return err
			}
		}
		if !damaged {
			return nil
		}
		_, err := tx.Exec(ctx, "DROP SCHEMA fencelab CASCADE")
		return err
	})
	if err != nil {
		return "", err
	}
	return strings.Join(found, "; "), nil
}
