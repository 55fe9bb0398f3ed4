package pgledger_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/storetest"
)

// asRole is a file's code that fails unless it runs on a connection that
// logged in as the file's role: whatever of a file's fencelab's own
// connection evaluated (a constraint, a trigger, a cast, a rule) would
// fail the read or the restore it ran in.
var asRole = []string{
	`CREATE FUNCTION as_role() RETURNS boolean LANGUAGE plpgsql AS $$
	 BEGIN
	   IF session_user::text NOT LIKE 'fencelab\_code\_%' OR current_user::text NOT LIKE 'fencelab\_code\_%' THEN
	     RAISE EXCEPTION 'a file''s code ran as %/%', session_user, current_user;
	   END IF;
	   RETURN true;
	 END $$`,
	`CREATE FUNCTION as_role_trigger() RETURNS trigger LANGUAGE plpgsql AS $$
	 BEGIN PERFORM as_role(); RETURN coalesce(NEW, OLD); END $$`,
	`CREATE TYPE mood AS ENUM ('calm', 'odd')`,
	`CREATE FUNCTION mood_json(mood) RETURNS json LANGUAGE plpgsql AS $$
	 BEGIN PERFORM as_role(); RETURN to_json($1::text); END $$`,
	`CREATE CAST (mood AS json) WITH FUNCTION mood_json(mood)`,
	`CREATE TABLE spied (id int PRIMARY KEY, v int CHECK (as_role()), m mood)`,
	`CREATE TRIGGER spy BEFORE INSERT OR UPDATE OR DELETE ON spied FOR EACH ROW EXECUTE FUNCTION as_role_trigger()`,
	`CREATE RULE spy_rule AS ON INSERT TO spied DO ALSO SELECT as_role()`,
	`CREATE TABLE keyless (v int CHECK (as_role()))`,
	`CREATE TRIGGER spy BEFORE INSERT OR DELETE ON keyless FOR EACH ROW EXECUTE FUNCTION as_role_trigger()`,
	`CREATE SEQUENCE tokens`,
	`INSERT INTO spied VALUES (1, 1, 'calm')`,
}

// Every read and write of a file's rows — the state after an action, a
// restore known or not, a restore sent in front of a statement — and its
// values run as the file's role: nothing the file defined runs as
// fencelab's own user (a superuser here).
func TestNothingAFileDefinedRunsAsFencelab(t *testing.T) {
	ctx := context.Background()
	db := storetest.Database(t)
	lab, err := db.Connect(ctx, "lab")
	require.NoError(t, err)
	defer lab.Close(ctx)
	require.NoError(t, lab.SetupCode(ctx, "fencelab_code_spied", asRole,
		map[string]string{"v": "SELECT v FROM spied WHERE id = 1", "who": "SELECT session_user"}))
	role, _ := db.CodeRole()

	before, err := lab.State(ctx)
	require.NoError(t, err, "the dump reads the file's rows through its cast")
	require.JSONEq(t, `1`, string(before.Code.Values["v"]))
	require.JSONEq(t, `"`+role+`"`, string(before.Code.Values["who"]), "its values run as it")
	require.Contains(t, string(before.Dump), `"calm"`)

	a, err := db.Connect(ctx, "A")
	require.NoError(t, err)
	defer a.Close(ctx)
	for _, stmt := range []string{"UPDATE spied SET v = 2, m = 'odd'", "INSERT INTO spied VALUES (2, 5, 'odd')",
		"INSERT INTO keyless VALUES (7)", "SELECT nextval('tokens')"} {
		_, err := a.Statement(ctx, stmt)
		require.NoError(t, err, stmt)
	}
	after, err := lab.State(ctx)
	require.NoError(t, err)
	require.JSONEq(t, `2`, string(after.Code.Values["v"]))

	require.NoError(t, lab.Restore(ctx, after.Dump, before.Dump), "a restore that knows what is there")
	require.NoError(t, lab.Restore(ctx, "", after.Dump), "a restore that does not")
	require.NoError(t, a.(interface {
		RestoreWithNext(from, to engine.LedgerDump) error
	}).RestoreWithNext(after.Dump, before.Dump))
	_, err = a.Statement(ctx, "SELECT 1")
	require.NoError(t, err, "a restore sent in front of a statement")
	again, err := lab.State(ctx)
	require.NoError(t, err)
	require.Equal(t, before.Dump, again.Dump)

	// The role may not make an event trigger, which would run on anyone's
	// DDL later, as them.
	err = lab.SetupCode(ctx, "fencelab_code_spied", []string{
		`CREATE FUNCTION later() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN RAISE NOTICE 'later'; END $$`,
		`CREATE EVENT TRIGGER later ON ddl_command_start EXECUTE FUNCTION later()`,
	}, nil)
	var refusal *engine.CodeError
	require.ErrorAs(t, err, &refusal)
	require.Contains(t, refusal.Said, "SQLSTATE 42501")
	var triggers int
	require.NoError(t, pgledger.RawConn(t, lab).QueryRow(ctx, "SELECT count(*) FROM pg_event_trigger").Scan(&triggers))
	require.Zero(t, triggers)
}

