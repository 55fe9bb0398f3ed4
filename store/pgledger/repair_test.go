package pgledger_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/storetest"
)

// The shape a fresh migration gives schema fencelab is the one Open holds
// every later start to: change it with a migration, and pin the new one.
func TestTheSchemasShapeIsPinned(t *testing.T) {
	lab := storetest.Ledger(t)
	got, want := pgledger.SchemaShape(t, pgledger.RawConn(t, lab))
	require.Equal(t, want, got, "a migration changed schema fencelab's shape: set schemaShape to %q", got)
}

// A schema fencelab that was damaged after its migrations (a table
// dropped; on fencelab's own cluster, a trigger added too, or an event
// trigger in the database) is noticed at the next Open and made again,
// which says so once; the run then works. On a database of the user's, a
// trigger or constraint they added to it is theirs.
func TestADamagedSchemaIsMadeAgain(t *testing.T) {
	ctx := context.Background()
	for _, damage := range []struct {
		name, sql, found string
		own              bool
	}{
		{"a table dropped", "DROP TABLE fencelab.outbox", "its tables are not what its migrations made", false},
		{"a trigger added", `CREATE FUNCTION public.spy() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
			CREATE TRIGGER spy BEFORE INSERT ON fencelab.resources FOR EACH ROW EXECUTE FUNCTION public.spy()`, "its tables are not what its migrations made", true},
		{"a trigger added on a user's database", `CREATE FUNCTION public.spy() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
			CREATE TRIGGER spy BEFORE INSERT ON fencelab.resources FOR EACH ROW EXECUTE FUNCTION public.spy()`, "", false},
		{"the record of migrations dropped", "DROP TABLE fencelab.goose_db_version", "its record of migrations is gone", false},
		{"an event trigger", `CREATE FUNCTION public.later() RETURNS event_trigger LANGUAGE plpgsql AS $$ BEGIN END $$;
			CREATE EVENT TRIGGER later ON ddl_command_start EXECUTE FUNCTION public.later()`, "the database has event triggers (later)", true},
	} {
		t.Run(damage.name, func(t *testing.T) {
			dsn := storetest.NewDatabaseDSN(t, true)
			conn, err := pgx.Connect(ctx, dsn)
			require.NoError(t, err)
			defer conn.Close(ctx)
			_, err = conn.Exec(ctx, damage.sql)
			require.NoError(t, err)

			var found []string
			db, err := pgledger.Open(ctx, dsn, pgledger.Options{Exclusive: damage.own, Repaired: func(f string) { found = append(found, f) }})
			require.NoError(t, err)
			defer db.Close()
			if damage.found == "" {
				require.Empty(t, found)
				return
			}
			require.Equal(t, []string{damage.found}, found)
			lab, err := db.Connect(ctx, "lab")
			require.NoError(t, err)
			defer lab.Close(ctx)
			require.NoError(t, lab.(world.Ledger).Seed(ctx, world.Seed{TenantID: "t", ConflictKey: "k", RegionID: "r"}))
			_, err = lab.State(ctx)
			require.NoError(t, err)
			db.Close()

			found = nil
			again, err := pgledger.Open(ctx, dsn, pgledger.Options{Exclusive: damage.own, Repaired: func(f string) { found = append(found, f) }})
			require.NoError(t, err)
			again.Close()
			require.Empty(t, found, "made again once")
		})
	}
}
