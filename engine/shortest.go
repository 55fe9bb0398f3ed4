package engine

import (
	"cmp"
	"slices"
)

// The shortest counterexample is found over the graph the search explored,
// once the search is over, rather than by the search itself. The search
// explores each state once, from the first schedule that reaches it; a
// shorter schedule that reaches it later stops there. (Before, such a
// schedule explored the state's whole future again, to meet any break in
// it sooner: on counter-loss, eight states in nine were explored twice.)
//
// A break belongs to the action that made it, from the state it was taken
// at: the invariant checks look at the state and what the action did, and
// what they remember of earlier steps is part of the state. So the shortest
// schedule that breaks an invariant is a shortest path in the graph to an
// edge that broke one, whatever schedule first took that edge.
//
// A verdict is not a state's alone: it is the first break's anomaly, or,
// on a schedule that broke nothing, says why the value is what it is — the
// last guard that refused a write, which is the schedule's, not the
// state's. So the shortest unbroken schedule that ends with the catalog's
// verdict is a shortest path in the graph of (state, last refusal) pairs,
// over edges that broke nothing, to a state where the schedule is over.
//
// Ties between paths of one length go to the one that follows the guided
// order longer (it tells the catalog's story), then to the one whose
// actions, read in order, come first — so which lab reached a state first
// does not decide between two counterexamples the graph holds. (Which
// actions the graph holds may still depend on it, where sleep sets leave
// one of two orders out.)

// pathGraph is the explored graph as the counterexample needs it, under the
// checker's lock: every action taken from every state, with what it broke
// and refused.
type pathGraph struct {
	index   map[[32]byte]int32
	out     [][]pathEdge
	over    []bool  // a schedule ended here, not pruned: nothing left to do
	final   []int64 // the measured value where a schedule ended
	root    int32
	actions []Action // interned: an edge holds an index
	named   map[Action]int32
	// refusals are interned the same way; 0 is none.
	refusals []string
	refused  map[string]int32
}

// pathEdge is an action from a state: where it led (the state itself when
// it changed nothing), and what the checks after it found.
type pathEdge struct {
	action, to int32
	refusal    int32 // the last guard that refused during it; 0: none
	// broke: it broke an invariant; catalog: one of its breaks is the
	// catalog's anomaly. stepEnded: the call ended its actor's step.
	// onStory: it is the guided order's action from its state, on the
	// guided order's path from the seeded state (markStory).
	broke, catalog, stepEnded, onStory bool
}

func newPathGraph() *pathGraph {
	return &pathGraph{index: map[[32]byte]int32{}, root: -1, named: map[Action]int32{},
		refusals: []string{""}, refused: map[string]int32{"": 0}}
}

func (g *pathGraph) node(state [32]byte) int32 {
	if n, ok := g.index[state]; ok {
		return n
	}
	n := int32(len(g.out))
	g.index[state] = n
	g.out = append(g.out, nil)
	g.over = append(g.over, false)
	g.final = append(g.final, 0)
	return n
}

// took records an action taken at from that led to to; an action taken
// again from the same state is recorded once.
func (g *pathGraph) took(from [32]byte, step takenStep, to [32]byte) {
	f, t := g.node(from), g.node(to)
	a, ok := g.named[step.action]
	if !ok {
		a = int32(len(g.actions))
		g.actions = append(g.actions, step.action)
		g.named[step.action] = a
	}
	r, ok := g.refused[step.refusal]
	if !ok {
		r = int32(len(g.refusals))
		g.refusals = append(g.refusals, step.refusal)
		g.refused[step.refusal] = r
	}
	for _, e := range g.out[f] {
		if e.action == a {
			return
		}
	}
	g.out[f] = append(g.out[f], pathEdge{action: a, to: t, refusal: r, broke: step.broke, catalog: step.catalog, stepEnded: step.stepEnded})
}

