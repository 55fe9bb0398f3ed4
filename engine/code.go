package engine

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/fencelab/fencelab/lang"
)

// A scenario file may bring code of its own: its tables and keys, steps
// that are its Lua scripts, Redis commands and SQL statements, and
// invariants written as queries. The lab runs that code on the actors' own
// connections, so the driver hooks make every command and statement a
// round trip the checker interleaves (wire.go), exactly as they do
// fencelab's own. The file's data lives apart from fencelab's: its keys
// under the run's namespace, its tables in a schema of their own, made
// again at every reset and dropped when the lab closes.

// Code is what a scenario file brings of its own, beside its steps (which
// are Steps like any other).
type Code struct {
	// Schema is the PostgreSQL schema of the file's tables; empty when the
	// file has no SQL.
	Schema string
	// SetupSQL are the statements that make the file's tables and rows,
	// run in Schema at every reset.
	SetupSQL []string
	// SetupRedis are the keys seeded at every reset, named as the file
	// names them (below the run's namespace).
	SetupRedis []RedisKey
	// Invariants are the file's own, checked after every action.
	Invariants []CodeInvariant
	// Values are the values the file's expected names, each read by a
	// query (its first column) or from a key, with what a correct run
	// ends with; none: the file measures what a catalog file does (or, a
	// file without expected, nothing).
	Values []CodeValue
	// Connections are the connections the file names, in the order it
	// names them: a step may run on one instead of its actor's own
	// (session.go).
	Connections []string
	// Sessions: the file's SQL takes advisory locks, which live in a
	// connection's session, so the lab reads and restores sessions.
	Sessions bool
	// At says where a statement or invariant is written ("file.toml:12"),
	// for an error the server finds: by "setup.N", "invariant.N", "value",
	// and the keys of Prepare.
	At map[string]string
	// Prepare are the steps' statements as the server parses them before
	// a lab's first action (PrepareCode): each with its parameters as
	// NULL and its guards in, or out, by a key of At.
	Prepare map[string]string
	// UsesRedis: some step, seed, invariant or value of the file's is
	// Redis's (a file of SQL alone has no Redis pane in the explorer;
	// one without SQL has an empty Schema).
	UsesRedis bool
	// Guards are the guards the file's steps define: fencelab's they
	// play, and the file's own (OwnGuard). A file's explorer, matrix and
	// guards list show these, not fencelab's fourteen.
	Guards GuardSet
}

// CodeInvariant is one [[invariant]] of a file: a query returning one
// boolean, or a Lua script returning 1 or 0, true while it holds.
type CodeInvariant struct {
	// Name is the anomaly a run that breaks it ends with: DOUBLE_SPEND.
	Name string
	// Says is the rule in one sentence.
	Says string
	SQL  string
	Lua  string
	Keys []string
}

// FirstCodeInvariant is the number of a file's first invariant: its own
// come after the world's.
const FirstCodeInvariant = 11

// MostCodeInvariants is how many invariants a file may add (an
// InvariantSet holds 15 numbers).
const MostCodeInvariants = 7

// InvariantNumbers are the invariants a scenario is held to, in order:
// the world's, then a file's own. A file whose every step is its own code
// shows its own only — fencelab's tables and keys are not its.
func (s *Scenario) InvariantNumbers() []int {
	var out []int
	if s != nil && s.World != nil && (s.Code == nil || !s.OwnCodeOnly) {
		for _, inv := range s.World.Invariants() {
			out = append(out, inv.Number)
		}
	}
	if s != nil && s.Code != nil {
		for i := range s.Code.Invariants {
			out = append(out, FirstCodeInvariant+i)
		}
	}
	return out
}

// InvariantText says invariant n in English (a screen translates DESIGN
// §7's; a file's own are said as the file says them).
func (s *Scenario) InvariantText(n int) string {
	if n >= FirstCodeInvariant && s != nil && s.Code != nil && n-FirstCodeInvariant < len(s.Code.Invariants) {
		inv := s.Code.Invariants[n-FirstCodeInvariant]
		return inv.Name + ": " + inv.Says
	}
	if s != nil && s.World != nil {
		for _, inv := range s.World.Invariants() {
			if inv.Number == n {
				return inv.Says
			}
		}
	}
	return ""
}

