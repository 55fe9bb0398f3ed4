package pgledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
)

// Ledger is one actor's connection.
type Ledger struct {
	conn *pgx.Conn
	db   *Database // counts every write (inTx, exec, oneTrip), keeps a dump read back
	// name is the actor's the connection was handed to (Connect).
	name string
	// restoreNext is a restore waiting to go in front of the next
	// statement sent (RestoreWithNext).
	restoreNext *waitingRestore
	// setUp is the file's schema this connection set up (code.go).
	setUp *codeSchema
	// session is the advisory locks the session holds, as last read;
	// sessionKnown: no statement of the file's was sent since; busy: one
	// is out now (session.go). Atomic: the lab reads them while an
	// actor's statement waits for a lock.
	session      []engine.AdvisoryLock
	sessionKnown atomic.Bool
	busy         atomic.Bool
	// code is the connection a file's statements go on, logged in as the
	// file's role, and codeFor the schema it was opened for (coderole.go).
	// Atomic: the lab asks its server process while a statement waits.
	code    atomic.Pointer[pgx.Conn]
	codeFor *codeSchema
}

// inTx runs fn in one transaction within CallTimeout: rolled back when fn
// fails, committed otherwise (pgx.BeginTxFunc), so no caller handles a
// half-done transaction.
func (l *Ledger) inTx(ctx context.Context, opts pgx.TxOptions, fn func(context.Context, pgx.Tx) error) error {
	if err := l.sendRestore(ctx); err != nil {
		return err
	}
	l.db.writes.Add(1)
	return within(ctx, func(ctx context.Context) error {
		return pgx.BeginTxFunc(ctx, l.conn, opts, func(tx pgx.Tx) error { return fn(ctx, tx) })
	})
}

// exec runs one statement within CallTimeout, in one round trip.
func (l *Ledger) exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	var tag pgconn.CommandTag
	batch := &pgx.Batch{}
	batch.Queue(sql, args...)
	err := l.oneTrip(ctx, batch, true, func(results pgx.BatchResults) error {
		var err error
		tag, err = results.Exec()
		return err
	})
	return tag, err
}

// Seed empties the lab's tables and inserts a scenario's starting rows.
func (l *Ledger) Seed(ctx context.Context, s world.Seed) error {
	batch := &pgx.Batch{}
	// DELETE, not TRUNCATE: the tables hold a few rows, and TRUNCATE
	// makes new files for every table and index, a cost the checker
	// would pay on every schedule.
	for _, t := range tables {
		batch.Queue("DELETE FROM fencelab." + t.name)
	}
	for _, s := range sequences {
		batch.Queue(fmt.Sprintf("SELECT setval(%s, 1, false)", s.regclass()))
	}
	batch.Queue(`INSERT INTO fencelab.tenant_assignments
		(tenant_id, membership_revision, region_id, region_epoch, active) VALUES ($1, $2, $3, $4, true)`,
		s.TenantID, s.MembershipRevision, s.RegionID, s.RegionEpoch)
	if s.NeighbourTenant != "" {
		batch.Queue(`INSERT INTO fencelab.tenant_assignments
			(tenant_id, membership_revision, region_id, region_epoch, active) VALUES ($1, $2, $3, $4, true)`,
			s.NeighbourTenant, s.MembershipRevision, s.RegionID, s.RegionEpoch)
	}
	batch.Queue(`INSERT INTO fencelab.rollout_markers
		(marker_name, namespace_epoch, minimum_writer_version, checkpoint_schema_version) VALUES ('current', $1, $2, $3)`,
		s.NamespaceEpoch, s.MinimumWriterVersion, s.CheckpointSchemaVersion)
	batch.Queue(`INSERT INTO fencelab.resources
		(conflict_key, namespace_epoch, last_accepted_fence, summary_value, updated_at) VALUES ($1, $2, 0, $3, $4)`,
		s.ConflictKey, s.NamespaceEpoch, s.InitialValue, s.Now)
	if s.Neighbour != "" {
		batch.Queue(`INSERT INTO fencelab.resources
			(conflict_key, namespace_epoch, last_accepted_fence, summary_value, updated_at) VALUES ($1, $2, 0, $3, $4)`,
			s.Neighbour, s.NamespaceEpoch, s.NeighbourValue, s.Now)
	}
	if err := l.oneTrip(ctx, batch, true, nil); err != nil {
		return fmt.Errorf("pgledger: seed: %w", err)
	}
	return nil
}