// markStory marks the guided order's path through the graph, from the
// seeded state, as far as the graph has it: a step of the guided order is
// its actor's calls until one ends the step (guided is without pauses:
// not scheduling an actor is its pause). It is marked after the search,
// not as schedules go: a schedule that follows the guided order stops at
// a state another lab reached first, by another way.
func (g *pathGraph) markStory(guided []Action) {
	n := g.root
	for k := 0; n >= 0 && k < len(guided); {
		want := guided[k]
		i := slices.IndexFunc(g.out[n], func(e pathEdge) bool {
			a := g.actions[e.action]
			if want.Kind == StepActor || want.Kind == CallActor {
				// A call is kept as a step when it was the whole step.
				return (a.Kind == StepActor || a.Kind == CallActor) && a.Actor == want.Actor
			}
			return a == want
		})
		if i < 0 {
			return
		}
		e := &g.out[n][i]
		advanced := want.Kind != StepActor || e.stepEnded
		if e.to == n && !advanced {
			return // a call that changed nothing, again and again
		}
		e.onStory = true
		if advanced {
			k++
		}
		n = e.to
	}
}

// ended records that a schedule ended at state, not pruned, with the value
// the scenario measures.
func (g *pathGraph) ended(state [32]byte, final int64) {
	n := g.node(state)
	g.over[n], g.final[n] = true, final
}

// takenStep is what the search saw of one action it took.
type takenStep struct {
	action         Action // as the schedule writes it (a whole step as a step)
	refusal        string
	broke, catalog bool
	stepEnded      bool // a call that ended its actor's step
}

// counterexample is the shortest schedule of the graph that breaks an
// invariant — in UNSAFE (want: the catalog's verdict) first one that
// breaks the catalog's anomaly, then an unbroken one that ends with the
// catalog's verdict, then any break —, nil when there is none; and which
// of the three it is.
func (g *pathGraph) counterexample(want string, verdict func(final int64, refusal string) string) ([]Action, counterexampleKind) {
	if g.root < 0 {
		return nil, 0
	}
	if want != "" {
		if p := g.shortest(false, func(e pathEdge) bool { return e.catalog }, nil, nil); p != nil {
			return p, breaksCatalog
		}
		unbroken := func(e pathEdge) bool { return !e.broke }
		endsWithVerdict := func(n pathNode) bool {
			return g.over[n.state] && verdict(g.final[n.state], g.refusals[n.refusal]) == want
		}
		if p := g.shortest(true, nil, unbroken, endsWithVerdict); p != nil {
			return p, endsAsCatalog
		}
	}
	return g.shortest(false, func(e pathEdge) bool { return e.broke }, nil, nil), breaksAny
}

// counterexampleKind is which of the three a counterexample is.
type counterexampleKind int

const (
	breaksCatalog counterexampleKind = iota + 1 // breaks the catalog's anomaly
	endsAsCatalog                               // breaks nothing, ends with the catalog's verdict
	breaksAny                                   // breaks an invariant (the last action breaks the first)
)

// keeps reports whether a run of the counterexample ended as its kind
// says it must.
func (k counterexampleKind) keeps(r TraceResult, want string) bool {
	switch k {
	case breaksCatalog:
		return slices.ContainsFunc(r.Broken, func(b TraceBreak) bool { return b.Anomaly == want })
	case endsAsCatalog:
		return len(r.Broken) == 0 && r.Verdict == want
	}
	return len(r.Broken) > 0
}

// pathNode is a node of the search for a path: a state, and with
// refusals, the last guard that refused on the way.
type pathNode struct{ state, refusal int32 }

// pathStep is a path to a node, as one breadth of the search keeps it:
// the step before (an index into the previous breadth), the action, and
// how many of its actions follow the guided order.
type pathStep struct {
	node   pathNode
	prev   int32
	action int32
	story  int32
}

// shortest searches breadth by breadth from the seeded state for the
// shortest path that ends at a node where atNode holds, or with an edge
// where atEdge holds (the edge's action ends it), taking only edges where
// follow holds (nil: all); with refusals, nodes tell apart the last
// refusal on the way. Each breadth is kept in the order of its paths'
// actions, so the ties are broken as the package says. Nil: no such path.
//
// A path without overlaps comes first, whatever its length: an overlap
// takes two actors' round trips in one action, and a story told one
// actor at a time reads more easily; an overlap is in the
// counterexample only where the break needs two statements in flight.
func (g *pathGraph) shortest(refusals bool, atEdge func(pathEdge) bool, follow func(pathEdge) bool, atNode func(pathNode) bool) []Action {
	sequential := func(e pathEdge) bool {
		return g.actions[e.action].Kind != OverlapWrite && (follow == nil || follow(e))
	}
	at := atEdge
	if at != nil {
		at = func(e pathEdge) bool { return sequential(e) && atEdge(e) }
	}
	if p := g.shortestOver(refusals, at, sequential, atNode); p != nil {
		return p
	}
	return g.shortestOver(refusals, atEdge, follow, atNode)
}