// InvariantLabel is how a short line names invariant n: its number, or a
// file's own invariant by the name the file gave it (edit-lost).
func (s *Scenario) InvariantLabel(n int) string {
	if n >= FirstCodeInvariant && s != nil && s.Code != nil && n-FirstCodeInvariant < len(s.Code.Invariants) {
		return s.Code.Invariants[n-FirstCodeInvariant].Name
	}
	return strconv.Itoa(n)
}

// CodeReply is what a server answered a file's own code: a Redis reply,
// or a statement's first column of its first row.
type CodeReply struct {
	// Text is the reply as a person reads it: 1, OK, nil, [1 2], alice.
	Text string
	// Nil: no value (a Redis nil, SQL NULL, or a statement without rows).
	Nil bool
	// Rows is how many rows a statement returned or changed.
	Rows int64
	// Error: the reply is the server's error reply (a script's
	// redis.error_reply): Text holds it. A step may name it in wait_if or
	// rejected_if; otherwise the step fails with it.
	Error bool
}

// RedisCall is one Redis round trip of a file's code: a script (Script,
// with Keys and Args) or one command (Words, where KeyAt are the words
// that are keys). Keys are named as the file names them; the store puts
// them below the run's namespace. TTLs are the durations the call may set
// (for a real server kept on the lab clock).
type RedisCall struct {
	Script string
	Keys   []string
	Args   []string
	Words  []string
	KeyAt  []int
	TTLs   []time.Duration
}

// CodeStore runs a file's Redis code on an actor's connection.
type CodeStore interface {
	RunCode(ctx context.Context, call RedisCall) (CodeReply, error)
}

// CodeLedger runs a file's SQL on a connection: Ledger has it.
type CodeLedger interface {
	// Statement sends one statement of the file's code, as written, in
	// the file's schema.
	Statement(ctx context.Context, sql string) (CodeReply, error)
	// InTransaction reports whether the connection has a transaction open.
	InTransaction() bool
	// SetupCode makes the file's schema again — empty, then setup run in
	// it — and from then on reads its tables with the rest (State) and
	// the queries of values as LedgerState.Code.Values, by name.
	SetupCode(ctx context.Context, schema string, setup []string, values map[string]string) error
	// PrepareCode has the server parse each statement against the file's
	// schema as the last SetupCode made it, and runs none: a mistake (a
	// typo, an unknown column) is a *CodeError naming the statement (its
	// key), before any step runs.
	PrepareCode(ctx context.Context, statements map[string]string) error
	// DropCode drops the schema.
	DropCode(ctx context.Context, schema string) error
}

// CodeError is a mistake in a file's code that a server found: which
// statement or value ("setup.2", "invariant.0", "value"), and what the
// server said.
type CodeError struct {
	Where string
	Said  string
}

func (e *CodeError) Error() string { return e.Said }

// RedisCommands are the commands a step or script may send, with where
// their keys are: the first word after the command, every word, or every
// other word (MSET). Blocking, server-wide and transaction commands are
// none of them: a step is one round trip, on the lab's namespace only.
// A file is held to them before it runs (scenarios), and a script's
// calls again as they are made (redisstore's luabudget.go).
var RedisCommands = map[string]string{
	"get": "first", "set": "first", "setnx": "first", "setex": "first", "psetex": "first", "getset": "first",
	"getdel": "first", "getex": "first", "incr": "first", "incrby": "first", "decr": "first", "decrby": "first",
	"incrbyfloat": "first", "append": "first", "strlen": "first", "expire": "first", "pexpire": "first",
	"expireat": "first", "pexpireat": "first", "persist": "first", "ttl": "first", "pttl": "first", "type": "first",
	"hget": "first", "hset": "first", "hsetnx": "first", "hdel": "first", "hgetall": "first", "hincrby": "first",
	"hexists": "first", "hlen": "first", "hkeys": "first", "hvals": "first", "hmget": "first", "hmset": "first",
	"del": "all", "unlink": "all", "exists": "all", "mget": "all",
	"mset": "pairs",
}

// ErrReplyTooLarge is a server's reply that passed what fencelab reads of
// one (store/replybound): a file's script or statement answering a huge
// string or a million rows, or keys and rows it made that large.
var ErrReplyTooLarge = lang.Error("the server's reply passed 64 MiB, more than fencelab reads of one reply (a result, key or row that large?)")

// CodeFailure is a run stopped by a file's own code: a statement or
// script the server refused, or one that ran past its limit (the
// statement_timeout, the script's budget or deadline), with the file's
// line. The file is what to change, not the servers: fencelab ends with
// exit 2, as for any other mistake in a file.
type CodeFailure struct{ Err error }

