package pgledger_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/storetest"
)

// A file's SQL runs as a role that owns its schema and nothing else: what
// fencelab's refusals at the file's line do not see, the server refuses.
// Here the statements go to the store straight, past those refusals.
func TestAFilesSQLRunsAsARoleThatOwnsOnlyItsSchema(t *testing.T) {
	ctx := context.Background()
	db := storetest.Database(t)
	lab, err := db.Connect(ctx, "lab")
	require.NoError(t, err)
	defer lab.Close(ctx)
	require.NoError(t, lab.SetupCode(ctx, "fencelab_code_mine", []string{"CREATE TABLE seen (who text NOT NULL)"},
		map[string]string{"who": "SELECT current_user", "seen": "SELECT count(*) FROM seen"}))
	role, refused := db.CodeRole()
	require.Empty(t, refused)
	require.Regexp(t, `^fencelab_code_[0-9a-f]{12}$`, role)

	a, err := db.Connect(ctx, "A")
	require.NoError(t, err)
	defer a.Close(ctx)
	reply, err := a.Statement(ctx, "SELECT current_user")
	require.NoError(t, err)
	require.Equal(t, role, reply.Text, "a step's statement")
	_, err = a.Statement(ctx, "INSERT INTO seen SELECT session_user")
	require.NoError(t, err, "the file's own table")

	for _, stmt := range []string{
		"SELECT count(*) FROM fencelab.resources",
		"UPDATE fencelab.resources SET summary_value = 0",
		"DROP SCHEMA fencelab CASCADE",
		"COPY (SELECT 1) TO PROGRAM 'true'",
		"SELECT pg_read_file('PG_VERSION')",
		"SET ROLE fencelab",
		"SET SESSION AUTHORIZATION fencelab",
		"CREATE ROLE mine SUPERUSER",
		"ALTER SYSTEM SET work_mem = '1MB'",
		"CREATE DATABASE mine",
	} {
		_, err := a.Statement(ctx, stmt)
		var refusal *engine.CodeError
		require.ErrorAs(t, err, &refusal, stmt)
		require.Contains(t, refusal.Said, "SQLSTATE 42501", stmt)
	}

	// The values the lab reads with its own dump run as the role too.
	state, err := lab.State(ctx)
	require.NoError(t, err)
	require.JSONEq(t, `"`+role+`"`, string(state.Code.Values["who"]))
	require.JSONEq(t, `1`, string(state.Code.Values["seen"]))
	require.Equal(t, [][]string{{role}}, state.Code.Tables[0].Rows, "the lab reads the role's rows")
}

// What an earlier run's file set as the role's own session defaults does
// not reach the next run: the role is taken again with none.
func TestTheRoleStartsEachRunWithoutAnEarlierRunsSettings(t *testing.T) {
	ctx := context.Background()
	dsn := storetest.NewDatabaseDSN(t, true)
	run := func() (string, engine.Ledger, func()) {
		db, err := pgledger.Open(ctx, dsn, pgledger.Options{})
		require.NoError(t, err)
		lab, err := db.Connect(ctx, "lab")
		require.NoError(t, err)
		require.NoError(t, lab.SetupCode(ctx, "fencelab_code_mine", nil, nil))
		role, _ := db.CodeRole()
		a, err := db.Connect(ctx, "A")
		require.NoError(t, err)
		return role, a, func() { a.Close(ctx); lab.Close(ctx); db.Close() }
	}
	role, a, done := run()
	_, err := a.Statement(ctx, "ALTER ROLE "+role+" SET default_transaction_read_only = on")
	require.NoError(t, err, "a role may set its own defaults")
	done()

	_, a, done = run()
	defer done()
	reply, err := a.Statement(ctx, "SELECT current_setting('default_transaction_read_only')")
	require.NoError(t, err)
	require.Equal(t, "off", reply.Text)
}

// When the role may open no more connections (53300), those it holds idle
// for the next lab are let go and the new one is asked for again.
func TestARoleOutOfConnectionsLetsGoOfItsIdleOnes(t *testing.T) {
	ctx := context.Background()
	db := storetest.Database(t)
	lab, err := db.Connect(ctx, "lab")
	require.NoError(t, err)
	defer lab.Close(ctx)
	require.NoError(t, lab.SetupCode(ctx, "fencelab_code_mine", nil, nil))
	role, refused := db.CodeRole()
	require.Empty(t, refused)

	a, err := db.Connect(ctx, "A")
	require.NoError(t, err)
	defer a.Close(ctx)
	_, err = a.Statement(ctx, "SELECT 1")
	require.NoError(t, err)
	b, err := db.Connect(ctx, "B")
	require.NoError(t, err)
	_, err = b.Statement(ctx, "SELECT 1")
	require.NoError(t, err)
	require.NoError(t, b.Close(ctx)) // B's connection is kept, idle, for fencelab_code_mine
	_, err = pgledger.RawConn(t, lab).Exec(ctx, "ALTER ROLE "+role+" CONNECTION LIMIT 2")
	require.NoError(t, err)

	// Another schema: the idle connection cannot serve it, and the role
	// has no third connection to give.
	require.NoError(t, lab.SetupCode(ctx, "fencelab_code_other", nil, nil))
	c, err := db.Connect(ctx, "C")
	require.NoError(t, err)
	defer c.Close(ctx)
	reply, err := c.Statement(ctx, "SELECT current_schema()")
	require.NoError(t, err, "the idle connection is let go for C's")
	require.Equal(t, "fencelab_code_other", reply.Text)
}

// A file's statement that waits for a lock another program holds on its
// table (a user's psql on the same database) ends at fencelab's
// lock_timeout, and the refusal names it: not a run that waits for ever.
// (Within a lab, a statement waiting for another actor's lock is the
// checker's to see; a waiting advisory lock is refused at the file's line.)
func TestAFilesStatementWaitingOnALockEndsAtTheLockTimeout(t *testing.T) {
	ctx := context.Background()
	db := storetest.Database(t)
	lab, err := db.Connect(ctx, "lab")
	require.NoError(t, err)
	defer lab.Close(ctx)
	require.NoError(t, lab.SetupCode(ctx, "fencelab_code_held", []string{"CREATE TABLE t (x bigint)", "INSERT INTO t VALUES (1)"}, nil))
	holder := pgledger.RawConn(t, lab)
	tx, err := holder.Begin(ctx)
	require.NoError(t, err)
	defer tx.Rollback(ctx)
	_, err = tx.Exec(ctx, "LOCK TABLE fencelab_code_held.t IN ACCESS EXCLUSIVE MODE")
	require.NoError(t, err)

	a, err := db.Connect(ctx, "A")
	require.NoError(t, err)
	defer a.Close(ctx)
	began := time.Now()
	_, err = a.Statement(ctx, "UPDATE t SET x = x + 1")
	var refusal *engine.CodeError
	require.ErrorAs(t, err, &refusal)
	require.Contains(t, refusal.Said, "canceling statement due to lock timeout (SQLSTATE 55P03) — past fencelab's lock_timeout of 4s per statement")
	require.Less(t, time.Since(began), 10*time.Second)
}
