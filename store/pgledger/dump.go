package pgledger

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/jackc/pgx/v5"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
)

// A dump is the whole schema as PostgreSQL's own JSON: every row of every
// table with every column (ids and timestamps too), and where its two
// sequences stand. State reads one with the rest, in the same round trip;
// the checker keeps the dump of a state it will come back to and restores
// it there, instead of replaying the schedule that led to it.

// table is a table of schema fencelab: its name, its primary key's
// columns (the order its rows are dumped in, so equal tables dump to equal
// text), and whether it has another unique key.
type table struct {
	name, order string
	// ref is the table as a statement names it; empty: fencelab.name. A
	// file's table (code.go) has one, and noKey when it has no primary
	// key: its rows are then ordered and compared whole.
	ref   string
	noKey bool
	// alsoUnique: a row that changed is written again (deleted, then
	// inserted with the rest) rather than updated in place, since an
	// update of one row could collide with another's old value of that
	// key before the statement is done.
	alsoUnique bool
}

// tables are the lab's tables of schema fencelab, which Seed empties and a
// dump copies (the shared resources' rows are out of them: shared.go).
var tables = []table{
	{name: "tenant_assignments", order: "tenant_id"},
	{name: "rollout_markers", order: "marker_name"},
	{name: "resources", order: "conflict_key"},
	{name: "executions", order: "execution_id", alsoUnique: true}, // operation_id
	{name: "checkpoints", order: "conflict_key"},
	{name: "outbox", order: "outbox_id", alsoUnique: true}, // operation_id
	{name: "effect_receipts", order: "provider, operation_id"},
	{name: "job_results", order: "target, job_id"},
}

// key is the primary key's columns.
func (t table) key() []string { return strings.Split(t.order, ", ") }

// sqlName is the table as a statement names it.
func (t table) sqlName() string {
	if t.ref != "" {
		return t.ref
	}
	return "fencelab." + t.name
}

// orderBy is what a dump orders the table's rows by: its key's columns,
// or the whole row.
func (t table) orderBy() string {
	if t.noKey {
		return "r::text"
	}
	var cols []string
	for _, c := range t.key() {
		cols = append(cols, pgx.Identifier{c}.Sanitize())
	}
	return strings.Join(cols, ", ")
}

// sequences are the serial columns whose sequences a dump keeps: the next
// execution or outbox row gets the id it would have got.
var sequences = []sequence{
	{"executions", "execution_id"},
	{"outbox", "outbox_id"},
}

type sequence struct{ table, column string }

// regclass is the sequence as a constant of a statement, found once when
// the statement is planned: its name is the one PostgreSQL gave the
// bigserial column's sequence (pg_get_serial_sequence would look it up on
// every call, and a check makes thousands a second).
func (s sequence) regclass() string {
	return fmt.Sprintf("'fencelab.%s_%s_seq'::regclass", s.table, s.column)
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
		parts = append(parts, fmt.Sprintf(`'%s_seq', pg_sequence_last_value(%s)`, s.table, s.regclass()))
	}
	return "SELECT json_build_object(" + strings.Join(parts, ", ") + ")::text"
}()

// Restore makes the schema hold exactly a dump, in one transaction sent as
// one round trip. from is the dump the schema holds now, if the caller
// knows it (empty: it does not). Known, only the rows that differ are
// written, and the sequences that moved: sibling states of a search
// differ in a row or two, and a row written again when it did not change
// is a dead row every later scan of the table reads until VACUUM comes
// (a check restores thousands of times a second). A row whose key stayed
// and whose columns changed is updated in place, so PostgreSQL keeps the
// new version on the same page (a HOT update) and prunes the old one as it
// reads the page. Not known, every table is emptied and filled.
func (l *Ledger) Restore(ctx context.Context, from, to engine.LedgerDump) error {
	own, code, err := l.restoreBatch(from, to)
	if err != nil {
		return err
	}
	if err := l.codeTrip(ctx, code); err != nil {
		return fmt.Errorf("pgledger: restore the file's rows: %w", err)
	}
	if own.Len() == 0 {
		return nil
	}
	// Nothing read back: the caller knows the schema holds to.
	if err := l.oneTrip(ctx, own, false, nil); err != nil {
		return fmt.Errorf("pgledger: restore: %w", err)
	}
	return nil
}

