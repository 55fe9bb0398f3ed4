package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"unicode"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/stress"
	"github.com/fencelab/fencelab/untrusted"
)

// matrixRequest is a parsed `fencelab matrix`.
type matrixRequest struct {
	scenarios []*engine.Scenario
	json      bool
	md        string // also write the Markdown table here
	out       string // counterexample traces; empty: a new temp dir
	// madeOut: out did not exist, and the matrix made it (stopped before
	// it wrote anything there, the matrix removes it again).
	madeOut bool
	// strict: a guard none of the scenarios needs fails the matrix even
	// when they are all files of a user's (for the catalog it always does).
	strict bool
	// memory bounds each search (--max-memory).
	memory *memoryBound
}

func parseMatrixRequest(args []string, asJSON bool, md, out string) (matrixRequest, error) {
	req := matrixRequest{json: asJSON, md: physical(md), out: out}
	if len(args) == 0 {
		req.scenarios = scenarios.All()
	}
	for _, arg := range args {
		s, err := scenarioArg(arg)
		if err != nil {
			return req, err
		}
		if !slices.ContainsFunc(req.scenarios, func(x *engine.Scenario) bool { return x.ID == s.ID && x.File == s.File }) {
			req.scenarios = append(req.scenarios, s)
		}
	}
	if md != "" {
		if err := checkMatrixTarget(req.md); err != nil {
			return req, err
		}
	}
	var err error
	if out != "" {
		_, statErr := os.Lstat(out)
		req.madeOut = errors.Is(statErr, fs.ErrNotExist)
	}
	req.out, err = checkOutDir(out)
	return req, err
}

// cutShort is the matrix's end when --max-memory cut a search short: what
// it did not search, the matrix cannot say (what is the search's label).
func (req *matrixRequest) cutShort(r engine.CheckReport, what string) error {
	if !req.memory.hit() {
		return nil
	}
	return outcomeError("%s: cut short at %s states, past --max-memory %s: this proves nothing; a larger --max-memory goes further",
		what, stress.FormatCount(r.States), formatSize(req.memory.limit))
}

// A cell of the matrix: what SAFE did with one guard removed in one
// scenario.
const (
	cellHeld         = "held"          // every invariant held and the work was done
	cellNotConsulted = "not-consulted" // no step of the scenario asks the guard
	cellBroken       = "broken"        // an invariant broke
	cellProgress     = "progress"      // safe, but no schedule did the work
)

type matrixCell struct {
	Guard  string `json:"guard"`
	Status string `json:"status"`
	// Invariant is the first invariant that broke; Anomaly its name;
	// Length the actions of the shortest counterexample, written to Trace.
	Invariant int    `json:"invariant,omitempty"`
	Anomaly   string `json:"anomaly,omitempty"`
	Length    int    `json:"length,omitempty"`
	Trace     string `json:"trace,omitempty"`
	// NeverRefused: held without a search of its own, the guard being a
	// check that refused on none of SAFE's schedules.
	NeverRefused bool `json:"neverRefused,omitempty"`
}

type matrixRow struct {
	Scenario string `json:"scenario"`
	// Safe is SAFE with every guard: it must hold.
	Safe  string       `json:"safe"`
	Cells []matrixCell `json:"cells"`
}

type matrixReport struct {
	Guards []string        `json:"guards"`
	Rows   []matrixRow     `json:"rows"`
	Needed map[string]bool `json:"needed"`
}

// runMatrix checks every scenario in SAFE with each guard removed alone.
// A guard no step of a scenario consults (SAFE's check says which it
// asked) cannot change that scenario: its cell says so without a search.
func runMatrix(ctx context.Context, c config, req matrixRequest, stdout, stderr io.Writer) error {
	c.pgConnections = labConnections(req.scenarios)
	defer searchGC(req.memory.ceiling())()
	err := withLabPool(ctx, c, stderr, func(pool *labPool) error { return matrix(ctx, c, req, pool, stdout, stderr) })
	if err != nil && req.madeOut {
		// Stopped before it wrote anything there: the directory it made
		// goes (os.Remove removes only an empty one).
		os.Remove(req.out)
	}
	return err
}

