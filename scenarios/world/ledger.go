package world

import (
	"context"
	"time"

	"github.com/fencelab/fencelab/engine"
)

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
	// Neighbour is another job's resource, seeded beside the scenario's
	// with its own summary, which no step of the scenario is for: a write
	// that changes it (an UPDATE that lost its conflict key) breaks
	// invariant 3. Empty: none.
	Neighbour      string
	NeighbourValue int64
	// NeighbourTenant is another tenant, assigned as the scenario's is (its
	// membership revision, region and region epoch), which no step of the
	// scenario is for: a statement that reads a tenant's assignment
	// without naming the tenant finds two rows, and one that changes it
	// changes both. Empty: none.
	NeighbourTenant string
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
	// Value is what the write sets the summary to. For a read-modify-write
	// it was computed from ReadValue, a summary the writer read earlier.
	Value     int64
	ReadValue *int64
	// AddUnderLock makes the write a read-modify-write inside its own
	// transaction: it reads the summary under the row lock and writes that
	// plus Delta, so the value is computed from the row the guard saw
	// (Value and ReadValue are then ignored).
	AddUnderLock bool
	Delta        int64
	EffectType   string
	Now          time.Time
	// Without takes guards out of the write: fence, membership, region,
	// version and namespace come out of its checks; outbox leaves the
	// execution and outbox rows to RecordWrite, a transaction of their own.
	Without GuardSet
}

// WriteResult is how a write ended. Guard is the check that decided it, as
// evaluated: "incoming 41 > last accepted 42 → false".
type WriteResult struct {
	Committed bool
	Rejection string
	Guard     string
	// Read and Value are what an AddUnderLock write read under the lock and
	// wrote (Value: what it would have written, when rejected).
	Read, Value int64
	// Previous is the summary the committed write replaced.
	Previous int64
	// Overlooked names the removed guard (Write.Without) whose check would
	// have refused the committed write; empty when every check passed.
	Overlooked string
	// OnRecord: the write committed, but its OperationId had an execution
	// on record already, so it wrote no execution or outbox row of its
	// own (a retry of a write that landed; two writes given one id).
	OnRecord bool
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
	ConflictKey    string
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
	// ReadValue is the summary the writer computed its value from, for a
	// read-modify-write (HasRead); PreviousValue is what the row held when
	// the write committed. Invariant 7 compares them.
	HasRead       bool
	ReadValue     int64
	PreviousValue int64
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

// Rows are the rows of schema fencelab, read in one transaction.
type Rows struct {
	Resources   []Resource
	Tenants     []Tenant
	Rollout     Rollout
	Executions  []Execution
	Checkpoints []Checkpoint
	Outbox      []OutboxRow
	Receipts    []Receipt
	JobResults  []JobResult
	// Times are the moments the rows hold (when each was made, updated,
	// due), for invariant 10 to hold them to the lab clock. They are no
	// part of what a state's fingerprint takes: the fields above keep the
	// ones steps read.
	Times []RecordedTime `json:"-"`
}

// RecordedTime is one moment a row holds: Where names its table, row and
// column.
type RecordedTime struct {
	Where string
	At    time.Time
}

// JobResult is a row of fencelab.job_results: a job's results, applied.
type JobResult struct {
	JobID   string
	Target  string
	Results string
}

// Receipt is a row of fencelab.effect_receipts.
type Receipt struct {
	Provider    string
	OperationID string
	Status      string
	Receipt     string
}

// Resource returns the resource row of a conflict key.
func (s Rows) Resource(conflictKey string) (Resource, bool) {
	for _, r := range s.Resources {
		if r.ConflictKey == conflictKey {
			return r, true
		}
	}
	return Resource{}, false
}

// Ledger is one connection to the database side, as the catalog's
// world uses it.
type Ledger interface {
	engine.Ledger
	Operator
	Outbox
	// ApplyJobResults publishes a job's results (the apply API's write).
	ApplyJobResults(ctx context.Context, jobID, target, results string, now time.Time) error
	// Seed replaces everything in schema fencelab with the seeded state.
	Seed(ctx context.Context, seed Seed) error
	// ReadSummary reads a resource's business value, in its own transaction.
	ReadSummary(ctx context.Context, conflictKey string) (int64, error)
	// FencedMutation is the SAFE write of DESIGN §4.
	FencedMutation(ctx context.Context, w Write) (WriteResult, error)
	// RecordWrite records a write's execution and a commit's outbox row,
	// when FencedMutation was told to leave them (Write.Without outbox).
	RecordWrite(ctx context.Context, w Write, result WriteResult) error
	// UnfencedMutation is the UNSAFE write: the same transaction with an
	// unconditional UPDATE and no re-check.
	UnfencedMutation(ctx context.Context, w Write) (WriteResult, error)
}

// Operator is the environment's changes, made by the operator actor.
type Operator interface {
	// RemoveTenant deactivates a tenant and raises its membership revision.
	RemoveTenant(ctx context.Context, tenantID string, revision int64, now time.Time) error
	// Rollout sets the minimum writer and checkpoint schema versions.
	Rollout(ctx context.Context, minimumWriter, checkpointSchema int) error
	// BumpNamespace moves the rollout marker and a resource to a new
	// namespace epoch; the resource's fence restarts at none under it.
	BumpNamespace(ctx context.Context, conflictKey string, epoch int64, now time.Time) error
}

// Outbox is the delivery side of DESIGN §5.
type Outbox interface {
	// ClaimNextOutbox claims the oldest due PENDING row (FOR UPDATE SKIP
	// LOCKED), marks it CLAIMED until now+claimTimeout and commits.
	ClaimNextOutbox(ctx context.Context, now time.Time, claimTimeout time.Duration) (OutboxRow, bool, error)
	// ClaimForReconciliation claims the oldest RECONCILIATION_REQUIRED row
	// or expired claim (CLAIMED until now+claimTimeout, so a second
	// reconciler skips it) and returns the row as it found it, but for
	// AttemptCount: the new claim's attempt.
	ClaimForReconciliation(ctx context.Context, now time.Time, claimTimeout time.Duration) (OutboxRow, bool, error)
	// RecordOutcome records what the provider answered, while the claim
	// it was delivered under is the row's (ErrNotFound: it is not);
	// CONFIRMED and DECLINED are final and write a receipt.
	RecordOutcome(ctx context.Context, o Outcome) error
}

// Outcome is a delivery's result as the outbox records it.
type Outcome struct {
	OperationID string // the outbox row
	Status      string // CONFIRMED, DECLINED, RECONCILIATION_REQUIRED
	Provider    string
	// ReceiptOperationID is the OperationId the receipt is for (the row's
	// own, or an UNSAFE retry's new one).
	ReceiptOperationID string
	Receipt            string
	Now                time.Time
	// Attempt is the claim's attempt the answer came under (the row's
	// attempt_count as the claim left it): the claim's fencing token.
	Attempt int
}

// RowsOf are the catalog's rows of a database state (none when the state
// holds no rows of the catalog's).
func RowsOf(s engine.LedgerState) Rows {
	r, _ := s.Rows.(Rows)
	return r
}
