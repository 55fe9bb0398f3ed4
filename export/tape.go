package export

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/store/redact"
	"github.com/fencelab/fencelab/untrusted"
)

// TapeOptions say what a tape plays and where VHS puts its recording.
type TapeOptions struct {
	Name          string // the tape's own file name, for the comment that says how to run it
	Trace         string // the trace file `fencelab --trace` opens, relative to the tape's directory
	Output        string // the GIF VHS writes, relative to the tape's directory
	Width, Height int    // the terminal, in columns and rows
}

// Tape writes a VHS tape that plays the session in the explorer: it starts
// `fencelab --trace`, presses n once per action with the pauses the cast
// holds, and quits. `vhs validate` accepts it; `vhs FILE` makes the GIF.
func Tape(w io.Writer, s Session, o TapeOptions) error {
	// The explorer speaks the session's language in the GIF too.
	language := s.Lang
	if language == "" {
		language = lang.En
	}
	command, err := tapeString("fencelab --lang " + string(language) + " --trace " + redact.Shell(o.Trace))
	if err != nil {
		return err
	}
	output, err := tapeString(o.Output)
	if err != nil {
		return err
	}
	p := &printer{w: w, lang: s.Lang}
	// A comment is one line: a title or a step's words are a file's, and
	// a line break in them would start a command of the tape's own (VHS
	// types and runs what follows Type).
	p.printf("# %s · %s · %s — %s\n", s.Scenario.ID, untrusted.Line(s.ModeLabel()), untrusted.Line(s.Lang.T(s.Scenario.Title)), Signature)
	p.T("# Make the GIF from this file's directory, with fencelab on PATH: vhs %s\n", o.Name)
	p.printf("Output %s\n\n", output)
	p.printf("Require fencelab\n\n")
	// A cell is about 10×20 pixels at font size 16; the padding is the
	// frame around the terminal.
	p.printf("Set Shell \"bash\"\nSet FontSize 16\nSet Padding 20\n")
	p.printf("Set Width %d\nSet Height %d\n", o.Width*10+40, o.Height*20+40)
	p.printf("Set TypingSpeed 50ms\n\n")
	p.T("# Start the explorer out of sight: PostgreSQL takes a moment the first time.\n")
	p.printf("Hide\nType %s\nEnter\nSleep 5s\nShow\n\n", command)
	p.printf("Sleep %s\n", tapeDuration(readingTime(s.Steps[0])))
	for k, step := range s.Steps[1:] {
		p.printf("\n# %d/%d %s\n", k+1, len(s.Steps)-1, untrusted.Line(step.Action.Words().In(s.Lang)))
		p.printf("Type \"n\"\nSleep %s\n", tapeDuration(readingTime(step)))
	}
	p.printf("\nSleep 2s\nType \"q\"\nSleep 500ms\n")
	return p.err
}

// Signature is in the first lines of every document export writes, so a
// file without it is known not to be one.
const Signature = "fencelab export"

// tapeString quotes text for a tape, with a quote it does not contain.
func tapeString(text string) (string, error) {
	if strings.ContainsAny(text, "\n\r") {
		return "", fmt.Errorf("a tape cannot type %q: it has a line break", text)
	}
	for _, q := range []string{`"`, `'`, "`"} {
		if !strings.Contains(text, q) {
			return q + text + q, nil
		}
	}
	return "", fmt.Errorf("a tape cannot type %q: it holds every kind of quote", text)
}

// tapeDuration is a duration as a tape writes it: 2500ms, 3s.
func tapeDuration(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return fmt.Sprintf("%dms", d.Round(time.Millisecond)/time.Millisecond)
}
