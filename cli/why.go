package cli

import (
	"context"
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/stress"
	"github.com/fencelab/fencelab/untrusted"
)

// whyRun is what `check --why` says beyond the check: the counted graph,
// and the counterexample and the guided order walked through it.
type whyRun struct {
	why            *engine.Why
	counterexample []engine.WhyStep
	guided         []engine.WhyStep
	// guidedErr: the guided order could not be followed to its end (a
	// guard removed sends the story elsewhere); guided stops there.
	guidedErr error
}

// whyAlong walks the report's counterexample and the guided order through
// its graph, on a lab of its own on b.
func whyAlong(ctx context.Context, b *backends, report engine.CheckReport, without engine.GuardSet) (*whyRun, error) {
	run := &whyRun{why: report.Why}
	if report.Why == nil || !report.Why.Exact {
		return run, nil
	}
	bk := b.Backends
	bk.Without = without
	lab, err := engine.NewLab(ctx, bk, report.Scenario, report.Mode)
	if err != nil {
		return nil, err
	}
	defer lab.Close(context.WithoutCancel(ctx))
	if t := report.Counterexample; t != nil {
		schedule, err := t.Bind(report.Scenario)
		if err != nil {
			return nil, err
		}
		if run.counterexample, err = report.Why.Along(ctx, lab, schedule); err != nil {
			return nil, err
		}
	}
	run.guided, err = report.Why.Along(ctx, lab, report.Scenario.Guided(report.Mode))
	if err != nil && engine.StoryStopped(err) && !lab.ConnectionLost() {
		run.guidedErr, err = err, nil
	}
	return run, err
}

// printWhy prints the shares of broken futures: from the seed, then along
// the counterexample and the guided order, the point of no return marked.
func printWhy(w io.Writer, r engine.CheckReport, run *whyRun, l lang.Lang) {
	why := run.why
	root, ok := why.Root()
	if !ok {
		fmt.Fprint(w, l.T("  why: no shares — %s\n", why.Inexact.In(l)))
		return
	}
	progress := ""
	if p, ok := r.Scenario.Predicted[r.Mode]; ok && r.Mode == engine.Unsafe && !r.Scenario.BreaksAnInvariant(p.Verdict) {
		progress = l.T("  (%s is a matter of progress, not of an invariant: the shares count broken invariants only)\n", p.Verdict)
	}
	if root.Broken[0].Sign() == 0 {
		fmt.Fprint(w, l.T("  why: none of the %s ways to run it to its end from the seed (every order of calls) breaks an invariant — no future of any state breaks one\n",
			bigCount(root.Complete)))
		fmt.Fprint(w, progress)
		if run.guidedErr != nil {
			fmt.Fprint(w, l.T("  the guided order could not be followed: %s\n", said(run.guidedErr, l)))
		}
		return
	}
	fmt.Fprint(w, l.T("  why: of the %s ways to run it to its end from the seed (every order of calls), %s (%s) break an invariant",
		bigCount(root.Complete), bigCount(root.Broken[0]), engine.Percent(root.Share(0, 0))))
	var each []string
	for n := 1; n < len(root.Broken); n++ {
		if root.Broken[n].Sign() > 0 {
			each = append(each, l.T("invariant %d: %s", n, bigCount(root.Broken[n])))
		}
	}
	fmt.Fprintf(w, " (%s)\n", strings.Join(each, "; "))
	fmt.Fprint(w, progress)
	width := diffWidth(w)
	if run.counterexample != nil {
		fmt.Fprint(w, l.T("  the counterexample, with the share of its futures that break an invariant:\n"))
		printWhySteps(w, r.Scenario, run.counterexample, width, l)
	}
	fmt.Fprint(w, l.T("  the guided order, with the share of its futures that break an invariant:\n"))
	printWhySteps(w, r.Scenario, run.guided, width, l)
	if run.guidedErr != nil {
		fmt.Fprint(w, l.T("    could not be followed further: %s\n", said(run.guidedErr, l)))
	}
}

// printWhySteps prints a schedule's points, one a line: the share, the
// action, what it did; the point of no return marked, and said below it.
func printWhySteps(w io.Writer, scenario *engine.Scenario, steps []engine.WhyStep, width int, l lang.Lang) {
	point, inevitable := engine.PointOfNoReturn(steps)
	for i, s := range steps {
		mark := "  "
		if i == point {
			mark = "▶ "
		}
		share := "—"
		if s.Known {
			share = engine.Percent(s.Share(0))
		}
		action, did := l.T("(the seeded state)"), ""
		if s.Action != nil {
			action = s.Action.Words().In(l)
			did = stepDid(s.Events, l)
		}
		head := fmt.Sprintf("    %s%3d %6s  %s ", mark, i, share, pad(ansi.Truncate(untrusted.Line(action), 26, "…"), 26))
		printWrapped(w, head, did, width)
		if i == point {
			printWrapped(w, "          ", pointSaid(i, inevitable.SaidIn(scenario), l), width)
		}
	}
	if point < 0 {
		printWrapped(w, "          ", l.T("no point of no return: from every step, some way on breaks no invariant"), width)
	}
}

