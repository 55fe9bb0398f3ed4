package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/fencelab/fencelab/race"
)

// maxRace bounds --n and --free: every key set is a dozen keys and a dozen
// round trips, and a run past this size teaches nothing a smaller one does
// not (10,000 key sets take about half a minute on the embedded Redis).
const maxRace = 10_000

// runRace runs `fencelab race`: Redis only, no PostgreSQL. On a real Redis
// the keys it made are deleted when it ends, interrupted or not.
func runRace(ctx context.Context, c config, n, free int, stdout, stderr io.Writer) (err error) {
	if n < 1 || n > maxRace {
		return usageError("--n must be between 1 and %d, got %d", maxRace, n)
	}
	if free < 0 || free > maxRace {
		return usageError("--free must be between 0 and %d, got %d", maxRace, free)
	}
	c.wallClock = true
	redis, err := startRedis(ctx, c)
	if err != nil {
		return err
	}
	defer func() { warnLeftovers(stderr, redis.Close(), err) }()
	now := time.Now().UTC()

	meter := newProgress(stderr, c.lang.T("forced key sets"))
	report, err := race.Forced(ctx, redis, n, now, meter.show)
	meter.done()
	if err != nil {
		return err
	}
	report.Print(stdout)
	// The six lines are the seed's; what they mean, and where they were
	// counted, goes beside them — once they were written (output that
	// was lost is said in one line, by itself).
	if w, ok := stdout.(*checkedWriter); !ok || w.err == nil {
		fmt.Fprintln(stderr, c.lang.T("race on %s: the GET -> SET line is the naive path (UNSAFE), whose duplicates are the point; the invariants are the SAFE paths' (Lua acquire, terminal transition, pointer ownership)", redis.Describe()))
	}
	if free > 0 {
		meter := newProgress(stderr, c.lang.T("free-running pairs"))
		freeReport, err := race.Free(ctx, redis, free, now, meter.show)
		meter.done()
		if err != nil {
			return err
		}
		freeReport.Print(stdout)
		if freeReport.LuaDuplicates > 0 {
			report.Failures = append(report.Failures, "Lua acquire made duplicates")
		}
	}
	if len(report.Failures) > 0 {
		return &exitError{code: exitUnexpected}
	}
	return nil
}

// progress shows how far a long command has come on stderr: on a terminal
// as one line replaced in place once it has taken more than a second; on a
// pipe or a file (a CI log) as a line of its own every pipeEvery, so a
// long run is never silent, while a short one writes nothing there.
type progress struct {
	w       io.Writer
	what    string
	started time.Time
	last    time.Time
	shown   bool
	piped   bool
}

// pipeEvery is how often progress is written where stderr is no terminal.
const pipeEvery = 10 * time.Second

func newProgress(stderr io.Writer, what string) *progress {
	if !isTerminal(stderr) {
		return &progress{w: stderr, what: what, started: time.Now(), last: time.Now(), piped: true}
	}
	return &progress{w: stderr, what: what, started: time.Now()}
}

func (p *progress) show(done, n int) {
	p.line(fmt.Sprintf("race: %d/%d %s (%d%%)…", done, n, p.what, done*100/n))
}

// line replaces the progress line, at most ten times a second (on a pipe:
// a new line every pipeEvery).
func (p *progress) line(text string) {
	switch {
	case p.w == nil:
	case p.piped && time.Since(p.last) >= pipeEvery:
		p.last = time.Now()
		fmt.Fprintf(p.w, "%s (%s in)\n", text, time.Since(p.started).Round(time.Second))
	case p.piped:
	case time.Since(p.started) < time.Second || time.Since(p.last) < 100*time.Millisecond:
	default:
		p.last, p.shown = time.Now(), true
		fmt.Fprintf(p.w, "\r\x1b[K%s", text)
	}
}

// done clears the progress line.
func (p *progress) done() {
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