func (f *CodeFailure) Error() string { return f.Err.Error() }
func (f *CodeFailure) Unwrap() error { return f.Err }

// In is the failure in language l, where its words are fencelab's.
func (f *CodeFailure) In(l lang.Lang) string {
	if s, ok := f.Err.(interface{ In(lang.Lang) string }); ok {
		return s.In(l)
	}
	return f.Err.Error()
}

// FailedCode marks err, when it is a server's answer to a file's code
// (a *CodeError), as the file's failure.
func FailedCode(err error) error {
	var mistake *CodeError
	if err == nil || !errors.As(err, &mistake) {
		return err
	}
	return &CodeFailure{Err: err}
}

// CodeState is a file's tables as State read them, and the values of its
// queries (invariants, the business value) by name, as JSON.
type CodeState struct {
	Tables []CodeTable
	Values map[string]json.RawMessage `json:"-"`
}

// CodeTable is one table of a file's schema.
type CodeTable struct {
	Name    string
	Columns []string
	Rows    [][]string
}

// CodeValue is one value a file's expected names.
type CodeValue struct {
	// Label is how the result strip names it: the file's name for it,
	// else "value" (a query's) or the key.
	Label    string
	SQL, Key string
	Expected int64
}

// codeValueName is the name of a file's value i in CodeState.Values (and
// Code.At): "value" for the first, as a file of one value has it.
func codeValueName(i int) string {
	if i == 0 {
		return "value"
	}
	return "value." + strconv.Itoa(i)
}

func codeInvariantName(i int) string { return "invariant." + strconv.Itoa(i) }

// CodeValues are the queries State evaluates for a file: its SQL
// invariants and its business value.
func (c *Code) CodeValues() map[string]string {
	out := map[string]string{}
	for i, inv := range c.Invariants {
		if inv.SQL != "" {
			out[codeInvariantName(i)] = inv.SQL
		}
	}
	for i, v := range c.Values {
		if v.SQL != "" {
			out[codeValueName(i)] = v.SQL
		}
	}
	return out
}

// setupCode seeds the file's keys and makes its schema: Reset's part for
// a file with code.
func (l *Lab) setupCode(ctx context.Context) error {
	c := l.scenario.Code
	if len(c.SetupRedis) > 0 {
		if err := l.backends.Coordination.Restore(ctx, []RedisKey{}, c.SetupRedis); err != nil {
			return err
		}
	}
	if c.Schema == "" {
		return nil
	}
	err := l.ledger.SetupCode(ctx, c.Schema, c.SetupSQL, c.CodeValues())
	if err == nil && !l.prepared && len(c.Prepare) > 0 {
		// Once a lab: a typo in a step the guided order reaches late, or
		// never, is said before the first action.
		l.prepared = true
		err = l.ledger.PrepareCode(ctx, c.Prepare)
	}
	var mistake *CodeError
	if errors.As(err, &mistake) {
		// Said where the file wrote what the server refused.
		return &CodeFailure{Err: lang.Error("%s: %s", c.At[mistake.Where], mistake.Said)}
	}
	return err
}

// codeBreaks are the file's invariants the world breaks. A Lua invariant
// is run on the lab's own Redis connection, once per state of the keys.
func (l *Lab) codeBreaks(ctx context.Context, state LedgerState, keys []RedisKey) ([]Break, error) {
	c := l.scenario.Code
	for i, value := range codeValuesOf(c) {
		at := c.At[codeValueName(i)]
		if value.SQL != "" {
			// The business value is a whole number, or nothing yet:
			// anything else is the query's mistake, not a value of 0.
			v := strings.TrimSpace(string(state.Code.Values[codeValueName(i)]))
			if _, whole := codeNumber(v); !whole && v != "null" && v != "" {
				return nil, &CodeFailure{Err: lang.Error("%s: expected's query answered %s, not a whole number", at, untrustedShort(v))}
			}
			continue
		}
		prefix := l.backends.Coordination.Prefix()
		for _, k := range keys {
			if k.Key != prefix+value.Key && k.Key != value.Key {
				continue
			}
			if _, whole := codeNumber(k.Value); !whole || k.Type != "string" {
				return nil, &CodeFailure{Err: lang.Error("%s: expected's key %s holds %s, not a whole number", at, value.Key, untrustedShort(k.Value))}
			}
		}
	}
	if c == nil || len(c.Invariants) == 0 {
		return nil, nil
	}
	var breaks []Break
	for i, inv := range c.Invariants {
		var holds bool
		var err error
		if inv.SQL != "" {
			if holds, err = codeBool(state.Code.Values[codeInvariantName(i)]); err != nil {
				err = &CodeFailure{Err: err}
			}
		} else {
			holds, err = l.luaInvariant(ctx, i, inv, keys)
		}
		if err != nil {
			return nil, lang.Error("%s: invariant %s: %w", c.At[codeInvariantName(i)], inv.Name, err)
		}
		if !holds {
			breaks = append(breaks, NewBreak(FirstCodeInvariant+i, inv.Name, lang.P("the check of %s answered false", inv.Name)))
		}
	}
	return breaks, nil
}

