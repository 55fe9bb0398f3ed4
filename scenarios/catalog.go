// Package scenarios is fencelab's catalog (DESIGN §6) and the scenario
// files it is written in. A scenario is a file (file.go: format
// fencelab-scenario/1): its seeded state, its actors and their programs
// per mode, its guided order and the outcome it predicts. The catalog's
// own files are embedded (catalog/); a person's are read the same way.
// Go keeps the step vocabulary (vocabulary.go) — the steps themselves are
// in steps.go, operator.go, outbox.go and jobs.go — and the engine runs
// them.
package scenarios

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
)

// The shared values of the catalog.
const (
	ConflictKey = "summary:tenant-a:2026-07"
	// NeighbourKey is another job's resource of the same tenant, beside
	// the scenario's in every seed: one resource hides a write that
	// updates every row.
	NeighbourKey = "report:tenant-a:2026-07"
	TenantID     = "tenant-a"
	// NeighbourTenant is another tenant of region-a, at tenant-a's
	// revision, beside it in every seed: one tenant hides a statement
	// that reads or changes the assignment of every tenant.
	NeighbourTenant = "tenant-b"
	RegionID        = "region-a"
)

// sharedSeed is the state every scenario starts from unless its file says
// otherwise: tenant-a at membership revision 7 in region-a epoch 3,
// namespace epoch 2, minimum writer version 2, checkpoint schema 1, a
// counter at 40 so the first tokens are 41 and 42, another job's
// resource beside the scenario's, its summary at 7, and another tenant
// beside tenant-a, assigned as it is.
func sharedSeed() world.Seed {
	return world.Seed{
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
		Neighbour:               NeighbourKey,
		NeighbourValue:          7,
		NeighbourTenant:         NeighbourTenant,
	}
}

// catalogFiles are the catalog's scenarios, one file each, named
// NN-ID.toml: NN is the catalog's order.
//
//go:embed catalog/*.toml
var catalogFiles embed.FS

// catalogFile is one file of the catalog: its scenario's id, which its
// name gives, and the scenario, compiled on first use. A command on one
// scenario compiles that file alone: all of them took 5 ms of every start.
type catalogFile struct {
	name, id string
	scenario func() *engine.Scenario
}

// catalogIndex lists the embedded files in the catalog's order, once.
var catalogIndex = sync.OnceValue(func() []catalogFile {
	names, err := fs.Glob(catalogFiles, "catalog/*.toml")
	if err != nil {
		panic(err)
	}
	slices.Sort(names)
	var out []catalogFile
	for _, name := range names {
		id := strings.TrimSuffix(path.Base(name), ".toml")
		if len(id) < 4 {
			panic(fmt.Sprintf("fencelab's catalog: %s is not named NN-ID.toml", name))
		}
		out = append(out, catalogFile{name: name, id: id[3:], scenario: sync.OnceValue(func() *engine.Scenario { return compileCatalogFile(name, id[3:]) })})
	}
	return out
})

// compileCatalogFile compiles one of the catalog's files, which must hold
// scenario id.
func compileCatalogFile(name, id string) *engine.Scenario {
	src, err := catalogFiles.ReadFile(name)
	if err != nil {
		panic(err)
	}
	s, err := Parse(name, src)
	if err != nil {
		// The catalog's own files are tested; this is a build that
		// should never have been made.
		panic(fmt.Sprintf("fencelab's catalog: %v", err))
	}
	if s.ID != id {
		panic(fmt.Sprintf("fencelab's catalog: %s holds scenario %s", name, s.ID))
	}
	return s
}

// All is the catalog in its order.
func All() []*engine.Scenario {
	var out []*engine.Scenario
	for _, f := range catalogIndex() {
		out = append(out, f.scenario())
	}
	return out
}

// ByID finds a scenario of the catalog.
func ByID(id string) (*engine.Scenario, bool) {
	for _, f := range catalogIndex() {
		if f.id == id {
			return f.scenario(), true
		}
	}
	return nil, false
}

// IDs lists the catalog's ids, for error messages.
func IDs() []string {
	var ids []string
	for _, f := range catalogIndex() {
		ids = append(ids, f.id)
	}
	return ids
}