// restoreBatch is the statements that make the schema, holding from
// (empty: not known), hold to: fencelab's tables' on fencelab's own
// connection (own), a file's on a connection logged in as its role
// (code) — writing a file's rows runs what the file defined on them.
func (l *Ledger) restoreBatch(from, to engine.LedgerDump) (own, code *pgx.Batch, err error) {
	want, err := dumps.parse(to)
	if err != nil {
		return nil, nil, fmt.Errorf("pgledger: restore: not a dump: %w", err)
	}
	parts := want.parts
	var have *parsedDump // nil: not known
	if from != "" {
		if have, err = dumps.parse(from); err != nil {
			have = nil // restore everything
		}
	}
	same := func(name string) bool {
		if have == nil {
			return false
		}
		now, ok := have.parts[name]
		return ok && string(now) == string(parts[name])
	}
	var changes []tableChange
	for _, t := range l.db.allTables() {
		if _, ok := parts[t.name]; !ok {
			return nil, nil, fmt.Errorf("pgledger: restore: the dump has no table %s", t.name)
		}
		if same(t.name) {
			continue
		}
		if t.noKey {
			// Rows without a key are replaced whole.
			change := tableChange{table: t, all: true}
			if string(parts[t.name]) != "[]" {
				change.insert = string(parts[t.name])
			}
			changes = append(changes, change)
			continue
		}
		change, err := diffTable(t, have, want)
		if err != nil {
			return nil, nil, fmt.Errorf("pgledger: restore: %w", err)
		}
		changes = append(changes, change)
	}
	own, code = &pgx.Batch{}, &pgx.Batch{}
	batchOf := func(t table) *pgx.Batch {
		if t.ref != "" {
			return code
		}
		return own
	}
	// Deletes first, then updates, then inserts: no statement meets a key
	// another is about to free.
	for _, c := range changes {
		switch {
		case c.all:
			batchOf(c.table).Queue("DELETE FROM ONLY " + c.table.sqlName())
		case c.delete != "":
			batchOf(c.table).Queue(c.deleteSQL(), c.delete)
		}
	}
	for _, c := range changes {
		if c.update != "" {
			batchOf(c.table).Queue(c.updateSQL(), c.update)
		}
	}
	for _, c := range changes {
		if c.insert != "" {
			batchOf(c.table).Queue(fmt.Sprintf("INSERT INTO %[1]s SELECT * FROM pg_catalog.json_populate_recordset(NULL::%[1]s, $1::pg_catalog.json)",
				c.table.sqlName()), c.insert)
		}
	}
	setval := func(b *pgx.Batch, names, regclasses []string) error {
		for i, name := range names {
			var last *int64
			if err := json.Unmarshal(parts[name], &last); err != nil {
				return fmt.Errorf("pgledger: restore: the sequence %s: %w", name, err)
			}
			if !same(name) {
				b.Queue(fmt.Sprintf("SELECT pg_catalog.setval(%s, coalesce($1::pg_catalog.int8, 1), $1::pg_catalog.int8 IS NOT NULL)", regclasses[i]), last)
			}
		}
		return nil
	}
	var names, regclasses []string
	for _, s := range sequences {
		names, regclasses = append(names, s.table+"_seq"), append(regclasses, s.regclass())
	}
	if err := setval(own, names, regclasses); err != nil {
		return nil, nil, err
	}
	if c := l.db.code.Load(); c != nil {
		names, regclasses := c.codeSequences()
		if err := setval(code, names, regclasses); err != nil {
			return nil, nil, err
		}
	}
	return own, code, nil
}

// codeTrip sends a batch of a restore's statements for a file's tables on
// the connection logged in as the file's role, in one round trip and one
// implicit transaction: all or none.
func (l *Ledger) codeTrip(ctx context.Context, batch *pgx.Batch) error {
	if batch == nil || batch.Len() == 0 {
		return nil
	}
	ctx = engine.Housekeeping(ctx) // the lab's, not a round trip of an actor's
	conn, err := l.codeConnection(ctx)
	if err != nil {
		return err
	}
	if conn.PgConn().TxStatus() != 'I' {
		return errors.New("a restore inside a transaction of the file's")
	}
	l.db.codeWrites.Add(1)
	return within(ctx, func(ctx context.Context) error { return conn.SendBatch(ctx, batch).Close() })
}

