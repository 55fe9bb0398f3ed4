package engine

import (
	"context"
	"errors"
	"time"
)

// The ports: what the engine needs from Redis (Coordination, LeaseStore) and
// from PostgreSQL (Database, Ledger). Package store implements them; the
// engine imports no driver.

// Errors a LeaseStore returns when the acquire script refuses outright.
var (
	// ErrHistoryLost: the epoch or counter key is missing, or the counter is
	// below the current lease's token. Redis lost its data; handing out tokens
	// from zero again would let an old writer win.
	ErrHistoryLost = errors.New("fencing history lost")
	// ErrEpochMismatch: the caller's namespace epoch is not Redis's.
	ErrEpochMismatch = errors.New("namespace epoch mismatch")
	// ErrLeaseCorrupt: the lease value is not owner|token.
	ErrLeaseCorrupt = errors.New("lease value unparsable")
)

// LeaseOutcome is what an acquire did.
type LeaseOutcome string

const (
	LeaseAcquired  LeaseOutcome = "ACQUIRED"
	LeaseExtended  LeaseOutcome = "EXTENDED"
	LeaseContended LeaseOutcome = "CONTENDED"
)

// LeaseGrant is the answer to an acquire. For a contended lease, Holder and
// HolderToken name who has it.
type LeaseGrant struct {
	Outcome     LeaseOutcome
	Token       int64
	Holder      string
	HolderToken int64
}

// LeaseStatus is the answer of renew and release.
type LeaseStatus int

const (
	LeaseEpochMismatch LeaseStatus = -1
	LeaseLost          LeaseStatus = 0
	LeaseDone          LeaseStatus = 1
)

func (s LeaseStatus) String() string {
	switch s {
	case LeaseDone:
		return "DONE"
	case LeaseLost:
		return "LOST"
	default:
		return "EPOCH_MISMATCH"
	}
}

// LeaseStore is one actor's Redis client: the Lua scripts of DESIGN §3.
type LeaseStore interface {
	// Bootstrap creates the counter and epoch keys of a conflict key.
	Bootstrap(ctx context.Context, conflictKey string, namespaceEpoch, counterStart int64) error
	AcquireLease(ctx context.Context, conflictKey, owner string, ttl time.Duration, namespaceEpoch int64) (LeaseGrant, error)
	RenewLease(ctx context.Context, conflictKey, owner string, token int64, ttl time.Duration, namespaceEpoch int64) (LeaseStatus, error)
	ReleaseLease(ctx context.Context, conflictKey, owner string, token, namespaceEpoch int64) (LeaseStatus, error)
	// AcquireLeader takes the leader lease of a job. It carries no token:
	// an owner id cannot be ordered, which is why it cannot fence.
	AcquireLeader(ctx context.Context, job, owner string, ttl time.Duration) (LeaseGrant, error)
	ReleaseLeader(ctx context.Context, job, owner string) (LeaseStatus, error)
}

// RedisKey is one lab key as a snapshot shows it.
type RedisKey struct {
	Key   string
	Type  string
	Value string
	// TTL is the remaining time to live; negative when the key has none.
	TTL time.Duration
}

// Coordination is the Redis backend as a whole.
type Coordination interface {
	// Client is the Redis connection of one actor.
	Client(actor string) LeaseStore
	// Wipe deletes every key under the lab's prefix, and nothing else.
	Wipe(ctx context.Context) error
	// Keys lists the lab's keys, sorted.
	Keys(ctx context.Context) ([]RedisKey, error)
	// LeaseHolder reads who holds the resource lease of a conflict key.
	LeaseHolder(ctx context.Context, conflictKey string) (owner string, token int64, held bool, err error)
	// Elapse lets d of lab time pass for key expiry: the embedded server
	// fast-forwards, a real one is waited on.
	Elapse(ctx context.Context, d time.Duration) error
	// Virtual reports whether Elapse is instant (undo needs that).
	Virtual() bool
	// Describe names the backend for a header: "miniredis" or the URL.
	Describe() string
	Close() error
}

// Rejection reasons of the fenced mutation, in the order it checks them.
const (
	StaleMembership     = "STALE_MEMBERSHIP"
	WrongRegion         = "WRONG_REGION"
	IncompatibleVersion = "INCOMPATIBLE_VERSION"
	StaleNamespace      = "STALE_NAMESPACE"
	StaleFence          = "STALE_FENCE"
)