// printWrapped prints text after head, wrapped to the width under itself
// (a point of no return cut short would lose what it says).
func printWrapped(w io.Writer, head, text string, width int) {
	indent := ansi.StringWidth(head)
	room := max(20, width-indent)
	lines := strings.Split(ansi.Wordwrap(text, room, " "), "\n")
	for i, line := range lines {
		if i == 0 {
			fmt.Fprintln(w, strings.TrimRight(head+line, " "))
		} else {
			fmt.Fprintln(w, strings.Repeat(" ", indent)+line)
		}
	}
}

// pointSaid says the point of no return.
func pointSaid(i int, inevitable string, l lang.Lang) string {
	if i == 0 {
		return l.T("point of no return: the seeded state — every schedule breaks invariant %s", inevitable)
	}
	return l.T("point of no return: from action %d on, every schedule breaks invariant %s", i, inevitable)
}

// stepDid is what an action did, in one line: its first event, and the
// invariants it broke.
func stepDid(events []engine.Event, l lang.Lang) string {
	if len(events) == 0 {
		return l.T("(nothing happened)")
	}
	e := events[0]
	line := fmt.Sprintf("%s %s %s", e.Actor, e.Code, e.State)
	for _, b := range events {
		if strings.HasPrefix(b.Code, "INVARIANT_") && b.State == "BROKEN" {
			line += " · " + l.T("invariant %s broke", strings.TrimPrefix(b.Code, "INVARIANT_"))
		}
	}
	return untrusted.Line(line)
}

// bigCount is a count with thousands separators, however big.
func bigCount(n *big.Int) string {
	if n.IsInt64() {
		return stress.FormatCount(int(n.Int64()))
	}
	return n.String()
}

// jsonWhy is `check --why` for machines: the seeded state's futures and
// each point of the counterexample and the guided order.
type jsonWhy struct {
	Exact   bool   `json:"exact"`
	Inexact string `json:"inexact,omitempty"`
	States  int    `json:"states"`
	// Schedules are the ways to run it to its end from the seed, every
	// order of calls (not the check's completeSchedules, which the
	// reduction and pruning cut); Broken, per invariant ("any" for any),
	// those that break it.
	Schedules      *big.Int            `json:"schedules,omitempty"`
	Broken         map[string]*big.Int `json:"brokenSchedules,omitempty"`
	Counterexample *jsonWhySteps       `json:"counterexample,omitempty"`
	Guided         *jsonWhySteps       `json:"guided,omitempty"`
}

type jsonWhySteps struct {
	// PointOfNoReturn is the index in Steps (0: the seeded state); -1: none.
	PointOfNoReturn int           `json:"pointOfNoReturn"`
	Inevitable      []int         `json:"inevitable,omitempty"`
	Steps           []jsonWhyStep `json:"steps"`
	Error           string        `json:"error,omitempty"`
}

type jsonWhyStep struct {
	Action   string  `json:"action,omitempty"` // empty: the seeded state
	Actor    string  `json:"actor,omitempty"`
	Known    bool    `json:"known"`
	Share    float64 `json:"share"`
	BrokenSo []int   `json:"brokenSoFar,omitempty"`
	// Schedules from this point to an end; Broken of them, with the
	// run's own breaks counted (a broken run stays broken).
	Schedules *big.Int            `json:"schedules,omitempty"`
	Broken    map[string]*big.Int `json:"brokenSchedules,omitempty"`
}

func jsonWhyOf(r engine.CheckReport, run *whyRun) *jsonWhy {
	why := run.why
	j := &jsonWhy{Exact: why.Exact, States: why.States}
	if !why.Exact {
		j.Inexact = why.Inexact.In(lang.En)
		return j
	}
	root, _ := why.Root()
	j.Schedules, j.Broken = root.Complete, brokenCounts(root, 0)
	steps := func(ss []engine.WhyStep, err error) *jsonWhySteps {
		point, inevitable := engine.PointOfNoReturn(ss)
		out := &jsonWhySteps{PointOfNoReturn: point, Inevitable: inevitable.Numbers(), Steps: []jsonWhyStep{}}
		if err != nil {
			out.Error = said(err, lang.En)
		}
		for _, s := range ss {
			step := jsonWhyStep{Known: s.Known, BrokenSo: s.Past.Numbers()}
			if s.Action != nil {
				t := engine.TraceActionOf(*s.Action)
				step.Action, step.Actor = t.Action, t.Actor
			}
			if s.Known {
				step.Share, _ = s.Share(0).Float64()
				step.Schedules, step.Broken = s.Futures.Complete, brokenCounts(s.Futures, s.Past)
			}
			out.Steps = append(out.Steps, step)
		}
		return out
	}
	if run.counterexample != nil {
		j.Counterexample = steps(run.counterexample, nil)
	}
	j.Guided = steps(run.guided, run.guidedErr)
	return j
}

// brokenCounts are a run's broken futures by invariant ("any" too): a
// state's, or every one of them for an invariant the run broke already
// (a broken run stays broken, as its share says).
func brokenCounts(f engine.Futures, past engine.InvariantSet) map[string]*big.Int {
	count := func(n int) *big.Int {
		if past.Has(n) {
			return f.Complete
		}
		return f.Broken[n]
	}
	out := map[string]*big.Int{"any": count(0)}
	for n := 1; n < len(f.Broken); n++ {
		if c := count(n); c.Sign() > 0 {
			out[fmt.Sprint(n)] = c
		}
	}
	return out
}
