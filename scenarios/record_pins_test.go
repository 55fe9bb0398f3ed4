package scenarios_test

import (
	"context"
	"encoding/json"
	"github.com/fencelab/fencelab/scenarios/world"
	"os"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/storetest"
)

// pinnedStatesUnderRace: bigger checks take minutes under -race; .ci/run
// runs this test once more without it, every check whole.
const pinnedStatesUnderRace = 1500

type pinnedEvent struct {
	Actor, Layer, Code, State, Detail, Guard, Narration, Refusal string
}

type pinnedRun struct {
	Expected, Final, Fence, NamespaceEpoch int64
	Measure, Verdict                       string
	Breaks                                 []string
	Events                                 []pinnedEvent
	Guided                                 []string
}

type pinnedCheck struct {
	States, Schedules, Pruned, Complete, Reached, Stuck int
	Exhaustive                                          bool
	Broken                                              map[int]int
	Anomalies, Verdicts                                 map[string]int
	GuidedFinal                                         int64
	GuidedVerdict, GuidedErr                            string
	Counterexample                                      []string
}

type pinned struct {
	Run   pinnedRun
	Check pinnedCheck
}

func pinRun(t *testing.T, s *engine.Scenario, mode engine.Mode) pinnedRun {
	lab := checkLabs(t, s, mode, 1)[0]
	require.NoError(t, lab.RunGuided(context.Background()))
	r, err := lab.Result(context.Background())
	require.NoError(t, err)
	p := pinnedRun{Expected: r.Expected, Final: r.Final, Fence: r.Mark, NamespaceEpoch: world.FiguresOf(r).NamespaceEpoch,
		Measure: r.MeasureLabel, Verdict: r.Verdict}
	for _, b := range r.Breaks {
		p.Breaks = append(p.Breaks, b.Anomaly+" "+b.Detail)
	}
	for _, e := range r.Timeline {
		p.Events = append(p.Events, pinnedEvent{e.Actor, string(e.Layer), e.Code, e.State, e.Detail, e.Guard, e.Narration, e.Refusal})
	}
	for _, a := range s.Guided(mode) {
		p.Guided = append(p.Guided, a.String()+"|"+a.Note)
	}
	return p
}

func pinCheck(t *testing.T, s *engine.Scenario, mode engine.Mode) pinnedCheck {
	r, err := engine.Check(context.Background(), checkLabs(t, s, mode, 1), engine.CheckOptions{})
	require.NoError(t, err)
	p := pinnedCheck{States: r.States, Schedules: r.Schedules, Pruned: r.Pruned, Complete: r.Complete, Reached: r.Reached,
		Stuck: r.Stuck, Exhaustive: r.Exhaustive, Broken: r.Broken, Anomalies: r.Anomalies, Verdicts: r.Verdicts,
		GuidedFinal: r.GuidedFinal, GuidedVerdict: r.GuidedVerdict, GuidedErr: r.GuidedErr}
	if r.Counterexample != nil {
		for _, a := range r.Counterexample.Schedule {
			p.Counterexample = append(p.Counterexample, a.Action+" "+a.Actor+" "+a.By)
		}
	}
	return p
}

// The catalog's files give exactly what the Go catalog they replaced gave:
// testdata/pinned.json was recorded from the Go versions of the scenarios
// (commit da129bc), and every scenario and mode must run its guided order
// to the same timeline and result, and check to the same counts. The check
// counts were recorded again when the search stopped exploring a state a
// second time for a shorter schedule (the counterexample became the
// explored graph's shortest path): the same states everywhere, fewer
// schedules, and two counterexamples that changed — worker-start-failure
// UNSAFE's a step shorter, terminal-transition UNSAFE's as long and
// closer to the guided order. And again when a schedule that finds every
// action asleep, or every action it took changing nothing, takes the rest
// to learn whether the state is one where schedules end: a few more
// complete schedules, the same states and counterexamples. And again when
// writes went on the wire as BEGIN and COMMIT and the search took
// overlaps (a statement sent while a write is open): the same runs,
// states and counterexamples; in SAFE more schedules, each overlap one
// that stops at a state reached already; in UNSAFE, which broke with one
// statement at a time and leaves the overlaps out, a few less. token-reuse,
// which came after the Go catalog, was recorded when it was added. And
// again when invariant 10 held a job to when the lab saw it appear: the
// same states; in three UNSAFE job scenarios a stale poller's FAILED on a
// job made again since breaks it too.
func TestCatalogFilesAsPinned(t *testing.T) {
	b, err := os.ReadFile("testdata/pinned.json")
	require.NoError(t, err)
	var want map[string]map[string]pinned
	require.NoError(t, json.Unmarshal(b, &want))
	require.ElementsMatch(t, scenarios.IDs(), keys(want))
	for _, s := range scenarios.All() {
		for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
			w := want[s.ID][mode.String()]
			t.Run(s.ID+"/"+mode.String(), func(t *testing.T) {
				t.Parallel()
				require.Equal(t, w.Run, pinRun(t, s, mode), "the guided run")
				if w.Check.States > pinnedStatesUnderRace && raceEnabled {
					t.Skipf("%d states: checked whole without -race only", w.Check.States)
				}
				require.Equal(t, w.Check, pinCheck(t, s, mode), "the check")
			})
		}
	}
}

func TestRecordPins(t *testing.T) {
	out := os.Getenv("FENCELAB_RECORD_PINS")
	if out == "" {
		t.Skip()
	}
	all := map[string]map[string]pinned{}
	var ids []string
	for _, s := range scenarios.All() {
		ids = append(ids, s.ID)
		all[s.ID] = map[string]pinned{}
		for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
			t.Run(s.ID+"/"+mode.String(), func(t *testing.T) {
				all[s.ID][mode.String()] = pinned{Run: pinRun(t, s, mode), Check: pinCheck(t, s, mode)}
				t.Log(s.ID, mode, all[s.ID][mode.String()].Check.States)
			})
		}
	}
	sort.Strings(ids)
	b, err := json.MarshalIndent(all, "", " ")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(out, b, 0o644))
	_ = storetest.Embedded
}
