package export

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
)

// Mermaid writes the session as a sequenceDiagram: a participant per
// actor, then Redis, PostgreSQL and the provider. A call is an arrow with
// what was sent and an answer with what came back; a refused call is a
// cross arrow labelled with the guard that refused it; pauses, clock jumps,
// restarts and broken invariants are notes.
func Mermaid(w io.Writer, s Session) error {
	d := newDiagram(w, s, s.ModeLabel()+" · "+s.Verdict())
	for k, step := range s.Steps[1:] {
		d.p.printf("    %%%% action %d: %s\n", k+1, mermaidText(step.Action.Words().In(s.Lang)))
		d.events(step.Events)
	}
	d.result(s)
	return d.p.err
}

// MermaidBoth writes two runs of one schedule (a diff: SAFE and UNSAFE, or
// SAFE with and without a guard) as one sequenceDiagram: an action both
// sides did alike is drawn once; one they did differently is drawn for
// each, in a box of its side's colour (green the first, red the second)
// named by its label; the first divergence carries a note saying what
// decided it. Both results close it.
func MermaidBoth(w io.Writer, sides [2]Session, labels [2]string, diverged int, decided string) error {
	l := sides[0].Lang
	d := newDiagram(w, sides[0], labels[0]+" | "+labels[1])
	colours := [2]string{"rgba(0, 160, 0, 0.12)", "rgba(220, 0, 0, 0.12)"}
	for k := 1; k < max(len(sides[0].Steps), len(sides[1].Steps)); k++ {
		var events [2][]engine.Event
		var action engine.Action
		for i, s := range sides {
			if k < len(s.Steps) {
				events[i], action = s.Steps[k].Events, s.Steps[k].Action
			}
		}
		d.p.printf("    %%%% action %d: %s\n", k, mermaidText(action.Words().In(l)))
		if k-1 == diverged {
			d.p.printf("    Note over %s: %s\n", d.span, mermaidWrapped("▶ "+l.T("action %d: %s", k, action.Words().In(l))+" — "+decided, d.spanColumns))
		}
		if alike(events[0], events[1]) && k < len(sides[0].Steps) && k < len(sides[1].Steps) {
			d.events(events[0])
			continue
		}
		for i := range sides {
			d.p.printf("    rect %s\n", colours[i])
			d.p.printf("    Note over %s: %s\n", d.span, mermaidWrapped(labels[i], d.spanColumns))
			if k < len(sides[i].Steps) {
				d.events(events[i])
			} else {
				d.p.printf("    Note over %s: %s\n", d.span, mermaidWrapped(l.T("not taken"), d.spanColumns))
			}
			d.p.printf("    end\n")
		}
	}
	for i, s := range sides {
		d.p.printf("    Note over %s: %s\n", d.span, mermaidWrapped(labels[i], d.spanColumns))
		d.result(s)
	}
	return d.p.err
}

// alike: two actions did the same, as far as who did what and how it
// ended (the details name tokens and times that may differ).
func alike(a, b []engine.Event) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Actor != b[i].Actor || a[i].Code != b[i].Code || a[i].State != b[i].State || a[i].Refusal != b[i].Refusal {
			return false
		}
	}
	return true
}

// diagram is a sequenceDiagram being written: its participants' ids, and
// the span and width of a note across every actor.
type diagram struct {
	p           *printer
	lang        lang.Lang
	ids         map[string]string
	stores      map[engine.Layer]string
	span        string
	spanColumns int
}

// newDiagram writes a diagram's head — its title and a participant per
// actor, then Redis, PostgreSQL and the provider (only where a session
// calls it) — for the session's actors.
func newDiagram(w io.Writer, s Session, title string) *diagram {
	final := s.Final()
	d := &diagram{p: &printer{w: w}, lang: s.Lang, ids: map[string]string{}, stores: map[engine.Layer]string{
		engine.LayerCoordination: "redis",
		engine.LayerDatabase:     "postgres",
		engine.LayerExternal:     "provider",
	}}
	p := d.p
	p.printf("sequenceDiagram\n")
	p.printf("    %%%% %s · %s · %s\n", Signature, s.Scenario.ID, s.ModeLabel())
	p.printf("    title %s · %s\n", s.Scenario.ID, mermaidText(title))

	// Participant ids are generated (a1, a2, …): an actor may be named
	// like a keyword of Mermaid's (end, loop, note), an alias may not.
	var actors []string
	for i, a := range final.Actors {
		d.ids[a.Name] = fmt.Sprintf("a%d", i+1)
		actors = append(actors, d.ids[a.Name])
		shown := a.Name + " · " + a.Label
		if a.Label == "" || a.Label == a.Name {
			shown = a.Name // a file's actor: its name is all it has
		}
		p.printf("    participant %s as %s\n", d.ids[a.Name], mermaidText(shown))
	}
	p.printf("    participant redis as Redis\n")
	p.printf("    participant postgres as PostgreSQL\n")
	for _, e := range final.Events {
		if e.Layer == engine.LayerExternal { // the provider's lane, only where it is called
			p.printf("    participant provider as %s\n", mermaidText(s.Lang.T("%s (provider)", world.SnapshotReading(final).Provider)))
			break
		}
	}
	d.span = actors[0]
	if len(actors) > 1 {
		d.span += "," + actors[len(actors)-1]
	}
	// A note's box is as wide as the participants it spans, and Mermaid
	// does not wrap its text: it is broken into lines that fit, about
	// noteColumns a participant.
	d.spanColumns = noteColumns * len(actors)
	return d
}

