package export

import (
	"fmt"
	"io"
	"strings"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/redact"
)

// Markdown writes the session as a page that renders on GitHub: the
// story, the timeline as a table, the result strip and the invariants.
func Markdown(w io.Writer, s Session) error {
	final := s.Final()
	p := &printer{w: w, lang: s.Lang}
	p.printf("<!-- %s · %s · %s -->\n", Signature, s.Scenario.ID, s.ModeLabel())
	p.printf("# %s · %s\n\n", s.Scenario.ID, s.ModeLabel())
	p.printf("**%s**\n\n", cell(s.Lang.T(s.Scenario.Title)))
	p.printf("%s.\n\n", strings.TrimSuffix(cell(s.Lang.T(s.Scenario.Story)), "."))
	p.T("Recorded by `fencelab export` on %s and %s; every value below was read from them.\n\n",
		cell(final.RedisName), cell(final.DatabaseName))

	p.T("## Timeline\n\n")
	p.T("| Step | # | At | Actor | Layer | Code | State | What happened | Narration | Guard |\n")
	p.printf("|---:|---:|---|---|---|---|---|---|---|---|\n")
	for k, step := range s.Steps[1:] {
		action := fmt.Sprintf("%d · %s", k+1, cell(step.Action.Words().In(s.Lang)))
		if len(step.Events) == 0 {
			p.T("| %s | | | | | | | (nothing happened) | | |\n", action)
		}
		for i, e := range step.Events {
			if i > 0 {
				action = ""
			}
			guard := ""
			if e.Guard != "" {
				guard = code(e.GuardSaid())
			}
			p.printf("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", action, e.Sequence, engine.FormatClock(e.At),
				cell(e.Actor), e.Layer, code(e.Code), stateWord(e.State), cell(e.Said()), cell(e.Narration), guard)
		}
	}

	r := final.Result
	p.T("\n## Result\n\n")
	measure := s.Lang.T("value")
	if r.MeasureLabel != "" {
		measure = s.Lang.T(r.MeasureLabel)
	}
	switch {
	case len(r.Values) > 0:
		// A file's several values, a row each.
		p.T("| value | expected | final |\n|---|---:|---:|\n")
		for _, v := range r.Values {
			p.printf("| %s | %d | %d |\n", cell(v.Label), v.Expected, v.Final)
		}
		p.T("\n**verdict %s**\n\n", s.Verdict())
	case r.NoValue:
		// A scenario with no value: its verdict alone.
		p.T("| verdict |\n|---|\n")
		p.printf("| **%s** |\n\n", s.Verdict())
	case s.Scenario.OwnCodeOnly:
		// A file's own code keeps no fence of fencelab's.
		p.T("| expected (%s) | final | verdict |\n|---:|---:|---|\n", cell(measure))
		p.printf("| %d | %d | **%s** |\n\n", r.Expected, r.Final, s.Verdict())
	default:
		p.T("| expected (%s) | final | last accepted fence | verdict |\n|---:|---:|---:|---|\n", cell(measure))
		p.printf("| %d | %d | %s | **%s** |\n\n", r.Expected, r.Final, world.FenceIn(r.Mark, s.Lang), s.Verdict())
	}

	p.T("## Invariants\n\n")
	broken := map[int]engine.Break{}
	for _, b := range r.Breaks {
		if _, seen := broken[b.Invariant]; !seen {
			broken[b.Invariant] = b
		}
	}
	for _, n := range s.Scenario.InvariantNumbers() {
		if b, ok := broken[n]; ok {
			p.T("%d. ✗ **broken at #%d** — %s: %s\n", n, b.Sequence, cell(s.Lang.T(s.Scenario.InvariantText(n))), cell(b.Said()))
		} else {
			p.T("%d. ✓ held — %s\n", n, cell(s.Lang.T(s.Scenario.InvariantText(n))))
		}
	}

	p.T("\n## Run it yourself\n\n```sh\n")
	mode := strings.ToLower(s.Mode.String())
	if s.Without != 0 {
		mode += " --without " + s.Without.String()
	}
	switch {
	case s.Explored:
		p.T("# in the explorer, w writes this run as a trace; then:\n")
		p.T("fencelab replay TRACE.json   # headless: runs it again and compares\n")
	case s.TracePath == "" && s.Scenario.File != "":
		p.T("fencelab run %s --mode %s   # headless: this timeline and result\n", redact.Shell(s.Scenario.File), mode)
		p.T("fencelab %s --mode %s   # the explorer; n steps the guided order\n", redact.Shell(s.Scenario.File), mode)
	case s.TracePath == "":
		p.T("fencelab run %s --mode %s   # headless: this timeline and result\n", s.Scenario.ID, mode)
		p.T("fencelab --mode %s                 # the explorer; s picks %s, n steps the guided order\n", mode, s.Scenario.ID)
	default:
		p.T("fencelab replay %s   # headless: runs it again and compares\n", redact.Shell(s.TracePath))
		p.T("fencelab --trace %s  # the explorer; n steps this schedule\n", redact.Shell(s.TracePath))
	}
	p.printf("```\n")
	return p.err
}

// printer keeps the first write error, so a renderer reads as a page.
type printer struct {
	w    io.Writer
	lang lang.Lang
	err  error
}

// T prints a message of the document in its language.
func (p *printer) T(format string, args ...any) { p.printf("%s", p.lang.T(format, args...)) }

func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// Cell makes text safe inside a Markdown table cell: one line, pipes
// escaped, and no HTML (a scenario file's title is anybody's text, and a
// page that renders HTML must show it, not run it).
func Cell(text string) string { return cell(text) }

func cell(text string) string {
	return htmlEscaper.Replace(oneLine(text))
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

func oneLine(text string) string {
	text = strings.Join(strings.Fields(text), " ")
	return strings.ReplaceAll(text, "|", `\|`)
}

// code is a cell's text as inline code (a guard, an event code), where
// Markdown shows < and > as they are.
func code(text string) string {
	text = oneLine(text)
	if text == "" {
		return ""
	}
	return "`" + strings.ReplaceAll(text, "`", "'") + "`"
}

// stateWord marks the states a reader looks for.
func stateWord(state string) string {
	switch state {
	case "REJECTED", "REFUSED", "BROKEN", "LOST":
		return "**" + state + "**"
	}
	return state
}