// codeBool reads a query's boolean: true, false (NULL is false: the rule
// cannot be said to hold).
func codeBool(v json.RawMessage) (bool, error) {
	switch strings.TrimSpace(string(v)) {
	case "true":
		return true, nil
	case "false", "null", "":
		return false, nil
	}
	return false, lang.Error("returned %s, not true or false", untrustedShort(string(v)))
}

func (l *Lab) luaInvariant(ctx context.Context, i int, inv CodeInvariant, keys []RedisKey) (bool, error) {
	sum := sha256.New()
	fmt.Fprint(sum, i)
	data, _ := json.Marshal(keys)
	sum.Write(data)
	var k [32]byte
	sum.Sum(k[:0])
	if held, ok := l.luaHeld[k]; ok {
		return held, nil
	}
	reply, err := l.backends.Coordination.Client("lab").RunCode(Housekeeping(ctx), RedisCall{Script: inv.Lua, Keys: inv.Keys})
	if err != nil {
		return false, err
	}
	if reply.Error {
		return false, &CodeFailure{Err: lang.Error("the script failed: %s", reply.Text)}
	}
	held := reply.Text == "1" || reply.Text == "true"
	if !held && reply.Text != "0" && !reply.Nil {
		return false, &CodeFailure{Err: lang.Error("returned %s, not 1 or 0", untrustedShort(reply.Text))}
	}
	if l.luaHeld == nil || len(l.luaHeld) > 1<<14 {
		l.luaHeld = map[[32]byte]bool{}
	}
	l.luaHeld[k] = held
	return held, nil
}

// untrustedShort is a reply cut to a line's worth.
func untrustedShort(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}

// codeValuesOf is a file's values; none for a scenario without code.
func codeValuesOf(c *Code) []CodeValue {
	if c == nil {
		return nil
	}
	return c.Values
}

// value is what value i of the file's holds in a world.
func (c *Code) value(i int, w Reading) int64 {
	v := c.Values[i]
	if v.SQL != "" {
		n, _ := codeNumber(string(w.Ledger.Code.Values[codeValueName(i)]))
		return n
	}
	for _, k := range w.Keys {
		if k.Key == w.Prefix+v.Key {
			n, _ := codeNumber(k.Value)
			return n
		}
	}
	return 0
}

// ValuesIn are a file's several values as a world holds them, each beside
// what it should be.
func (c *Code) ValuesIn(w Reading) []ValueResult {
	out := make([]ValueResult, len(c.Values))
	for i, v := range c.Values {
		out[i] = ValueResult{Label: v.Label, Expected: v.Expected, Final: c.value(i, w)}
	}
	return out
}

// CodeMeasure is the measure of a file that reads its business value
// itself: a query's first column, or a key's value. Of a file that names
// several, the measure is how many of them are not what a correct run
// ends with (and the scenario's Expected is 0).
func CodeMeasure(c *Code) Measure {
	if len(c.Values) > 1 {
		return Measure{Label: "values", Count: func(w Reading) int64 {
			var off int64
			for _, v := range c.ValuesIn(w) {
				if v.Final != v.Expected {
					off++
				}
			}
			return off
		}}
	}
	return Measure{Label: c.Values[0].Label, Count: func(w Reading) int64 { return c.value(0, w) }}
}

// codeNumber reads a value as a whole number: a JSON number or string of
// one (NULL, a missing key: 0). A fraction, a number past int64, NaN or
// anything else is no whole number.
func codeNumber(s string) (int64, bool) {
	s = strings.Trim(strings.TrimSpace(s), `"`)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		f, ferr := strconv.ParseFloat(s, 64)
		if ferr != nil || f != math.Trunc(f) || f < math.MinInt64 || f >= math.MaxInt64 {
			return 0, false
		}
		return int64(f), true
	}
	return n, true
}
