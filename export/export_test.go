package export_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"github.com/fencelab/fencelab/scenarios/world"
	"image"
	"image/gif"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/vhs/lexer"
	"github.com/charmbracelet/vhs/parser"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/export"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/storetest"
	"github.com/fencelab/fencelab/tui"
)

func TestMain(m *testing.M) { storetest.Main(m) }

// record runs a scenario's guided order on backends of the test's own.
func record(t *testing.T, s *engine.Scenario, mode engine.Mode) export.Session {
	t.Helper()
	ctx := context.Background()
	lab, err := engine.NewLab(ctx, engine.Backends{Coordination: storetest.Embedded(t), Database: storetest.Database(t),
		HoldTTL: 30 * time.Second}, s, mode)
	require.NoError(t, err)
	t.Cleanup(func() { lab.Close(ctx) })
	session, err := export.Record(ctx, lab)
	require.NoError(t, err)
	return session
}

// recorded keeps the sessions eachScenario recorded: a session is data,
// and outlives the backends it was read from.
var recorded = map[string]export.Session{}

// eachScenario runs a test on the session of every scenario × mode.
func eachScenario(t *testing.T, test func(t *testing.T, s export.Session)) {
	for _, s := range scenarios.All() {
		for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
			t.Run(s.ID+"_"+mode.String(), func(t *testing.T) {
				session, ok := recorded[t.Name()[strings.Index(t.Name(), "/")+1:]]
				if !ok {
					session = record(t, s, mode)
					recorded[s.ID+"_"+mode.String()] = session
				}
				test(t, session)
			})
		}
	}
}

// The session is what ran: a step per action of the guided order, each
// with the events it produced, in order and without gaps.
func TestRecordKeepsEveryActionAndEvent(t *testing.T) {
	s, _ := scenarios.ByID("lease-overrun")
	session := record(t, s, engine.Unsafe)
	require.Len(t, session.Steps, 1+len(s.Guided(engine.Unsafe)))
	next := 1
	for _, step := range session.Steps[1:] {
		for _, e := range step.Events {
			require.Equal(t, next, e.Sequence)
			next++
		}
	}
	require.Equal(t, len(session.Final().Events), next-1)
	require.Equal(t, "STALE_OVERWRITE", session.Final().Result.Verdict)
	require.Len(t, session.Trace.Schedule, len(session.Steps)-1)
}

// cells splits a Markdown table row at its unescaped pipes.
func cells(row string) []string {
	row = strings.TrimSpace(row)
	var out []string
	cell := ""
	for i := 1; i < len(row); i++ {
		switch {
		case row[i] == '\\' && i+1 < len(row) && row[i+1] == '|':
			cell += "|"
			i++
		case row[i] == '|':
			out = append(out, strings.TrimSpace(cell))
			cell = ""
		default:
			cell += string(row[i])
		}
	}
	return out
}

// Markdown: a timeline table with a row per event and as many cells as
// its header, the result table, and every invariant held or broken at the
// step that broke it.
func TestMarkdownIsAPageWithItsTables(t *testing.T) {
	eachScenario(t, func(t *testing.T, s export.Session) {
		var doc bytes.Buffer
		require.NoError(t, export.Markdown(&doc, s))
		lines := strings.Split(doc.String(), "\n")
		require.Contains(t, lines[0], export.Signature)
		require.Equal(t, "# "+s.Scenario.ID+" · "+s.Mode.String(), lines[1])

		header := slices.Index(lines, "| Step | # | At | Actor | Layer | Code | State | What happened | Narration | Guard |")
		require.GreaterOrEqual(t, header, 0, "the timeline table")
		require.True(t, strings.HasPrefix(lines[header+1], "|---:|---:|"), "its delimiter row")
		width := len(cells(lines[header]))
		var rows []string
		for _, line := range lines[header+2:] {
			if !strings.HasPrefix(line, "|") {
				break
			}
			require.Len(t, cells(line), width, "row %q", line)
			rows = append(rows, line)
		}
		require.Len(t, rows, len(s.Final().Events))
		for i, e := range s.Final().Events {
			c := cells(rows[i])
			require.Equal(t, e.Code, strings.Trim(c[5], "`"))
			require.Equal(t, string(e.Layer), c[4])
		}

		r := s.Final().Result
		require.Contains(t, doc.String(), "| **"+r.Verdict+"** |")
		for n := 1; n <= len(world.Invariants); n++ {
			broken := false
			for _, b := range r.Breaks {
				if b.Invariant == n {
					broken = true
					require.Regexp(t, regexp.MustCompile(`(?m)^`+regexp.QuoteMeta(strconv.Itoa(n))+`\. ✗ \*\*broken at #\d+\*\*`), doc.String())
				}
			}
			if !broken {
				require.Contains(t, doc.String(), "\n"+strconv.Itoa(n)+". ✓ held — ")
			}
		}
	})
}

