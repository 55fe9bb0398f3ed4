package pgledger

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/fencelab/fencelab/engine"
)

// A dump is the whole schema as PostgreSQL's own JSON: every row of every
// table with every column (ids and timestamps too), and where its two
// sequences stand. State reads one with the rest, in the same round trip;
// the checker keeps the dump of a state it will come back to and restores
// it there, instead of replaying the schedule that led to it.

// table is a table of schema fencelab and the order its rows are dumped
// in, so equal tables dump to equal text.
type table struct{ name, order string }

// tables are the lab's tables of schema fencelab, which Seed empties and a
// dump copies (the shared resources' rows are out of them: shared.go).
var tables = []table{
	{"tenant_assignments", "tenant_id"},
	{"rollout_markers", "marker_name"},
	{"resources", "conflict_key"},
	{"executions", "execution_id"},
	{"checkpoints", "conflict_key"},
	{"outbox", "outbox_id"},
	{"effect_receipts", "provider, operation_id"},
	{"job_results", "target, job_id"},
}

// sequences are the serial columns whose sequences a dump keeps: the next
// execution or outbox row gets the id it would have got.
var sequences = []struct{ table, column string }{
	{"executions", "execution_id"},
	{"outbox", "outbox_id"},
}

// sqlDump reads a dump in one statement.
var sqlDump = func() string {
	var parts []string
	for _, t := range tables {
		parts = append(parts, fmt.Sprintf(`'%s', (SELECT coalesce(json_agg(r ORDER BY %s), '[]') FROM fencelab.%s r)`,
			t.name, t.order, t.name))
	}
	for _, s := range sequences {
		// NULL while the sequence has not handed out a value.
		parts = append(parts, fmt.Sprintf(`'%s_seq', pg_sequence_last_value(pg_get_serial_sequence('fencelab.%s', '%s')::regclass)`,
			s.table, s.table, s.column))
	}
	return "SELECT json_build_object(" + strings.Join(parts, ", ") + ")::text"
}()

// Restore makes the schema hold exactly a dump, in one transaction sent as
// one round trip. from is the dump the schema holds now, if the caller
// knows it (empty: it does not): only the tables whose rows differ, and the
// sequences that moved, are written — sibling states of a search differ in
// a table or two.
func (l *Ledger) Restore(ctx context.Context, from, to engine.LedgerDump) error {
	var parts, now map[string]json.RawMessage
	if err := json.Unmarshal([]byte(to), &parts); err != nil {
		return fmt.Errorf("pgledger: restore: not a dump: %w", err)
	}
	if from != "" {
		if err := json.Unmarshal([]byte(from), &now); err != nil {
			now = nil // restore everything
		}
	}
	same := func(name string) bool {
		have, ok := now[name]
		return ok && string(have) == string(parts[name])
	}
	batch := &pgx.Batch{}
	for _, t := range tables {
		if _, ok := parts[t.name]; !ok {
			return fmt.Errorf("pgledger: restore: the dump has no table %s", t.name)
		}
		if !same(t.name) {
			batch.Queue("DELETE FROM fencelab." + t.name)
		}
	}
	for _, t := range tables {
		if !same(t.name) {
			batch.Queue(fmt.Sprintf("INSERT INTO fencelab.%[1]s SELECT * FROM json_populate_recordset(NULL::fencelab.%[1]s, $1::json)",
				t.name), string(parts[t.name]))
		}
	}
	for _, s := range sequences {
		name := s.table + "_seq"
		var last *int64
		if err := json.Unmarshal(parts[name], &last); err != nil {
			return fmt.Errorf("pgledger: restore: the sequence of %s: %w", s.table, err)
		}
		if !same(name) {
			batch.Queue(fmt.Sprintf("SELECT setval(pg_get_serial_sequence('fencelab.%s', '%s'), coalesce($1::bigint, 1), $1::bigint IS NOT NULL)",
				s.table, s.column), last)
		}
	}
	if batch.Len() == 0 {
		return nil
	}
	err := l.inTx(ctx, pgx.TxOptions{}, func(ctx context.Context, tx pgx.Tx) error {
		return tx.SendBatch(ctx, batch).Close()
	})
	if err != nil {
		return fmt.Errorf("pgledger: restore: %w", err)
	}
	return nil
}