// matrix is runMatrix on a pool of backends. The columns are every guard
// for the catalog; for files of a user's own, the guards their steps
// consult — a design's guards, not fencelab's list.
func matrix(ctx context.Context, c config, req matrixRequest, pool *labPool, stdout, stderr io.Writer) error {
	meter := newProgress(stderr, "")
	all := engine.AllGuards()
	total, done := len(req.scenarios)*(len(all)+1), 0
	tick := func(what string) {
		meter.line(fmt.Sprintf("matrix %s %d/%d · %s", bar(done, total, 20), done, total, what))
	}
	safes := make([]engine.CheckReport, len(req.scenarios))
	var consulted engine.GuardSet
	for i, s := range req.scenarios {
		tick(s.ID + " SAFE")
		req.memory.reset()
		safe, err := checkOne(ctx, pool, s, engine.Safe, 0, engine.CheckOptions{Stop: req.memory.exceeded})
		done++
		if err != nil {
			meter.done()
			return fmt.Errorf("%s SAFE: %w", s.ID, err)
		}
		// SAFE's search cut short is not a row: what it did not search, it
		// did not consult, and the cells stand on what it consulted.
		if err := req.cutShort(safe, s.ID+" SAFE"); err != nil {
			meter.done()
			return err
		}
		safes[i] = safe
		consulted |= safe.Consulted
	}
	guards := all
	if !req.catalogs() {
		guards = consulted.List()
	}
	report := matrixReport{Needed: map[string]bool{}, Guards: []string{}}
	for _, g := range guards {
		report.Guards = append(report.Guards, g.String())
		report.Needed[g.String()] = false
	}
	total = len(req.scenarios) * (len(guards) + 1)
	written := 0 // counterexamples in req.out
	for i, s := range req.scenarios {
		safe := safes[i]
		row := matrixRow{Scenario: s.ID, Safe: cellHeld}
		if why, failed := failure(safe, false); failed {
			row.Safe = why.String()
		}
		for _, g := range guards {
			cell := matrixCell{Guard: g.String(), Status: cellNotConsulted}
			switch {
			case !safe.Consulted.Has(g):
			case row.Safe == cellHeld && s.InCatalog() && g.CheckOnly() && !safe.Refused.Has(g) && safe.Exhaustive:
				// A check that never refused on any of SAFE's schedules:
				// without it every schedule runs as it did (Guard.CheckOnly).
				cell.Status, cell.NeverRefused = cellHeld, true
			default:
				tick(fmt.Sprintf("%s SAFE −%s", s.ID, g))
				// A cell asks whether an invariant breaks and the shortest
				// schedule that breaks one: what follows a break is not
				// searched (most of a broken cell's states).
				req.memory.reset()
				r, err := checkOne(ctx, pool, s, engine.Safe, engine.Guards(g), engine.CheckOptions{UntilBroken: true, Stop: req.memory.exceeded})
				if err == nil && len(r.Broken) == 0 {
					// A break found is one, however short the search; no
					// break found in a search cut short proves nothing.
					err = req.cutShort(r, fmt.Sprintf("%s SAFE −%s", s.ID, g))
				}
				if err != nil {
					meter.done()
					sayFoundSoFar(stderr, req.out, written, c.lang)
					if errors.As(err, new(*exitError)) {
						return err
					}
					return fmt.Errorf("%s SAFE −%s: %w", s.ID, g, err)
				}
				if cell, err = matrixCellOf(g, r, &req); err != nil {
					meter.done()
					return err
				}
			}
			done++
			if cell.Trace != "" {
				written++
			}
			if cell.Status == cellBroken || cell.Status == cellProgress {
				report.Needed[g.String()] = true
			}
			row.Cells = append(row.Cells, cell)
		}
		report.Rows = append(report.Rows, row)
	}
	meter.done()

	if req.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(report); err != nil {
			return err
		}
	} else {
		printMatrix(stdout, report, c)
	}
	if req.md != "" {
		if err := replaceFile(req.md, ".fencelab-matrix-*", []byte(matrixMarkdown(report))); err != nil {
			return fmt.Errorf("matrix -o %s: %w", req.md, err)
		}
	}
	var unneeded, unsafe []string
	for _, g := range report.Guards {
		if !report.Needed[g] {
			unneeded = append(unneeded, g)
		}
	}
	for _, row := range report.Rows {
		if row.Safe != cellHeld {
			unsafe = append(unsafe, row.Scenario)
		}
	}
	switch {
	case len(unsafe) > 0:
		return outcomeError("SAFE itself did not hold in %s", strings.Join(unsafe, ", "))
	case len(unneeded) > 0 && len(req.scenarios) == len(scenarios.All()):
		return outcomeError("no scenario needs %s: the catalog cannot show why it exists", strings.Join(unneeded, ", "))
	case len(unneeded) > 0 && (req.catalogs() || req.strict):
		return outcomeError("none of these scenarios needs %s", strings.Join(unneeded, ", "))
	case len(unneeded) > 0 && !req.json:
		// A design that does without a guard its code consults: the
		// answer the matrix was asked for, not a failure.
		fmt.Fprint(stdout, c.lang.T("\nyour design does not need: %s (SAFE held with each taken out alone)\n", strings.Join(unneeded, ", ")))
	}
	return nil
}