// Mermaid: every line is a statement of a sequence diagram; every
// participant an arrow or note names is declared first; a refused call is a
// cross arrow with its guard; texts carry no ';' or '#' but as entity codes.
func TestMermaidIsWellFormed(t *testing.T) {
	var (
		participant = regexp.MustCompile(`^    participant ([a-z][a-z0-9]*) as (.+)$`)
		arrow       = regexp.MustCompile(`^    ([a-z][a-z0-9]*)(->>|-->>|-x)([a-z][a-z0-9]*): (.+)$`)
		note        = regexp.MustCompile(`^    Note (?:over ([a-z][a-z0-9]*)(?:,([a-z][a-z0-9]*))?|right of ([a-z][a-z0-9]*)): (.+)$`)
		comment     = regexp.MustCompile(`^    %% `)
		title       = regexp.MustCompile(`^    title [^;#]+$`)
		entity      = regexp.MustCompile(`#[0-9]+;`)
	)
	eachScenario(t, func(t *testing.T, s export.Session) {
		var doc bytes.Buffer
		require.NoError(t, export.Mermaid(&doc, s))
		lines := strings.Split(strings.TrimSuffix(doc.String(), "\n"), "\n")
		require.Equal(t, "sequenceDiagram", lines[0])
		declared := map[string]bool{}
		crosses := 0
		checkText := func(line, text string) {
			bare := entity.ReplaceAllString(text, "")
			require.NotContains(t, bare, ";", "a raw ';' ends a statement: %q", line)
			require.NotContains(t, bare, "#", "a raw '#' starts an entity code: %q", line)
		}
		for _, line := range lines[1:] {
			switch {
			case comment.MatchString(line), title.MatchString(line):
			case participant.MatchString(line):
				m := participant.FindStringSubmatch(line)
				require.False(t, declared[m[1]], "declared twice: %q", line)
				declared[m[1]] = true
				checkText(line, m[2])
			case arrow.MatchString(line):
				m := arrow.FindStringSubmatch(line)
				require.True(t, declared[m[1]] && declared[m[3]], "an undeclared participant: %q", line)
				checkText(line, m[4])
				if m[2] == "-x" {
					crosses++
				}
			case note.MatchString(line):
				m := note.FindStringSubmatch(line)
				for _, id := range m[1:4] {
					require.True(t, id == "" || declared[id], "an undeclared participant: %q", line)
				}
				checkText(line, m[4])
				// A note's lines fit its box: about 24 columns a participant
				// it spans (a word longer than that stands alone).
				columns := 24
				if m[2] != "" {
					from, _ := strconv.Atoi(strings.TrimPrefix(m[1], "a"))
					to, _ := strconv.Atoi(strings.TrimPrefix(m[2], "a"))
					columns *= to - from + 1
				}
				for _, shown := range strings.Split(entity.ReplaceAllString(m[4], "#"), "<br/>") {
					require.True(t, ansi.StringWidth(shown) <= columns || !strings.Contains(shown, " "),
						"a note line wider than its box (%d columns): %q in %q", columns, shown, line)
				}
			default:
				t.Fatalf("not a sequence diagram statement: %q", line)
			}
		}
		refused := 0
		for _, e := range s.Final().Events {
			if (e.State == "REJECTED" || e.State == "REFUSED") && e.Actor != "lab" && e.Actor != "clock" && e.Layer != engine.LayerAPI {
				refused++
			}
		}
		require.Equal(t, refused, crosses, "a cross arrow per refused call")
		for _, reserved := range []string{"end", "loop", "alt", "opt", "par", "note", "rect"} {
			require.False(t, declared[reserved], "a participant named %q", reserved)
		}
	})
}

