package world

import "context"

// Audit is what the rows of one resource say about the invariants of
// DESIGN §7 after a long run — thousands of writes, too many to read into a
// LedgerState — counted by the database itself.
type Audit struct {
	ConflictKey       string
	Summary           int64 // the resource's summary_value
	LastAcceptedFence int64
	Committed         int // executions COMMITTED on the resource
	Rejected          int
	Rejections        map[string]int // REJECTED executions by reason
	// StaleCommits are commits whose token was not above every token
	// committed before them in commit order (invariant 1); the first is
	// described.
	StaleCommits int
	FirstStale   *StaleCommit
	// LostUpdates are commits computed from another value than the row
	// held when they landed (invariant 7).
	LostUpdates int
	FirstLost   *LostUpdate
	// Invariant 3: a commit without its outbox row, an outbox row without
	// its commit, a checkpoint that disagrees with the resource.
	CommitsWithoutOutbox int
	OutboxWithoutCommit  int
	CheckpointDisagrees  bool
}

// StaleCommit is a commit that came after a bigger token's.
type StaleCommit struct {
	Owner       string
	Token       int64
	After       int64 // the biggest token committed before it
	AfterOwner  string
	OperationID string
}

// LostUpdate is a commit built on a value the row no longer held.
type LostUpdate struct {
	Owner       string
	Value, Read int64
	Previous    int64
	OperationID string
}

// Auditor is a ledger connection that can audit a resource's rows.
type Auditor interface {
	Audit(ctx context.Context, conflictKey string) (Audit, error)
}
