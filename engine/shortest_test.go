package engine

import (
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"
)

// edgeSpec is an edge of a test graph: the call of an actor (named by a
// letter) from one state to another, and what the checks after it found.
// Every call ends its actor's step.
type edgeSpec struct {
	from, action, to string
	step             takenStep // its action is the call of action
}

// graphOf builds a path graph from edges, in the order given (the order
// the search took them in), with the states where schedules ended and the
// guided order's steps; the seeded state is "s".
func graphOf(edges []edgeSpec, ended map[string]int64, guided ...string) *pathGraph {
	g := newPathGraph()
	state := func(name string) [32]byte { return sha256.Sum256([]byte(name)) }
	g.root = g.node(state("s"))
	for _, e := range edges {
		step := e.step
		step.action, step.stepEnded = DoCall(e.action), true
		g.took(state(e.from), step, state(e.to))
	}
	for name, final := range ended {
		g.ended(state(name), final)
	}
	var order []Action
	for _, actor := range guided {
		order = append(order, Do(actor))
	}
	g.markStory(order)
	return g
}

func actors(schedule []Action) []string {
	var out []string
	for _, a := range schedule {
		out = append(out, a.Actor)
	}
	return out
}

// verdictOf is the scenario's verdict where a schedule ended: expected 2.
func verdictOf(final int64, refusal string) string {
	var refusals []string
	if refusal != "" {
		refusals = []string{refusal}
	}
	return Verdict(2, final, refusals, nil, "")
}

var broke = takenStep{broke: true}

func TestTheCounterexampleIsTheGraphsShortestWhoeverTookItsEdges(t *testing.T) {
	// The search went deep first: s -A-> a -B-> b -C-> c, and c broke on
	// D. A later, shorter schedule reached c at once (s -E-> c), and
	// stopped there: c was explored.
	g := graphOf([]edgeSpec{
		{from: "s", action: "A", to: "a"},
		{from: "a", action: "B", to: "b"},
		{from: "b", action: "C", to: "c"},
		{from: "c", action: "D", to: "d", step: broke},
		{from: "s", action: "E", to: "c"},
	}, nil)
	schedule, kind := g.counterexample("", verdictOf)
	require.Equal(t, []string{"E", "D"}, actors(schedule))
	require.Equal(t, breaksAny, kind)
}

func TestTiesGoToTheGuidedOrderThenToTheFirstActions(t *testing.T) {
	// Taken B first, then A: the order taken decides nothing.
	edges := []edgeSpec{
		{from: "s", action: "B", to: "b"},
		{from: "s", action: "A", to: "a"},
		{from: "b", action: "Y", to: "y", step: broke},
		{from: "a", action: "Z", to: "z", step: broke},
	}
	schedule, _ := graphOf(edges, nil, "B", "Y").counterexample("", verdictOf)
	require.Equal(t, []string{"B", "Y"}, actors(schedule), "the one that follows the guided order longer")
	schedule, _ = graphOf(edges, nil, "B", "Q").counterexample("", verdictOf)
	require.Equal(t, []string{"B", "Y"}, actors(schedule), "longer by one action is longer")
	schedule, _ = graphOf(edges, nil).counterexample("", verdictOf)
	require.Equal(t, []string{"A", "Z"}, actors(schedule), "then the one whose actions come first")

	// Two ways to states that both break on Q: the first actions decide,
	// not the ones after them (B Y Q would come first by its second).
	deeper := []edgeSpec{
		{from: "s", action: "A", to: "a"},
		{from: "s", action: "B", to: "b"},
		{from: "a", action: "Z", to: "x"},
		{from: "b", action: "Y", to: "y"},
		{from: "y", action: "Q", to: "q1", step: broke},
		{from: "x", action: "Q", to: "q2", step: broke},
	}
	schedule, _ = graphOf(deeper, nil).counterexample("", verdictOf)
	require.Equal(t, []string{"A", "Z", "Q"}, actors(schedule))
}

// A schedule that left the guided order and comes back to its path
// follows it no longer: only a prefix of the guided order counts.
func TestAScheduleBackOnTheGuidedPathDoesNotFollowIt(t *testing.T) {
	edges := []edgeSpec{
		// The guided order: B C F, to c, where D breaks.
		{from: "s", action: "B", to: "b"},
		{from: "b", action: "C", to: "b2"},
		{from: "b2", action: "F", to: "c"},
		{from: "c", action: "D", to: "d", step: broke},
		// Shorter: A X to c, then D; or A W E, as short, first by its words.
		{from: "s", action: "A", to: "a"},
		{from: "a", action: "X", to: "c"},
		{from: "a", action: "W", to: "w"},
		{from: "w", action: "E", to: "e", step: broke},
	}
	schedule, _ := graphOf(edges, nil, "B", "C", "F", "D").counterexample("", verdictOf)
	require.Equal(t, []string{"A", "W", "E"}, actors(schedule))
}

