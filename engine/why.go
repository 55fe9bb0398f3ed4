package engine

import (
	"context"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/fencelab/fencelab/lang"
)

// Why a schedule broke: for every state a check reached, how many of the
// complete schedules that go on from it break each invariant, counted
// exactly over the explored graph; and along a schedule, the point of no
// return — the first action after which every way the run can go on
// breaks an invariant.
//
// The graph is the search's (CheckOptions.Why): a node is a state as the
// fingerprint defines it, an edge an action the search can take there and
// the state it leads to, with the invariants the checks after it found
// broken. An action that changes nothing (an actor that waits and waits
// again) is no edge: a complete schedule is a path from a state to one
// where nothing can change any more, as the search ends its schedules.
// Counts go backwards over the graph, which has no cycles (the search
// says so when one does, and counts nothing):
//
//	complete(s)  = 1 at a state with no edge, else Σ complete(t) over its edges
//	broken_k(s)  = Σ over its edges: complete(t) if the edge broke k, else broken_k(t)
//
// A break belongs to a schedule, not to a state: a schedule that broke an
// invariant on the way stays broken whatever follows. So the share of a
// schedule's futures that end broken is 1 once it broke, else
// broken(s)/complete(s) of the state it is at; it never falls back from 1,
// and the first action where it reaches 1 is the point of no return.

// InvariantSet is a set of invariant numbers: the world's and a file's
// own (1 to FirstCodeInvariant+MostCodeInvariants-1).
type InvariantSet uint32

// lastInvariant is the highest number an invariant may have: a file's
// last own one.
const lastInvariant = FirstCodeInvariant + MostCodeInvariants - 1

func (s InvariantSet) with(n int) InvariantSet { return s | 1<<n }

// Has reports whether invariant n is in the set; n = 0 asks for any.
func (s InvariantSet) Has(n int) bool {
	if n == 0 {
		return s != 0
	}
	return s&(1<<n) != 0
}

// Numbers are the invariants in the set, in order.
func (s InvariantSet) Numbers() []int {
	var out []int
	for n := 1; n <= lastInvariant; n++ {
		if s.Has(n) {
			out = append(out, n)
		}
	}
	return out
}

// invariantSet is the set's name inside the package.
type invariantSet = InvariantSet

// BrokenSoFar is the set of invariants the lab's run has broken.
func (l *Lab) BrokenSoFar() InvariantSet {
	var s InvariantSet
	for _, b := range l.breaks {
		s = s.with(b.Invariant)
	}
	return s
}

// StateID names a state as the checker does, so a state the explorer is
// at can be found in a check's graph.
type StateID [32]byte

// StateID is the lab's state as the checker names it. Right after a reset
// it reads the seeded world first, as the checker does.
func (l *Lab) StateID(ctx context.Context) (StateID, error) {
	if !l.keysRead {
		if err := l.checkInvariants(ctx); err != nil {
			return StateID{}, err
		}
	}
	return StateID(l.fingerprint(l.keys)), nil
}

// stateGraph is what a search with CheckOptions.Why records, under the
// checker's lock.
type stateGraph struct {
	index map[[32]byte]int32
	out   [][]graphEdge
	root  int32
	// forked: one action from one state led to two states, which makes
	// counting wrong.
	forked bool
	// loopBreaks are what actions that changed nothing found broken, by
	// state: a condition of the state (two jobs RUNNING for one target),
	// which every check finds again while it holds. It is counted where
	// the state was entered; the edges into the state must have found it
	// too (selfLoopsHeld), or counting paths without these actions would
	// miss a break.
	loopBreaks map[int32]InvariantSet
}

type graphEdge struct {
	action Action
	to     int32
	broke  InvariantSet
}

func newStateGraph() *stateGraph {
	return &stateGraph{index: map[[32]byte]int32{}, root: -1, loopBreaks: map[int32]InvariantSet{}}
}

// selfLoopsHeld reports whether every break an action that changed nothing
// found was found by every edge into its state as well (and none at the
// seeded state, which no edge enters).
func (g *stateGraph) selfLoopsHeld() bool {
	if len(g.loopBreaks) == 0 {
		return true
	}
	if g.loopBreaks[g.root] != 0 {
		return false
	}
	for _, edges := range g.out {
		for _, e := range edges {
			if m := g.loopBreaks[e.to]; m&e.broke != m {
				return false
			}
		}
	}
	return true
}