// On a database of a user's (--pg), whether fencelab's user is a superuser
// or only the database's owner with CREATEROLE, a file's role is made run
// after run, reaches nothing of the user's, is granted nothing, and is
// gone with what it made when the run ends; what a kept run (--keep) left
// is gone once the next run sets up a file.
func TestAFilesRoleOnAUsersDatabase(t *testing.T) {
	ctx := context.Background()
	superDSN := storetest.NewDatabaseDSN(t, false)
	ownerDSN, owner := storetest.NewDatabaseOwnedBy(t, "CREATEROLE")
	for _, c := range []struct{ name, dsn, user string }{
		{"superuser", superDSN, "fencelab"},
		{"owner with CREATEROLE", ownerDSN, owner},
	} {
		t.Run(c.name, func(t *testing.T) {
			config, err := pgx.ParseConfig(c.dsn)
			require.NoError(t, err)
			database := config.Database
			super, err := pgx.Connect(ctx, storetest.SuperuserDSN(database))
			require.NoError(t, err)
			defer super.Close(ctx)
			_, err = super.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS theirs; CREATE TABLE IF NOT EXISTS theirs.precious (v int); GRANT USAGE ON SCHEMA theirs TO PUBLIC")
			require.NoError(t, err)

			run := func(keep bool) string {
				db, err := pgledger.Open(ctx, c.dsn, pgledger.Options{})
				require.NoError(t, err)
				lab, err := db.Connect(ctx, "lab")
				require.NoError(t, err)
				require.NoError(t, lab.SetupCode(ctx, "fencelab_code_mine", asRole, map[string]string{"v": "SELECT v FROM spied WHERE id = 1"}))
				role, refused := db.CodeRole()
				require.Empty(t, refused)
				a, err := db.Connect(ctx, "A")
				require.NoError(t, err)
				for _, stmt := range []string{
					"GRANT pg_execute_server_program TO " + c.user,
					"GRANT " + role + " TO " + c.user,
					"ALTER ROLE " + c.user + " SUPERUSER",
					"CREATE TABLE public.mine (v int)",
					"INSERT INTO theirs.precious VALUES (1)",
					"COPY (SELECT 1) TO PROGRAM 'true'",
					"SELECT count(*) FROM fencelab.resources",
				} {
					_, err := a.Statement(ctx, stmt)
					var refusal *engine.CodeError
					require.ErrorAs(t, err, &refusal, stmt)
					require.Contains(t, refusal.Said, "SQLSTATE 42501", stmt)
				}
				_, err = a.Statement(ctx, "UPDATE spied SET v = 3")
				require.NoError(t, err)
				state, err := lab.State(ctx)
				require.NoError(t, err)
				require.JSONEq(t, `3`, string(state.Code.Values["v"]))
				a.Close(ctx)
				if !keep {
					require.NoError(t, lab.DropCode(ctx, "fencelab_code_mine"))
				}
				lab.Close(ctx)
				require.NoError(t, db.Close())
				return role
			}
			left := func(role string) (roles, schemas int) {
				require.NoError(t, super.QueryRow(ctx, "SELECT count(*) FROM pg_roles WHERE rolname = $1", role).Scan(&roles))
				require.NoError(t, super.QueryRow(ctx, `SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'fencelab\_code\_%'`).Scan(&schemas))
				return roles, schemas
			}
			role := run(true)
			roles, schemas := left(role)
			require.Equal(t, [2]int{1, 1}, [2]int{roles, schemas}, "a kept run leaves its schema and role for psql")
			for range 2 {
				role = run(false)
				roles, schemas = left(role)
				require.Equal(t, [2]int{0, 0}, [2]int{roles, schemas}, "nothing of the file's outlives a run")
			}
			var memberships, precious int
			require.NoError(t, super.QueryRow(ctx, "SELECT count(*) FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member WHERE r.rolname = $1", c.user).Scan(&memberships))
			require.Zero(t, memberships, "fencelab's user was granted nothing")
			require.NoError(t, super.QueryRow(ctx, "SELECT count(*) FROM theirs.precious").Scan(&precious))
			require.Zero(t, precious)
		})
	}
}