// Cast: an asciinema v2 recording — a header, then [time, "o"|"m", text]
// events in time order, a marker per step, every frame within the size.
// Where asciinema is installed, `asciinema cat` plays it to its verdict.
func TestCastIsAsciinemaV2(t *testing.T) {
	s, _ := scenarios.ByID("lease-overrun")
	session := record(t, s, engine.Safe)
	const width, height = 100, 30
	var doc bytes.Buffer
	require.NoError(t, export.Cast(&doc, session, width, height, func(k int) (string, error) {
		return tui.Frame(session.Steps[k].Snapshot, "", width, height, true, session.Lang), nil
	}))

	scanner := bufio.NewScanner(bytes.NewReader(doc.Bytes()))
	scanner.Buffer(nil, 1<<20)
	require.True(t, scanner.Scan())
	var header struct {
		Version       int
		Width, Height int
		Title         string
	}
	require.NoError(t, json.Unmarshal(scanner.Bytes(), &header))
	require.Equal(t, 2, header.Version)
	require.Equal(t, width, header.Width)
	require.Equal(t, height, header.Height)
	require.Contains(t, header.Title, export.Signature)

	last, markers, frames := -1.0, 0, 0
	for scanner.Scan() {
		var event []any
		require.NoError(t, json.Unmarshal(scanner.Bytes(), &event))
		require.Len(t, event, 3)
		at, ok := event[0].(float64)
		require.True(t, ok, "a time in seconds")
		require.GreaterOrEqual(t, at, last, "events in time order")
		last = at
		text, ok := event[2].(string)
		require.True(t, ok)
		switch event[1] {
		case "m":
			markers++
		case "o":
			if text == "" {
				continue
			}
			frames++
			screen := strings.Split(strings.TrimPrefix(text, "\x1b[?25l\x1b[H\x1b[2J"), "\r\n")
			require.Len(t, screen, height)
			for _, line := range screen {
				require.LessOrEqual(t, ansi.StringWidth(line), width)
			}
		default:
			t.Fatalf("event type %v", event[1])
		}
	}
	require.NoError(t, scanner.Err())
	require.Equal(t, len(session.Steps), markers)
	require.Equal(t, len(session.Steps), frames)

	asciinema, err := exec.LookPath("asciinema")
	if err != nil {
		t.Log("asciinema is not installed: its own reading is skipped")
		return
	}
	script, err := exec.LookPath("script")
	if err != nil {
		t.Log("script(1) is not installed: asciinema cat needs a terminal")
		return
	}
	path := filepath.Join(t.TempDir(), "lease-overrun.cast")
	require.NoError(t, os.WriteFile(path, doc.Bytes(), 0o644))
	out, err := exec.Command(script, "-qec", asciinema+" cat "+path, "/dev/null").CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, ansi.Strip(string(out)), "verdict STALE_FENCE")
	require.Contains(t, string(out), "\x1b[", "a recording in colour")
}

// Tape: VHS's own parser (what `vhs validate` runs) finds no error; the
// tape starts the explorer on the trace and presses n once per action.
func TestTapePassesVHSValidate(t *testing.T) {
	s, _ := scenarios.ByID("counter-loss")
	session := record(t, s, engine.Unsafe)
	var doc bytes.Buffer
	require.NoError(t, export.Tape(&doc, session, export.TapeOptions{Trace: "it's \"here\".trace.json", Output: "out.gif", Width: 100, Height: 30}))
	p := parser.New(lexer.New(doc.String()))
	commands := p.Parse()
	require.Empty(t, p.Errors(), "%s", doc.String())
	var typed []string
	for _, c := range commands {
		if c.Type == parser.CommandType("TYPE") {
			typed = append(typed, c.Args)
		}
	}
	require.Equal(t, `fencelab --lang en --trace 'it'\''s "here".trace.json'`, typed[0])
	n := 0
	for _, text := range typed {
		if text == "n" {
			n++
		}
	}
	require.Equal(t, len(session.Steps)-1, n)
	require.Equal(t, "q", typed[len(typed)-1])
}