// tableChange is what a restore writes in one table: the rows to delete
// (only their keys are used), to update in place and to insert, each a
// JSON array as the dump has them ("": none); all: every row goes first.
type tableChange struct {
	table                  table
	all                    bool
	delete, update, insert string
	columns                []string // the table's, in order: an update sets them all
}

// diffTable compares a table's rows in two dumps by primary key. from nil:
// the rows now are not known, so all go and all of to comes in.
func diffTable(t table, from, to *parsedDump) (tableChange, error) {
	change := tableChange{table: t}
	want, err := to.rowsOf(t)
	if err != nil {
		return change, err
	}
	if from == nil {
		change.all = true
		if len(want.rows) > 0 {
			change.insert = string(to.parts[t.name])
		}
		return change, nil
	}
	have, err := from.rowsOf(t)
	if err != nil {
		return change, err
	}
	var deleted, updated, inserted []json.RawMessage
	for i, k := range have.keys {
		if _, kept := want.byKey[k]; !kept {
			deleted = append(deleted, have.rows[i])
		}
	}
	for i, k := range want.keys {
		row := want.rows[i]
		j, had := have.byKey[k]
		switch {
		case !had:
			inserted = append(inserted, row)
		case string(have.rows[j]) == string(row):
		case t.alsoUnique:
			deleted, inserted = append(deleted, have.rows[j]), append(inserted, row)
		default:
			updated = append(updated, row)
			if change.columns == nil {
				if change.columns, err = columnsOf(row); err != nil {
					return change, err
				}
			}
		}
	}
	change.delete, change.update, change.insert = jsonArray(deleted), jsonArray(updated), jsonArray(inserted)
	return change, nil
}

// deleteSQL deletes the rows of $1, found by key.
func (c tableChange) deleteSQL() string {
	return fmt.Sprintf("DELETE FROM ONLY %[1]s x USING pg_catalog.json_populate_recordset(NULL::%[1]s, $1::pg_catalog.json) r WHERE %[2]s",
		c.table.sqlName(), c.keyMatch())
}

// updateSQL sets every column of the rows of $1, found by key.
func (c tableChange) updateSQL() string {
	var set, from []string
	for _, col := range c.columns {
		quoted := pgx.Identifier{col}.Sanitize()
		set, from = append(set, quoted), append(from, "r."+quoted)
	}
	return fmt.Sprintf("UPDATE ONLY %[1]s x SET (%[2]s) = ROW(%[3]s) FROM pg_catalog.json_populate_recordset(NULL::%[1]s, $1::pg_catalog.json) r WHERE %[4]s",
		c.table.sqlName(), strings.Join(set, ", "), strings.Join(from, ", "), c.keyMatch())
}

func (c tableChange) keyMatch() string {
	var match []string
	for _, col := range c.table.key() {
		match = append(match, fmt.Sprintf("x.%[1]s = r.%[1]s", pgx.Identifier{col}.Sanitize()))
	}
	return strings.Join(match, " AND ")
}

// parsedDump is a dump taken apart: its tables' JSON.
type parsedDump struct {
	parts map[string]json.RawMessage
	cache *dumpCache
}

// dumpCache keeps what restores and State took apart: a check restores
// the same states again and again, on each of its labs (their dumps are
// the same text, since a state restored on any lab is the same rows, ids
// and sequences alike), its states share most of their tables, and taking
// JSON apart costs more than the restore's round trip. One cache serves
// every connection of the process (dumps): a lab's restores are sent on
// the connection of the actor that writes next, its reads on its own.
// Its sizes are bounded: when full it starts again.
type dumpCache struct {
	mu     sync.Mutex
	byText map[engine.LedgerDump]*parsedDump
	states map[engine.LedgerDump]engine.LedgerState // what State decoded
	tables map[string]map[string]rowsByKey          // by table, by the table's JSON
	held   int                                      // tables' entries
}

// dumps is the process's dumpCache.
var dumps = &dumpCache{}

// dumpCacheSize is how many dumps (a few kilobytes each), and how many
// tables, a dumpCache holds at most.
const dumpCacheSize = 4096