func (g *stateGraph) node(state [32]byte) int32 {
	if n, ok := g.index[state]; ok {
		return n
	}
	n := int32(len(g.out))
	g.index[state] = n
	g.out = append(g.out, nil)
	return n
}

// edge records that action at state from led to state to, breaking what
// broke. A schedule that comes back to a state takes its actions again:
// an edge already known is checked, not added.
func (g *stateGraph) edge(from [32]byte, action Action, to [32]byte, broke InvariantSet) {
	if from == to {
		if broke != 0 {
			n := g.node(from)
			g.loopBreaks[n] |= broke
		}
		return
	}
	f, t := g.node(from), g.node(to)
	for _, e := range g.out[f] {
		if e.action == action {
			g.forked = g.forked || e.to != t || e.broke != broke
			return
		}
	}
	g.out[f] = append(g.out[f], graphEdge{action: action, to: t, broke: broke})
}

// Why is a checked graph with every state's futures counted.
type Why struct {
	Scenario *Scenario
	Mode     Mode
	Without  GuardSet
	// Exact: the counts are exact; else Inexact says why there are none
	// (a bounded search, a cycle of states).
	Exact   bool
	Inexact lang.Phrase
	States  int
	index   map[[32]byte]int32
	out     [][]graphEdge
	futures []Futures
	root    int32
}

// Futures are the complete schedules from a state: how many there are,
// and how many of them break each invariant (Broken[0]: any).
type Futures struct {
	Complete *big.Int
	Broken   [FirstCodeInvariant + MostCodeInvariants]*big.Int
}

// Share is the part of the futures that end with invariant n broken (0:
// any), for a schedule that has broken past so far: 1 when it broke n
// already.
func (f Futures) Share(n int, past InvariantSet) *big.Rat {
	if past.Has(n) {
		return big.NewRat(1, 1)
	}
	if f.Complete.Sign() == 0 {
		return new(big.Rat)
	}
	return new(big.Rat).SetFrac(f.Broken[n], f.Complete)
}

// All reports whether every future breaks n (0: any) after past.
func (f Futures) All(n int, past InvariantSet) bool {
	return past.Has(n) || f.Complete.Cmp(f.Broken[n]) == 0
}

// why counts the futures of every state of a finished search.
func (g *stateGraph) why(r CheckReport) *Why {
	w := &Why{Scenario: r.Scenario, Mode: r.Mode, Without: r.Without, States: len(g.out), index: g.index, out: g.out, root: g.root}
	switch {
	case !r.Exhaustive:
		w.Inexact = lang.P("the check was bounded: not every schedule was explored, so no share is exact")
	case g.forked:
		w.Inexact = lang.P("one action from one state led to two different states: the graph is not a function, so no share is exact")
	case !g.selfLoopsHeld():
		w.Inexact = lang.P("an action that changed nothing found an invariant broken that the way into its state did not: no share is exact")
	case g.root < 0:
		w.Inexact = lang.P("the search recorded no state")
	default:
		if w.futures = g.count(); w.futures == nil {
			w.Inexact = lang.P("the states form a cycle: some schedules never end, so no share is exact")
		} else {
			w.Exact = true
		}
	}
	return w
}

// count computes every state's futures in post-order; nil when a cycle
// makes them infinite.
func (g *stateGraph) count() []Futures {
	const (
		unseen = iota
		open
		counted
	)
	mark := make([]byte, len(g.out))
	futures := make([]Futures, len(g.out))
	type frame struct {
		n    int32
		next int
	}
	for start := range g.out {
		if mark[start] != unseen {
			continue
		}
		stack := []frame{{n: int32(start)}}
		mark[start] = open
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(g.out[top.n]) {
				t := g.out[top.n][top.next].to
				top.next++
				switch mark[t] {
				case open:
					return nil
				case unseen:
					mark[t] = open
					stack = append(stack, frame{n: t})
				}
				continue
			}
			futures[top.n] = g.sum(top.n, futures)
			mark[top.n] = counted
			stack = stack[:len(stack)-1]
		}
	}
	return futures
}