// Seed is the state every run of a scenario starts from (DESIGN §6).
type Seed struct {
	ConflictKey             string
	TenantID                string
	MembershipRevision      int64
	RegionID                string
	RegionEpoch             int64
	NamespaceEpoch          int64
	MinimumWriterVersion    int
	CheckpointSchemaVersion int
	InitialValue            int64
	CounterStart            int64
	Now                     time.Time
}

// Write is one worker's change of a resource, with everything the fenced
// mutation re-checks. Token 0 means the writer holds no fencing token.
type Write struct {
	OperationID        string
	JobName            string
	TenantID           string
	ConflictKey        string
	Owner              string
	Token              int64
	NamespaceEpoch     int64
	MembershipRevision int64
	RegionID           string
	RegionEpoch        int64
	ContractVersion    int
	// CheckpointSchema is the checkpoint format the writer writes.
	CheckpointSchema int
	Value            int64
	EffectType       string
	Now              time.Time
}

// WriteResult is how a write ended. Guard is the check that decided it, as
// evaluated: "incoming 41 > last accepted 42 → false".
type WriteResult struct {
	Committed bool
	Rejection string
	Guard     string
}

// Resource is a row of fencelab.resources.
type Resource struct {
	ConflictKey       string
	NamespaceEpoch    int64
	LastAcceptedFence int64
	SummaryValue      int64
	UpdatedAt         time.Time
}

// Tenant is a row of fencelab.tenant_assignments.
type Tenant struct {
	TenantID           string
	MembershipRevision int64
	RegionID           string
	RegionEpoch        int64
	Active             bool
}

// Rollout is the `current` row of fencelab.rollout_markers.
type Rollout struct {
	NamespaceEpoch          int64
	MinimumWriterVersion    int
	CheckpointSchemaVersion int
}

// Execution is a row of fencelab.executions.
type Execution struct {
	OperationID    string
	JobName        string
	TenantID       string
	Owner          string
	FencingToken   int64 // 0: none
	NamespaceEpoch int64
	// The configuration the writer acted under.
	MembershipRevision int64
	RegionID           string
	RegionEpoch        int64
	State              string
	Rejection          string
	ContractVersion    int
	SummaryValue       int64
}

// Checkpoint is a row of fencelab.checkpoints.
type Checkpoint struct {
	ConflictKey   string
	FencingToken  int64
	SchemaVersion int
	SummaryValue  int64
}

// OutboxRow is a row of fencelab.outbox.
type OutboxRow struct {
	OperationID   string
	EffectType    string
	Status        string
	AttemptCount  int
	NextAttemptAt time.Time
}

// LedgerState is everything in schema fencelab, read in one transaction.
type LedgerState struct {
	Resources   []Resource
	Tenants     []Tenant
	Rollout     Rollout
	Executions  []Execution
	Checkpoints []Checkpoint
	Outbox      []OutboxRow
}

// Resource returns the resource row of a conflict key.
func (s LedgerState) Resource(conflictKey string) (Resource, bool) {
	for _, r := range s.Resources {
		if r.ConflictKey == conflictKey {
			return r, true
		}
	}
	return Resource{}, false
}

// Ledger is one connection to the database side.
type Ledger interface {
	// Seed replaces everything in schema fencelab with the seeded state.
	Seed(ctx context.Context, seed Seed) error
	// ReadSummary reads a resource's business value, in its own transaction.
	ReadSummary(ctx context.Context, conflictKey string) (int64, error)
	// FencedMutation is the SAFE write of DESIGN §4.
	FencedMutation(ctx context.Context, w Write) (WriteResult, error)
	// UnfencedMutation is the UNSAFE write: the same transaction with an
	// unconditional UPDATE and no re-check.
	UnfencedMutation(ctx context.Context, w Write) (WriteResult, error)
	// State reads the whole schema.
	State(ctx context.Context) (LedgerState, error)
	Close(ctx context.Context) error
}

// Database is the PostgreSQL backend as a whole.
type Database interface {
	// Connect opens a connection of its own for one actor.
	Connect(ctx context.Context, actor string) (Ledger, error)
	// Describe names the backend for a header.
	Describe() string
	// DSN is what psql needs to show the same rows.
	DSN() string
}

// ErrNotFound is what a store returns for a row or key that is not there.
var ErrNotFound = errors.New("not found")