// GIF and SVG: a frame per step, drawn by fencelab itself. The last
// frame's verdict is really on the picture — the cells of the word on the
// result line are not blank — in English and in Korean (whose syllables
// the embedded font has).
func TestGIFAndSVGShowTheVerdict(t *testing.T) {
	s, _ := scenarios.ByID("lease-overrun")
	for _, l := range []lang.Lang{lang.En, lang.Ko} {
		ctx := context.Background()
		lab, err := engine.NewLab(ctx, engine.Backends{Coordination: storetest.Embedded(t), Database: storetest.Database(t),
			HoldTTL: 30 * time.Second, Lang: l}, s, engine.Safe)
		require.NoError(t, err)
		session, err := export.Record(ctx, lab)
		lab.Close(ctx)
		require.NoError(t, err)
		const width, height = 100, 30
		frame := func(k int) (string, error) {
			return tui.Frame(session.Steps[k].Snapshot, "", width, height, true, session.Lang), nil
		}

		var doc bytes.Buffer
		require.NoError(t, export.GIF(&doc, session, width, height, frame))
		require.True(t, bytes.Contains(doc.Bytes(), []byte(export.Signature)), "the GIF says who wrote it")
		anim, err := gif.DecodeAll(bytes.NewReader(doc.Bytes()))
		require.NoError(t, err)
		require.Len(t, anim.Image, len(session.Steps), "a frame per step and the seeded state")
		for _, d := range anim.Delay {
			require.GreaterOrEqual(t, d, 200, "each frame held at least two seconds")
		}
		last := anim.Image[len(anim.Image)-1]
		require.Equal(t, image.Rect(0, 0, width*8, height*19), last.Bounds())
		verdict := "verdict STALE_FENCE"
		if l == lang.Ko {
			verdict = "판정 STALE_FENCE"
		}
		row, col := -1, 0
		lastFrame, _ := frame(len(session.Steps) - 1)
		for y, line := range strings.Split(ansi.Strip(lastFrame), "\n") {
			if i := strings.Index(line, verdict); i >= 0 {
				row, col = y, ansi.StringWidth(line[:i])
			}
		}
		require.GreaterOrEqual(t, row, 0, "the last frame's text has the verdict")
		word := image.Rect(col*8, row*19, (col+ansi.StringWidth(verdict))*8, (row+1)*19)
		background := last.At(word.Min.X, word.Min.Y)
		inked := 0
		for y := word.Min.Y; y < word.Max.Y; y++ {
			for x := word.Min.X; x < word.Max.X; x++ {
				if last.At(x, y) != background {
					inked++
				}
			}
		}
		require.Greater(t, inked, word.Dx()*word.Dy()/10, "%s: the verdict's cells are drawn, not blank", l)

		doc.Reset()
		require.NoError(t, export.SVG(&doc, session, width, height, frame))
		decoder := xml.NewDecoder(bytes.NewReader(doc.Bytes()))
		groups := 0
		for {
			tok, err := decoder.Token()
			if err == io.EOF {
				break
			}
			require.NoError(t, err, "the SVG is well-formed XML")
			if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "g" {
				groups++
			}
		}
		require.Equal(t, len(session.Steps), groups, "a group per frame")
		lastGroup := doc.String()[strings.LastIndex(doc.String(), "<g "):]
		require.Contains(t, lastGroup, "STALE_FENCE")
		require.Contains(t, doc.String(), export.Signature)
	}
}

// lengthened is a session of n actions: the recorded one's steps, then
// clock advances, each adding an event to a timeline that keeps growing.
func lengthened(session export.Session, n int) export.Session {
	long := session
	long.Steps = slices.Clone(session.Steps)
	final := session.Final()
	events := slices.Clone(final.Events)
	for len(long.Steps) < n+1 {
		e := events[len(events)-1]
		e.Sequence++
		e.At += time.Second
		events = append(events, e)
		snap := final
		snap.Events = events[:len(events):len(events)]
		long.Steps = append(long.Steps, export.Step{Action: engine.Action{Kind: engine.AdvanceClock, By: time.Second},
			Events: events[len(events)-1:], Snapshot: snap})
	}
	return long
}

// A cast's frame costs the same after 5,000 events as after 5: an export
// of 5,000 actions once took 140 s, each frame rendering the whole
// timeline. Eight times the actions is about eight times the time
// (quadratic would be 64): a ratio in this process, the best of two.
func TestCastTakesLinearTime(t *testing.T) {
	s, _ := scenarios.ByID("lease-overrun")
	session := record(t, s, engine.Unsafe)
	const width, height = 100, 30
	timeOf := func(n int) time.Duration {
		long := lengthened(session, n)
		best := time.Duration(1 << 62)
		for range 2 {
			started := time.Now()
			require.NoError(t, export.Cast(io.Discard, long, width, height, func(k int) (string, error) {
				return tui.Frame(long.Steps[k].Snapshot, "", width, height, true, long.Lang), nil
			}))
			best = min(best, time.Since(started))
		}
		return best
	}
	small, large := timeOf(100), timeOf(800)
	t.Logf("100 actions %s, 800 actions %s: ratio %.1f", small, large, float64(large)/float64(small))
	require.Less(t, float64(large)/float64(small), 24.0)
}

// A title is a file's, and a tape's comment is one line: a line break in
// the title types no command of its own.
func TestATitleTypesNothingInATape(t *testing.T) {
	catalog, _ := scenarios.ByID("counter-loss")
	s := *catalog
	s.Title = "T\nType \"touch /tmp/PWNED\"\nEnter\n# "
	session := record(t, &s, engine.Unsafe)
	var doc bytes.Buffer
	require.NoError(t, export.Tape(&doc, session, export.TapeOptions{Trace: "x.trace.json", Output: "out.gif", Width: 100, Height: 30}))
	p := parser.New(lexer.New(doc.String()))
	for _, c := range p.Parse() {
		require.NotContains(t, c.Args, "touch", "%s", doc.String())
	}
	require.Empty(t, p.Errors())
}