// events draws an action's events: a call is an arrow with what was sent
// and an answer with what came back; a refused call is a cross arrow
// labelled with the guard that refused it; pauses, clock jumps, restarts
// and broken invariants are notes.
func (d *diagram) events(events []engine.Event) {
	p, span := d.p, d.span
	for _, e := range events {
		id, isActor := d.ids[e.Actor]
		store := d.stores[e.Layer]
		switch {
		case e.Actor == "clock":
			p.printf("    Note over %s: %s\n", span, mermaidWrapped(seq(e.Sequence)+" "+d.lang.T("lab clock %s", engine.FormatClock(e.At))+" · "+e.Said(), d.spanColumns))
		case e.Actor == "lab":
			p.printf("    Note over %s: %s\n", span, mermaidWrapped(seq(e.Sequence)+" ✗ "+e.Code+" "+e.Said(), d.spanColumns))
		case !isActor:
			p.printf("    Note over %s: %s\n", span, mermaidWrapped(seq(e.Sequence)+" "+e.Code+" "+e.Said(), d.spanColumns))
		case strings.Contains(e.Code, "RESTART"):
			p.printf("    %s->>redis: %s %s\n", id, seq(e.Sequence), e.Code)
			p.printf("    Note over redis: %s\n", mermaidWrapped(e.State+" · "+e.Said(), noteColumns))
		case e.Layer == engine.LayerAPI || store == "":
			// The actor's own doing: a pause, a resume, work in memory.
			p.printf("    Note over %s: %s\n", id, mermaidWrapped(seq(e.Sequence)+" "+e.State+" · "+e.Said(), noteColumns))
		case e.State == "REJECTED" || e.State == "REFUSED":
			label := e.Said()
			if e.Guard != "" {
				label = d.lang.T("guard: %s", e.GuardSaid())
			}
			p.printf("    %s-x%s: %s %s %s\n", id, store, seq(e.Sequence), e.Code, mermaidText(label))
			p.printf("    Note right of %s: %s\n", store, mermaidWrapped(e.State+" · "+e.Said(), noteColumns))
		default:
			p.printf("    %s->>%s: %s %s %s\n", id, store, seq(e.Sequence), e.Code, mermaidText(e.Said()))
			answer := e.State
			if e.Guard != "" {
				answer += " · " + d.lang.T("guard: %s", e.GuardSaid())
			}
			p.printf("    %s-->>%s: %s\n", store, id, mermaidText(answer))
		}
	}
}

// result is the note of a session's result.
func (d *diagram) result(s Session) {
	r := s.Final().Result
	said := s.Lang.T("result · expected %d · final %d · fence %s · verdict %s", r.Expected, r.Final,
		world.FenceIn(r.Mark, s.Lang), s.Verdict())
	if r.MeasureLabel != "" && r.Mark == 0 {
		// A scenario that counts something else and fenced nothing, as the
		// explorer's result strip says it.
		said = s.Lang.T("result · expected %d · final %d · verdict %s", r.Expected, r.Final, s.Verdict())
	}
	if r.NoValue {
		// A scenario with no value: its verdict alone.
		said = s.Lang.T("result · verdict %s", s.Verdict())
	}
	if len(r.Values) > 0 {
		said = s.Lang.T("result · %s · verdict %s", r.ValuesSaid(s.Lang), s.Verdict())
	}
	d.p.printf("    Note over %s: %s\n", d.span, mermaidWrapped(said, d.spanColumns))
}

// seq is an event's number as the timeline writes it, #N; the '#' as
// its entity code, which Mermaid shows as '#'.
func seq(n int) string { return fmt.Sprintf("#35;%d", n) }

// noteColumns is about how many columns of text a note's box holds per
// participant it spans (Mermaid's default: 150px wide, its font about 8px
// a column; a Korean syllable takes two).
const noteColumns = 24

// mermaidText makes text safe after a colon or as an alias in a sequence
// diagram: one line, no ';' (it ends a statement) and no '#' (it starts an
// entity code), long text broken with <br/>.
func mermaidText(text string) string { return mermaidWrapped(text, 70) }

// mermaidWrapped is mermaidText broken into lines of at most columns (a
// word longer than that stands alone on its line). The '#' of a sequence
// number (#35;) counts as the one column it shows.
func mermaidWrapped(text string, columns int) string {
	text = strings.Join(strings.Fields(text), " ")
	text = strings.NewReplacer("#35;", "#", "#59;", ";").Replace(text) // already escaped
	shown := func(s string) int { return ansi.StringWidth(s) }
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && shown(line)+1+shown(word) > columns {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	lines = append(lines, line)
	for i, l := range lines {
		lines[i] = strings.NewReplacer("#", "#35;", ";", "#59;", "%%", "%").Replace(l)
	}
	return strings.Join(lines, "<br/>")
}