// sum is a state's futures from its successors'.
func (g *stateGraph) sum(n int32, futures []Futures) Futures {
	f := Futures{Complete: new(big.Int)}
	for k := range f.Broken {
		f.Broken[k] = new(big.Int)
	}
	if len(g.out[n]) == 0 {
		f.Complete.SetInt64(1)
		return f
	}
	for _, e := range g.out[n] {
		next := futures[e.to]
		f.Complete.Add(f.Complete, next.Complete)
		for k := range f.Broken {
			if e.broke.Has(k) {
				f.Broken[k].Add(f.Broken[k], next.Complete)
			} else {
				f.Broken[k].Add(f.Broken[k], next.Broken[k])
			}
		}
	}
	return f
}

// At is a state's futures; false when the check never reached the state
// (a clock moved by a second, a guard changed) or counted nothing.
func (w *Why) At(id StateID) (Futures, bool) {
	n, ok := w.index[id]
	if !ok || !w.Exact {
		return Futures{}, false
	}
	return w.futures[n], true
}

// Root is the seeded state's futures.
func (w *Why) Root() (Futures, bool) {
	if !w.Exact {
		return Futures{}, false
	}
	return w.futures[w.root], true
}

// Branch is an action the search can take at a state, and the futures
// after it.
type Branch struct {
	Action Action
	// Breaks is what the action itself breaks; Futures are the state's
	// it leads to.
	Breaks  InvariantSet
	Futures Futures
}

// Branches are the actions the search can take at a state, in the
// search's order; none at a state where nothing changes any more.
func (w *Why) Branches(id StateID) ([]Branch, bool) {
	n, ok := w.index[id]
	if !ok || !w.Exact {
		return nil, false
	}
	var out []Branch
	for _, e := range w.out[n] {
		out = append(out, Branch{Action: e.action, Breaks: e.broke, Futures: w.futures[e.to]})
	}
	return out, true
}

// WhyStep is a point of a schedule: the seeded state (Action nil) or the
// state after an action, the events the action emitted, what the run has
// broken so far, and the futures of the state it is at (Known false: the
// check never reached it).
type WhyStep struct {
	Action  *Action
	Events  []Event
	Past    InvariantSet
	Futures Futures
	Known   bool
}

// Share is the part of the step's futures that break n (0: any).
func (s WhyStep) Share(n int) *big.Rat { return s.Futures.Share(n, s.Past) }

// Along runs a schedule on a lab from the seed and says, at every point,
// what share of the ways it can go on end broken. A pause changes no
// state (an actor that is not scheduled is paused).
func (w *Why) Along(ctx context.Context, lab *Lab, schedule []Action) ([]WhyStep, error) {
	if err := lab.Reset(ctx); err != nil {
		return nil, err
	}
	at := func(step WhyStep) (WhyStep, error) {
		id, err := lab.StateID(ctx)
		if err != nil {
			return step, err
		}
		step.Past = lab.BrokenSoFar()
		step.Futures, step.Known = w.At(id)
		return step, nil
	}
	first, err := at(WhyStep{})
	if err != nil {
		return nil, err
	}
	steps := []WhyStep{first}
	for _, a := range schedule {
		before := len(lab.Events())
		if err := lab.Do(ctx, a); err != nil {
			return steps, err
		}
		step, err := at(WhyStep{Action: &a, Events: slices.Clone(lab.Events()[before:])})
		if err != nil {
			return steps, err
		}
		steps = append(steps, step)
	}
	return steps, nil
}

// PointOfNoReturn is the first point of the steps from which every future
// breaks an invariant (0: the seeded state already), and the invariants
// every future breaks there; -1 when there is none.
func PointOfNoReturn(steps []WhyStep) (int, InvariantSet) {
	for i, s := range steps {
		if !s.Known || !s.Futures.All(0, s.Past) {
			continue
		}
		var all InvariantSet
		for n := 1; n <= lastInvariant; n++ {
			if s.Futures.All(n, s.Past) {
				all = all.with(n)
			}
		}
		return i, all
	}
	return -1, 0
}

