// Command versus measures two fencelab binaries from outside, alternated in
// one sitting, as a person runs them: whole processes, the explorer on a
// terminal of its own. `fencelab bench` measures one binary beside its
// floors from inside; versus is for a before and an after, when the
// before may be older than bench (or than any figure it reports).
//
//	go build -o /tmp/before . (at the old commit) && go build -o /tmp/after .
//	go run ./bench/versus [-rounds 3] /tmp/before /tmp/after
//
// Each binary gets a cache directory of its own, empty at the start, kept
// for all its rounds: what a run leaves behind weighs on its next ones, as
// on a user's machine. A round runs the before, then the after, then the
// after's `bench --json` for the floors of the same moment (left out when
// the after has no bench). It prints a Markdown table, a column a round.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/creack/pty"
)

// figures are one binary's in one round, by row name.
type figures map[string]float64

// rows, in the table's order: name, unit.
var rows = [][2]string{
	{"start", "ms"},
	{"explorer first frame", "ms"},
	{"explorer first step", "ms"},
	{"explorer step", "ms"},
	{"check lease-overrun", "states/s"},
	{"check stale-read", "states/s"},
	{"check cross-job-collision", "states/s"},
	{"check counter-loss", "states/s"},
	{"check --all --mode both", "s"},
	{"stress 1 worker", "commits/s"},
	{"stress 8 workers", "commits/s"},
	{"stress 32 workers", "commits/s"},
}

func main() {
	rounds := flag.Int("rounds", 3, "rounds, each binary in turn")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./bench/versus [-rounds N] BEFORE AFTER")
	}
	flag.Parse()
	if flag.NArg() != 2 || *rounds < 1 {
		flag.Usage()
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, flag.Arg(0), flag.Arg(1), *rounds); err != nil {
		fmt.Fprintln(os.Stderr, "versus:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, before, after string, rounds int) error {
	var bins [2]binary
	for i, path := range []string{before, after} {
		abs, err := exec.LookPath(path)
		if err == nil {
			abs, err = filepath.Abs(abs)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		cache, err := cacheDir()
		if err != nil {
			return err
		}
		defer os.RemoveAll(cache)
		bins[i] = binary{path: abs, cache: cache}
	}
	floorCache, err := cacheDir()
	if err != nil {
		return err
	}
	defer os.RemoveAll(floorCache)

	var got [2][]figures
	var floors []figures
	for r := 1; r <= rounds; r++ {
		for i := range bins {
			fmt.Fprintf(os.Stderr, "versus: round %d of %d, %s\n", r, rounds, bins[i].path)
			f, err := bins[i].measure(ctx)
			if err != nil {
				return fmt.Errorf("%s: %w", bins[i].path, err)
			}
			got[i] = append(got[i], f)
		}
		floors = append(floors, benchFloors(ctx, binary{path: bins[1].path, cache: floorCache}))
	}
	printTable(before, after, got, floors)
	return nil
}

// cacheDir is a new, empty FENCELAB_CACHE_DIR. Run as root, fencelab
// starts PostgreSQL as postgres, which must be able to enter it: MkdirTemp
// makes it 0700.
func cacheDir() (string, error) {
	dir, err := os.MkdirTemp("", "fencelab-versus-")
	if err == nil {
		err = os.Chmod(dir, 0o755)
	}
	return dir, err
}

type binary struct{ path, cache string }

// command is the binary with args, on its own cache directory; an
// interrupt is passed on to it as SIGINT, so it stops its servers.
func (b binary) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, b.path, args...)
	cmd.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+b.cache)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// output runs the binary and returns its standard output; a failure says
// the command and the last line it wrote.
func (b binary) output(ctx context.Context, args ...string) ([]byte, error) {
	var stderr bytes.Buffer
	cmd := b.command(ctx, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		return nil, fmt.Errorf("%s: %v: %s", strings.Join(args, " "), err, lines[len(lines)-1])
	}
	return out, nil
}

