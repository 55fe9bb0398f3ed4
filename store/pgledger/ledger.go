package pgledger

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
)

// Ledger is one actor's connection.
type Ledger struct {
	conn   *pgx.Conn
	writes *atomic.Uint64 // its Database's: every write goes through inTx or exec
}

// inTx runs fn in one transaction within CallTimeout: rolled back when fn
// fails, committed otherwise (pgx.BeginTxFunc), so no caller handles a
// half-done transaction.
func (l *Ledger) inTx(ctx context.Context, opts pgx.TxOptions, fn func(context.Context, pgx.Tx) error) error {
	l.writes.Add(1)
	return within(ctx, func(ctx context.Context) error {
		return pgx.BeginTxFunc(ctx, l.conn, opts, func(tx pgx.Tx) error { return fn(ctx, tx) })
	})
}

// exec runs one statement within CallTimeout.
func (l *Ledger) exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	l.writes.Add(1)
	var tag pgconn.CommandTag
	err := within(ctx, func(ctx context.Context) error {
		var err error
		tag, err = l.conn.Exec(ctx, sql, args...)
		return err
	})
	return tag, err
}

// batchedTx is a transaction of two round trips, for the writes a long run
// makes thousands of a second: BEGIN goes with the first batch, COMMIT
// with the second. read takes the first batch's results and returns the
// second batch, or an error — a rejection, say — which rolls the
// transaction back; wrote takes the second batch's results. Any failure
// rolls back, within CallTimeout.
func (l *Ledger) batchedTx(ctx context.Context, first *pgx.Batch,
	read func(pgx.BatchResults) (*pgx.Batch, error), wrote func(pgx.BatchResults) error) error {
	l.writes.Add(1)
	return within(ctx, func(ctx context.Context) error {
		first.QueuedQueries = append([]*pgx.QueuedQuery{{SQL: "BEGIN"}}, first.QueuedQueries...)
		results := l.conn.SendBatch(ctx, first)
		_, err := results.Exec()
		var second *pgx.Batch
		if err == nil {
			second, err = read(results)
		}
		if closed := results.Close(); err == nil {
			err = closed
		}
		if err == nil {
			second.Queue("COMMIT")
			results = l.conn.SendBatch(ctx, second)
			err = wrote(results)
			if err == nil {
				if _, err = results.Exec(); err != nil {
					err = fmt.Errorf("pgledger: commit: %w", err)
				}
			}
			if closed := results.Close(); err == nil {
				err = closed
			}
		}
		if err != nil {
			l.rollback(ctx)
		}
		return err
	})
}

// rollback ends a transaction that failed, if the connection still can,
// within a second (a server that stopped answering is not waited on).
func (l *Ledger) rollback(ctx context.Context) {
	if l.conn.PgConn().TxStatus() == 'I' || l.conn.IsClosed() {
		return
	}
	bounded, cancel := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
	defer cancel()
	l.conn.Exec(bounded, "ROLLBACK")
}

// Seed empties schema fencelab and inserts a scenario's starting rows.
func (l *Ledger) Seed(ctx context.Context, s engine.Seed) error {
	err := l.inTx(ctx, pgx.TxOptions{}, func(ctx context.Context, tx pgx.Tx) error {
		batch := &pgx.Batch{}
		// DELETE, not TRUNCATE: the tables hold a few rows, and TRUNCATE
		// makes new files for every table and index, a cost the checker
		// would pay on every schedule.
		for _, t := range tables {
			batch.Queue("DELETE FROM fencelab." + t.name)
		}
		for _, s := range sequences {
			batch.Queue(fmt.Sprintf("SELECT setval(pg_get_serial_sequence('fencelab.%s', '%s'), 1, false)", s.table, s.column))
		}
		batch.Queue(`INSERT INTO fencelab.tenant_assignments
			(tenant_id, membership_revision, region_id, region_epoch, active) VALUES ($1, $2, $3, $4, true)`,
			s.TenantID, s.MembershipRevision, s.RegionID, s.RegionEpoch)
		batch.Queue(`INSERT INTO fencelab.rollout_markers
			(marker_name, namespace_epoch, minimum_writer_version, checkpoint_schema_version) VALUES ('current', $1, $2, $3)`,
			s.NamespaceEpoch, s.MinimumWriterVersion, s.CheckpointSchemaVersion)
		batch.Queue(`INSERT INTO fencelab.resources
			(conflict_key, namespace_epoch, last_accepted_fence, summary_value, updated_at) VALUES ($1, $2, 0, $3, $4)`,
			s.ConflictKey, s.NamespaceEpoch, s.InitialValue, s.Now)
		return tx.SendBatch(ctx, batch).Close()
	})
	if err != nil {
		return fmt.Errorf("pgledger: seed: %w", err)
	}
	return nil
}