// Percent says a share as a percentage with one decimal ("66.7%"), exact
// at 0 and 100: a share just short of every future must not read 100%.
func Percent(r *big.Rat) string {
	switch {
	case r.Sign() == 0:
		return "0%"
	case r.Cmp(big.NewRat(1, 1)) == 0:
		return "100%"
	}
	f, _ := r.Float64()
	s := strconv.FormatFloat(f*100, 'f', 1, 64)
	switch s {
	case "0.0":
		s = "0.1"
	case "100.0":
		s = "99.9"
	}
	return strings.TrimSuffix(s, ".0") + "%"
}

// Said names the invariants of the set with the anomaly each stands for
// where it has one: "7 (LOST_UPDATE), 8 (LEASE_STOLEN)".
func (s InvariantSet) Said() string { return s.SaidIn(nil) } // numbers alone: no scenario names them

// SaidIn is Said for a scenario, whose file's own invariants are named as
// the file names them: "11 (OLDER_TOKEN_WON)".
func (s InvariantSet) SaidIn(sc *Scenario) string {
	var parts []string
	for _, n := range s.Numbers() {
		if n >= FirstCodeInvariant && sc != nil && sc.Code != nil && n-FirstCodeInvariant < len(sc.Code.Invariants) {
			parts = append(parts, strconv.Itoa(n)+" ("+sc.Code.Invariants[n-FirstCodeInvariant].Name+")")
		} else if a := sc.anomalyOf(n); a != "" {
			parts = append(parts, strconv.Itoa(n)+" ("+a+")")
		} else {
			parts = append(parts, strconv.Itoa(n))
		}
	}
	return strings.Join(parts, ", ")
}

// Moves are the actions a check can take at the lab's state (a paused
// actor's call among them: the check never pauses), in the check's order
// but for the guided order's next one, which the check puts first.
func (l *Lab) Moves(ctx context.Context) ([]Action, error) {
	if _, err := l.StateID(ctx); err != nil {
		return nil, err
	}
	return l.moves(l.keys, guidedDurations(l.scenario.Guided(l.mode))), nil
}

// A Bookmark is a lab's state, whole, to come back to (Lab.Return): the
// stores and the lab's own part, as the checker saves and restores them.
type Bookmark struct {
	state *labState
}

// ID is the state's as the checker names it.
func (b *Bookmark) ID() StateID { return StateID(b.state.fingerprint) }

// Bookmark saves the lab's state.
func (l *Lab) Bookmark(ctx context.Context) (*Bookmark, error) {
	id, err := l.StateID(ctx)
	if err != nil {
		return nil, err
	}
	return &Bookmark{state: l.save(l.keys, id)}, nil
}

// Return puts the lab back in a state a bookmark saved, on this lab or
// another of the same scenario and mode. Its rows are put back when the
// database is next used (or by Settle).
func (l *Lab) Return(ctx context.Context, b *Bookmark) error {
	return l.restore(ctx, b.state)
}

// Settle puts back the rows a Return put off.
func (l *Lab) Settle(ctx context.Context) error { return l.syncLedger(ctx, nil) }

// BreaksAnInvariant reports whether a verdict is an invariant's anomaly
// (a lost update, a stale overwrite), not a matter of progress (STUCK)
// or of a guard's refusal.
func BreaksAnInvariant(verdict string) bool {
	return breaksAnInvariant(nil, verdict)
}

// BreaksAnInvariant (of a scenario) is the package's BreaksAnInvariant, a scenario's own invariants'
// anomalies too (a file's).
func (s *Scenario) BreaksAnInvariant(verdict string) bool { return breaksAnInvariant(s, verdict) }

func breaksAnInvariant(s *Scenario, verdict string) bool {
	if s != nil && s.Code != nil {
		for _, inv := range s.Code.Invariants {
			if inv.Name == verdict {
				return true
			}
		}
	}
	if s == nil || s.World == nil {
		return false
	}
	for _, inv := range s.World.Invariants() {
		if inv.Anomaly == verdict {
			return true
		}
	}
	// A kind of break an invariant names beside its own anomaly.
	return slices.Contains(s.World.Verdicts(), verdict) && !slices.Contains(s.World.Refusals(), verdict)
}

// anomalyOf is the anomaly invariant n of the scenario's world stands
// for; empty when it names none.
func (s *Scenario) anomalyOf(n int) string {
	if s == nil || s.World == nil {
		return ""
	}
	for _, inv := range s.World.Invariants() {
		if inv.Number == n {
			return inv.Anomaly
		}
	}
	return ""
}
