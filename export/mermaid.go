package export

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/fencelab/fencelab/engine"
)

// Mermaid writes the session as a sequenceDiagram: a participant per
// actor, then Redis, PostgreSQL and the provider. A call is an arrow with
// what was sent and an answer with what came back; a refused call is a
// cross arrow labelled with the guard that refused it; pauses, clock jumps,
// restarts and broken invariants are notes.
func Mermaid(w io.Writer, s Session) error {
	final := s.Final()
	p := &printer{w: w}
	p.printf("sequenceDiagram\n")
	p.printf("    %%%% %s · %s · %s\n", Signature, s.Scenario.ID, s.ModeLabel())
	p.printf("    title %s · %s · %s\n", s.Scenario.ID, s.ModeLabel(), mermaidText(s.Verdict()))

	// Participant ids are generated (a1, a2, …): an actor may be named
	// like a keyword of Mermaid's (end, loop, note), an alias may not.
	ids := map[string]string{}
	var actors []string
	for i, a := range final.Actors {
		ids[a.Name] = fmt.Sprintf("a%d", i+1)
		actors = append(actors, ids[a.Name])
		p.printf("    participant %s as %s\n", ids[a.Name], mermaidText(a.Name+" · "+a.Label))
	}
	stores := map[engine.Layer]string{
		engine.LayerCoordination: "redis",
		engine.LayerDatabase:     "postgres",
		engine.LayerExternal:     "provider",
	}
	p.printf("    participant redis as Redis\n")
	p.printf("    participant postgres as PostgreSQL\n")
	for _, e := range final.Events {
		if e.Layer == engine.LayerExternal { // the provider's lane, only where it is called
			p.printf("    participant provider as %s\n", mermaidText(s.Lang.T("%s (provider)", final.ProviderName)))
			break
		}
	}
	span := actors[0]
	if len(actors) > 1 {
		span += "," + actors[len(actors)-1]
	}
	// A note's box is as wide as the participants it spans, and Mermaid
	// does not wrap its text: it is broken into lines that fit, about
	// noteColumns a participant.
	spanColumns := noteColumns * len(actors)

	for k, step := range s.Steps[1:] {
		p.printf("    %%%% action %d: %s\n", k+1, mermaidText(step.Action.Words().In(s.Lang)))
		for _, e := range step.Events {
			id, isActor := ids[e.Actor]
			store := stores[e.Layer]
			switch {
			case e.Actor == "clock":
				p.printf("    Note over %s: %s\n", span, mermaidWrapped(seq(e.Sequence)+" "+s.Lang.T("lab clock %s", engine.FormatClock(e.At))+" · "+e.Said(), spanColumns))
			case e.Actor == "lab":
				p.printf("    Note over %s: %s\n", span, mermaidWrapped(seq(e.Sequence)+" ✗ "+e.Code+" "+e.Said(), spanColumns))
			case !isActor:
				p.printf("    Note over %s: %s\n", span, mermaidWrapped(seq(e.Sequence)+" "+e.Code+" "+e.Said(), spanColumns))
			case strings.Contains(e.Code, "RESTART"):
				p.printf("    %s->>redis: %s %s\n", id, seq(e.Sequence), e.Code)
				p.printf("    Note over redis: %s\n", mermaidWrapped(e.State+" · "+e.Said(), noteColumns))
			case e.Layer == engine.LayerAPI || store == "":
				// The actor's own doing: a pause, a resume, work in memory.
				p.printf("    Note over %s: %s\n", id, mermaidWrapped(seq(e.Sequence)+" "+e.State+" · "+e.Said(), noteColumns))
			case e.State == "REJECTED" || e.State == "REFUSED":
				label := e.Said()
				if e.Guard != "" {
					label = s.Lang.T("guard: %s", e.GuardSaid())
				}
				p.printf("    %s-x%s: %s %s %s\n", id, store, seq(e.Sequence), e.Code, mermaidText(label))
				p.printf("    Note right of %s: %s\n", store, mermaidWrapped(e.State+" · "+e.Said(), noteColumns))
			default:
				p.printf("    %s->>%s: %s %s %s\n", id, store, seq(e.Sequence), e.Code, mermaidText(e.Said()))
				answer := e.State
				if e.Guard != "" {
					answer += " · " + s.Lang.T("guard: %s", e.GuardSaid())
				}
				p.printf("    %s-->>%s: %s\n", store, id, mermaidText(answer))
			}
		}
	}
	r := final.Result
	p.printf("    Note over %s: %s\n", span, mermaidWrapped(s.Lang.T("result · expected %d · final %d · fence %s · verdict %s", r.Expected, r.Final,
		engine.FenceIn(r.LastAcceptedFence, s.Lang), s.Verdict()), spanColumns))
	return p.err
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
