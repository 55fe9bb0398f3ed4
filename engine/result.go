package engine

import "context"

// Verdicts that are not an invariant's anomaly.
const (
	VerdictMatch      = "MATCH"
	VerdictLostUpdate = "LOST_UPDATE"
	VerdictStuck      = "STUCK"
)

// Result is the result strip: what the run should have produced, what the
// database holds, and the verdict, all read from the backends.
type Result struct {
	Scenario string
	Mode     Mode
	// Measure says what Expected and Final count.
	Measure           Measure
	Expected          int64
	Final             int64
	LastAcceptedFence int64 // 0: none
	NamespaceEpoch    int64
	Verdict           string
	Breaks            []Break
	Executions        []Execution
	Timeline          []Event
	Predicted         Prediction
}

// AsPredicted reports whether the run ended as the catalog says for its mode.
func (r Result) AsPredicted() bool {
	return r.Final == r.Predicted.Final && r.LastAcceptedFence == r.Predicted.Fence && r.Verdict == r.Predicted.Verdict
}

// Verdict names how a run ended. A broken invariant names its anomaly. With
// none broken, a final value other than the expected one is a lost update,
// or, when writes were refused, a system that is stuck. Otherwise it is the
// guard that fired last, or MATCH when none did. It does no IO.
func Verdict(expected, final int64, executions []Execution, breaks []Break) string {
	if len(breaks) > 0 {
		return breaks[0].Anomaly
	}
	lastRejection := ""
	for _, e := range executions {
		if e.State == "REJECTED" {
			lastRejection = e.Rejection
		}
	}
	switch {
	case final != expected && lastRejection != "":
		return VerdictStuck
	case final != expected:
		return VerdictLostUpdate
	case lastRejection != "":
		return lastRejection
	default:
		return VerdictMatch
	}
}

// Result reads the database and computes the result strip.
func (l *Lab) Result(ctx context.Context) (Result, error) {
	state, err := l.ledger.State(ctx)
	if err != nil {
		return Result{}, err
	}
	return l.resultFrom(state, l.backends.Provider.Applications()), nil
}

func (l *Lab) resultFrom(state LedgerState, applications []Application) Result {
	s := l.scenario
	r := Result{
		Scenario:   s.ID,
		Mode:       l.mode,
		Measure:    s.Measure,
		Expected:   s.Expected,
		Breaks:     l.breaks,
		Executions: state.Executions,
		Timeline:   l.events,
		Predicted:  s.Predicted[l.mode],
	}
	if res, ok := state.Resource(s.Seed.ConflictKey); ok {
		r.Final = res.SummaryValue
		r.LastAcceptedFence = res.LastAcceptedFence
		r.NamespaceEpoch = res.NamespaceEpoch
	}
	if s.Measure == MeasureEffects {
		r.Final = int64(len(applications))
	}
	r.Verdict = Verdict(r.Expected, r.Final, state.Executions, l.breaks)
	return r
}
