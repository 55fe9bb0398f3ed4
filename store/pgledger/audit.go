package pgledger

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
)

var (
	_ world.Auditor = (*Ledger)(nil)
	_ world.Ledger  = (*Ledger)(nil)
)

// Audit counts, in the database, what a long run's rows say about the
// invariants: a few aggregate queries in one read-only snapshot, however
// many executions there are.
//
// Commit order is execution_id order: a write inserts its execution while
// it holds the resource row's lock (FOR UPDATE), which it keeps until it
// commits, so a later id is a later commit.
func (l *Ledger) Audit(ctx context.Context, conflictKey string) (world.Audit, error) {
	a := world.Audit{ConflictKey: conflictKey, Rejections: map[string]int{}}
	if err := l.sendRestore(ctx); err != nil {
		return a, err
	}
	err := within(ctx, func(ctx context.Context) error {
		tx, err := l.conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
		if err != nil {
			return err
		}
		defer tx.Rollback(context.WithoutCancel(ctx))

		err = tx.QueryRow(ctx, `SELECT summary_value, last_accepted_fence FROM fencelab.resources WHERE conflict_key = $1`,
			conflictKey).Scan(&a.Summary, &a.LastAcceptedFence)
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("resource %s: %w", conflictKey, engine.ErrNotFound)
		}
		if err != nil {
			return err
		}

		rows, err := tx.Query(ctx, `
			SELECT state, coalesce(rejection, ''), count(*) FROM fencelab.executions
			 WHERE conflict_key = $1 GROUP BY 1, 2`, conflictKey)
		if err != nil {
			return err
		}
		for rows.Next() {
			var state, reason string
			var n int
			if err := rows.Scan(&state, &reason, &n); err != nil {
				return err
			}
			if state == "COMMITTED" {
				a.Committed += n
			} else {
				a.Rejected += n
				a.Rejections[reason] += n
			}
		}
		if err := rows.Err(); err != nil {
			return err
		}

		// Invariant 1, within each namespace epoch: a commit whose token is
		// not above the biggest committed before it.
		err = tx.QueryRow(ctx, staleCommits+`SELECT count(*) FROM stale`, conflictKey).Scan(&a.StaleCommits)
		if err != nil {
			return fmt.Errorf("invariant 1: %w", err)
		}
		if a.StaleCommits > 0 {
			first := &world.StaleCommit{}
			err = tx.QueryRow(ctx, staleCommits+`
				SELECT s.owner, s.fencing_token, s.before, s.operation_id,
				       (SELECT e.owner FROM fencelab.executions e
				         WHERE e.conflict_key = $1 AND e.state = 'COMMITTED' AND e.fencing_token = s.before
				           AND e.execution_id < s.execution_id ORDER BY e.execution_id DESC LIMIT 1)
				  FROM stale s ORDER BY s.execution_id LIMIT 1`, conflictKey).
				Scan(&first.Owner, &first.Token, &first.After, &first.OperationID, &first.AfterOwner)
			if err != nil {
				return fmt.Errorf("invariant 1: %w", err)
			}
			a.FirstStale = first
		}

		// Invariant 7: a read-modify-write that landed on another value
		// than the one it was computed from.
		err = tx.QueryRow(ctx, `
			SELECT count(*) FROM fencelab.executions
			 WHERE conflict_key = $1 AND state = 'COMMITTED' AND read_value IS NOT NULL AND read_value <> previous_value`,
			conflictKey).Scan(&a.LostUpdates)
		if err != nil {
			return fmt.Errorf("invariant 7: %w", err)
		}
		if a.LostUpdates > 0 {
			first := &world.LostUpdate{}
			err = tx.QueryRow(ctx, `
				SELECT owner, summary_value, read_value, previous_value, operation_id FROM fencelab.executions
				 WHERE conflict_key = $1 AND state = 'COMMITTED' AND read_value IS NOT NULL AND read_value <> previous_value
				 ORDER BY execution_id LIMIT 1`, conflictKey).
				Scan(&first.Owner, &first.Value, &first.Read, &first.Previous, &first.OperationID)
			if err != nil {
				return fmt.Errorf("invariant 7: %w", err)
			}
			a.FirstLost = first
		}

		// Invariant 3: every commit has its outbox row and no outbox row
		// lacks its commit; the checkpoint is the resource's.
		err = tx.QueryRow(ctx, `
			SELECT (SELECT count(*) FROM fencelab.executions e
			         WHERE e.conflict_key = $1 AND e.state = 'COMMITTED'
			           AND NOT EXISTS (SELECT 1 FROM fencelab.outbox o WHERE o.operation_id = e.operation_id)),
			       (SELECT count(*) FROM fencelab.outbox o
			         WHERE NOT EXISTS (SELECT 1 FROM fencelab.executions e
			                            WHERE e.operation_id = o.operation_id AND e.state = 'COMMITTED')),
			       coalesce((SELECT c.summary_value <> r.summary_value
			                        OR (c.fencing_token IS NOT NULL AND r.last_accepted_fence <> 0 AND c.fencing_token <> r.last_accepted_fence)
			                   FROM fencelab.checkpoints c JOIN fencelab.resources r USING (conflict_key)
			                  WHERE conflict_key = $1), false)`,
			conflictKey).Scan(&a.CommitsWithoutOutbox, &a.OutboxWithoutCommit, &a.CheckpointDisagrees)
		if err != nil {
			return fmt.Errorf("invariant 3: %w", err)
		}
		return nil
	})
	if err != nil {
		return world.Audit{}, fmt.Errorf("pgledger: audit %s: %w", conflictKey, err)
	}
	return a, nil
}

// staleCommits names the commits of a resource ($1) whose token is not
// above every token committed before them in the same namespace epoch.
const staleCommits = `
	WITH c AS (
	  SELECT execution_id, operation_id, owner, fencing_token,
	         max(fencing_token) OVER (PARTITION BY namespace_epoch ORDER BY execution_id
	                                  ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS before
	    FROM fencelab.executions
	   WHERE conflict_key = $1 AND state = 'COMMITTED' AND fencing_token IS NOT NULL
	), stale AS (SELECT * FROM c WHERE fencing_token <= before)
`
