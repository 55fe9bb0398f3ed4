package scenarios_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/provider"
	"github.com/fencelab/fencelab/store/storetest"
)

// maxActions bounds one random run; with the default number of checks this
// keeps the property tests to a few seconds on the real backends.
const maxActions = 30

// randomRun resets the lab and takes random actions: any actor that can
// step, pauses and resumes, clock advances by 1–45 s or to the next expiry.
// It returns the invariants broken on the way.
func randomRun(t *rapid.T, lab *engine.Lab) []engine.Break {
	ctx := context.Background()
	if err := lab.Reset(ctx); err != nil {
		t.Fatalf("reset: %v", err)
	}
	for i := 0; i < maxActions; i++ {
		var candidates []engine.Action
		done := true
		for _, a := range lab.Actors() {
			switch {
			case a.Done():
			case a.Paused:
				done = false
				candidates = append(candidates, engine.Resume(a.Name))
			default:
				done = false
				candidates = append(candidates, engine.Do(a.Name), engine.Do(a.Name), engine.Pause(a.Name, "random pause"))
			}
		}
		if done {
			break
		}
		// Leases live for seconds, jobs for minutes: advance on either scale.
		unit := rapid.SampledFrom([]time.Duration{time.Second, time.Minute}).Draw(t, "unit")
		candidates = append(candidates, engine.AdvanceToNextExpiry(),
			engine.AdvanceBy(time.Duration(rapid.IntRange(1, 45).Draw(t, "amount"))*unit))
		action := rapid.SampledFrom(candidates).Draw(t, "action")
		if err := lab.Do(ctx, action); err != nil && !errors.Is(err, engine.ErrNoExpiry) {
			t.Fatalf("%s: %v", action, err)
		}
	}
	return lab.Breaks()
}

func propertyLab(t *testing.T, s *engine.Scenario, mode engine.Mode) *engine.Lab {
	backends := engine.Backends{Coordination: storetest.Embedded(t), Database: storetest.Database(t),
		Provider: provider.New(), LeaseTTL: 30 * time.Second}
	lab, err := engine.NewLab(context.Background(), backends, s, mode)
	require.NoError(t, err)
	t.Cleanup(func() { lab.Close(context.Background()) })
	return lab
}

// fewerChecks lowers rapid's default number of examples (100) unless the
// command line set it, to keep the suite quick.
func fewerChecks(n int) {
	if f := flag.Lookup("rapid.checks"); f != nil && f.Value.String() == f.DefValue {
		flag.Set("rapid.checks", fmt.Sprint(n))
	}
}

// SAFE keeps invariants 1–4 on every interleaving the generator finds.
func TestSafeKeepsInvariantsOnRandomInterleavings(t *testing.T) {
	fewerChecks(15)
	for _, s := range scenarios.All() {
		t.Run(s.ID, func(t *testing.T) {
			lab := propertyLab(t, s, engine.Safe)
			rapid.Check(t, func(t *rapid.T) {
				if breaks := randomRun(t, lab); len(breaks) > 0 {
					t.Fatalf("SAFE broke invariant %d: %s\ntimeline: %v", breaks[0].Invariant, breaks[0].Detail, lab.Events())
				}
			})
		})
	}
}

// The same generator finds a break in UNSAFE for every scenario whose
// catalog row has one.
func TestUnsafeBreaksOnRandomInterleavings(t *testing.T) {
	fewerChecks(25)
	for _, s := range scenarios.All() {
		if len(catalog[s.ID][engine.Unsafe].broken) == 0 {
			continue // its anomaly is a wrong value or a stuck system, not an invariant
		}
		t.Run(s.ID, func(t *testing.T) {
			lab := propertyLab(t, s, engine.Unsafe)
			found := 0
			// Up to four rounds of checks: a break needs a particular order.
			for round := 0; round < 4 && found == 0; round++ {
				rapid.Check(t, func(t *rapid.T) {
					if found > 0 {
						return
					}
					if breaks := randomRun(t, lab); len(breaks) > 0 {
						found = breaks[0].Invariant
					}
				})
			}
			require.NotZero(t, found, "random interleavings found no break in UNSAFE")
		})
	}
}
