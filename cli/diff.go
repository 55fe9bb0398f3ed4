package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/export"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/untrusted"
)

// diffRequest is a parsed `fencelab diff`.
type diffRequest struct {
	scenario *engine.Scenario
	schedule []engine.Action
	// from says whose schedule it is: "the guided order of SAFE", a trace.
	from  lang.Phrase
	sides [2]engine.DiffSpec
	json  bool
	// format is md or mermaid for a document; empty: the terminal's.
	format string
}

// parseDiffRequest reads `diff ID|FILE|TRACE [--mode M] [--without G]`:
// one schedule — an id's or a file's guided order in mode M (default
// safe), or a trace's — run in SAFE and in UNSAFE, or with --without in
// SAFE and in SAFE without those guards.
func parseDiffRequest(rest []string, mode string, modeGiven bool, without engine.GuardSet, asJSON bool, format string) (diffRequest, error) {
	req := diffRequest{json: asJSON}
	switch format {
	case "", "md", "mermaid":
		req.format = format
	default:
		return req, usageError("diff --to %q: want md or mermaid (or leave it out for the terminal)", format)
	}
	if asJSON && req.format != "" {
		return req, usageError("diff prints JSON or a document, not both")
	}
	if len(rest) != 1 {
		return req, usageError("diff takes one scenario id, scenario file or trace, got %d arguments", len(rest))
	}
	req.sides = [2]engine.DiffSpec{{Mode: engine.Safe}, {Mode: engine.Unsafe}}
	if without != 0 {
		req.sides[1] = engine.DiffSpec{Mode: engine.Safe, Without: without}
	}
	arg := rest[0]
	if strings.HasSuffix(strings.ToLower(arg), ".json") {
		if modeGiven {
			return req, usageError("a trace is diffed on its own schedule; leave out --mode")
		}
		t, err := loadTrace(arg)
		if err != nil {
			return req, err
		}
		req.scenario, req.schedule = t.scenario, t.scenario.Guided(t.mode)
		req.from = lang.P("the schedule of the trace %s (%s)", arg, engine.ModeLabel(t.mode, t.without()))
		// The trace's own run on one side: its mode, its guards removed.
		req.sides[0] = engine.DiffSpec{Mode: t.mode, Without: t.without()}
		switch {
		case without != 0:
			req.sides[1] = engine.DiffSpec{Mode: engine.Safe, Without: t.without() | without}
		case t.mode == engine.Unsafe:
			req.sides[1] = engine.DiffSpec{Mode: engine.Safe}
		}
		return req, nil
	}
	s, err := scenarioArg(arg)
	if err != nil {
		return req, err
	}
	m, err := engine.ParseMode(mode)
	if err != nil {
		return req, usageError("--mode %q: diff follows the guided order of safe or unsafe", mode)
	}
	req.scenario, req.schedule = s, s.Guided(m)
	req.from = lang.P("the guided order of %s", m)
	return req, nil
}

// runDiff runs the schedule on each side and prints them beside each other.
func runDiff(ctx context.Context, c config, req diffRequest, stdout, stderr io.Writer) (err error) {
	b, err := startBackends(ctx, c, func(waiting string) { fmt.Fprintf(stderr, "fencelab: %s\n", waiting) })
	if err != nil {
		return err
	}
	defer func() { warnLeftovers(stderr, b.stop(), err) }()
	d, err := engine.RunDiff(ctx, b.Backends, req.scenario, req.schedule, req.sides)
	if err != nil {
		return err
	}
	switch {
	case req.json:
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(jsonDiffOf(d))
	case req.format == "md":
		printDiffMarkdown(stdout, d, req.from, c.lang)
	case req.format == "mermaid":
		return printDiffMermaid(stdout, d, c.lang)
	default:
		printDiff(stdout, d, req.from, c.lang)
	}
	return nil
}

// sideLabel is a side's mode as the header says it: "SAFE −fence".
func sideLabel(s engine.DiffSide) string { return engine.ModeLabel(s.Mode, s.Without) }