func TestUnsafePrefersTheCatalogsAnomalyThenItsVerdict(t *testing.T) {
	// s -A-> x breaks something else at once; s -B-> b -C-> c breaks the
	// catalog's anomaly; s -D-> e ends, unbroken, with a refused write.
	edges := []edgeSpec{
		{from: "s", action: "A", to: "x", step: broke},
		{from: "s", action: "B", to: "b"},
		{from: "b", action: "C", to: "c", step: takenStep{broke: true, catalog: true}},
		{from: "s", action: "D", to: "e", step: takenStep{refusal: "STALE_FENCE"}},
	}
	ended := map[string]int64{"e": 1}
	schedule, kind := graphOf(edges, ended).counterexample("STALE_FENCE", verdictOf)
	require.Equal(t, []string{"B", "C"}, actors(schedule))
	require.Equal(t, breaksCatalog, kind)

	edges[2].step.catalog = false
	schedule, kind = graphOf(edges, ended).counterexample("STALE_FENCE", verdictOf)
	require.Equal(t, []string{"D"}, actors(schedule), "an unbroken schedule that ends with the catalog's verdict")
	require.Equal(t, endsAsCatalog, kind)

	schedule, kind = graphOf(edges, ended).counterexample("LOST_UPDATE", verdictOf)
	require.Equal(t, []string{"A"}, actors(schedule), "else the shortest break")
	require.Equal(t, breaksAny, kind)
}

// Two unbroken schedules end as the catalog says, as long: the one on the
// guided order is kept, though the other's actions come first.
func TestAVerdictTieGoesToTheGuidedOrder(t *testing.T) {
	edges := []edgeSpec{
		{from: "s", action: "A", to: "e1", step: takenStep{refusal: "STALE_FENCE"}},
		{from: "s", action: "B", to: "e2", step: takenStep{refusal: "STALE_FENCE"}},
	}
	ended := map[string]int64{"e1": 1, "e2": 1}
	schedule, _ := graphOf(edges, ended, "B").counterexample("STALE_FENCE", verdictOf)
	require.Equal(t, []string{"B"}, actors(schedule))
}

// A verdict is the schedule's, not the state's: two schedules end at one
// state, the shorter with no refusal on the way (WRONG_VALUE), the longer
// with a refused write (STALE_FENCE); only the longer ends as the catalog
// says. A search that took the shorter first, and stopped the longer at
// the state it had explored, must still find it; one that went through a
// break on the way must not.
func TestTheVerdictCounterexampleFollowsTheRefusalsOnTheWay(t *testing.T) {
	edges := []edgeSpec{
		{from: "s", action: "A", to: "e"},
		{from: "s", action: "B", to: "b", step: takenStep{refusal: "STALE_FENCE"}},
		{from: "b", action: "C", to: "c"},
		{from: "c", action: "D", to: "e"},
		{from: "s", action: "F", to: "e", step: takenStep{refusal: "STALE_FENCE", broke: true}},
	}
	ended := map[string]int64{"e": 1}
	schedule, kind := graphOf(edges, ended).counterexample("STALE_FENCE", verdictOf)
	require.Equal(t, []string{"B", "C", "D"}, actors(schedule))
	require.Equal(t, endsAsCatalog, kind)

	// A refusal later on the way replaces the one before it.
	edges[3].step.refusal = "STALE_NAMESPACE"
	schedule, _ = graphOf(edges, ended).counterexample("STALE_FENCE", verdictOf)
	require.Equal(t, []string{"F"}, actors(schedule), "no unbroken schedule ends so: the shortest break")
}

// The guided order's path is marked through the actor's calls until one
// ends its step, and no further than the graph has it.
func TestTheGuidedOrderIsMarkedCallByCall(t *testing.T) {
	g := newPathGraph()
	state := func(name string) [32]byte { return sha256.Sum256([]byte(name)) }
	g.root = g.node(state("s"))
	g.took(state("s"), takenStep{action: DoCall("A")}, state("a1"))                   // A's step goes on
	g.took(state("a1"), takenStep{action: DoCall("A"), stepEnded: true}, state("a2")) // and ends
	g.took(state("a2"), takenStep{action: DoCall("B"), stepEnded: true}, state("b"))
	g.took(state("a1"), takenStep{action: DoCall("B"), stepEnded: true}, state("x"))
	g.markStory([]Action{Do("A"), Do("B"), Do("C")})
	var marked []string
	for n, edges := range g.out {
		for _, e := range edges {
			if e.onStory {
				marked = append(marked, g.actions[e.action].Actor+"@"+string(rune('0'+n)))
			}
		}
	}
	require.ElementsMatch(t, []string{"A@0", "A@1", "B@2"}, marked)

	// A guided "call A" goes on through a call kept as a step (it was the
	// whole step), as the search follows it.
	g = newPathGraph()
	g.root = g.node(state("s"))
	g.took(state("s"), takenStep{action: Do("A"), stepEnded: true}, state("a"))
	g.took(state("a"), takenStep{action: DoCall("B")}, state("b"))
	g.markStory([]Action{DoCall("A"), DoCall("B")})
	require.True(t, g.out[0][0].onStory)
	require.True(t, g.out[1][0].onStory)
}

func TestARecordedRunMustKeepItsKind(t *testing.T) {
	broken := TraceResult{Verdict: "LOST_UPDATE", Broken: []TraceBreak{{Invariant: 7, Anomaly: "LOST_UPDATE"}}}
	require.True(t, breaksCatalog.keeps(broken, "LOST_UPDATE"))
	require.False(t, breaksCatalog.keeps(broken, "STALE_OVERWRITE"))
	require.True(t, breaksAny.keeps(broken, "STALE_OVERWRITE"))
	require.False(t, endsAsCatalog.keeps(broken, "LOST_UPDATE"))
	require.True(t, endsAsCatalog.keeps(TraceResult{Verdict: "STUCK"}, "STUCK"))
	require.False(t, breaksAny.keeps(TraceResult{Verdict: "STUCK"}, "STUCK"))
}
