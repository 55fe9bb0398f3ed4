package scenarios

import "github.com/fencelab/fencelab/engine"

// nonFenceableEffect: token 42's commit puts an outbox row beside the
// business row; the provider applies the effect but times out. SAFE
// reconciles by querying the original OperationId; UNSAFE retries under a
// new one and the provider applies the effect twice. Expected and final
// count the provider's applications.
func nonFenceableEffect() *engine.Scenario {
	seed := sharedSeed()
	seed.CounterStart = 41 // the writer's token is 42
	b := newWorker("B", "daily-summary", func(m *engine.Memory) int64 { return m.Token })
	return &engine.Scenario{
		ID:       "non-fenceable-effect",
		Title:    "Non-fenceable effect: the provider applies it but times out",
		Story:    "commit with outbox (token 42); the provider applies the effect but times out",
		Seed:     seed,
		Expected: 1,
		Measure:  engine.MeasureEffects,
		// The operation id of token 42's write (see Turn.OperationID).
		ProviderScript: map[string]string{"daily-summary/e2/t42": engine.ProviderAppliedButTimeout},
		Actors: func(mode engine.Mode) []engine.ActorSpec {
			delivery := []engine.Step{claimOutbox(), callProvider(), recordOutcome()}
			if mode == engine.Unsafe {
				delivery = append(delivery, retryWithNewID(), recordOutcome())
			} else {
				delivery = append(delivery, findUnknown(), queryProvider(), recordOutcome())
			}
			return []engine.ActorSpec{
				b.spec(b.acquireLease(), b.writeSummary()),
				outboxSpec(delivery...),
			}
		},
		Guided: func(mode engine.Mode) []engine.Action {
			steps := 5
			if mode == engine.Safe {
				steps = 6
			}
			guided := []engine.Action{engine.Do("B"), engine.Do("B")}
			for range steps {
				guided = append(guided, engine.Do(outboxName))
			}
			return guided
		},
		Predicted: map[engine.Mode]engine.Prediction{
			engine.Safe:   {Final: 1, Fence: 42, Verdict: engine.VerdictMatch},
			engine.Unsafe: {Final: 2, Fence: 42, Verdict: "DUPLICATE_EFFECT"},
		},
	}
}