// Where fencelab's user may not make roles, no file's SQL runs there, and
// the error says what the user needs.
func TestAFileDoesNotRunWhereNoRoleCanBeMade(t *testing.T) {
	ctx := context.Background()
	dsn, owner := storetest.NewDatabaseOwnedBy(t, "")
	db, err := pgledger.Open(ctx, dsn, pgledger.Options{})
	require.NoError(t, err)
	defer db.Close()
	lab, err := db.Connect(ctx, "lab")
	require.NoError(t, err)
	defer lab.Close(ctx)
	err = lab.SetupCode(ctx, "fencelab_code_mine", []string{"CREATE TABLE t (v int)"}, nil)
	require.ErrorIs(t, err, pgledger.ErrNoCodeRole)
	require.Contains(t, err.Error(), fmt.Sprintf("give %s CREATEROLE", owner))
	require.False(t, strings.Contains(err.Error(), "\n"))
	a, err := db.Connect(ctx, "A")
	require.NoError(t, err)
	defer a.Close(ctx)
	_, err = a.Statement(ctx, "SELECT 1")
	require.Error(t, err, "no statement of a file's runs as fencelab's user")
}

// A file's statement that runs past the call's deadline while the server
// answers — its session's limits lifted past fencelab's refusals — is the
// file's to change, said with the limit, and it does not go on running
// on the server.
func TestAStatementPastTheDeadlineIsTheFilesAndIsStopped(t *testing.T) {
	ctx := context.Background()
	db := storetest.Database(t)
	lab, err := db.Connect(ctx, "lab")
	require.NoError(t, err)
	defer lab.Close(ctx)
	require.NoError(t, lab.SetupCode(ctx, "fencelab_code_slow", nil, nil))
	a, err := db.Connect(ctx, "A")
	require.NoError(t, err)
	defer a.Close(ctx)
	_, err = a.Statement(ctx, "SET statement_timeout = 0")
	require.NoError(t, err)
	_, err = a.Statement(ctx, "SELECT pg_sleep(30)")
	var refusal *engine.CodeError
	require.ErrorAs(t, err, &refusal)
	require.Contains(t, refusal.Said, "ran past fencelab's limit of 5s per statement")
	require.Eventually(t, func() bool {
		var sleeping int
		err := pgledger.RawConn(t, lab).QueryRow(ctx, "SELECT count(*) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)' AND state = 'active'").Scan(&sleeping)
		return err == nil && sleeping == 0
	}, 5*time.Second, 100*time.Millisecond, "the statement goes on running on the server")
}

// fencelab's session probe in the file's schema is fencelab's: the role
// calls it but may not replace it with one that lies; and a session that
// holds one lock past what a lab keeps stops the run as the file's doing.
func TestTheSessionProbeIsNotTheFilesToReplace(t *testing.T) {
	ctx := context.Background()
	db := storetest.Database(t)
	lab, err := db.Connect(ctx, "lab")
	require.NoError(t, err)
	defer lab.Close(ctx)
	require.NoError(t, lab.SetupCode(ctx, "fencelab_code_probe", nil, nil))
	a, err := db.Connect(ctx, "A")
	require.NoError(t, err)
	defer a.Close(ctx)
	_, err = a.Statement(ctx, "CREATE OR REPLACE FUNCTION fencelab_session_locks() RETURNS text LANGUAGE sql AS $$ SELECT '0 42 false false 999999999;' $$")
	var refusal *engine.CodeError
	require.ErrorAs(t, err, &refusal)
	require.Contains(t, refusal.Said, "SQLSTATE 42501")
	_, err = a.Statement(ctx, "SELECT count(*) FROM generate_series(1, 1500) WHERE pg_try_advisory_lock(42)")
	require.NoError(t, err)
	_, err = a.(engine.SessionKeeper).SessionLocks(ctx)
	var failure *engine.CodeFailure
	require.ErrorAs(t, err, &failure)
	require.ErrorIs(t, err, pgledger.ErrSessionOver)
	_, err = a.Statement(ctx, "SELECT pg_advisory_unlock_all()")
	require.NoError(t, err)
	_, err = a.Statement(ctx, "SELECT count(*) FROM generate_series(1, 3) WHERE pg_try_advisory_lock(42)")
	require.NoError(t, err)
	locks, err := a.(engine.SessionKeeper).SessionLocks(ctx)
	require.NoError(t, err)
	require.Equal(t, []engine.AdvisoryLock{{Low: 42, Count: 3}}, locks)
}

