package engine_test

import (
	"encoding/json"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/fencelab/fencelab/engine"
)

// Any schedule written as a trace reads back as the same schedule.
func TestTraceRoundTrip(t *testing.T) {
	scenario := &engine.Scenario{ID: "s", Actors: func(engine.Mode) []engine.ActorSpec {
		return []engine.ActorSpec{{Name: "A"}, {Name: "B"}, {Name: "OP"}}
	}}
	rapid.Check(t, func(t *rapid.T) {
		actor := rapid.SampledFrom([]string{"A", "B", "OP"})
		text := rapid.StringMatching(`[ -~]{0,12}`)
		schedule := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) engine.Action {
			switch rapid.IntRange(0, 4).Draw(t, "kind") {
			case 0:
				return engine.Action{Kind: engine.StepActor, Actor: actor.Draw(t, "actor"), Caption: text.Draw(t, "caption")}
			case 1:
				return engine.Pause(actor.Draw(t, "actor"), text.Draw(t, "note"))
			case 2:
				return engine.Resume(actor.Draw(t, "actor"))
			case 3:
				return engine.AdvanceBy(time.Duration(rapid.Int64Range(1, int64(time.Hour)).Draw(t, "by")))
			default:
				return engine.AdvanceToNextExpiry()
			}
		}), 1, 20).Draw(t, "schedule")
		mode := rapid.SampledFrom([]engine.Mode{engine.Safe, engine.Unsafe}).Draw(t, "mode")
		trace := engine.NewTrace(30*time.Second, schedule, engine.Result{Scenario: "s", Mode: mode})
		data, err := json.Marshal(trace)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := engine.ParseTrace(data)
		if err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		back, err := parsed.Bind(scenario)
		if err != nil {
			t.Fatal(err)
		}
		if len(back) != len(schedule) {
			t.Fatalf("%d actions back, %d written", len(back), len(schedule))
		}
		for i := range back {
			if back[i] != schedule[i] {
				t.Fatalf("action %d: %+v back, %+v written", i, back[i], schedule[i])
			}
		}
		if parsed.ModeOf() != mode || time.Duration(parsed.HoldTTL) != 30*time.Second {
			t.Fatalf("mode or TTL changed: %+v", parsed)
		}
	})
}
