package engine

import (
	"context"
	"errors"
	"time"
)

// The ports: what the engine needs from Redis (Coordination) and from
// PostgreSQL (Database, Ledger). Package store implements them; the
// engine imports no driver.

// RedisClient is one actor's Redis connection as the engine uses it: for
// a file's own code. A world's steps use the rest of it (the catalog's:
// its leases and jobs, scenarios/world).
type RedisClient interface {
	CodeStore
}

// RedisKey is one lab key as a snapshot shows it.
type RedisKey struct {
	Key   string
	Type  string
	Value string
	// Fields are a hash's fields (Value shows them on one line).
	Fields map[string]string `json:",omitempty"`
	// TTL is the remaining time to live; negative when the key has none.
	TTL time.Duration
	// Conflict is the conflict key whose lease, counter or epoch this key
	// holds, when a snapshot knows it: the key's own name carries only a
	// hash of it.
	Conflict string `json:",omitempty"`
	// Role is what the key is for: RoleLease, RoleLeader, RoleCounter,
	// RoleEpoch, RoleRunning, RoleJob; empty when fencelab did not make it.
	Role string `json:",omitempty"`
	// Stamps name the fields of a hash that hold a moment, in unix
	// milliseconds (a job's createdAt): a state's fingerprint takes them
	// relative to the lab clock.
	Stamps []string `json:",omitempty"`
}

// Coordination is the Redis backend as a whole.
type Coordination interface {
	// Client is the Redis connection of one actor.
	Client(actor string) RedisClient
	// Wipe deletes every key under the lab's prefix, and nothing else.
	Wipe(ctx context.Context) error
	// Keys lists the lab's keys, sorted.
	Keys(ctx context.Context) ([]RedisKey, error)
	// Restore makes the lab's keys exactly to, as Keys read them but named
	// relative to Namespace, each with the TTL it had left. from, when not
	// nil, is what the lab's keys are now (as read last, named alike): a
	// real server is then written only where the two differ.
	Restore(ctx context.Context, from, to []RedisKey) error
	// Elapse lets d of lab time pass for key expiry: the embedded server
	// fast-forwards, a real one is waited on.
	Elapse(ctx context.Context, d time.Duration) error
	// Virtual reports whether the keys' TTLs follow the lab clock, so that
	// Elapse is instant (undo, time travel and check need that): the
	// embedded server's always, a real server's while the lab keeps it so.
	Virtual() bool
	// LostKeys are the lab keys that vanished outside the lab's actions
	// since the last call: on a real server, a key whose server TTL ran out
	// on the wall clock while fencelab was stopped, or that somebody
	// deleted. The lab clock no longer governs them. now: look for them on
	// the server first (a round trip) rather than report what was seen.
	LostKeys(ctx context.Context, now bool) ([]string, error)
	// Restart loses every key as a Redis restart without persistence does.
	// The embedded server is really restarted; on a real one only the lab's
	// keys are deleted (restarted reports which happened).
	Restart(ctx context.Context) (restarted bool, err error)
	// Describe names the backend for a header: "miniredis" or the URL.
	Describe() string
	// Prefix starts the name of every key of this run, and differs
	// between runs on one server.
	Prefix() string
	Close() error
}

// LedgerState is what the database holds, read in one transaction: the
// world's rows as its store decodes them, a file's own tables, and the
// whole as the store wrote it.
type LedgerState struct {
	// Rows are the world's rows (the catalog's: world.Rows).
	Rows any
	// Code is a scenario file's own tables (code.go).
	Code CodeState
	// Dump is the same state whole, as the store wrote it: every column of
	// every row (ids and timestamps the rows leave out) and where the
	// sequences stand, for Restore. It is no part of what the lab
	// observes, so a state's fingerprint leaves it out.
	Dump LedgerDump `json:"-"`
}

// Ledger is one connection to the database side, as the engine uses it:
// a file's code, whole-state reads and restores. A world's steps use the
// rest of it (the catalog's: scenarios/world's Ledger).
type Ledger interface {
	CodeLedger
	// State reads the whole schema.
	State(ctx context.Context) (LedgerState, error)
	// Restore makes the schema hold exactly a dump that State read (to);
	// from is the dump it holds now, when known (empty: not known), so
	// only what differs is written.
	Restore(ctx context.Context, from, to LedgerDump) error
	// Lost reports whether the connection is gone for good — the server
	// closed it, or stopped answering and the driver gave it up — so every
	// later call fails: Database.Connect opens another.
	Lost() bool
	Close(ctx context.Context) error
}

// LedgerDump is a copy of the whole schema as its store wrote it; equal
// dumps are equal databases.
type LedgerDump string

// Database is the PostgreSQL backend as a whole.
type Database interface {
	// Connect opens a connection of its own for one actor.
	Connect(ctx context.Context, actor string) (Ledger, error)
	// Describe names the backend for a header.
	Describe() string
	// DSN is what psql needs to show the same rows.
	DSN() string
	// Writes counts what the connections Connect opened sent that may
	// have changed the schema: while it stands still, a State read earlier
	// still holds.
	Writes() uint64
	// ReadBack, on, has every write its connections send read the whole
	// schema back in its own round trip, so the State read after it asks
	// nothing. Only for connections that write one at a time: the
	// checker's labs.
	ReadBack(on bool)
}

// ErrNotFound is what a store returns for a row or key that is not there.
var ErrNotFound = errors.New("not found")