// The role's password reaches the server as PostgreSQL's own SCRAM
// verifier, not as text a statement log would keep: the same verifier
// the server makes of the password.
func TestTheRolesPasswordIsSentAsTheServersVerifier(t *testing.T) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, storetest.SuperuserDSN("postgres"))
	require.NoError(t, err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, "SET password_encryption = 'scram-sha-256'; CREATE ROLE scram_probe PASSWORD 'a password'")
	require.NoError(t, err)
	defer conn.Exec(ctx, "DROP ROLE scram_probe")
	var kept string
	require.NoError(t, conn.QueryRow(ctx, "SELECT rolpassword FROM pg_authid WHERE rolname = 'scram_probe'").Scan(&kept))
	salt64 := strings.SplitN(strings.SplitN(kept, "$", 3)[1], ":", 2)[1]
	salt, err := base64.StdEncoding.DecodeString(salt64)
	require.NoError(t, err)
	require.Equal(t, kept, pgledger.ScramVerifierSalted("a password", salt))
}

// A setup that makes more tables than the state's read can hold is the
// file's mistake, and what it made goes — a batch at a time, so a schema
// of many tables never outlives a run for want of locks; the next setup
// on the database runs as ever.
func TestASetupOfTooManyTablesIsRefusedAndLeavesNothing(t *testing.T) {
	ctx := context.Background()
	db := storetest.Database(t)
	lab, err := db.Connect(ctx, "lab")
	require.NoError(t, err)
	defer lab.Close(ctx)
	var many []string
	for i := range 180 {
		many = append(many, fmt.Sprintf("CREATE TABLE t%d (v text)", i))
	}
	err = lab.SetupCode(ctx, "fencelab_code_many", many, nil)
	var mistake *engine.CodeError
	require.ErrorAs(t, err, &mistake)
	require.Contains(t, mistake.Said, "the setup made 180 tables and sequences: a file may make at most 40")
	var left int
	require.NoError(t, pgledger.RawConn(t, lab).QueryRow(ctx, "SELECT count(*) FROM pg_namespace WHERE nspname = 'fencelab_code_many'").Scan(&left))
	require.Zero(t, left, "the schema was dropped")
	require.NoError(t, lab.SetupCode(ctx, "fencelab_code_many", many[:40], nil), "40 are allowed")
}

// A setup of more objects than a schema may hold — views, types — leaves
// none of them; a schema the role filled past that by other ways (its
// steps) is still dropped, a few objects at a time, so no later run finds
// it in the way.
func TestASetupOfTooManyObjectsLeavesNone(t *testing.T) {
	ctx := context.Background()
	db := storetest.Database(t)
	lab, err := db.Connect(ctx, "lab")
	require.NoError(t, err)
	defer lab.Close(ctx)
	setup := []string{"CREATE TABLE t (id int)"}
	for i := range 600 {
		setup = append(setup, fmt.Sprintf("CREATE VIEW v%d AS SELECT * FROM t", i))
	}
	err = lab.SetupCode(ctx, "fencelab_code_views", setup, nil)
	var mistake *engine.CodeError
	require.ErrorAs(t, err, &mistake)
	require.Contains(t, mistake.Said, "a file may make at most 500")
	count := func(q string) (n int) {
		require.NoError(t, pgledger.RawConn(t, lab).QueryRow(ctx, q).Scan(&n))
		return n
	}
	require.Zero(t, count("SELECT count(*) FROM pg_namespace WHERE nspname = 'fencelab_code_views'"))

	// Past the limit by steps: 300 types made after the setup, by the role.
	require.NoError(t, lab.SetupCode(ctx, "fencelab_code_views", setup[:1], nil))
	a, err := db.Connect(ctx, "A")
	require.NoError(t, err)
	defer a.Close(ctx)
	for i := range 300 {
		_, err := a.Statement(ctx, fmt.Sprintf("CREATE TYPE ty%d AS (x int)", i))
		require.NoError(t, err)
	}
	require.NoError(t, lab.DropCode(ctx, "fencelab_code_views"))
	require.Zero(t, count("SELECT count(*) FROM pg_namespace WHERE nspname = 'fencelab_code_views'"))
}

// A setup whose statements each end within their limit but together run
// past the call's time is the file's to make smaller (said at the
// statement under way), not a server that went away.
func TestASetupPastTheCallsTimeIsTheFiles(t *testing.T) {
	ctx := context.Background()
	db := storetest.Database(t)
	lab, err := db.Connect(ctx, "lab")
	require.NoError(t, err)
	defer lab.Close(ctx)
	err = lab.SetupCode(ctx, "fencelab_code_slow", []string{"CREATE TABLE t (v int)",
		"SELECT pg_catalog.pg_sleep(2)", "SELECT pg_catalog.pg_sleep(2)", "SELECT pg_catalog.pg_sleep(2)"}, nil)
	var mistake *engine.CodeError
	require.ErrorAs(t, err, &mistake)
	require.Equal(t, "setup.3", mistake.Where)
	require.Contains(t, mistake.Said, "the setup ran past fencelab's limit of 5s for it")
	require.NoError(t, lab.SetupCode(ctx, "fencelab_code_slow", []string{"CREATE TABLE t (v int)"}, nil), "the database answers on")
}