// Warm prepares the statements a writer sends round after round — the
// fenced write, the summary's read, the schema's read back — and reads
// the schema once, so the server process behind a new connection has
// parsed them, and read the catalog entries of every table, before its
// first round: a stress worker's first write, or a lab actor's, cost
// about four times a later one.
func (l *Ledger) Warm(ctx context.Context) error {
	if err := l.sendRestore(ctx); err != nil {
		return err
	}
	return within(ctx, func(ctx context.Context) error {
		for _, sql := range []string{fencedWrite, readSummary, sqlDump} {
			if _, err := l.conn.Prepare(ctx, sql, sql); err != nil {
				return fmt.Errorf("pgledger: prepare: %w", err)
			}
		}
		var dump string
		if err := l.conn.QueryRow(ctx, sqlDump).Scan(&dump); err != nil {
			return fmt.Errorf("pgledger: warm: %w", err)
		}
		return nil
	})
}

const readSummary = `SELECT summary_value FROM fencelab.resources WHERE conflict_key = $1`

// ReadSummary reads a resource's business value.
func (l *Ledger) ReadSummary(ctx context.Context, conflictKey string) (int64, error) {
	var value int64
	err := l.sendRestore(ctx)
	if err != nil {
		return 0, err
	}
	err = within(ctx, func(ctx context.Context) error {
		return l.conn.QueryRow(ctx, readSummary, conflictKey).Scan(&value)
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
// the checkpoint, execution and outbox rows, or records the rejection, or
// not at all. What it read comes back with it, so the checks are said
// here, in their order, as the guard that decided.
//
// w.Without takes guards out of the statement, each check becoming
// "removed OR check" (one statement for every combination). Without the
// outbox guard the statement writes the business row and its checkpoint
// only, and RecordWrite records the execution and the outbox row in a
// transaction of its own: the dual write the outbox exists to avoid.
// The execution and outbox rows are written once per OperationId (a retry
// of a write that landed adds none).
func (l *Ledger) FencedMutation(ctx context.Context, w world.Write) (world.WriteResult, error) {
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
		written, previous *int64
		reason            string
		unrecorded        bool // no execution row went in: its OperationId was on record
	)
	off := func(g engine.Guard) bool { return w.Without.Has(g) }
	record := !off(world.GuardOutbox)
	args := []any{w.TenantID, w.ConflictKey, w.Token, w.NamespaceEpoch,
		w.MembershipRevision, w.RegionID, w.RegionEpoch, w.ContractVersion, w.AddUnderLock, w.Delta, w.Value,
		w.ReadValue, w.Now, w.OperationID, w.JobName, w.Owner, w.CheckpointSchema, effect,
		off(world.GuardMembership), off(world.GuardRegion), off(world.GuardVersion), off(world.GuardNamespace),
		off(world.GuardFence), record}
	scan := func(row pgx.Row) error {
		return row.Scan(&r.fence, &r.value, &r.epoch, &c.rollout.NamespaceEpoch, &c.rollout.MinimumWriterVersion,
			&c.rollout.CheckpointSchemaVersion, &tenant.revision, &tenant.region, &tenant.regionEpoch, &tenant.active,
			&written, &previous, &reason, &unrecorded)
	}
	var err error
	if l.db.reading() || engine.OnWire(ctx) {
		batch := &pgx.Batch{}
		batch.Queue(fencedWrite, args...)
		err = l.oneTrip(ctx, batch, true, func(results pgx.BatchResults) error { return scan(results.QueryRow()) })
	} else {
		// Nothing to read back and no actor's call to cut (a stress
		// run's writes): the statement alone, without a batch's pipeline,
		// a few percent of a write.
		if err := l.sendRestore(ctx); err != nil {
			return world.WriteResult{}, err
		}
		l.db.writes.Add(1)
		err = within(ctx, func(ctx context.Context) error { return scan(l.conn.QueryRow(ctx, fencedWrite, args...)) })
	}
	if errors.Is(err, pgx.ErrNoRows) {
		return world.WriteResult{}, fmt.Errorf("pgledger: resource %s or the rollout marker: %w", w.ConflictKey, engine.ErrNotFound)
	}
	if err != nil {
		return world.WriteResult{}, fmt.Errorf("pgledger: fenced write of %s: %w", w.OperationID, err)
	}
	if tenant.active != nil {
		c.found = true
		c.tenant = world.Tenant{MembershipRevision: *tenant.revision, RegionID: *tenant.region, RegionEpoch: *tenant.regionEpoch, Active: *tenant.active}
	}
	if w.AddUnderLock {
		w.ReadValue, w.Value = &r.value, r.value+w.Delta
	}
	result := world.WriteResult{}
	addedUnderLock(&result, w)
	rej, overlooked := decide(w, c, r)
	if rej != nil {
		if written != nil {
			return world.WriteResult{}, fmt.Errorf("pgledger: %s was written though %s", w.OperationID, rej)
		}
		if reason != rej.reason {
			return world.WriteResult{}, fmt.Errorf("pgledger: the statement refused %s for %s, its checks say %s", w.OperationID, reason, rej.reason)
		}
		result.Rejection, result.Guard = rej.reason, rej.guard
		return result, nil
	}
	if written == nil {
		return world.WriteResult{}, fmt.Errorf("pgledger: %s passed every check and was not written", w.OperationID)
	}
	result.Committed, result.Previous = true, *previous
	result.OnRecord = record && unrecorded
	result.Guard = fmt.Sprintf("incoming %d > last accepted %s → true", w.Token, world.FormatFence(r.fence))
	if overlooked != nil {
		// What the removed guard would have said, so the screen shows why
		// this write got through.
		result.Guard = fmt.Sprintf("%s → false (%s removed)", overlooked.expr, overlooked.guard)
		result.Overlooked = overlooked.guard.String()
	}
	return result, nil
}

// RecordWrite records a write's execution — COMMITTED, or REJECTED with
// its reason — and a commit's outbox row, in one transaction of their own:
// what FencedMutation leaves to it when the outbox guard is removed.
func (l *Ledger) RecordWrite(ctx context.Context, w world.Write, r world.WriteResult) error {
	effect := w.EffectType
	if effect == "" {
		effect = "publish-summary"
	}
	value, readValue := w.Value, w.ReadValue
	if w.AddUnderLock {
		value, readValue = r.Value, &r.Read
	}
	batch := &pgx.Batch{}
	if r.Committed {
		previous := r.Previous
		batch.Queue(insertExecution+` ON CONFLICT (operation_id) DO NOTHING`, w.OperationID, w.JobName, w.TenantID, w.ConflictKey, w.Owner,
			nullToken(w.Token), w.NamespaceEpoch, "COMMITTED", nil, w.ContractVersion, value, w.Now,
			w.MembershipRevision, w.RegionID, w.RegionEpoch, readValue, &previous)
		batch.Queue(insertOutbox, w.OperationID, effect, w.Now)
	} else {
		batch.Queue(insertExecution+` ON CONFLICT (operation_id) DO NOTHING`, w.OperationID, w.JobName, w.TenantID, w.ConflictKey, w.Owner,
			nullToken(w.Token), w.NamespaceEpoch, "REJECTED", r.Rejection, w.ContractVersion, value, w.Now,
			w.MembershipRevision, w.RegionID, w.RegionEpoch, readValue, nil)
	}
	if err := l.oneTrip(ctx, batch, true, nil); err != nil {
		return fmt.Errorf("pgledger: record the write of %s: %w", w.OperationID, err)
	}
	return nil
}

// fencedWrite is the fenced mutation as one statement. $1 tenant, $2
// conflict key, $3 token, $4 namespace epoch, $5 membership revision, $6
// region, $7 region epoch, $8 contract version, $9 adds under the lock,
// $10 delta, $11 value (a blind write's), $12 the value it was computed
// from, $13 now, $14 operation id, $15 job, $16 owner, $17 checkpoint
// schema, $18 effect type; $19–$23 true where a guard is removed
// (membership, region, version, namespace, fence); $24 records the
// execution and outbox rows (false: the outbox guard is removed, and
// RecordWrite does it). It returns what it read — the resource row as
// locked, the rollout marker, the tenant's assignment (NULLs: none) —, the
// value it wrote and the one it replaced (NULL when it wrote nothing), the
// reason it would refuse for, and whether no execution row went in (its
// OperationId was on record already).
// FencedWriteSQL is the statement of a fenced write, for bench's pgbench
// floor: the one statement a SAFE write sends.
var FencedWriteSQL = fencedWrite

var fencedWrite = `
	WITH t AS (
	  SELECT membership_revision, region_id, region_epoch, active
	    FROM fencelab.tenant_assignments WHERE tenant_id = $1 FOR SHARE
	), m AS (
	  SELECT namespace_epoch, minimum_writer_version, checkpoint_schema_version
	    FROM fencelab.rollout_markers WHERE marker_name = 'current' FOR SHARE
	), r AS (
	  SELECT last_accepted_fence, summary_value, namespace_epoch
	    FROM fencelab.resources WHERE conflict_key = $2 FOR UPDATE
	), c AS (
	  SELECT ($19::boolean OR coalesce(t.active AND t.membership_revision = $5, false)) AS membership,
	         ($20::boolean OR coalesce(t.region_id = $6 AND t.region_epoch = $7, false)) AS region,
	         ($21::boolean OR $8::int >= greatest(m.minimum_writer_version, m.checkpoint_schema_version)) AS version,
	         ($22::boolean OR (m.namespace_epoch = $4::bigint AND r.namespace_epoch = $4::bigint)) AS namespace,
	         ($23::boolean OR r.last_accepted_fence < $3::bigint) AS fence
	    FROM r CROSS JOIN m LEFT JOIN t ON true
	), v AS (
	  SELECT c.*, CASE WHEN NOT membership THEN 'STALE_MEMBERSHIP' WHEN NOT region THEN 'WRONG_REGION'
	                   WHEN NOT version THEN 'INCOMPATIBLE_VERSION' WHEN NOT namespace THEN 'STALE_NAMESPACE'
	                   WHEN NOT fence THEN 'STALE_FENCE' ELSE '' END AS reason
	    FROM c
	), u AS (
	  UPDATE fencelab.resources x
	     SET last_accepted_fence = $3::bigint,
	         summary_value = CASE WHEN $9::boolean THEN r.summary_value + $10::bigint ELSE $11::bigint END,
	         updated_at = $13
	    FROM r, v
	   WHERE x.conflict_key = $2 AND v.reason = ''
	  RETURNING x.summary_value AS value, r.summary_value AS previous
	), ` + commitRows("$24::boolean") + `, rejected AS (
	  INSERT INTO fencelab.executions (operation_id, job_name, tenant_id, conflict_key, owner, fencing_token,
	         namespace_epoch, state, rejection, contract_version, summary_value, created_at, updated_at,
	         membership_revision, region_id, region_epoch, read_value, previous_value)
	  SELECT $14, $15, $1, $2, $16, nullif($3::bigint, 0), $4::bigint, 'REJECTED', v.reason, $8::int,
	         CASE WHEN $9::boolean THEN r.summary_value + $10::bigint ELSE $11::bigint END, $13, $13,
	         $5, $6, $7, CASE WHEN $9::boolean THEN r.summary_value ELSE $12::bigint END, NULL
	    FROM v, r WHERE $24::boolean AND v.reason <> ''
	  ON CONFLICT (operation_id) DO NOTHING
	)
	SELECT r.last_accepted_fence, r.summary_value, r.namespace_epoch,
	       m.namespace_epoch, m.minimum_writer_version, m.checkpoint_schema_version,
	       t.membership_revision, t.region_id, t.region_epoch, t.active,
	       (SELECT value FROM u), (SELECT previous FROM u), (SELECT reason FROM v),
	       NOT EXISTS (SELECT FROM execution)
	  FROM r CROSS JOIN m LEFT JOIN t ON true`

// configuration is what a fenced write is checked against: the tenant's
// assignment (found: it has one) and the rollout marker.
type configuration struct {
	tenant  world.Tenant
	found   bool
	rollout world.Rollout
}

// lockedResource is what a mutation read of the resource row under its lock.
type lockedResource struct{ fence, value, epoch int64 }

// failedCheck is a check of DESIGN §4 that a write fails: its guard, the
// reason it refuses with, and the check as evaluated.
type failedCheck struct {
	guard  engine.Guard
	reason string
	expr   string
}

// decide runs the checks of DESIGN §4, in their order, on what the fenced
// write read: the first that fails and is not removed refuses the write;
// the first that fails but is removed is what the write got past.
func decide(w world.Write, c configuration, r lockedResource) (refused *rejection, overlooked *failedCheck) {
	for _, f := range failedChecks(w, c, r) {
		if w.Without.Has(f.guard) {
			if overlooked == nil {
				overlooked = &f
			}
			continue
		}
		return &rejection{f.reason, f.expr + " → false"}, overlooked
	}
	return nil, overlooked
}

// failedChecks lists the checks a write fails, in DESIGN §4's order, each
// once (the membership, region and version checks read the tenant and the
// rollout marker; the namespace and fence checks the resource row).
func failedChecks(w world.Write, c configuration, r lockedResource) []failedCheck {
	var out []failedCheck
	t, m := c.tenant, c.rollout
	switch {
	case !c.found:
		out = append(out, failedCheck{world.GuardMembership, world.StaleMembership, fmt.Sprintf("tenant %s assigned", w.TenantID)})
	case !t.Active:
		out = append(out, failedCheck{world.GuardMembership, world.StaleMembership,
			fmt.Sprintf("%s still assigned (incoming revision %d, current %d, removed)", w.TenantID, w.MembershipRevision, t.MembershipRevision)})
	case t.MembershipRevision != w.MembershipRevision:
		out = append(out, failedCheck{world.GuardMembership, world.StaleMembership,
			fmt.Sprintf("incoming revision %d = current %d", w.MembershipRevision, t.MembershipRevision)})
	}
	if !c.found || t.RegionID != w.RegionID || t.RegionEpoch != w.RegionEpoch {
		current := "none"
		if c.found {
			current = fmt.Sprintf("%s epoch %d", t.RegionID, t.RegionEpoch)
		}
		out = append(out, failedCheck{world.GuardRegion, world.WrongRegion,
			fmt.Sprintf("incoming %s epoch %d = current %s", w.RegionID, w.RegionEpoch, current)})
	}
	if required := max(m.MinimumWriterVersion, m.CheckpointSchemaVersion); w.ContractVersion < required {
		out = append(out, failedCheck{world.GuardVersion, world.IncompatibleVersion,
			fmt.Sprintf("incoming contract %d ≥ required %d", w.ContractVersion, required)})
	}
	switch {
	case w.NamespaceEpoch != m.NamespaceEpoch:
		out = append(out, failedCheck{world.GuardNamespace, world.StaleNamespace,
			fmt.Sprintf("incoming namespace epoch %d = current %d", w.NamespaceEpoch, m.NamespaceEpoch)})
	case r.epoch != w.NamespaceEpoch:
		out = append(out, failedCheck{world.GuardNamespace, world.StaleNamespace,
			fmt.Sprintf("incoming namespace epoch %d = resource's %d", w.NamespaceEpoch, r.epoch)})
	}
	if w.Token <= r.fence {
		out = append(out, failedCheck{world.GuardFence, world.StaleFence,
			fmt.Sprintf("incoming %d > last accepted %s", w.Token, world.FormatFence(r.fence))})
	}
	return out
}

// insertOutbox enqueues a commit's effect, once per OperationId.
const insertOutbox = `
	INSERT INTO fencelab.outbox (operation_id, effect_type, status, attempt_count, next_attempt_at, created_at, updated_at)
	VALUES ($1, $2, 'PENDING', 0, $3, $3, $3)
	ON CONFLICT (operation_id) DO NOTHING`

const insertExecution = `
	INSERT INTO fencelab.executions (operation_id, job_name, tenant_id, conflict_key, owner, fencing_token,
	       namespace_epoch, state, rejection, contract_version, summary_value, created_at, updated_at,
	       membership_revision, region_id, region_epoch, read_value, previous_value)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $13, $14, $15, $16, $17)`

func nullToken(token int64) *int64 {
	if token == 0 {
		return nil
	}
	return &token
}

// UnfencedMutation is the naive write: no re-check, an unconditional UPDATE
// that takes the writer's token (if any) as the last accepted fence, with
// the checkpoint, execution and outbox rows a commit writes — one
// statement, one round trip (unfencedWrite).
func (l *Ledger) UnfencedMutation(ctx context.Context, w world.Write) (world.WriteResult, error) {
	effect := w.EffectType
	if effect == "" {
		effect = "publish-summary"
	}
	var value, previous int64
	var unrecorded bool
	batch := &pgx.Batch{}
	batch.Queue(unfencedWrite, w.TenantID, w.ConflictKey, w.Token, w.NamespaceEpoch,
		w.MembershipRevision, w.RegionID, w.RegionEpoch, w.ContractVersion, w.AddUnderLock, w.Delta, w.Value,
		w.ReadValue, w.Now, w.OperationID, w.JobName, w.Owner, w.CheckpointSchema, effect)
	err := l.oneTrip(ctx, batch, true, func(results pgx.BatchResults) error {
		return results.QueryRow().Scan(&value, &previous, &unrecorded)
	})
	if errors.Is(err, pgx.ErrNoRows) {
		return world.WriteResult{}, fmt.Errorf("pgledger: resource %s: %w", w.ConflictKey, engine.ErrNotFound)
	}
	if err != nil {
		return world.WriteResult{}, fmt.Errorf("pgledger: unfenced write of %s: %w", w.OperationID, err)
	}
	if w.AddUnderLock {
		w.ReadValue, w.Value = &previous, value
	}
	result := world.WriteResult{Committed: true, Guard: lang.P("no guard (UNSAFE): unconditional UPDATE").String(), OnRecord: unrecorded}
	addedUnderLock(&result, w)
	return result, nil
}

// unfencedWrite is the naive write as one statement: the resource row
// locked, updated whatever it holds, and the rows a commit writes
// (commitRows). Its parameters are the fenced write's first 18 ($1
// tenant, $2 conflict key, $3 token, 0: none, $4 namespace epoch, …, $18
// effect type). It returns the value written, the one it replaced and
// whether no execution row went in (its OperationId was on record); no
// row: there is no such resource.
var unfencedWrite = `
	WITH r AS (
	  SELECT summary_value FROM fencelab.resources WHERE conflict_key = $2 FOR UPDATE
	), u AS (
	  UPDATE fencelab.resources x
	     SET summary_value = CASE WHEN $9::boolean THEN r.summary_value + $10::bigint ELSE $11::bigint END,
	         updated_at = $13,
	         last_accepted_fence = CASE WHEN $3::bigint > 0 THEN $3::bigint ELSE x.last_accepted_fence END
	    FROM r
	   WHERE x.conflict_key = $2
	  RETURNING x.summary_value AS value, r.summary_value AS previous
	), ` + commitRows("true") + `
	SELECT value, previous, NOT EXISTS (SELECT FROM execution) FROM u`

// commitRows is what a write that landed writes beside the resource row,
// as data-modifying WITH items over u (the UPDATE's RETURNING: value
// written, previous value): the checkpoint, the execution COMMITTED and
// the outbox row, the last two once per OperationId and only where
// record holds. The parameters are the fenced write's ($1–$18).
func commitRows(record string) string {
	return `checkpoint AS (
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
	         $5, $6, $7, CASE WHEN $9::boolean THEN previous ELSE $12::bigint END, previous FROM u WHERE ` + record + `
	  ON CONFLICT (operation_id) DO NOTHING
	  RETURNING 1
	), outbox AS (
	  INSERT INTO fencelab.outbox (operation_id, effect_type, status, attempt_count, next_attempt_at, created_at, updated_at)
	  SELECT $14, $18, 'PENDING', 0, $13, $13, $13 FROM u WHERE ` + record + `
	  ON CONFLICT (operation_id) DO NOTHING
	)`
}

// State reads the whole schema: one statement, so one snapshot and one
// round trip — what the checker pays after every step that wrote. The
// statement reads the dump (every row of every table, PostgreSQL's own
// JSON); the rows the lab looks at are decoded from it.
func (l *Ledger) State(ctx context.Context) (engine.LedgerState, error) {
	if err := l.sendRestore(ctx); err != nil {
		return engine.LedgerState{}, err
	}
	dump, err := l.readDump(ctx)
	if err != nil {
		return engine.LedgerState{}, fmt.Errorf("pgledger: read state: %w", err)
	}
	s, err := dumps.state(engine.LedgerDump(dump))
	if err != nil {
		return engine.LedgerState{}, fmt.Errorf("pgledger: read state: %w", err)
	}
	return s, nil
}

// The rows of a dump as PostgreSQL writes them (row_to_json): a column's
// name, its value, null for NULL.
type (
	resourceRow struct {
		ConflictKey       string    `json:"conflict_key"`
		NamespaceEpoch    int64     `json:"namespace_epoch"`
		LastAcceptedFence int64     `json:"last_accepted_fence"`
		SummaryValue      int64     `json:"summary_value"`
		UpdatedAt         time.Time `json:"updated_at"`
	}
	tenantRow struct {
		TenantID           string `json:"tenant_id"`
		MembershipRevision int64  `json:"membership_revision"`
		RegionID           string `json:"region_id"`
		RegionEpoch        int64  `json:"region_epoch"`
		Active             bool   `json:"active"`
	}
	rolloutRow struct {
		MarkerName              string `json:"marker_name"`
		NamespaceEpoch          int64  `json:"namespace_epoch"`
		MinimumWriterVersion    int    `json:"minimum_writer_version"`
		CheckpointSchemaVersion int    `json:"checkpoint_schema_version"`
	}
	executionRow struct {
		OperationID        string  `json:"operation_id"`
		ConflictKey        string  `json:"conflict_key"`
		JobName            string  `json:"job_name"`
		TenantID           string  `json:"tenant_id"`
		Owner              string  `json:"owner"`
		FencingToken       *int64  `json:"fencing_token"`
		NamespaceEpoch     *int64  `json:"namespace_epoch"`
		State              string  `json:"state"`
		Rejection          *string `json:"rejection"`
		ContractVersion    int     `json:"contract_version"`
		SummaryValue       *int64  `json:"summary_value"`
		MembershipRevision int64   `json:"membership_revision"`
		RegionID           string  `json:"region_id"`
		RegionEpoch        int64   `json:"region_epoch"`
		ReadValue          *int64  `json:"read_value"`
		PreviousValue      *int64  `json:"previous_value"`
	}
	checkpointRow struct {
		ConflictKey   string `json:"conflict_key"`
		FencingToken  *int64 `json:"fencing_token"`
		SchemaVersion int    `json:"schema_version"`
		SummaryValue  int64  `json:"summary_value"`
	}
	outboxRow struct {
		OperationID   string    `json:"operation_id"`
		EffectType    string    `json:"effect_type"`
		Status        string    `json:"status"`
		AttemptCount  int       `json:"attempt_count"`
		NextAttemptAt time.Time `json:"next_attempt_at"`
	}
	receiptRow struct {
		Provider    string    `json:"provider"`
		OperationID string    `json:"operation_id"`
		Status      string    `json:"status"`
		Receipt     string    `json:"receipt"`
		RecordedAt  time.Time `json:"recorded_at"`
	}
	jobResultRow struct {
		JobID     string    `json:"job_id"`
		Target    string    `json:"target"`
		Results   string    `json:"results"`
		AppliedAt time.Time `json:"applied_at"`
	}
)

// stateOf decodes the rows the lab looks at from a dump; the dump itself
// goes with them. Each table is decoded from its part of the dump through
// decodedTables: a search's states share most of their tables.
func stateOf(dump engine.LedgerDump) (engine.LedgerState, error) {
	parsed, err := dumps.parse(dump)
	if err != nil {
		return engine.LedgerState{}, fmt.Errorf("a dump that does not decode: %w", err)
	}
	parts := parsed.parts
	s := engine.LedgerState{Dump: dump}
	var rows world.Rows
	if rows.Resources, err = decodeTable(parts, "resources", func(r resourceRow) world.Resource {
		return world.Resource{ConflictKey: r.ConflictKey, NamespaceEpoch: r.NamespaceEpoch,
			LastAcceptedFence: r.LastAcceptedFence, SummaryValue: r.SummaryValue, UpdatedAt: r.UpdatedAt}
	}, nil); err != nil {
		return s, err
	}
	if rows.Tenants, err = decodeTable(parts, "tenant_assignments", func(t tenantRow) world.Tenant {
		return world.Tenant{TenantID: t.TenantID, MembershipRevision: t.MembershipRevision,
			RegionID: t.RegionID, RegionEpoch: t.RegionEpoch, Active: t.Active}
	}, nil); err != nil {
		return s, err
	}
	rollouts, err := decodeTable(parts, "rollout_markers", func(m rolloutRow) rolloutRow { return m }, nil)
	if err != nil {
		return s, err
	}
	for _, m := range rollouts {
		if m.MarkerName == "current" {
			rows.Rollout = world.Rollout{NamespaceEpoch: m.NamespaceEpoch, MinimumWriterVersion: m.MinimumWriterVersion,
				CheckpointSchemaVersion: m.CheckpointSchemaVersion}
		}
	}
	if rows.Executions, err = decodeTable(parts, "executions", func(e executionRow) world.Execution {
		x := world.Execution{OperationID: e.OperationID, ConflictKey: e.ConflictKey, JobName: e.JobName, TenantID: e.TenantID,
			Owner: e.Owner, FencingToken: or0(e.FencingToken), NamespaceEpoch: or0(e.NamespaceEpoch), State: e.State,
			ContractVersion: e.ContractVersion, SummaryValue: or0(e.SummaryValue), MembershipRevision: e.MembershipRevision,
			RegionID: e.RegionID, RegionEpoch: e.RegionEpoch, HasRead: e.ReadValue != nil, ReadValue: or0(e.ReadValue),
			PreviousValue: or0(e.PreviousValue)}
		if e.Rejection != nil {
			x.Rejection = *e.Rejection
		}
		return x
	}, nil); err != nil {
		return s, err
	}
	if rows.Checkpoints, err = decodeTable(parts, "checkpoints", func(c checkpointRow) world.Checkpoint {
		return world.Checkpoint{ConflictKey: c.ConflictKey, FencingToken: or0(c.FencingToken),
			SchemaVersion: c.SchemaVersion, SummaryValue: c.SummaryValue}
	}, nil); err != nil {
		return s, err
	}
	if rows.Outbox, err = decodeTable(parts, "outbox", func(o outboxRow) world.OutboxRow {
		return world.OutboxRow{OperationID: o.OperationID, EffectType: o.EffectType, Status: o.Status,
			AttemptCount: o.AttemptCount, NextAttemptAt: o.NextAttemptAt}
	}, nil); err != nil {
		return s, err
	}
	// Receipts and results in the order they were recorded.
	if rows.Receipts, err = decodeTable(parts, "effect_receipts", func(r receiptRow) world.Receipt {
		return world.Receipt{Provider: r.Provider, OperationID: r.OperationID, Status: r.Status, Receipt: r.Receipt}
	}, func(a, b receiptRow) int {
		if c := a.RecordedAt.Compare(b.RecordedAt); c != 0 {
			return c
		}
		return strings.Compare(a.OperationID, b.OperationID)
	}); err != nil {
		return s, err
	}
	if rows.JobResults, err = decodeTable(parts, "job_results", func(r jobResultRow) world.JobResult {
		return world.JobResult{JobID: r.JobID, Target: r.Target, Results: r.Results}
	}, func(a, b jobResultRow) int {
		if c := a.AppliedAt.Compare(b.AppliedAt); c != 0 {
			return c
		}
		return strings.Compare(a.JobID, b.JobID)
	}); err != nil {
		return s, err
	}
	if rows.Times, err = recordedTimes(parts); err != nil {
		return s, err
	}
	s.Rows = rows
	if strings.Contains(string(dump), `"`+codeTablePrefix) || strings.Contains(string(dump), `"`+codeValuePrefix) {
		if s.Code, err = codeState(parts); err != nil {
			return s, err
		}
	}
	return s, nil
}

func or0(p *int64) int64 {
	if p == nil {
		return 0
	}
	return *p
}

// decodeTable is the rows of one table of a dump (parts: its tables, by
// name) as the lab reads them: each row of the table's JSON as R, in the
// order sorted by order (nil: as the dump has them), made into a T. What
// it returns is shared, and read only.
func decodeTable[R, T any](parts map[string]json.RawMessage, name string, row func(R) T, order func(a, b R) int) ([]T, error) {
	text := parts[name]
	if len(text) == 0 {
		return nil, nil
	}
	key := name + "\x00" + string(text)
	if known, ok := decodedTables.get(key); ok {
		return known.([]T), nil
	}
	var raw []R
	if err := json.Unmarshal(text, &raw); err != nil {
		return nil, fmt.Errorf("a dump whose %s does not decode: %w", name, err)
	}
	if order != nil {
		slices.SortStableFunc(raw, order)
	}
	var out []T
	for _, r := range raw {
		out = append(out, row(r))
	}
	decodedTables.put(key, out)
	return out, nil
}

// decodedTables keeps each table's rows as decodeTable made them, by the
// table's name and text: a check's states share most of their tables
// with the states before them, and a state whose whole dump is new (the
// cache of dumps holds a few thousand) mostly has one table that is.
var decodedTables = &tableCache{}

// tableCache is a bounded map; when full it starts again.
type tableCache struct {
	mu    sync.Mutex
	known map[string]any
}

func (c *tableCache) get(key string) (any, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.known[key]
	return v, ok
}

func (c *tableCache) put(key string, v any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.known == nil || len(c.known) >= dumpCacheSize {
		c.known = make(map[string]any, dumpCacheSize)
	}
	c.known[key] = v
}

// recordedTimes are the moments the rows of a dump hold (d: its tables,
// by name): the value of each
// column named *_at (the schema's timestamps), named by its table, its
// row and the column, for invariant 10 to hold them to the lab clock.
func recordedTimes(d map[string]json.RawMessage) ([]world.RecordedTime, error) {
	var times []world.RecordedTime
	for _, t := range tables {
		if len(d[t.name]) == 0 {
			continue
		}
		found, err := tableTimes.of(t, d[t.name])
		if err != nil {
			return nil, err
		}
		times = append(times, found...)
	}
	return times, nil
}

// tableTimes keeps the moments of each table's text as last decoded: a
// search's states share most tables' rows with the states before them,
// and decoding them anew was a tenth of what a check's state cost.
var tableTimes = &timesCache{}

type timesCache struct {
	mu    sync.Mutex
	known map[string][]world.RecordedTime // by table name, NUL, its text
}

// of is the moments of one table's rows, shared and read only.
func (c *timesCache) of(t table, text json.RawMessage) ([]world.RecordedTime, error) {
	key := t.name + "\x00" + string(text)
	c.mu.Lock()
	times, ok := c.known[key]
	c.mu.Unlock()
	if ok {
		return times, nil
	}
	var rows []map[string]any
	if err := json.Unmarshal(text, &rows); err != nil {
		return nil, fmt.Errorf("a dump whose %s does not decode: %w", t.name, err)
	}
	for _, row := range rows {
		which := fmt.Sprint(row["operation_id"])
		if row["operation_id"] == nil {
			var key []string
			for _, column := range t.key() {
				key = append(key, fmt.Sprint(row[column]))
			}
			which = strings.Join(key, ", ")
		}
		for _, column := range slices.Sorted(maps.Keys(row)) {
			text, ok := row[column].(string)
			if !strings.HasSuffix(column, "_at") || !ok {
				continue
			}
			at, err := time.Parse(time.RFC3339Nano, text)
			if err != nil {
				return nil, fmt.Errorf("%s.%s of %s is no time: %q", t.name, column, which, text)
			}
			times = append(times, world.RecordedTime{Where: fmt.Sprintf("%s.%s of %s", t.name, column, which), At: at})
		}
	}
	c.mu.Lock()
	if c.known == nil || len(c.known) >= dumpCacheSize {
		c.known = make(map[string][]world.RecordedTime, dumpCacheSize)
	}
	c.known[key] = times
	c.mu.Unlock()
	return times, nil
}

// Lost reports whether pgx closed the connection: a call that ran out of
// time (a frozen server answers not even a cancel) or lost the socket ends
// it, and no later call can use it.
func (l *Ledger) Lost() bool { return l.conn.IsClosed() }

// Close gives the connection back to its database, for Connect to hand
// out again, while it is as a new one would be but warm: no transaction
// open, none of a file's code run on it. Otherwise it ends it.
func (l *Ledger) Close(ctx context.Context) error {
	l.closeCode(ctx)
	clean := !l.conn.IsClosed() && l.conn.PgConn().TxStatus() == 'I' && l.setUp == nil
	if clean && l.db.keepIdle(l.name, l.conn) {
		return nil
	}
	closeCtx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	return l.conn.Close(closeCtx)
}

// addedUnderLock tells the writer what a write that added under the lock
// read and wrote.
func addedUnderLock(result *world.WriteResult, w world.Write) {
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
func (l *Ledger) EnsureResource(ctx context.Context, s world.Seed) (world.Seed, error) {
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
		// A run that seeds the lab's tables puts its rows aside (shared.go).
		batch.Queue(`INSERT INTO fencelab.shared_resources (conflict_key, tenant_id) VALUES ($1, $2)
			ON CONFLICT DO NOTHING`, s.ConflictKey, s.TenantID)
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
		return world.Seed{}, fmt.Errorf("pgledger: make sure %s exists: %w", s.ConflictKey, err)
	}
	return s, nil
}
