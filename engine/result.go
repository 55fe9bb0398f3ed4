package engine

import (
	"context"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/lang"
)

// Verdicts.
const (
	VerdictMatch = "MATCH"
	// VerdictLostUpdate is an update lost to a read-modify-write computed
	// from a value no longer current (a file's anomaly may name it too).
	VerdictLostUpdate = "LOST_UPDATE"
	// VerdictWrongValue is a final value other than the expected one that
	// no broken invariant explains (and the scenario names no shortfall
	// of its own): a run cut short, or a defect no invariant covers yet.
	VerdictWrongValue = "WRONG_VALUE"
	VerdictStuck      = "STUCK"
	// VerdictUnfinished is a scenario with no value (NoValue) whose run
	// ended with an actor short of its program's end.
	VerdictUnfinished = "UNFINISHED"
)

// KnownVerdicts are the verdicts a run in world w can end with: MATCH,
// the shortfalls, the world's invariants' anomalies and its guards'
// refusals; a scenario's steps may add refusals of their own.
func KnownVerdicts(w World) []string {
	out := []string{VerdictMatch, VerdictLostUpdate, VerdictWrongValue, VerdictStuck, VerdictUnfinished}
	if w == nil {
		return out
	}
	for _, inv := range w.Invariants() {
		if inv.Anomaly != "" && !slices.Contains(out, inv.Anomaly) {
			out = append(out, inv.Anomaly)
		}
	}
	return append(out, w.Verdicts()...)
}

// Result is the result strip: what the run should have produced, what the
// database holds, and the verdict, all read from the backends.
type Result struct {
	Scenario string
	Mode     Mode
	// Without is the set of guards removed from SAFE for the run.
	Without GuardSet
	// Consulted is the set of guards the run's steps asked about.
	Consulted GuardSet `json:"-"`
	// MeasureLabel says what Expected and Final count; empty for the
	// business value.
	MeasureLabel string
	// NoValue: the scenario names no value; Final is then the actors that
	// did not finish their programs (Expected 0), and no value is shown.
	NoValue bool `json:",omitempty"`
	// Values are a file's several values, each with what it should be
	// (Expected is then 0, and Final how many are not).
	Values   []ValueResult `json:",omitempty"`
	Expected int64
	Final    int64
	// Mark is a second figure the world keeps beside the value, which a
	// prediction names too (the catalog's world: the last accepted
	// fence); 0: none.
	Mark int64
	// World is the world's own part of the result.
	World   any `json:"-"`
	Verdict string
	Breaks  []Break
	// Ledger is the database the result was read from.
	Ledger    LedgerState `json:"-"`
	Timeline  []Event
	Predicted Prediction
	// Predicts says the scenario predicts this mode's outcome: a file may
	// leave its predictions out.
	Predicts bool
	// Texts are the scenario's invariants' texts, by number: its world's
	// and its file's.
	Texts map[int]string `json:"-"`
	// OwnCodeOnly: the scenario runs a file's own code only, so fencelab's
	// fence is no part of its result.
	OwnCodeOnly bool `json:"-"`
	// Unsent are the OperationIds the scenario scripts the provider for
	// that the run never sent: their answers were never given, so the run
	// is not as predicted whatever it ended with.
	Unsent []string
}

// ValueResult is one of a file's several values: what it holds, and what
// a correct run ends with.
type ValueResult struct {
	Label           string
	Expected, Final int64
}

// ValuesSaid are a file's several values as a result line says them:
// "edits: expected 1 · final 1 · version: expected 1 · final 2".
func (r Result) ValuesSaid(l lang.Lang) string {
	var parts []string
	for _, v := range r.Values {
		parts = append(parts, l.T("%sexpected %d · final %d", v.Label+": ", v.Expected, v.Final))
	}
	return strings.Join(parts, " · ")
}

// InvariantText says invariant n in English.
func (r Result) InvariantText(n int) string {
	return r.Texts[n]
}

// ModeLabel is the run's mode with its removed guards: "SAFE −region".
func (r Result) ModeLabel() string { return ModeLabel(r.Mode, r.Without) }

