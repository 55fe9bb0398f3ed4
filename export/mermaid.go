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

	for k, step := range s.Steps[1:] {
		p.printf("    %%%% action %d: %s\n", k+1, mermaidText(step.Action.Words().In(s.Lang)))
		for _, e := range step.Events {
			id, isActor := ids[e.Actor]
			store := stores[e.Layer]
			switch {
			case e.Actor == "clock":
				p.printf("    Note over %s: %s %s · %s\n", span, seq(e.Sequence), s.Lang.T("lab clock %s", engine.FormatClock(e.At)), mermaidText(e.Said()))
			case e.Actor == "lab":
				p.printf("    Note over %s: %s ✗ %s %s\n", span, seq(e.Sequence), e.Code, mermaidText(e.Said()))
			case !isActor:
				p.printf("    Note over %s: %s %s %s\n", span, seq(e.Sequence), e.Code, mermaidText(e.Said()))
			case strings.Contains(e.Code, "RESTART"):
				p.printf("    %s->>redis: %s %s\n", id, seq(e.Sequence), e.Code)
				p.printf("    Note over redis: %s · %s\n", e.State, mermaidText(e.Said()))
			case e.Layer == engine.LayerAPI || store == "":
				// The actor's own doing: a pause, a resume, work in memory.
				p.printf("    Note over %s: %s %s · %s\n", id, seq(e.Sequence), e.State, mermaidText(e.Said()))
			case e.State == "REJECTED" || e.State == "REFUSED":
				label := e.Said()
				if e.Guard != "" {
					label = s.Lang.T("guard: %s", e.GuardSaid())
				}
				p.printf("    %s-x%s: %s %s %s\n", id, store, seq(e.Sequence), e.Code, mermaidText(label))
				p.printf("    Note right of %s: %s · %s\n", store, e.State, mermaidText(e.Said()))
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
	p.printf("    Note over %s: %s\n", span, s.Lang.T("result · expected %d · final %d · fence %s · verdict %s", r.Expected, r.Final,
		engine.FenceIn(r.LastAcceptedFence, s.Lang), mermaidText(s.Verdict())))
	return p.err
}

// seq is an event's number as the timeline writes it, #N; the '#' as
// its entity code, which Mermaid shows as '#'.
func seq(n int) string { return fmt.Sprintf("#35;%d", n) }

// mermaidText makes text safe after a colon or as an alias in a sequence
// diagram: one line, no ';' (it ends a statement) and no '#' (it starts an
// entity code), long text broken with <br/>.
func mermaidText(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	text = strings.NewReplacer("#", "#35;", ";", "#59;", "%%", "%").Replace(text)
	var lines []string
	line := ""
	for _, word := range strings.Fields(text) {
		if line != "" && ansi.StringWidth(line)+1+ansi.StringWidth(word) > 70 { // columns: a Korean syllable takes two
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	return strings.Join(append(lines, line), "<br/>")
}
