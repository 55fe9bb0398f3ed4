// Package scenarios is fencelab's catalog (DESIGN §6): each scenario is data
// — its seeded state, its actors' programs per mode, its guided order and
// the outcome the catalog predicts — built from the step builders in
// steps.go. Adding a scenario touches only this package.
package scenarios

import (
	"time"

	"github.com/fencelab/fencelab/engine"
)

// The shared values of the catalog.
const (
	ConflictKey = "summary:tenant-a:2026-07"
	TenantID    = "tenant-a"
	RegionID    = "region-a"
)

// sharedSeed is the state every scenario starts from unless it says
// otherwise: tenant-a at membership revision 7 in region-a epoch 3,
// namespace epoch 2, minimum writer version 2, checkpoint schema 1, and a
// counter at 40 so the first tokens are 41 and 42.
func sharedSeed() engine.Seed {
	return engine.Seed{
		ConflictKey:             ConflictKey,
		TenantID:                TenantID,
		MembershipRevision:      7,
		RegionID:                RegionID,
		RegionEpoch:             3,
		NamespaceEpoch:          2,
		MinimumWriterVersion:    2,
		CheckpointSchemaVersion: 1,
		InitialValue:            0,
		CounterStart:            40,
		Now:                     time.Date(2026, 7, 31, 23, 0, 0, 0, time.UTC),
	}
}

// All is the catalog in its order.
func All() []*engine.Scenario {
	return []*engine.Scenario{
		leaseOverrun(),
		crossJobCollision(),
		dynamicTenant(),
		regionPartition(),
		mixedVersionRollout(),
		nonFenceableEffect(),
		counterLoss(),
		staleRead(),
		retrySameToken(),
		staleRelease(),
		asyncJobAcquire(),
		terminalTransition(),
		pointerOwnership(),
		workerStartFailure(),
		pointerSplit(),
	}
}

// ByID finds a scenario.
func ByID(id string) (*engine.Scenario, bool) {
	for _, s := range All() {
		if s.ID == id {
			return s, true
		}
	}
	return nil, false
}

// IDs lists the catalog's ids, for error messages.
func IDs() []string {
	var ids []string
	for _, s := range All() {
		ids = append(ids, s.ID)
	}
	return ids
}