// AsPredicted reports whether the run ended as the catalog says for its
// mode. With guards removed, the catalog predicts nothing: what SAFE
// promises is then that no invariant broke and the expected value was
// reached, which is what a run without guards is held to.
//
// A scenario file with no prediction for the mode is held to what it can
// be without one: SAFE breaks no invariant; UNSAFE may end any way.
func (r Result) AsPredicted() bool {
	switch {
	case len(r.Unsent) > 0:
		return false
	case r.Without != 0:
		return len(r.Breaks) == 0 && r.Final == r.Expected
	case !r.Predicts:
		return r.Mode == Unsafe || len(r.Breaks) == 0
	}
	return r.MatchesPrediction()
}

// MatchesPrediction reports whether the run ended with the final value,
// fence and verdict its prediction names (a trace's recorded result, say,
// whatever guards its run removed).
func (r Result) MatchesPrediction() bool {
	mark := r.Predicted.AnyMark || r.Mark == r.Predicted.Mark
	final := r.Predicted.AnyFinal || r.Final == r.Predicted.Final
	return final && mark && r.Verdict == r.Predicted.Verdict
}

// Verdict names how a run ended. A broken invariant names its anomaly. With
// none broken, a final value other than the expected one is the scenario's
// shortfall when it names one. Otherwise it is the guard that fired last
// (which explains a value short of the expected one), WRONG_VALUE for a
// value nothing explains, or MATCH. It does no IO.
func Verdict(expected, final int64, refusals []string, breaks []Break, shortfall string) string {
	switch {
	case len(breaks) > 0:
		return breaks[0].Anomaly
	case final != expected && shortfall != "":
		return shortfall
	case len(refusals) > 0:
		// A guard refused a write: that is why the value is what it is
		// (a refused job is not retried in the lab).
		return refusals[len(refusals)-1]
	case final != expected:
		return VerdictWrongValue
	default:
		return VerdictMatch
	}
}

// refusals are the guards that fired, in order, as the steps reported them.
func (l *Lab) refusals() []string {
	var out []string
	for _, e := range l.events {
		if e.Refusal != "" {
			out = append(out, e.Refusal)
		}
	}
	return out
}

// Result reads the database and computes the result strip.
func (l *Lab) Result(ctx context.Context) (Result, error) {
	state, err := l.ledger.State(ctx)
	if err != nil {
		return Result{}, err
	}
	keys, err := l.backends.Coordination.Keys(ctx)
	if err != nil {
		return Result{}, err
	}
	return l.resultFrom(Reading{Ledger: state, Keys: keys, Prefix: l.backends.Coordination.Prefix(), World: l.readWorld(keys)}), nil
}

func (l *Lab) resultFrom(world Reading) Result {
	state := world.Ledger
	s := l.scenario
	r := Result{
		Scenario:     s.ID,
		Mode:         l.mode,
		Without:      l.without,
		Consulted:    l.consulted,
		MeasureLabel: s.Measure.Label,
		Expected:     s.Expected,
		Breaks:       l.breaks,
		Ledger:       state,
		Timeline:     l.events,
	}
	r.Predicted, r.Predicts = s.Predicted[l.mode]
	r.OwnCodeOnly = s.OwnCodeOnly
	r.Texts = map[int]string{}
	if s.World != nil {
		for _, inv := range s.World.Invariants() {
			r.Texts[inv.Number] = inv.Says
		}
	}
	if s.Code != nil {
		for i := range s.Code.Invariants {
			r.Texts[FirstCodeInvariant+i] = s.InvariantText(FirstCodeInvariant + i)
		}
	}
	if l.world != nil {
		l.world.Result(world, &r)
	}
	if s.Measure.Count != nil {
		r.Final = s.Measure.Count(world)
	}
	if s.Code != nil && len(s.Code.Values) > 1 {
		r.Values = s.Code.ValuesIn(world)
	}
	if s.NoValue {
		r.NoValue, r.Expected, r.Final = true, 0, 0
		for _, a := range l.actors {
			if !a.Done() {
				r.Final++
			}
		}
	}
	r.Verdict = Verdict(r.Expected, r.Final, l.refusals(), l.breaks, s.ShortfallVerdict())
	return r
}
