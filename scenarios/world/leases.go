package world

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fencelab/fencelab/engine"
)

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

// EpochMismatchError is ErrEpochMismatch with the epoch Redis holds, so a
// worker can learn the current namespace.
type EpochMismatchError struct{ Current int64 }

func (e *EpochMismatchError) Error() string {
	return fmt.Sprintf("%v: Redis holds namespace epoch %d", ErrEpochMismatch, e.Current)
}
func (e *EpochMismatchError) Is(target error) bool { return target == ErrEpochMismatch }

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
	// AcquireLease is the acquire script. without takes guards out of it:
	// history (refuse a lost counter or epoch) and namespace (compare epochs).
	AcquireLease(ctx context.Context, conflictKey, owner string, ttl time.Duration, namespaceEpoch int64, without GuardSet) (LeaseGrant, error)
	// AcquireLeaseNaive is the UNSAFE acquire: INCR the counter (creating
	// it from zero if Redis lost it) and take the lease, with no history or
	// epoch check.
	AcquireLeaseNaive(ctx context.Context, conflictKey, owner string, ttl time.Duration) (LeaseGrant, error)
	// RenewLease and ReleaseLease change the lease only if it is still
	// owner|token under the epoch; without takes owner or namespace out.
	RenewLease(ctx context.Context, conflictKey, owner string, token int64, ttl time.Duration, namespaceEpoch int64, without GuardSet) (LeaseStatus, error)
	ReleaseLease(ctx context.Context, conflictKey, owner string, token, namespaceEpoch int64, without GuardSet) (LeaseStatus, error)
	// AcquireLeader takes the leader lease of a job. It carries no token:
	// an owner id cannot be ordered, which is why it cannot fence.
	AcquireLeader(ctx context.Context, job, owner string, ttl time.Duration) (LeaseGrant, error)
	ReleaseLeader(ctx context.Context, job, owner string) (LeaseStatus, error)
}

// RedisClient is one actor's Redis connection: leases, jobs and a file's
// code.
type RedisClient interface {
	LeaseStore
	JobStore
	engine.CodeStore
}

// Coordination is the Redis backend as the catalog's world uses it.
type Coordination interface {
	engine.Coordination
	// Jobs reads every job hash and running pointer of the lab.
	Jobs(ctx context.Context) (JobsState, error)
	// JobsIn is what Jobs would read, from keys Keys just read.
	JobsIn(keys []RedisKey) JobsState
	// ConflictKeyNames are the names of the keys that hold a conflict
	// key's lease, counter and epoch, as Keys lists them.
	ConflictKeyNames(conflictKey string) []string
	// LeaseHolder reads who holds the resource lease of a conflict key.
	LeaseHolder(ctx context.Context, conflictKey string) (owner string, token int64, held bool, err error)
}

// coordinationOf is the lab's Redis as the catalog's world uses it.
func coordinationOf(l *engine.Lab) Coordination { return l.Backends().Coordination.(Coordination) }

// Job statuses.
const (
	JobRunning = "RUNNING"
	JobSuccess = "SUCCESS"
	JobFailed  = "FAILED"
)

// Job is a job hash of the second seed: its status, progress and results
// live in Redis until an apply step takes them to PostgreSQL.
type Job struct {
	Key       string // its Redis key
	ID        string
	Target    string
	Status    string
	Total     int
	Processed int
	CreatedAt time.Time
	// Heartbeat is when the worker last reported progress (zero: never).
	Heartbeat time.Time
	Results   string
}

// JobsState is every job hash and the running pointer of each target.
type JobsState struct {
	Jobs    []Job
	Running map[string]string // target → job id
}

// JobGrant is acquireJob's answer: a new job, or the running one reused.
type JobGrant struct {
	Reused bool
	JobID  string
}

// Transition refusals.
const (
	IllegalTransition = "ILLEGAL_TRANSITION" // not from RUNNING: terminal states never change
	NotOwner          = "NOT_OWNER"          // SUCCESS without the running pointer
)

// TransitionResult is the transition script's answer.
type TransitionResult struct {
	Applied bool
	Refusal string // IllegalTransition or NotOwner when not applied
	Status  string // the job's status afterwards
	// PointerReleased: the running key pointed at this job and was deleted.
	PointerReleased bool
	// PointerCleared is the job id the deleted running key named, if one
	// was deleted (another job's only when the pointer guard is removed).
	PointerCleared string
}

// JobStore is the job side of DESIGN §3: two Lua scripts for SAFE, and the
// naive single commands UNSAFE interleaves.
type JobStore interface {
	// AcquireJob creates the job hash and the running pointer together, or
	// reuses the running job. The hash lives ttl, the pointer pointerTTL.
	AcquireJob(ctx context.Context, target, jobID string, total int, createdAt time.Time, ttl, pointerTTL time.Duration) (JobGrant, error)
	// TransitionJob moves a job from RUNNING (see DESIGN §3); without takes
	// the terminal or pointer checks out of the script.
	TransitionJob(ctx context.Context, target, jobID, to string, without GuardSet) (TransitionResult, error)
	// ReportProgress records processed items, results and a heartbeat, if
	// the job hash is still there (false: it is gone).
	ReportProgress(ctx context.Context, target, jobID string, processed int, results string, now time.Time) (bool, error)
	// ReadJob reads one job hash.
	ReadJob(ctx context.Context, target, jobID string) (Job, bool, error)

	// The UNSAFE steps: each a single command.
	GetRunning(ctx context.Context, target string) (string, bool, error)
	CreateJobHash(ctx context.Context, target, jobID string, total int, createdAt time.Time, ttl time.Duration) error
	SetRunning(ctx context.Context, target, jobID string, ttl time.Duration) error
	SetJobStatus(ctx context.Context, target, jobID, status string) error
	DeleteRunning(ctx context.Context, target string) error
}

// Roles of the lab's Redis keys, as a Coordination's Keys names them.
const (
	RoleLease   = "lease"   // a resource lease: owner|token
	RoleLeader  = "leader"  // a job's leader lease: owner
	RoleCounter = "counter" // a conflict key's fencing counter
	RoleEpoch   = "epoch"   // a conflict key's namespace epoch
	RoleRunning = "running" // a target's running pointer: job id
	RoleJob     = "job"     // a job hash
)

// CoordinationOf is the lab's Redis as the catalog's world's steps use it.
func CoordinationOf(t *engine.Turn) Coordination { return coordinationOf(t.Lab()) }