func (b binary) measure(ctx context.Context) (figures, error) {
	f := figures{}
	// start: a warm run of the whole process, the median of seven.
	if _, err := b.output(ctx, "run", "lease-overrun", "--lang", "en"); err != nil {
		return nil, err
	}
	var starts []float64
	for range 7 {
		began := time.Now()
		if _, err := b.output(ctx, "run", "lease-overrun", "--lang", "en"); err != nil {
			return nil, err
		}
		starts = append(starts, ms(time.Since(began)))
	}
	f["start"] = median(starts)

	var frames, firsts, steps []float64
	for range 5 {
		frame, first, st, err := b.explorer(ctx)
		if err != nil {
			return nil, err
		}
		frames, firsts, steps = append(frames, frame), append(firsts, first), append(steps, st...)
	}
	f["explorer first frame"], f["explorer first step"], f["explorer step"] = median(frames), median(firsts), median(steps)

	for _, id := range []string{"lease-overrun", "stale-read", "cross-job-collision", "counter-loss"} {
		var rates []float64
		for range 3 {
			out, err := b.output(ctx, "check", id, "--mode", "safe", "--json")
			if err != nil {
				return nil, err
			}
			var r struct{ States, Seconds float64 }
			if err := decodeOne(out, &r); err != nil || r.Seconds <= 0 {
				return nil, fmt.Errorf("check %s --json: %v", id, err)
			}
			rates = append(rates, r.States/r.Seconds)
		}
		f["check "+id] = median(rates)
	}

	began := time.Now()
	if _, err := b.output(ctx, "check", "--all", "--mode", "both"); err != nil {
		return nil, err
	}
	f["check --all --mode both"] = time.Since(began).Seconds()

	for _, workers := range []int{1, 8, 32} {
		var rates []float64
		for range 3 {
			out, err := b.output(ctx, "stress", "--workers", strconv.Itoa(workers), "--duration", "2s",
				"--mode", "safe", "--pause-every", "0", "--lease-ttl", "500ms", "--json")
			if err != nil {
				return nil, err
			}
			var r struct{ Accepted, Seconds float64 }
			if err := decodeOne(out, &r); err != nil || r.Seconds <= 0 {
				return nil, fmt.Errorf("stress --json: %v", err)
			}
			rates = append(rates, r.Accepted/r.Seconds)
		}
		name := fmt.Sprintf("stress %d workers", workers)
		if workers == 1 {
			name = "stress 1 worker"
		}
		f[name] = median(rates)
	}
	return f, nil
}

// decodeOne reads a JSON object, or the first of an array of them.
func decodeOne(out []byte, v any) error {
	var many []json.RawMessage
	if json.Unmarshal(out, &many) == nil {
		if len(many) == 0 {
			return errors.New("an empty list")
		}
		out = many[0]
	}
	return json.Unmarshal(out, v)
}

// guided is the explorer's count of the guided order's steps taken.
var guided = regexp.MustCompile(`guided (\d)/9`)