// ReadSummary reads a resource's business value.
func (l *Ledger) ReadSummary(ctx context.Context, conflictKey string) (int64, error) {
	var value int64
	err := within(ctx, func(ctx context.Context) error {
		return l.conn.QueryRow(ctx,
			`SELECT summary_value FROM fencelab.resources WHERE conflict_key = $1`, conflictKey).Scan(&value)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("pgledger: read %s: %w", conflictKey, engine.ErrNotFound)
	}
	if err != nil {
		return 0, fmt.Errorf("pgledger: read %s: %w", conflictKey, err)
	}
	return value, nil
}

// rejection is why a fenced mutation wrote nothing, and the guard that said so.
type rejection struct{ reason, guard string }

func (r *rejection) Error() string { return r.reason + ": " + r.guard }

// FencedMutation re-checks membership, region, version and namespace, then
// writes only if the token is above the last accepted one. Business row,
// checkpoint, execution and outbox commit together; a rejection writes
// none of it and is recorded as an execution of its own.
//
// It is one statement, one round trip (fencedWrite): it reads the
// configuration FOR SHARE and locks the resource row FOR UPDATE, and its
// conditional UPDATE — every check of DESIGN §4 in its WHERE — lands with
// the checkpoint, execution and outbox rows, or not at all. What it read
// comes back with it, so the checks are said here, in their order, as the
// guard that decided.
func (l *Ledger) FencedMutation(ctx context.Context, w engine.Write) (engine.WriteResult, error) {
	effect := w.EffectType
	if effect == "" {
		effect = "publish-summary"
	}
	var (
		c      configuration
		r      lockedResource
		tenant struct {
			revision, regionEpoch *int64
			region                *string
			active                *bool
		}
		written *int64
	)
	l.writes.Add(1)
	err := within(ctx, func(ctx context.Context) error {
		return l.conn.QueryRow(ctx, fencedWrite, w.TenantID, w.ConflictKey, w.Token, w.NamespaceEpoch,
			w.MembershipRevision, w.RegionID, w.RegionEpoch, w.ContractVersion, w.AddUnderLock, w.Delta, w.Value,
			w.ReadValue, w.Now, w.OperationID, w.JobName, w.Owner, w.CheckpointSchema, effect).
			Scan(&r.fence, &r.value, &r.epoch, &c.rollout.NamespaceEpoch, &c.rollout.MinimumWriterVersion,
				&c.rollout.CheckpointSchemaVersion, &tenant.revision, &tenant.region, &tenant.regionEpoch, &tenant.active, &written)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return engine.WriteResult{}, fmt.Errorf("pgledger: resource %s or the rollout marker: %w", w.ConflictKey, engine.ErrNotFound)
	}
	if err != nil {
		return engine.WriteResult{}, fmt.Errorf("pgledger: fenced write of %s: %w", w.OperationID, err)
	}
	if tenant.active != nil {
		c.found = true
		c.tenant = engine.Tenant{MembershipRevision: *tenant.revision, RegionID: *tenant.region, RegionEpoch: *tenant.regionEpoch, Active: *tenant.active}
	}
	if w.AddUnderLock {
		w.ReadValue, w.Value = &r.value, r.value+w.Delta
	}
	result := engine.WriteResult{}
	addedUnderLock(&result, w)
	rej := checkConfiguration(w, c)
	switch {
	case rej != nil:
	case r.epoch != w.NamespaceEpoch:
		rej = &rejection{engine.StaleNamespace, fmt.Sprintf("incoming namespace epoch %d = resource's %d → false", w.NamespaceEpoch, r.epoch)}
	case w.Token <= r.fence:
		rej = &rejection{engine.StaleFence, fmt.Sprintf("incoming %d > last accepted %s → false", w.Token, engine.FormatFence(r.fence))}
	}
	if rej != nil {
		if written != nil {
			return engine.WriteResult{}, fmt.Errorf("pgledger: %s was written though %s", w.OperationID, rej)
		}
		if err := l.recordRejection(ctx, w, rej.reason); err != nil {
			return engine.WriteResult{}, err
		}
		result.Rejection, result.Guard = rej.reason, rej.guard
		return result, nil
	}
	if written == nil {
		return engine.WriteResult{}, fmt.Errorf("pgledger: %s passed every check and was not written", w.OperationID)
	}
	result.Committed = true
	result.Guard = fmt.Sprintf("incoming %d > last accepted %s → true", w.Token, engine.FormatFence(r.fence))
	return result, nil
}

// fencedWrite is the fenced mutation as one statement. $1 tenant, $2
// conflict key, $3 token, $4 namespace epoch, $5 membership revision, $6
// region, $7 region epoch, $8 contract version, $9 adds under the lock,
// $10 delta, $11 value (a blind write's), $12 the value it was computed
// from, $13 now, $14 operation id, $15 job, $16 owner, $17 checkpoint
// schema, $18 effect type. It returns what it read — the resource row as
// locked, the rollout marker, the tenant's assignment (NULLs: none) — and
// the value it wrote, NULL when it wrote nothing.
const fencedWrite = `
	WITH t AS (
	  SELECT membership_revision, region_id, region_epoch, active
	    FROM fencelab.tenant_assignments WHERE tenant_id = $1 FOR SHARE
	), m AS (
	  SELECT namespace_epoch, minimum_writer_version, checkpoint_schema_version
	    FROM fencelab.rollout_markers WHERE marker_name = 'current' FOR SHARE
	), r AS (
	  SELECT last_accepted_fence, summary_value, namespace_epoch
	    FROM fencelab.resources WHERE conflict_key = $2 FOR UPDATE
	), u AS (
	  UPDATE fencelab.resources x
	     SET last_accepted_fence = $3::bigint,
	         summary_value = CASE WHEN $9::boolean THEN r.summary_value + $10::bigint ELSE $11::bigint END,
	         updated_at = $13
	    FROM r, t, m
	   WHERE x.conflict_key = $2
	     AND t.active AND t.membership_revision = $5 AND t.region_id = $6 AND t.region_epoch = $7
	     AND $8::int >= greatest(m.minimum_writer_version, m.checkpoint_schema_version)
	     AND m.namespace_epoch = $4::bigint AND x.namespace_epoch = $4::bigint AND x.last_accepted_fence < $3::bigint
	  RETURNING x.summary_value AS value, r.summary_value AS previous
	), checkpoint AS (
	  INSERT INTO fencelab.checkpoints (conflict_key, fencing_token, schema_version, summary_value, updated_at)
	  SELECT $2, nullif($3::bigint, 0), $17::int, value, $13 FROM u
	  ON CONFLICT (conflict_key) DO UPDATE
	     SET fencing_token = EXCLUDED.fencing_token, schema_version = EXCLUDED.schema_version,
	         summary_value = EXCLUDED.summary_value, updated_at = EXCLUDED.updated_at
	), execution AS (
	  INSERT INTO fencelab.executions (operation_id, job_name, tenant_id, conflict_key, owner, fencing_token,
	         namespace_epoch, state, rejection, contract_version, summary_value, created_at, updated_at,
	         membership_revision, region_id, region_epoch, read_value, previous_value)
	  SELECT $14, $15, $1, $2, $16, nullif($3::bigint, 0), $4::bigint, 'COMMITTED', NULL, $8::int, value, $13, $13,
	         $5, $6, $7, CASE WHEN $9::boolean THEN previous ELSE $12::bigint END, previous FROM u
	), outbox AS (
	  INSERT INTO fencelab.outbox (operation_id, effect_type, status, attempt_count, next_attempt_at, created_at, updated_at)
	  SELECT $14, $18, 'PENDING', 0, $13, $13, $13 FROM u
	)
	SELECT r.last_accepted_fence, r.summary_value, r.namespace_epoch,
	       m.namespace_epoch, m.minimum_writer_version, m.checkpoint_schema_version,
	       t.membership_revision, t.region_id, t.region_epoch, t.active,
	       (SELECT value FROM u)
	  FROM r CROSS JOIN m LEFT JOIN t ON true`

// configuration is what a fenced write is checked against: the tenant's
// assignment (found: it has one) and the rollout marker.
type configuration struct {
	tenant  engine.Tenant
	found   bool
	rollout engine.Rollout
}

// lockedResource is what a mutation read of the resource row under its lock.
type lockedResource struct{ fence, value, epoch int64 }

const lockResourceSQL = `SELECT last_accepted_fence, summary_value, namespace_epoch FROM fencelab.resources WHERE conflict_key = $1 FOR UPDATE`

// scanLocked reads the locked resource row.
func scanLocked(row pgx.Row, conflictKey string) (lockedResource, error) {
	var r lockedResource
	err := row.Scan(&r.fence, &r.value, &r.epoch)
	if errors.Is(err, pgx.ErrNoRows) {
		return r, fmt.Errorf("pgledger: resource %s: %w", conflictKey, engine.ErrNotFound)
	}
	if err != nil {
		return r, fmt.Errorf("pgledger: lock resource: %w", err)
	}
	return r, nil
}

// checkConfiguration runs the checks of DESIGN §4 step 1, in that order,
// on what the fenced write read.
func checkConfiguration(w engine.Write, c configuration) *rejection {
	t, r := c.tenant, c.rollout
	switch {
	case !c.found:
		return &rejection{engine.StaleMembership, fmt.Sprintf("tenant %s assigned → false", w.TenantID)}
	case !t.Active:
		return &rejection{engine.StaleMembership, fmt.Sprintf("%s still assigned (incoming revision %d, current %d, removed) → false",
			w.TenantID, w.MembershipRevision, t.MembershipRevision)}
	case t.MembershipRevision != w.MembershipRevision:
		return &rejection{engine.StaleMembership, fmt.Sprintf("incoming revision %d = current %d → false",
			w.MembershipRevision, t.MembershipRevision)}
	case t.RegionID != w.RegionID || t.RegionEpoch != w.RegionEpoch:
		return &rejection{engine.WrongRegion, fmt.Sprintf("incoming %s epoch %d = current %s epoch %d → false",
			w.RegionID, w.RegionEpoch, t.RegionID, t.RegionEpoch)}
	}
	required := max(r.MinimumWriterVersion, r.CheckpointSchemaVersion)
	if w.ContractVersion < required {
		return &rejection{engine.IncompatibleVersion, fmt.Sprintf("incoming contract %d ≥ required %d → false",
			w.ContractVersion, required)}
	}
	if w.NamespaceEpoch != r.NamespaceEpoch {
		return &rejection{engine.StaleNamespace, fmt.Sprintf("incoming namespace epoch %d = current %d → false",
			w.NamespaceEpoch, r.NamespaceEpoch)}
	}
	return nil
}

// commitBatch is a write's UPDATE of the resource (sql and args) followed
// by its checkpoint, execution and outbox rows, sent as one round trip.
func commitBatch(w engine.Write, previous int64, sql string, args ...any) *pgx.Batch {
	effect := w.EffectType
	if effect == "" {
		effect = "publish-summary"
	}
	batch := &pgx.Batch{}
	batch.Queue(sql, args...)
	batch.Queue(`
		INSERT INTO fencelab.checkpoints (conflict_key, fencing_token, schema_version, summary_value, updated_at)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (conflict_key) DO UPDATE
		   SET fencing_token = EXCLUDED.fencing_token, schema_version = EXCLUDED.schema_version,
		       summary_value = EXCLUDED.summary_value, updated_at = EXCLUDED.updated_at`,
		w.ConflictKey, nullToken(w.Token), w.CheckpointSchema, w.Value, w.Now)
	batch.Queue(insertExecution, w.OperationID, w.JobName, w.TenantID, w.ConflictKey, w.Owner,
		nullToken(w.Token), w.NamespaceEpoch, "COMMITTED", nil, w.ContractVersion, w.Value, w.Now,
		w.MembershipRevision, w.RegionID, w.RegionEpoch, w.ReadValue, &previous)
	batch.Queue(`
		INSERT INTO fencelab.outbox (operation_id, effect_type, status, attempt_count, next_attempt_at, created_at, updated_at)
		VALUES ($1, $2, 'PENDING', 0, $3, $3, $3)`,
		w.OperationID, effect, w.Now)
	return batch
}

// readCommitBatch reads a commit batch's results: the UPDATE must have
// changed the one row, and every insert gone in.
func readCommitBatch(results pgx.BatchResults, w engine.Write) error {
	tag, err := results.Exec()
	if err != nil {
		return fmt.Errorf("pgledger: update resource %s: %w", w.ConflictKey, err)
	}
	if tag.RowsAffected() != 1 {
		return fmt.Errorf("pgledger: resource %s changed under its lock: %w", w.ConflictKey, engine.ErrNotFound)
	}
	for range 3 { // checkpoint, execution, outbox
		if _, err := results.Exec(); err != nil {
			return fmt.Errorf("pgledger: record commit of %s: %w", w.OperationID, err)
		}
	}
	return nil
}

const insertExecution = `
	INSERT INTO fencelab.executions (operation_id, job_name, tenant_id, conflict_key, owner, fencing_token,
	       namespace_epoch, state, rejection, contract_version, summary_value, created_at, updated_at,
	       membership_revision, region_id, region_epoch, read_value, previous_value)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14, $15, $16, $17)`

func (l *Ledger) recordRejection(ctx context.Context, w engine.Write, reason string) error {
	_, err := l.exec(ctx, insertExecution+` ON CONFLICT (operation_id) DO NOTHING`,
		w.OperationID, w.JobName, w.TenantID, w.ConflictKey, w.Owner,
		nullToken(w.Token), w.NamespaceEpoch, "REJECTED", reason, w.ContractVersion, w.Value, w.Now,
		w.MembershipRevision, w.RegionID, w.RegionEpoch, w.ReadValue, nil)
	if err != nil {
		return fmt.Errorf("pgledger: record rejection of %s: %w", w.OperationID, err)
	}
	return nil
}

func nullToken(token int64) *int64 {
	if token == 0 {
		return nil
	}
	return &token
}

// UnfencedMutation is the naive write: no re-check, an unconditional UPDATE
// that takes the writer's token (if any) as the last accepted fence.
func (l *Ledger) UnfencedMutation(ctx context.Context, w engine.Write) (engine.WriteResult, error) {
	written := w
	lock := &pgx.Batch{}
	lock.Queue(lockResourceSQL, w.ConflictKey)
	err := l.batchedTx(ctx, lock, func(results pgx.BatchResults) (*pgx.Batch, error) {
		previous, err := scanLocked(results.QueryRow(), w.ConflictKey)
		if err != nil {
			return nil, err
		}
		if w.AddUnderLock {
			w.ReadValue, w.Value = &previous.value, previous.value+w.Delta
		}
		written = w
		return commitBatch(w, previous.value, `
			UPDATE fencelab.resources
			   SET summary_value = $2, updated_at = $3,
			       last_accepted_fence = CASE WHEN $4::bigint > 0 THEN $4::bigint ELSE last_accepted_fence END
			 WHERE conflict_key = $1`,
			w.ConflictKey, w.Value, w.Now, w.Token), nil
	}, func(results pgx.BatchResults) error { return readCommitBatch(results, written) })
	if err != nil {
		return engine.WriteResult{}, err
	}
	result := engine.WriteResult{Committed: true, Guard: lang.P("no guard (UNSAFE): unconditional UPDATE").String()}
	addedUnderLock(&result, written)
	return result, nil
}

// State reads the whole schema in one read-only snapshot.
func (l *Ledger) State(ctx context.Context) (engine.LedgerState, error) {
	var s engine.LedgerState
	// The reads go as one pipeline in one read-only snapshot: one round
	// trip, which is what the checker pays after every step.
	batch := &pgx.Batch{}
	batch.Queue("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
	for _, sql := range stateQueries {
		batch.Queue(sql)
	}
	batch.Queue("COMMIT")
	err := within(ctx, func(ctx context.Context) error {
		results := l.conn.SendBatch(ctx, batch)
		err := readState(ctx, pipelined{results}, &s)
		if cerr := results.Close(); err == nil {
			err = cerr
		}
		if err != nil && !l.conn.IsClosed() {
			l.conn.Exec(ctx, "ROLLBACK") // out of a snapshot a failed read left open
		}
		return err
	})
	if err != nil {
		return engine.LedgerState{}, fmt.Errorf("pgledger: read state: %w", err)
	}
	return s, nil
}

// pipelined reads a batch's results in order, as collect queries them.
type pipelined struct{ results pgx.BatchResults }

func (p pipelined) Query(context.Context, string, ...any) (pgx.Rows, error) { return p.results.Query() }

// stateQueries are State's reads, in readState's order.
var stateQueries = []string{sqlResources, sqlTenants, sqlRollout, sqlExecutions, sqlCheckpoints, sqlOutbox, sqlReceipts, sqlJobResults, sqlDump}

const (
	sqlResources = `
			SELECT conflict_key, namespace_epoch, last_accepted_fence, summary_value, updated_at
			  FROM fencelab.resources ORDER BY conflict_key`
	sqlTenants = `
			SELECT tenant_id, membership_revision, region_id, region_epoch, active
			  FROM fencelab.tenant_assignments ORDER BY tenant_id`
	sqlRollout = `
			SELECT namespace_epoch, minimum_writer_version, checkpoint_schema_version
			  FROM fencelab.rollout_markers WHERE marker_name = 'current'`
	sqlExecutions = `
			SELECT operation_id, job_name, tenant_id, owner, coalesce(fencing_token, 0), coalesce(namespace_epoch, 0),
			       state, coalesce(rejection, ''), contract_version, coalesce(summary_value, 0),
			       membership_revision, region_id, region_epoch,
			       read_value IS NOT NULL, coalesce(read_value, 0), coalesce(previous_value, 0)
			  FROM fencelab.executions ORDER BY execution_id`
	sqlCheckpoints = `
			SELECT conflict_key, coalesce(fencing_token, 0), schema_version, summary_value
			  FROM fencelab.checkpoints ORDER BY conflict_key`
	sqlOutbox = `
			SELECT operation_id, effect_type, status, attempt_count, next_attempt_at
			  FROM fencelab.outbox ORDER BY outbox_id`
	sqlReceipts = `
			SELECT provider, operation_id, status, receipt FROM fencelab.effect_receipts ORDER BY recorded_at, operation_id`
	sqlJobResults = `
			SELECT job_id, target, results FROM fencelab.job_results ORDER BY applied_at, job_id`
)

// readState reads State's results from q in stateQueries' order, after the
// BEGIN and before the COMMIT.
func readState(ctx context.Context, q querier, s *engine.LedgerState) error {
	if rows, err := q.Query(ctx, "BEGIN"); err != nil {
		return err
	} else if rows.Close(); rows.Err() != nil {
		return rows.Err()
	}
	err := func(ctx context.Context, tx querier) error {
		var err error
		if s.Resources, err = collect(ctx, tx, sqlResources,
			func(row pgx.CollectableRow) (r engine.Resource, err error) {
				err = row.Scan(&r.ConflictKey, &r.NamespaceEpoch, &r.LastAcceptedFence, &r.SummaryValue, &r.UpdatedAt)
				return r, err
			}); err != nil {
			return err
		}
		if s.Tenants, err = collect(ctx, tx, sqlTenants,
			func(row pgx.CollectableRow) (t engine.Tenant, err error) {
				err = row.Scan(&t.TenantID, &t.MembershipRevision, &t.RegionID, &t.RegionEpoch, &t.Active)
				return t, err
			}); err != nil {
			return err
		}
		rollouts, err := collect(ctx, tx, sqlRollout,
			func(row pgx.CollectableRow) (r engine.Rollout, err error) {
				err = row.Scan(&r.NamespaceEpoch, &r.MinimumWriterVersion, &r.CheckpointSchemaVersion)
				return r, err
			})
		if err != nil {
			return err
		}
		if len(rollouts) > 0 {
			s.Rollout = rollouts[0]
		}
		if s.Executions, err = collect(ctx, tx, sqlExecutions,
			func(row pgx.CollectableRow) (e engine.Execution, err error) {
				err = row.Scan(&e.OperationID, &e.JobName, &e.TenantID, &e.Owner, &e.FencingToken, &e.NamespaceEpoch,
					&e.State, &e.Rejection, &e.ContractVersion, &e.SummaryValue,
					&e.MembershipRevision, &e.RegionID, &e.RegionEpoch, &e.HasRead, &e.ReadValue, &e.PreviousValue)
				return e, err
			}); err != nil {
			return err
		}
		if s.Checkpoints, err = collect(ctx, tx, sqlCheckpoints,
			func(row pgx.CollectableRow) (c engine.Checkpoint, err error) {
				err = row.Scan(&c.ConflictKey, &c.FencingToken, &c.SchemaVersion, &c.SummaryValue)
				return c, err
			}); err != nil {
			return err
		}
		if s.Outbox, err = collect(ctx, tx, sqlOutbox,
			func(row pgx.CollectableRow) (o engine.OutboxRow, err error) {
				err = row.Scan(&o.OperationID, &o.EffectType, &o.Status, &o.AttemptCount, &o.NextAttemptAt)
				return o, err
			}); err != nil {
			return err
		}
		if s.Receipts, err = collect(ctx, tx, sqlReceipts,
			func(row pgx.CollectableRow) (r engine.Receipt, err error) {
				err = row.Scan(&r.Provider, &r.OperationID, &r.Status, &r.Receipt)
				return r, err
			}); err != nil {
			return err
		}
		if s.JobResults, err = collect(ctx, tx, sqlJobResults,
			func(row pgx.CollectableRow) (r engine.JobResult, err error) {
				err = row.Scan(&r.JobID, &r.Target, &r.Results)
				return r, err
			}); err != nil {
			return err
		}
		dumps, err := collect(ctx, tx, sqlDump, pgx.RowTo[engine.LedgerDump])
		if err == nil && len(dumps) == 1 {
			s.Dump = dumps[0]
		}
		return err
	}(ctx, q)
	if err != nil {
		return err
	}
	rows, err := q.Query(ctx, "COMMIT")
	if err != nil {
		return err
	}
	rows.Close()
	return rows.Err()
}

// querier is a transaction or a batch's results read in order.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

func collect[T any](ctx context.Context, tx querier, sql string, scan pgx.RowToFunc[T]) ([]T, error) {
	rows, err := tx.Query(ctx, sql)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, scan)
}

// Close ends the connection.
func (l *Ledger) Close(ctx context.Context) error {
	closeCtx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return l.conn.Close(closeCtx)
}

// addedUnderLock tells the writer what a write that added under the lock
// read and wrote.
func addedUnderLock(result *engine.WriteResult, w engine.Write) {
	if w.AddUnderLock && w.ReadValue != nil {
		result.Read, result.Value = *w.ReadValue, w.Value
	}
}

// EnsureResource makes sure a resource, its tenant and the rollout marker
// exist, inserting what is missing and changing nothing that is there —
// runs on many machines share it (stress --shared) — and returns the seed
// as the rows have it: a writer must match them, and its CounterStart is
// the biggest token the resource has seen, so a Redis that lost the
// counter (or had it deleted) does not hand out a token twice.
func (l *Ledger) EnsureResource(ctx context.Context, s engine.Seed) (engine.Seed, error) {
	err := l.inTx(ctx, pgx.TxOptions{}, func(ctx context.Context, tx pgx.Tx) error {
		batch := &pgx.Batch{}
		batch.Queue(`INSERT INTO fencelab.rollout_markers
			(marker_name, namespace_epoch, minimum_writer_version, checkpoint_schema_version) VALUES ('current', $1, $2, $3)
			ON CONFLICT DO NOTHING`, s.NamespaceEpoch, s.MinimumWriterVersion, s.CheckpointSchemaVersion)
		batch.Queue(`INSERT INTO fencelab.tenant_assignments
			(tenant_id, membership_revision, region_id, region_epoch, active) VALUES ($1, $2, $3, $4, true)
			ON CONFLICT DO NOTHING`, s.TenantID, s.MembershipRevision, s.RegionID, s.RegionEpoch)
		batch.Queue(`INSERT INTO fencelab.resources (conflict_key, namespace_epoch, last_accepted_fence, summary_value, updated_at)
			SELECT $1, namespace_epoch, 0, $2, $3 FROM fencelab.rollout_markers WHERE marker_name = 'current'
			ON CONFLICT DO NOTHING`, s.ConflictKey, s.InitialValue, s.Now)
		if err := tx.SendBatch(ctx, batch).Close(); err != nil {
			return err
		}
		var active bool
		err := tx.QueryRow(ctx, `
			SELECT t.membership_revision, t.region_id, t.region_epoch, t.active,
			       r.namespace_epoch, m.minimum_writer_version, m.checkpoint_schema_version,
			       greatest(r.last_accepted_fence, (SELECT coalesce(max(fencing_token), 0) FROM fencelab.executions
			                                         WHERE conflict_key = r.conflict_key AND namespace_epoch = r.namespace_epoch))
			  FROM fencelab.tenant_assignments t, fencelab.resources r, fencelab.rollout_markers m
			 WHERE t.tenant_id = $1 AND r.conflict_key = $2 AND m.marker_name = 'current'`, s.TenantID, s.ConflictKey).
			Scan(&s.MembershipRevision, &s.RegionID, &s.RegionEpoch, &active,
				&s.NamespaceEpoch, &s.MinimumWriterVersion, &s.CheckpointSchemaVersion, &s.CounterStart)
		if err == nil && !active {
			err = fmt.Errorf("tenant %s is removed: no write of it is accepted", s.TenantID)
		}
		return err
	})
	if err != nil {
		return engine.Seed{}, fmt.Errorf("pgledger: make sure %s exists: %w", s.ConflictKey, err)
	}
	return s, nil
}
