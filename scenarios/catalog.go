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
)

// The shared values of the catalog.
const (
	ConflictKey = "summary:tenant-a:2026-07"
	TenantID    = "tenant-a"
	RegionID    = "region-a"
)

// sharedSeed is the state every scenario starts from unless its file says
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

// catalogFiles are the catalog's scenarios, one file each, named
// NN-ID.toml: NN is the catalog's order.
//
//go:embed catalog/*.toml
var catalogFiles embed.FS

// catalog compiles the embedded files once, on first use.
var catalog = sync.OnceValue(func() []*engine.Scenario {
	names, err := fs.Glob(catalogFiles, "catalog/*.toml")
	if err != nil {
		panic(err)
	}
	slices.Sort(names)
	var out []*engine.Scenario
	for _, name := range names {
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
		if base := strings.TrimSuffix(path.Base(name), ".toml"); len(base) < 4 || base[3:] != s.ID {
			panic(fmt.Sprintf("fencelab's catalog: %s holds scenario %s", name, s.ID))
		}
		out = append(out, s)
	}
	return out
})

// All is the catalog in its order.
func All() []*engine.Scenario { return slices.Clone(catalog()) }

// ByID finds a scenario of the catalog.
func ByID(id string) (*engine.Scenario, bool) {
	for _, s := range catalog() {
		if s.ID == id {
			return s, true
		}
	}
	return nil, false
}

// IDs lists the catalog's ids, for error messages.
func IDs() []string {
	var ids []string
	for _, s := range catalog() {
		ids = append(ids, s.ID)
	}
	return ids
}
