package engine_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cockroachdb/datadriven"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
)

// The engine's own tests run a toy world: a counter and a lock, kept in
// the process, each of its calls one round trip. Two actors each add one
// to the counter: SAFE takes the lock around its read and its write,
// UNSAFE does not. One invariant: the counter counts every increment.
// The transcripts in testdata/ say what the engine does with it — states,
// schedules, verdicts, counterexamples — so a change to the search is
// reviewed as a change of transcript (go test ./engine -rewrite writes
// them anew).

// toyStore is the toy world's store: what the counter holds, how many
// increments were made, who holds the lock.
type toyStore struct {
	Counter, Increments int
	Holder              string
}

// toyMemory is what a toy actor remembers.
type toyMemory struct {
	Read  int
	Holds bool
}

func (m *toyMemory) Clone() engine.Remembered { c := *m; return &c }
func (m *toyMemory) Relative(time.Time) (engine.Remembered, bool) {
	return m, false
}
func (m *toyMemory) StepEnded() {}

type toyWorld struct{}

func (toyWorld) Start() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) }
func (toyWorld) Invariants() []engine.Invariant {
	return []engine.Invariant{{Number: 1, Anomaly: "LOST_UPDATE", Says: "the counter counts every increment",
		Check: func(o engine.Observation) []engine.Break {
			if s := o.After.World.(toyStore); s.Counter != s.Increments {
				return []engine.Break{engine.NewBreak(1, "LOST_UPDATE", lang.P("the counter is %d after %d increments", s.Counter, s.Increments))}
			}
			return nil
		}}}
}
func (toyWorld) Verdicts() []string                 { return nil }
func (toyWorld) Refusals() []string                 { return nil }
func (toyWorld) Open(l *engine.Lab) engine.LabWorld { return &toyLab{lab: l} }

// toyLab is the toy world in one lab.
type toyLab struct {
	lab   *engine.Lab
	store toyStore
}

func (w *toyLab) Reset(context.Context) error {
	w.store = toyStore{}
	for _, a := range w.lab.Actors() {
		a.Memory.World = &toyMemory{}
	}
	return nil
}

func (w *toyLab) Read([]engine.RedisKey) any { return w.store }

// Check: the toy's invariant checks itself (Invariant.Check).
func (w *toyLab) Check(context.Context, engine.Observation) ([]engine.Break, error) { return nil, nil }

func (w *toyLab) Sum(engine.StateHash, time.Time) {}
func (w *toyLab) SumShared(h engine.StateHash, _ time.Time) {
	h.Int(int64(w.store.Counter))
	h.Int(int64(w.store.Increments))
	h.Str(w.store.Holder)
}
func (w *toyLab) Rows(engine.LedgerState) any { return nil }
func (w *toyLab) Save() any                   { return w.store }
func (w *toyLab) Restore(saved any)           { w.store = saved.(toyStore) }
func (w *toyLab) View(_ context.Context, actors []*engine.Actor, views []engine.ActorView) error {
	for i, a := range actors {
		if memoryOf(a).Holds {
			views[i].Belief, views[i].HoldsNothing = "holds the lock", false
		}
	}
	return nil
}
func (w *toyLab) Keys([]engine.RedisKey) {}
func (w *toyLab) Result(r engine.Reading, result *engine.Result) {
	result.Final = int64(r.World.(toyStore).Counter)
}
func (w *toyLab) Pausing(*engine.Actor, bool, *lang.Phrase, *string) {}
func (w *toyLab) Holds(a *engine.Actor) bool                         { return memoryOf(a).Holds }

func memoryOf(a *engine.Actor) *toyMemory { return a.Memory.World.(*toyMemory) }

// trip is one round trip to the toy store: the lab lets it go (Send),
// then do runs as the store, and its reply goes back.
func trip(ctx context.Context, t *engine.Turn, text string, do func(s *toyStore) string) error {
	back, err := engine.Send(ctx, engine.RoundTrip{Backend: "toy", Text: text})
	if err != nil {
		return err
	}
	back(do(&t.Lab().World().(*toyLab).store))
	return nil
}