// shortestOver is shortest over the edges follow takes.
func (g *pathGraph) shortestOver(refusals bool, atEdge func(pathEdge) bool, follow func(pathEdge) bool, atNode func(pathNode) bool) []Action {
	order := g.actionOrder()
	root := pathNode{state: g.root}
	breadths := [][]pathStep{{{node: root, prev: -1, action: -1}}}
	seen := map[pathNode]bool{root: true}
	for depth := int32(0); ; depth++ {
		breadth := breadths[len(breadths)-1]
		// better says whether a path of this breadth, extended by an edge,
		// comes before another: it follows the guided order longer, or its
		// actions come first.
		type candidate struct {
			from  int32
			edge  pathEdge
			story int32
		}
		better := func(a, b candidate) bool {
			if a.story != b.story {
				return a.story > b.story
			}
			if a.from != b.from {
				return a.from < b.from
			}
			return order[a.edge.action] < order[b.edge.action]
		}
		extend := func(from int32, e pathEdge) candidate {
			story := breadth[from].story
			if story == depth && e.onStory {
				story++
			}
			return candidate{from: from, edge: e, story: story}
		}
		if atNode != nil {
			best := int32(-1)
			for i, p := range breadth {
				if atNode(p.node) && (best < 0 || p.story > breadth[best].story) {
					best = int32(i)
				}
			}
			if best >= 0 {
				return g.path(breadths, best, nil)
			}
		}
		var found *candidate
		next := map[pathNode]candidate{}
		for i, p := range breadth {
			for _, e := range g.out[p.node.state] {
				c := extend(int32(i), e)
				if atEdge != nil && atEdge(e) && (found == nil || better(c, *found)) {
					found = &c
				}
				if follow != nil && !follow(e) {
					continue
				}
				to := pathNode{state: e.to}
				if refusals {
					to.refusal = p.node.refusal
					if e.refusal != 0 {
						to.refusal = e.refusal
					}
				}
				if seen[to] {
					continue
				}
				if was, ok := next[to]; !ok || better(c, was) {
					next[to] = c
				}
			}
		}
		if found != nil {
			last := g.actions[found.edge.action]
			return g.path(breadths, found.from, &last)
		}
		if len(next) == 0 {
			return nil
		}
		steps := make([]pathStep, 0, len(next))
		for to, c := range next {
			seen[to] = true
			steps = append(steps, pathStep{node: to, prev: c.from, action: c.edge.action, story: c.story})
		}
		slices.SortFunc(steps, func(a, b pathStep) int {
			return cmp.Or(cmp.Compare(a.prev, b.prev), cmp.Compare(order[a.action], order[b.action]))
		})
		breadths = append(breadths, steps)
	}
}

// path reads back the actions of the path to step i of the last breadth,
// and last after them.
func (g *pathGraph) path(breadths [][]pathStep, i int32, last *Action) []Action {
	out := make([]Action, 0, len(breadths)) // none is a path too: not nil
	if last != nil {
		out = append(out, *last)
	}
	for b := len(breadths) - 1; b > 0; b-- {
		step := breadths[b][i]
		out = append(out, g.actions[step.action])
		i = step.prev
	}
	slices.Reverse(out)
	return out
}

// actionOrder ranks the interned actions by their words (then as
// interned, for two that read alike).
func (g *pathGraph) actionOrder() []int32 {
	byWords := make([]int32, len(g.actions))
	for i := range byWords {
		byWords[i] = int32(i)
	}
	words := make([]string, len(g.actions))
	for i, a := range g.actions {
		words[i] = a.String()
	}
	slices.SortStableFunc(byWords, func(a, b int32) int { return cmp.Compare(words[a], words[b]) })
	order := make([]int32, len(g.actions))
	for rank, a := range byWords {
		order[a] = int32(rank)
	}
	return order
}
