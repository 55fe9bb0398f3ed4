package world

import "github.com/fencelab/fencelab/engine"

// The catalog's guards, in the order DESIGN §5a lists them. The names are
// stable: flags, traces and the matrix use them.
const (
	GuardFence engine.Guard = iota
	GuardMembership
	GuardRegion
	GuardVersion
	GuardNamespace
	GuardReadInTx
	GuardOutbox
	GuardOperationID
	GuardHistory
	GuardOwner
	GuardAtomicAcquire
	GuardTerminal
	GuardPointer
	GuardDeadline
)

// guards are the catalog's guards, each with what it checks in one
// sentence, and for the fenced write's predicates the refusal each makes
// (taken in their order, the first that fails refusing the write).
var guards = []engine.GuardInfo{
	GuardFence:         {Name: "fence", What: "the write's fencing token is above the last accepted one (<, never <=), in the write's own statement", Refuses: []string{StaleFence}},
	GuardMembership:    {Name: "membership", What: "the tenant is still assigned and active at the write's membership revision", Refuses: []string{StaleMembership}},
	GuardRegion:        {Name: "region", What: "the write comes from the authoritative region at its current region epoch", Refuses: []string{WrongRegion}},
	GuardVersion:       {Name: "version", What: "the writer's contract is at least the minimum writer and checkpoint schema versions", Refuses: []string{IncompatibleVersion}},
	GuardNamespace:     {Name: "namespace", What: "the namespace epoch matches in Redis (acquire, renew, release) and in PostgreSQL (the write)"},
	GuardReadInTx:      {Name: "read-in-tx", What: "a read-modify-write reads the value under the row lock, in the write's own transaction"},
	GuardOutbox:        {Name: "outbox", What: "business row, checkpoint, execution and outbox row commit in one transaction"},
	GuardOperationID:   {Name: "operation-id", What: "an unknown outcome is reconciled by querying the original OperationId, never sent again under a new one"},
	GuardHistory:       {Name: "history", What: "acquire refuses to hand out tokens when Redis lost the counter or the epoch"},
	GuardOwner:         {Name: "owner", What: "renew and release change a lease only when it still holds the caller's owner and token"},
	GuardAtomicAcquire: {Name: "atomic-acquire", What: "a job is looked up and created with its running pointer in one Lua script"},
	GuardTerminal:      {Name: "terminal", What: "a job's status moves only from RUNNING: SUCCESS and FAILED never change"},
	GuardPointer:       {Name: "pointer", What: "only the job the running pointer names may succeed, and only it may clear the pointer"},
	GuardDeadline:      {Name: "deadline", What: "a job past its absolute deadline is failed and its running pointer released"},
}

func init() { engine.DefineGuards(guards) }

// The parts of the lab the catalog's calls touch beside the database and
// the clock, for the checker's reduction (engine.Footprint).
var (
	TouchLeases   = engine.KeyPart(0) // leases, fencing counters, epochs, leader leases
	TouchJobs     = engine.KeyPart(1) // job hashes and running pointers
	TouchProvider = engine.TouchService
)