// parse takes a dump apart; what it returns is shared, and read only.
func (c *dumpCache) parse(dump engine.LedgerDump) (*parsedDump, error) {
	c.mu.Lock()
	p, ok := c.byText[dump]
	c.mu.Unlock()
	if ok {
		return p, nil
	}
	p = &parsedDump{cache: c}
	if err := json.Unmarshal([]byte(dump), &p.parts); err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byText == nil || len(c.byText) >= dumpCacheSize {
		c.byText = make(map[engine.LedgerDump]*parsedDump, dumpCacheSize)
	}
	c.byText[dump] = p
	return p, nil
}

// state is a dump decoded as the lab's rows: the checker reaches most
// states again by another schedule, and reads the same dump again there.
// Each caller gets slices of its own.
func (c *dumpCache) state(dump engine.LedgerDump) (engine.LedgerState, error) {
	c.mu.Lock()
	s, ok := c.states[dump]
	c.mu.Unlock()
	if !ok {
		var err error
		if s, err = stateOf(dump); err != nil {
			return s, err
		}
		c.mu.Lock()
		if c.states == nil || len(c.states) >= dumpCacheSize {
			c.states = make(map[engine.LedgerDump]engine.LedgerState, dumpCacheSize)
		}
		c.states[dump] = s
		c.mu.Unlock()
	}
	r := world.RowsOf(s)
	r.Resources, r.Tenants, r.Executions = slices.Clone(r.Resources), slices.Clone(r.Tenants), slices.Clone(r.Executions)
	r.Checkpoints, r.Outbox = slices.Clone(r.Checkpoints), slices.Clone(r.Outbox)
	r.Receipts, r.JobResults = slices.Clone(r.Receipts), slices.Clone(r.JobResults)
	s.Rows = r
	return s, nil
}

// rowsOf is a table's rows by key; shared, and read only.
func (p *parsedDump) rowsOf(t table) (rowsByKey, error) {
	text := p.parts[t.name]
	c := p.cache
	c.mu.Lock()
	rows, ok := c.tables[t.name][string(text)]
	c.mu.Unlock()
	if ok {
		return rows, nil
	}
	rows, err := keyedRows(t, text)
	if err != nil {
		return rows, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tables == nil || c.held >= dumpCacheSize {
		c.tables, c.held = map[string]map[string]rowsByKey{}, 0
	}
	if c.tables[t.name] == nil {
		c.tables[t.name] = map[string]rowsByKey{}
	}
	c.tables[t.name][string(text)] = rows
	c.held++
	return rows, nil
}

// rowsByKey is a table's rows in dump order, and where each key's row is.
type rowsByKey struct {
	keys  []string
	rows  []json.RawMessage
	byKey map[string]int
}

func keyedRows(t table, array json.RawMessage) (rowsByKey, error) {
	var out rowsByKey
	if err := json.Unmarshal(array, &out.rows); err != nil {
		return out, fmt.Errorf("the rows of %s: %w", t.name, err)
	}
	out.byKey = make(map[string]int, len(out.rows))
	key := t.key()
	for i, row := range out.rows {
		var columns map[string]json.RawMessage
		if err := json.Unmarshal(row, &columns); err != nil {
			return out, fmt.Errorf("a row of %s: %w", t.name, err)
		}
		var k strings.Builder
		for _, col := range key {
			value, ok := columns[col]
			if !ok {
				return out, fmt.Errorf("a row of %s has no %s", t.name, col)
			}
			k.Write(value)
			k.WriteByte(0)
		}
		out.keys = append(out.keys, k.String())
		out.byKey[k.String()] = i
	}
	return out, nil
}

// columnsOf is a row's column names in the order the row has them: the
// table's, as row_to_json writes them.
func columnsOf(row json.RawMessage) ([]string, error) {
	d := json.NewDecoder(bytes.NewReader(row))
	if _, err := d.Token(); err != nil { // {
		return nil, err
	}
	var columns []string
	for d.More() {
		name, err := d.Token()
		if err != nil {
			return nil, err
		}
		columns = append(columns, name.(string))
		var skip json.RawMessage
		if err := d.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return columns, nil
}

// jsonArray is rows as one JSON array; "" for none.
func jsonArray(rows []json.RawMessage) string {
	if len(rows) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteByte('[')
	for i, row := range rows {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(row)
	}
	b.WriteByte(']')
	return b.String()
}
