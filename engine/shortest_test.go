package engine

import (
	"crypto/sha256"
	"testing"

	"github.com/stretchr/testify/require"
)

// graphOf builds a path graph from edges written "from action to", with
// the steps' findings given apart; the seeded state is "s".
type edgeSpec struct {
	from, action, to string
	step             takenStep // its action is filled in from action
}

func graphOf(edges []edgeSpec, ended map[string]int64) *pathGraph {
	g := newPathGraph()
	state := func(name string) [32]byte { return sha256.Sum256([]byte(name)) }
	g.root = g.node(state("s"))
	for _, e := range edges {
		step := e.step
		step.action = DoCall(e.action)
		g.took(state(e.from), step, state(e.to))
	}
	for name, final := range ended {
		g.ended(state(name), final)
	}
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

func TestTheCounterexampleIsTheGraphsShortestWhoeverTookItsEdges(t *testing.T) {
	broke := takenStep{broke: true}
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
	broke := takenStep{broke: true}
	story := takenStep{onStory: true}
	edges := []edgeSpec{
		{from: "s", action: "A", to: "a"},
		{from: "s", action: "B", to: "b", step: story},
		{from: "a", action: "Z", to: "z", step: broke},
		{from: "b", action: "Y", to: "y", step: broke},
	}
	schedule, _ := graphOf(edges, nil).counterexample("", verdictOf)
	require.Equal(t, []string{"B", "Y"}, actors(schedule), "the one that follows the guided order longer")

	edges[1].step = takenStep{}
	schedule, _ = graphOf(edges, nil).counterexample("", verdictOf)
	require.Equal(t, []string{"A", "Z"}, actors(schedule), "then the one whose actions come first")
}

func TestUnsafePrefersTheCatalogsAnomalyThenItsVerdict(t *testing.T) {
	// s -A-> x breaks something else at once; s -B-> b -C-> c breaks the
	// catalog's anomaly; s -D-> e ends, unbroken, with a refused write.
	edges := []edgeSpec{
		{from: "s", action: "A", to: "x", step: takenStep{broke: true}},
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

func TestARecordedRunMustKeepItsKind(t *testing.T) {
	broken := TraceResult{Verdict: "LOST_UPDATE", Broken: []TraceBreak{{Invariant: 7, Anomaly: "LOST_UPDATE"}}}
	require.True(t, breaksCatalog.keeps(broken, "LOST_UPDATE"))
	require.False(t, breaksCatalog.keeps(broken, "STALE_OVERWRITE"))
	require.True(t, breaksAny.keeps(broken, "STALE_OVERWRITE"))
	require.False(t, endsAsCatalog.keeps(broken, "LOST_UPDATE"))
	require.True(t, endsAsCatalog.keeps(TraceResult{Verdict: "STUCK"}, "STUCK"))
	require.False(t, breaksAny.keeps(TraceResult{Verdict: "STUCK"}, "STUCK"))
}