// explorer starts `lease-overrun` on a pseudo-terminal of 120×40 and times
// its first frame, its first step with n pressed at once, and the steps
// after it, key to frame. A binary that drops keys pressed before its lab
// is open (older ones did) is pressed again every 10 ms while its lab
// shows no step: the first step is when a person pressing as soon as they
// can would see it.
func (b binary) explorer(ctx context.Context) (frame, first float64, steps []float64, err error) {
	cmd := b.command(ctx, "lease-overrun", "--lang", "en")
	cmd.Env = append(cmd.Env, "TERM=xterm-256color", "LANG=C.UTF-8")
	began := time.Now()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		return 0, 0, nil, err
	}
	screen := &output{news: make(chan struct{}, 1)}
	go screen.read(tty)
	defer func() {
		tty.Write([]byte("q"))
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
		tty.Close()
	}()

	if !screen.until(ctx, time.Minute, func(out []byte) bool { return bytes.Contains(out, []byte("fencelab")) }) {
		return 0, 0, nil, errors.New("the explorer showed no frame within a minute")
	}
	frame = ms(time.Since(began))
	tty.Write([]byte("n"))
	for !screen.until(ctx, 10*time.Millisecond, func(out []byte) bool { return lastGuided(out) >= 1 }) {
		if time.Since(began) > time.Minute || ctx.Err() != nil {
			return 0, 0, nil, errors.New("the explorer took no step within a minute")
		}
		if lastGuided(screen.bytes()) == 0 {
			tty.Write([]byte("n"))
		}
	}
	first = ms(time.Since(began))
	time.Sleep(100 * time.Millisecond) // the extra presses land
	for k := lastGuided(screen.bytes()) + 1; k <= 9; k++ {
		from := len(screen.bytes())
		want := []byte(fmt.Sprintf("guided %d/9", k))
		pressed := time.Now()
		tty.Write([]byte("n"))
		if !screen.until(ctx, time.Minute, func(out []byte) bool { return bytes.Contains(out[from:], want) }) {
			return 0, 0, nil, fmt.Errorf("%s did not show within a minute", want)
		}
		steps = append(steps, ms(time.Since(pressed)))
	}
	return frame, first, steps, nil
}

func lastGuided(out []byte) int {
	m := guided.FindAllSubmatch(out, -1)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(string(m[len(m)-1][1]))
	return n
}

// output is what a program wrote to its terminal, and a signal on news for
// every read.
type output struct {
	mu   sync.Mutex
	out  []byte
	news chan struct{}
}

func (o *output) read(tty *os.File) {
	buf := make([]byte, 64*1024)
	for {
		n, err := tty.Read(buf)
		o.mu.Lock()
		o.out = append(o.out, buf[:n]...)
		o.mu.Unlock()
		select {
		case o.news <- struct{}{}:
		default:
		}
		if err != nil {
			return
		}
	}
}

func (o *output) bytes() []byte {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.out
}

// until waits at most d for ok to hold of the output so far.
func (o *output) until(ctx context.Context, d time.Duration, ok func([]byte) bool) bool {
	deadline := time.After(d)
	for {
		if ok(o.bytes()) {
			return true
		}
		select {
		case <-o.news:
		case <-deadline:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// benchFloors are the floors of the after's `bench --json`, by pair name,
// or none when it has no bench or it fails.
func benchFloors(ctx context.Context, b binary) figures {
	out, err := b.output(ctx, "bench", "--runs", "5", "--json")
	if err != nil {
		fmt.Fprintf(os.Stderr, "versus: no floors this round: %v\n", err)
		return nil
	}
	var pairs []struct {
		Name       string
		FloorValue float64
	}
	if json.Unmarshal(out, &pairs) != nil {
		return nil
	}
	f := figures{}
	for _, p := range pairs {
		// bench's check floors are one lab's restores, while a check here
		// is the command's, on as many labs as it takes: not its floor.
		if !strings.HasPrefix(p.Name, "check ") {
			f[p.Name] = p.FloorValue
		}
	}
	return f
}

func printTable(before, after string, got [2][]figures, floors []figures) {
	cell := func(fs []figures, name, unit string) string {
		var vs []string
		for _, f := range fs {
			v, ok := f[name]
			switch {
			case !ok:
				vs = append(vs, "–")
			case unit == "s" || unit == "ms":
				vs = append(vs, strconv.FormatFloat(v, 'f', 1, 64))
			default:
				vs = append(vs, strconv.FormatFloat(v, 'f', 0, 64))
			}
		}
		return strings.Join(vs, " · ")
	}
	fmt.Printf("| figure | before (%s) | after (%s) | floor (after's bench) |\n|---|---|---|---|\n",
		filepath.Base(before), filepath.Base(after))
	for _, r := range rows {
		fmt.Printf("| %s (%s) | %s | %s | %s |\n", r[0], r[1], cell(got[0], r[0], r[1]), cell(got[1], r[0], r[1]), cell(floors, r[0], r[1]))
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
