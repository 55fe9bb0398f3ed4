package pgledger

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// A resource that stress runs on many machines share (stress --shared)
// keeps its rows in the lab's tables, which a run that seeds them (run,
// check, an unshared stress, the explorer) empties whole. Such a run holds
// the database alone, so when it opens the database it moves the shared
// resources' rows to fencelab.parked_rows, with the rollout marker they
// were written under; a shared run, which cannot start before that run
// ends, puts them back when it opens the database. The resources shared
// are those EnsureResource made (fencelab.shared_resources).

// parked is a table whose shared rows are moved aside: which rows, and the
// column they go in the order of — its serial id, where it has one.
type parked struct {
	table, rows, order string
	serial             bool
}

const (
	sharedKeys    = `conflict_key IN (SELECT conflict_key FROM fencelab.shared_resources)`
	sharedTenants = `tenant_id IN (SELECT tenant_id FROM fencelab.shared_resources)`
	// An outbox row is its execution's, by operation id.
	sharedOutbox = `operation_id IN (SELECT operation_id FROM fencelab.executions WHERE ` + sharedKeys + `)`
)

// parkedTables are moved in this order: the outbox before the executions
// that say which of its rows are shared.
var parkedTables = []parked{
	{"outbox", sharedOutbox, "outbox_id", true},
	{"executions", sharedKeys, "execution_id", true},
	{"checkpoints", sharedKeys, "conflict_key", false},
	{"resources", sharedKeys, "conflict_key", false},
	{"tenant_assignments", sharedTenants, "tenant_id", false},
}

// parkShared moves the shared resources' rows out of the lab's tables, in
// one transaction, and returns the resources whose rows are parked.
func parkShared(ctx context.Context, conn *pgx.Conn) ([]string, error) {
	var keys []string
	err := within(ctx, func(ctx context.Context) error {
		return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			batch := &pgx.Batch{}
			for _, p := range parkedTables {
				batch.Queue(fmt.Sprintf(`
					WITH moved AS (DELETE FROM fencelab.%[1]s WHERE %[2]s RETURNING *)
					INSERT INTO fencelab.parked_rows (table_name, data)
					SELECT '%[1]s', to_jsonb(moved) FROM moved ORDER BY %[3]s`, p.table, p.rows, p.order))
			}
			// The marker as the shared runs left it: the lab's seed
			// replaces it, and the shared rows' namespace epoch is its.
			batch.Queue(`
				INSERT INTO fencelab.parked_rows (table_name, data)
				SELECT 'rollout_markers', to_jsonb(m) FROM fencelab.rollout_markers m
				 WHERE EXISTS (SELECT FROM fencelab.parked_rows WHERE table_name = 'resources')
				   AND NOT EXISTS (SELECT FROM fencelab.parked_rows WHERE table_name = 'rollout_markers')`)
			if err := tx.SendBatch(ctx, batch).Close(); err != nil {
				return err
			}
			return tx.QueryRow(ctx, `
				SELECT coalesce(array_agg(data->>'conflict_key' ORDER BY data->>'conflict_key'), '{}')
				  FROM fencelab.parked_rows WHERE table_name = 'resources'`).Scan(&keys)
		})
	})
	if err != nil {
		return nil, fmt.Errorf("pgledger: put the rows of shared resources aside: %w", err)
	}
	return keys, nil
}

// unparkShared puts parked rows back, in one transaction, and the rollout
// marker they were written under. Executions and outbox rows get new ids
// after every id in use, in their order: a lab's rows may hold theirs.
func unparkShared(ctx context.Context, conn *pgx.Conn) error {
	err := within(ctx, func(ctx context.Context) error {
		return pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			batch := &pgx.Batch{}
			batch.Queue(`
				INSERT INTO fencelab.rollout_markers
				SELECT r.* FROM fencelab.parked_rows p, jsonb_populate_record(NULL::fencelab.rollout_markers, p.data) r
				 WHERE p.table_name = 'rollout_markers'
				ON CONFLICT (marker_name) DO UPDATE
				   SET namespace_epoch = EXCLUDED.namespace_epoch, minimum_writer_version = EXCLUDED.minimum_writer_version,
				       checkpoint_schema_version = EXCLUDED.checkpoint_schema_version`)
			for _, p := range parkedTables {
				if !p.serial {
					batch.Queue(fmt.Sprintf(`
						INSERT INTO fencelab.%[1]s
						SELECT r.* FROM fencelab.parked_rows p, jsonb_populate_record(NULL::fencelab.%[1]s, p.data) r
						 WHERE p.table_name = '%[1]s' ORDER BY p.parked_id`, p.table))
					continue
				}
				// New ids after the largest in use or handed out, then
				// the sequence moved past them.
				last := fmt.Sprintf(`coalesce(pg_sequence_last_value(pg_get_serial_sequence('fencelab.%s', '%s')::regclass), 0)`, p.table, p.order)
				batch.Queue(fmt.Sprintf(`
					WITH p AS (SELECT data, row_number() OVER (ORDER BY parked_id) AS n
					             FROM fencelab.parked_rows WHERE table_name = '%[1]s'),
					     base AS (SELECT greatest(coalesce(max(%[2]s), 0), %[3]s) AS id FROM fencelab.%[1]s)
					INSERT INTO fencelab.%[1]s
					SELECT r.* FROM p, base, jsonb_populate_record(NULL::fencelab.%[1]s, p.data || jsonb_build_object('%[2]s', base.id + p.n)) r`,
					p.table, p.order, last))
				batch.Queue(fmt.Sprintf(`
					SELECT setval(pg_get_serial_sequence('fencelab.%[1]s', '%[2]s'), max(%[2]s))
					  FROM fencelab.%[1]s HAVING max(%[2]s) > %[3]s`, p.table, p.order, last))
			}
			batch.Queue(`DELETE FROM fencelab.parked_rows`)
			return tx.SendBatch(ctx, batch).Close()
		})
	})
	if err != nil {
		return fmt.Errorf("pgledger: put the rows of shared resources back: %w", err)
	}
	return nil
}