// The toy world's parts, for the checker's reduction: the lock and the
// counter are apart, so a call on one commutes with a call on the other.
var (
	lockPart    = engine.Touching(engine.KeyPart(0), engine.KeyPart(0))
	counterPart = engine.KeyPart(1)
)

// The toy world's steps.
func lockStep(name string) engine.Step {
	return engine.Step{Name: "lock", Touches: lockPart, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		got := false
		err := trip(ctx, t, "SET lock "+name+" NX", func(s *toyStore) string {
			if s.Holder != "" {
				return "nil"
			}
			s.Holder, got = name, true
			return "OK"
		})
		if err != nil || !got {
			t.Emitf(engine.LayerCoordination, "LOCK", "WAITING", "the lock is held")
			return engine.Wait, err
		}
		memoryOf(t.Actor).Holds = true
		t.Emitf(engine.LayerCoordination, "LOCK", "HELD", "%s holds the lock", name)
		return engine.Advance, nil
	}}
}

func readStep() engine.Step {
	return engine.Step{Name: "read", Touches: engine.Touching(counterPart, 0), Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		err := trip(ctx, t, "GET counter", func(s *toyStore) string {
			memoryOf(t.Actor).Read = s.Counter
			return fmt.Sprint(s.Counter)
		})
		t.Emitf(engine.LayerDatabase, "READ", "READ", "read %d", memoryOf(t.Actor).Read)
		return engine.Advance, err
	}}
}

func writeStep() engine.Step {
	return engine.Step{Name: "write", Touches: engine.Touching(counterPart, counterPart), Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		value := memoryOf(t.Actor).Read + 1
		err := trip(ctx, t, fmt.Sprintf("SET counter %d", value), func(s *toyStore) string {
			s.Counter, s.Increments = value, s.Increments+1
			return "OK"
		})
		t.Emitf(engine.LayerDatabase, "WRITE", "WRITTEN", "wrote %d", value)
		return engine.Advance, err
	}}
}

func unlockStep(name string) engine.Step {
	return engine.Step{Name: "unlock", Touches: lockPart, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		err := trip(ctx, t, "DEL lock", func(s *toyStore) string {
			if s.Holder == name {
				s.Holder = ""
			}
			return "1"
		})
		memoryOf(t.Actor).Holds = false
		t.Emitf(engine.LayerCoordination, "UNLOCK", "RELEASED", "%s lets go of the lock", name)
		return engine.Advance, err
	}}
}

// toyScenario: A and B each add one to the counter; with reread, each
// reads the counter again at the end (steps after the one that breaks).
func toyScenario(reread bool) *engine.Scenario {
	program := func(name string, mode engine.Mode) []engine.Step {
		var steps []engine.Step
		if mode == engine.Unsafe {
			steps = []engine.Step{readStep(), writeStep()}
		} else {
			steps = []engine.Step{lockStep(name), readStep(), writeStep(), unlockStep(name)}
		}
		if reread {
			steps = append(steps, readStep())
		}
		return steps
	}
	return &engine.Scenario{ID: "toy", Title: "two increments", World: toyWorld{}, Expected: 2,
		Actors: func(mode engine.Mode) []engine.ActorSpec {
			return []engine.ActorSpec{{Name: "A", Owner: "A", Program: program("A", mode)}, {Name: "B", Owner: "B", Program: program("B", mode)}}
		},
		Guided: func(mode engine.Mode) []engine.Action {
			steps := len(program("A", mode))
			var out []engine.Action
			for range steps {
				out = append(out, engine.Do("A"))
			}
			for range steps {
				out = append(out, engine.Do("B"))
			}
			return out
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 2, Verdict: engine.VerdictMatch},
			engine.Unsafe: {Final: 1, Verdict: "LOST_UPDATE"},
		},
	}
}