// diffWidth is the width a diff is printed in: the terminal's, else
// $COLUMNS, else 160 (a file or a pipe); each side gets half of what the
// action column leaves.
func diffWidth(w io.Writer) int {
	if c, ok := w.(*checkedWriter); ok {
		w = c.w
	}
	if f, ok := w.(*os.File); ok && term.IsTerminal(f.Fd()) {
		if width, _, err := term.GetSize(f.Fd()); err == nil && width >= 80 {
			return width
		}
		return 80
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 && n <= 1000 {
		return max(n, 80)
	}
	return 160
}

// printDiff prints the two runs side by side, an action a block, the
// first divergence marked with the guard that decided it, then each
// side's result and rows.
func printDiff(w io.Writer, d engine.Diff, from lang.Phrase, l lang.Lang) {
	left, right := d.Sides[0], d.Sides[1]
	width := diffWidth(w)
	// A row: the action (29 columns), a space, one side, " │ ", the other.
	column := (width - 33) / 2
	fmt.Fprint(w, l.T("%s: %s beside %s, the same %d actions (%s)\n\n", d.Scenario.ID, sideLabel(left), sideLabel(right),
		len(d.Schedule), from.In(l)))
	fmt.Fprintf(w, "%s %s │ %s\n", pad("", 29), pad(sideLabel(left), column), sideLabel(right))
	for k, a := range d.Schedule {
		mark := "  "
		if k == d.Diverged {
			mark = "▶ "
		}
		lines := max(len(eventsAt(left, k)), len(eventsAt(right, k)), 1)
		for i := 0; i < lines; i++ {
			head := ""
			if i == 0 {
				head = fmt.Sprintf("%s%3d  %s", mark, k+1, pad(ansi.Truncate(untrusted.Line(a.Words().In(l)), 22, "…"), 22))
			}
			fmt.Fprintf(w, "%s %s │ %s\n", pad(head, 29), pad(eventLine(left, k, i, column, l), column), eventLine(right, k, i, column, l))
		}
		if k == d.Diverged {
			fmt.Fprintf(w, "       %s\n", ansi.Truncate(divergence(d, l), width-7, "…"))
		}
	}
	if d.Diverged < 0 {
		fmt.Fprint(w, l.T("\n  the two runs never part: every action did the same on both sides\n"))
	}
	fmt.Fprintln(w)
	label := max(ansi.StringWidth(sideLabel(left)), ansi.StringWidth(sideLabel(right)))
	for _, s := range d.Sides {
		fmt.Fprintf(w, "%s  %s\n", pad(sideLabel(s), label), resultSaid(s, l))
		for _, e := range world.RowsOf(s.Result.Ledger).Executions {
			fmt.Fprintf(w, "%s    %s\n", pad("", label), executionLine(e, l))
		}
	}
}

// resultSaid is a side's result as run says it, and where it stopped if it
// could not take every action (its verdict is then of a run cut short).
func resultSaid(s engine.DiffSide, l lang.Lang) string {
	r := s.Result
	what := ""
	if r.MeasureLabel != "" {
		what = l.T(r.MeasureLabel) + ": "
	}
	line := l.T("%sexpected %d · final %d · last accepted fence %s · verdict %s", what, r.Expected, r.Final, world.FenceIn(r.Mark, l), r.Verdict)
	if r.OwnCodeOnly {
		line = l.T("%sexpected %d · final %d · verdict %s", what, r.Expected, r.Final, r.Verdict)
	}
	if r.NoValue {
		line = l.T("verdict %s", r.Verdict)
	}
	if len(r.Values) > 0 {
		line = l.T("%s · verdict %s", r.ValuesSaid(l), r.Verdict)
	}
	if s.Stopped >= 0 {
		line += l.T(" — stopped at action %d, the rest not taken", s.Stopped+1)
	}
	return line
}

// divergence says where the runs part and why.
func divergence(d engine.Diff, l lang.Lang) string {
	if d.DecidedOK {
		for _, s := range d.Sides {
			for _, e := range eventsAt(s, d.Diverged) {
				if e.Refusal != "" && e.Guard != "" {
					return l.T("first divergence: the %s guard decided it — %s", d.Decided, untrusted.Line(e.GuardSaid()))
				}
			}
		}
		return l.T("first divergence: the %s guard decided it — %s", d.Decided, d.Decided.What().In(l))
	}
	return l.T("first divergence: no single guard decides it — the two modes run different code here")
}

func eventsAt(s engine.DiffSide, k int) []engine.Event {
	if k < len(s.Steps) {
		return s.Steps[k]
	}
	return nil
}

// eventLine is a side's i-th event of action k, in one line: who, what,
// how it ended, the detail as far as it fits.
func eventLine(s engine.DiffSide, k, i, width int, l lang.Lang) string {
	events := eventsAt(s, k)
	switch {
	case i < len(events):
		e := events[i]
		return ansi.Truncate(untrusted.Line(fmt.Sprintf("%s %s %s", e.Code, e.State, e.Said())), width, "…")
	case i == 0 && k == s.Stopped:
		return ansi.Truncate(l.T("not taken: %s", said(s.Why, l)), width, "…")
	case i == 0 && s.Stopped >= 0 && k > s.Stopped:
		return "—"
	case i == 0:
		return l.T("(nothing happened)")
	}
	return ""
}

// said is an error in a language, in one line.
func said(err error, l lang.Lang) string {
	if s, ok := err.(interface{ In(lang.Lang) string }); ok {
		return engine.OneLine(fmt.Errorf("%s", s.In(l)))
	}
	return engine.OneLine(err)
}

func pad(s string, width int) string {
	if n := ansi.StringWidth(s); n < width {
		return s + strings.Repeat(" ", width-n)
	}
	return s
}

func executionLine(e world.Execution, l lang.Lang) string {
	line := fmt.Sprintf("%s %s %s", e.Owner, world.FenceIn(e.FencingToken, l), e.State)
	if e.Rejection != "" {
		line += " " + e.Rejection
	}
	return untrusted.Line(line)
}

// printDiffMarkdown is the diff as a page: a two-column table, an action
// a row, the divergence in bold with its guard, and both results.
func printDiffMarkdown(w io.Writer, d engine.Diff, from lang.Phrase, l lang.Lang) {
	left, right := d.Sides[0], d.Sides[1]
	fmt.Fprintf(w, "# %s · %s | %s\n\n", d.Scenario.ID, sideLabel(left), sideLabel(right))
	fmt.Fprint(w, l.T("The same %d actions on both sides: %s.\n\n", len(d.Schedule), export.Cell(from.In(l))))
	fmt.Fprintf(w, "| # | %s | %s | %s |\n|---:|---|---|---|\n", export.Cell(l.T("action")), sideLabel(left), sideLabel(right))
	for k, a := range d.Schedule {
		cells := [2]string{}
		for i, s := range d.Sides {
			var parts []string
			for j := range max(len(eventsAt(s, k)), 1) {
				if line := eventLine(s, k, j, 1000, l); line != "" {
					parts = append(parts, export.Cell(line))
				}
			}
			cells[i] = strings.Join(parts, "<br>")
		}
		n, action := fmt.Sprint(k+1), export.Cell(a.Words().In(l))
		if k == d.Diverged {
			n, action = "**"+n+"**", "**"+action+"** — "+export.Cell(divergence(d, l))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", n, action, cells[0], cells[1])
	}
	ownCode := d.Scenario != nil && d.Scenario.OwnCodeOnly // no fence of fencelab's
	if ownCode {
		fmt.Fprint(w, l.T("\n| | final | verdict |\n|---|---:|---|\n"))
	} else {
		fmt.Fprint(w, l.T("\n| | final | last accepted fence | verdict |\n|---|---:|---:|---|\n"))
	}
	for _, s := range d.Sides {
		r := s.Result
		verdict := "**" + r.Verdict + "**"
		if s.Stopped >= 0 {
			verdict += l.T(" — stopped at action %d, the rest not taken", s.Stopped+1)
		}
		if ownCode {
			fmt.Fprintf(w, "| %s | %d | %s |\n", sideLabel(s), r.Final, verdict)
		} else {
			fmt.Fprintf(w, "| %s | %d | %s | %s |\n", sideLabel(s), r.Final, world.FenceIn(r.Mark, l), verdict)
		}
	}
	// Each side as a sequence diagram, which GitHub draws.
	for _, s := range d.Sides {
		fmt.Fprintf(w, "\n## %s\n\n```mermaid\n", sideLabel(s))
		export.Mermaid(w, sessionOf(d, s, l))
		fmt.Fprint(w, "```\n")
	}
}

// printDiffMermaid is the diff as one sequence diagram: what both sides
// did alike drawn once, what they did differently drawn for each in a box
// of its colour, the divergence noted with what decided it.
func printDiffMermaid(w io.Writer, d engine.Diff, l lang.Lang) error {
	left, right := d.Sides[0], d.Sides[1]
	return export.MermaidBoth(w, [2]export.Session{sessionOf(d, left, l), sessionOf(d, right, l)},
		[2]string{sideLabel(left), sideLabel(right)}, d.Diverged, divergence(d, l))
}

// sessionOf is one side of a diff as the exports take a run.
func sessionOf(d engine.Diff, s engine.DiffSide, l lang.Lang) export.Session {
	session := export.Session{Scenario: d.Scenario, Mode: s.Mode, Without: s.Without, Lang: l,
		Steps: []export.Step{{Snapshot: s.Snapshots[0]}}}
	for k := range s.Steps {
		session.Steps = append(session.Steps, export.Step{Action: d.Schedule[k], Events: s.Steps[k], Snapshot: s.Snapshots[k+1]})
	}
	return session
}

// The JSON of `diff --json`.
type jsonDiff struct {
	Scenario  string         `json:"scenario"`
	Sides     [2]jsonDiffRun `json:"sides"`
	Actions   []jsonDiffStep `json:"actions"`
	Diverged  *int           `json:"divergedAt"` // 1-based; null: never
	DecidedBy string         `json:"decidedBy,omitempty"`
}

type jsonDiffRun struct {
	Mode      string   `json:"mode"`
	Without   []string `json:"without,omitempty"`
	StoppedAt *int     `json:"stoppedAt,omitempty"` // 1-based
	Why       string   `json:"why,omitempty"`
	Final     int64    `json:"final"`
	Fence     *int64   `json:"lastAcceptedFence"`
	Verdict   string   `json:"verdict"`
}

type jsonDiffStep struct {
	Action string         `json:"action"`
	Events [2][]jsonEvent `json:"events"`
}

func jsonDiffOf(d engine.Diff) jsonDiff {
	j := jsonDiff{Scenario: d.Scenario.ID, Actions: []jsonDiffStep{}}
	if d.Diverged >= 0 {
		n := d.Diverged + 1
		j.Diverged = &n
	}
	if d.DecidedOK {
		j.DecidedBy = d.Decided.String()
	}
	for i, s := range d.Sides {
		run := jsonDiffRun{Mode: strings.ToLower(s.Mode.String()), Without: s.Without.Names(), Final: s.Result.Final,
			Fence: optional(s.Result.Mark), Verdict: s.Result.Verdict}
		if s.Stopped >= 0 {
			n := s.Stopped + 1
			run.StoppedAt, run.Why = &n, engine.OneLine(s.Why)
		}
		j.Sides[i] = run
	}
	for k, a := range d.Schedule {
		step := jsonDiffStep{Action: a.String()}
		for i, s := range d.Sides {
			step.Events[i] = []jsonEvent{}
			for _, e := range eventsAt(s, k) {
				step.Events[i] = append(step.Events[i], jsonEvent{Sequence: e.Sequence, Actor: e.Actor, Layer: string(e.Layer),
					Code: e.Code, State: e.State, Detail: e.Detail, Guard: e.Guard})
			}
		}
		j.Actions = append(j.Actions, step)
	}
	return j
}

// writeDiff writes a diff the explorer's split screen exports as a new
// file in the current directory (md or mermaid), and says which.
func writeDiff(format string, d engine.Diff, l lang.Lang) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	var doc bytes.Buffer
	from := lang.P("the explorer's %d actions", len(d.Schedule))
	ext := ".md"
	if format == "mermaid" {
		ext = ".mmd"
		err = printDiffMermaid(&doc, d, l)
	} else {
		printDiffMarkdown(&doc, d, from, l)
	}
	if err != nil {
		return "", err
	}
	path, err := saveNew(dir, fmt.Sprintf("fencelab-%s-diff", d.Scenario.ID), ext, doc.Bytes())
	if err != nil {
		return "", err
	}
	return filepath.Base(path), nil
}