// catalogs reports whether a scenario of the matrix is the catalog's, whose
// every guard must be needed by one of them.
func (req matrixRequest) catalogs() bool {
	return slices.ContainsFunc(req.scenarios, (*engine.Scenario).InCatalog)
}

// matrixCellOf is the cell of a check of SAFE without guard g, its
// counterexample written to the matrix's --out.
func matrixCellOf(g engine.Guard, r engine.CheckReport, req *matrixRequest) (matrixCell, error) {
	cell := matrixCell{Guard: g.String(), Status: cellHeld}
	switch {
	case len(r.Broken) > 0:
		cell.Status = cellBroken
		if t := r.Counterexample; t != nil {
			if len(t.Result.Broken) > 0 {
				cell.Invariant, cell.Anomaly = t.Result.Broken[0].Invariant, t.Result.Broken[0].Anomaly
			}
			for _, a := range t.Schedule {
				if a.Action != "pause" && a.Action != "resume" {
					cell.Length++
				}
			}
			if req.out == "" {
				dir, err := os.MkdirTemp("", "fencelab-matrix-")
				if err != nil {
					return cell, err
				}
				req.out = dir
			}
			path, err := saveNewTrace(req.out, fmt.Sprintf("%s-without-%s", r.Scenario.ID, fileNamePart(g.String())), *t)
			if err != nil {
				return cell, err
			}
			cell.Trace = path
		}
		if cell.Invariant == 0 {
			for _, n := range r.Scenario.InvariantNumbers() {
				if r.Broken[n] > 0 {
					cell.Invariant = n
					break
				}
			}
		}
	case !r.Progressed():
		cell.Status = cellProgress
	}
	return cell, nil
}

// cellText is a cell as the terminal and the Markdown show it: ✓ held,
// · not consulted, "inv 1 · 9" the invariant that broke and the length of
// the shortest counterexample, "progress".
func cellText(cell matrixCell) string {
	switch cell.Status {
	case cellHeld:
		return "✓"
	case cellNotConsulted:
		return "·"
	case cellProgress:
		return "progress"
	}
	if cell.Invariant >= engine.FirstCodeInvariant && cell.Anomaly != "" {
		// A file's own invariant, by the name it gave it.
		return fmt.Sprintf("%s · %d", cell.Anomaly, cell.Length)
	}
	return fmt.Sprintf("inv %d · %d", cell.Invariant, cell.Length)
}

// printMatrix prints the matrix as a table: a row per scenario, a column
// per guard, in blocks of columns that fit in 100 columns, and a last row
// saying which guards some scenario needs.
func printMatrix(w io.Writer, r matrixReport, c config) {
	l := c.lang
	first := len("scenario")
	for _, row := range r.Rows {
		first = max(first, len(row.Scenario))
	}
	widths := make([]int, len(r.Guards))
	for i, g := range r.Guards {
		widths[i] = max(displayWidth(g), len("inv 8 · 99"))
		for _, row := range r.Rows {
			widths[i] = max(widths[i], displayWidth(cellText(row.Cells[i])))
		}
	}
	const room = 100
	for start := 0; start < len(r.Guards); {
		end, used := start, first+2+len("SAFE")
		for end < len(r.Guards) && (end == start || used+2+widths[end] <= room) {
			used += 2 + widths[end]
			end++
		}
		cell := func(text string, width int) string {
			return text + strings.Repeat(" ", max(0, width-displayWidth(text)))
		}
		var sb strings.Builder
		sb.WriteString(cell(l.T("scenario"), first) + "  SAFE")
		for i := start; i < end; i++ {
			sb.WriteString("  " + cell(r.Guards[i], widths[i]))
		}
		fmt.Fprintln(w, strings.TrimRight(sb.String(), " "))
		for _, row := range r.Rows {
			sb.Reset()
			safe := "✓"
			if row.Safe != cellHeld {
				safe = "✗"
			}
			sb.WriteString(cell(row.Scenario, first) + "  " + cell(safe, len("SAFE")))
			for i := start; i < end; i++ {
				sb.WriteString("  " + cell(cellText(row.Cells[i]), widths[i]))
			}
			fmt.Fprintln(w, strings.TrimRight(sb.String(), " "))
		}
		sb.Reset()
		sb.WriteString(cell(l.T("needed"), first) + "  " + cell("", len("SAFE")))
		for i := start; i < end; i++ {
			needed := l.T("yes")
			if !r.Needed[r.Guards[i]] {
				needed = l.T("NO")
			}
			sb.WriteString("  " + cell(needed, widths[i]))
		}
		fmt.Fprintln(w, strings.TrimRight(sb.String(), " "))
		fmt.Fprintln(w)
		start = end
	}
	fmt.Fprint(w, l.T("✓ still safe without the guard;  ·  the scenario never asks it;  inv N · K  invariant N broke,\nthe shortest counterexample K actions long;  progress  safe, but no schedule did the work\n"))
	for _, row := range r.Rows {
		for _, cell := range row.Cells {
			if cell.Trace != "" {
				fmt.Fprint(w, l.T("counterexamples: %s\n", strings.TrimSuffix(cell.Trace, "/"+lastElem(cell.Trace))))
				return
			}
		}
	}
}