func TestToyWorld(t *testing.T) {
	datadriven.Walk(t, "testdata", func(t *testing.T, path string) {
		datadriven.RunTest(t, path, func(t *testing.T, td *datadriven.TestData) string {
			ctx := context.Background()
			mode := engine.Safe
			if td.HasArg("unsafe") {
				mode = engine.Unsafe
			}
			lab, err := engine.NewLab(ctx, engine.Backends{}, toyScenario(td.HasArg("reread")), mode)
			if err != nil {
				t.Fatal(err)
			}
			defer lab.Close(ctx)
			switch td.Cmd {
			case "run":
				return runTranscript(ctx, lab, td.Input)
			case "snapshot":
				out := runTranscript(ctx, lab, td.Input)
				snap, err := lab.Snapshot(ctx)
				if err != nil {
					t.Fatal(err)
				}
				for _, a := range snap.Actors {
					out += fmt.Sprintf("%s: next %q, believes %q\n", a.Name, a.NextStep, a.Belief)
				}
				return out
			case "check":
				report, err := engine.Check(ctx, []*engine.Lab{lab}, engine.CheckOptions{NoReduction: td.HasArg("no-reduction"),
					UntilBroken: td.HasArg("until-broken")})
				if err != nil {
					t.Fatal(err)
				}
				return checkTranscript(report)
			}
			t.Fatalf("%s: unknown command %q", td.Pos, td.Cmd)
			return ""
		})
	})
}

// runTranscript takes the actions the input names, one a line ("call A",
// "step B", "guided"), and says the events and the result.
func runTranscript(ctx context.Context, lab *engine.Lab, input string) string {
	var out strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(input), "\n") {
		verb, who, _ := strings.Cut(strings.TrimSpace(line), " ")
		var err error
		switch verb {
		case "call":
			err = lab.Do(ctx, engine.DoCall(who))
		case "step":
			err = lab.Do(ctx, engine.Do(who))
		case "guided":
			err = lab.RunGuided(ctx)
		default:
			err = fmt.Errorf("unknown action %q", line)
		}
		if err != nil {
			fmt.Fprintf(&out, "%s: error: %v\n", line, err)
		}
	}
	for _, e := range lab.Events() {
		fmt.Fprintf(&out, "#%d %s %s %s\n", e.Sequence, e.Code, e.State, e.Detail)
	}
	r, err := lab.Result(ctx)
	if err != nil {
		return out.String() + "result: error: " + err.Error() + "\n"
	}
	fmt.Fprintf(&out, "result: expected %d, final %d, verdict %s\n", r.Expected, r.Final, r.Verdict)
	return out.String()
}

// checkTranscript says what a check found.
func checkTranscript(r engine.CheckReport) string {
	var out strings.Builder
	fmt.Fprintf(&out, "states %d, schedules %d (pruned %d, complete %d, reached %d), exhaustive %t\n",
		r.States, r.Schedules, r.Pruned, r.Complete, r.Reached, r.Exhaustive)
	for _, v := range slices.Sorted(maps.Keys(r.Verdicts)) {
		fmt.Fprintf(&out, "verdict %s: %d\n", v, r.Verdicts[v])
	}
	for _, n := range slices.Sorted(maps.Keys(r.Broken)) {
		fmt.Fprintf(&out, "invariant %d broken on %d schedules\n", n, r.Broken[n])
	}
	if c := r.Counterexample; c != nil {
		out.WriteString("counterexample:\n")
		for _, a := range c.Schedule {
			action, err := a.ToAction()
			if err != nil {
				fmt.Fprintf(&out, "  ? %v\n", err)
				continue
			}
			fmt.Fprintf(&out, "  %s\n", action)
		}
	}
	fmt.Fprintf(&out, "holds %t\n", r.Holds())
	return out.String()
}