func lastElem(path string) string { return path[strings.LastIndex(path, "/")+1:] }

// displayWidth counts runes: the matrix's text is ASCII but for ✓ and ·.
func displayWidth(s string) int { return len([]rune(s)) }

// matrixSignature marks a Markdown file the matrix wrote, so --md replaces
// only such a file.
const matrixSignature = "<!-- fencelab matrix -->"

// matrixMarkdown is the matrix as a Markdown table a slide can take.
func matrixMarkdown(r matrixReport) string {
	var sb strings.Builder
	sb.WriteString(matrixSignature + "\n")
	sb.WriteString("| scenario | SAFE |")
	for _, g := range r.Guards {
		sb.WriteString(" " + g + " |")
	}
	sb.WriteString("\n|---|:-:|" + strings.Repeat(":-:|", len(r.Guards)) + "\n")
	for _, row := range r.Rows {
		safe := "✓"
		if row.Safe != cellHeld {
			safe = "✗ " + row.Safe
		}
		sb.WriteString("| `" + row.Scenario + "` | " + safe + " |")
		for _, cell := range row.Cells {
			sb.WriteString(" " + cellText(cell) + " |")
		}
		sb.WriteString("\n")
	}
	sb.WriteString("| **needed** | |")
	for _, g := range r.Guards {
		if r.Needed[g] {
			sb.WriteString(" yes |")
		} else {
			sb.WriteString(" **NO** |")
		}
	}
	sb.WriteString("\n\n✓ still safe without the guard; `·` the scenario never asks it; *inv N · K* invariant N broke, the shortest counterexample K actions long; *progress* safe, but no schedule did the work\n")
	return sb.String()
}

// checkMatrixTarget says whether matrix -o may write path: nothing is
// there, or a Markdown file the matrix wrote.
func checkMatrixTarget(path string) error {
	return checkReplaceable("-o "+path, path, lang.P("a Markdown matrix fencelab wrote"), func(path string) bool {
		f, err := os.OpenFile(path, os.O_RDONLY|syscallNonblock|syscallNofollow, 0)
		if err != nil {
			return false
		}
		defer f.Close()
		head := make([]byte, len(matrixSignature))
		_, err = io.ReadFull(f, head)
		return err == nil && string(head) == matrixSignature
	})
}

// sayFoundSoFar tells, when a check or matrix stops before its end (a
// signal, a server gone), where the counterexamples it wrote are: they are
// as good as those of a whole run.
func sayFoundSoFar(stderr io.Writer, dir string, n int, l lang.Lang) {
	switch {
	case n == 1:
		fmt.Fprintln(stderr, l.T("fencelab: the counterexample found before the stop is in %s", untrusted.Line(dir)))
	case n > 1:
		fmt.Fprintln(stderr, l.T("fencelab: the %d counterexamples found before the stop are in %s", n, untrusted.Line(dir)))
	}
}

// fileNamePart is a name as a part of a file's name: a file's own guard
// may be called anything ("version check", "ab/c").
func fileNamePart(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return '-'
	}, name)
}
