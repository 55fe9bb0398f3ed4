//go:build unix

package stress

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// CanFreeze reports whether this platform freezes processes (SIGSTOP).
const CanFreeze = true

// Processes is a fleet of worker processes: each runs command (fencelab's
// hidden worker command), reads its WorkerSpec — the worker and join, how
// it reaches the backends — on its standard input and reports its records
// on its standard output. A pause is a real SIGSTOP … SIGCONT of the
// process, which freezes all of it, as a stop-the-world pause does: the
// run picks a worker (SIGUSR1), which stops itself with SIGSTOP right
// after it next takes the lease — so the pause lands where it matters,
// between the lease and the write — and the run continues it with SIGCONT
// after the pause. The processes end with the run: asked to, or killed
// when they do not; and if this process dies first, the kernel kills them
// (Linux), and each stops by itself when its standard input closes.
func Processes(command func() *exec.Cmd, join any) Fleet {
	return &processes{command: command, join: join}
}

// WorkerSpec is what a worker process is told on its standard input.
type WorkerSpec struct {
	Worker WorkerConfig    `json:"worker"`
	Join   json.RawMessage `json:"join"`
}

// The lines a parent sends a worker process after its spec.
const (
	goLine   = "go"
	stopLine = "stop"
	// armReadLine and disarmReadLine arm and disarm a worker's pause
	// after its next read outside a write's transaction.
	armReadLine    = "arm-read"
	disarmReadLine = "disarm-read"
)

// readyKind is the line a worker process writes once it is connected.
const readyKind Kind = "ready"

type processes struct {
	command func() *exec.Cmd
	join    any

	mu      sync.Mutex
	workers []*process
	stopped bool
	// readFreezes counts the freezes after an acquire armRead heard of.
	readFreezes int
	wg          sync.WaitGroup
	first       error
}

// process is one worker process. Its pid is signalled only while it has
// not been waited for, through os.Process (a pidfd where Linux has them),
// so no other process can be hit.
type process struct {
	id     int
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr bytes.Buffer
	exited bool // waited for: never signalled again
	armed  bool // told to stop itself at its next lease, or stopped: until thawed
	// armedRead: the same, at its next read outside a write's transaction.
	armedRead bool
	// freezes counts its freezes after an acquire, so a thaw meant for an
	// earlier one (woken early) never ends a later one; frozen: one is
	// under way.
	freezes int
	frozen  bool
	failed  bool // it reported a failure
}

// startWithin bounds a worker process's start: connected and ready.
const startWithin = 20 * time.Second

func (p *processes) start(ctx context.Context, workers []WorkerConfig, _ Backends, _ fleetHooks, records chan<- Record) error {
	join, err := json.Marshal(p.join)
	if err != nil {
		return err
	}
	ready := make(chan error, len(workers))
	for _, cfg := range workers {
		spec, err := json.Marshal(WorkerSpec{Worker: cfg, Join: join})
		if err != nil {
			return err
		}
		w := &process{id: cfg.ID, cmd: p.command()}
		w.cmd.SysProcAttr = workerAttributes()
		w.cmd.Stderr = &limitedWriter{w: &w.stderr, n: 16 << 10}
		stdout, err := w.cmd.StdoutPipe()
		if err != nil {
			return err
		}
		if w.stdin, err = w.cmd.StdinPipe(); err != nil {
			return err
		}
		p.mu.Lock()
		if err := w.cmd.Start(); err != nil {
			p.mu.Unlock()
			return fmt.Errorf("stress: start %s's process: %w", Owner(cfg.ID), err)
		}
		p.workers = append(p.workers, w)
		p.mu.Unlock()
		if _, err := w.stdin.Write(append(spec, '\n')); err != nil {
			return fmt.Errorf("stress: %s's process: %w", Owner(cfg.ID), err)
		}
		p.wg.Go(func() { p.serve(w, stdout, ready, records) })
	}
	timeout := time.NewTimer(startWithin)
	defer timeout.Stop()
	for range workers {
		select {
		case err := <-ready:
			if err != nil {
				return err
			}
		case <-timeout.C:
			return fmt.Errorf("stress: the worker processes were not ready within %s", startWithin)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	// Every worker starts at once, on the same word.
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.workers {
		if _, err := io.WriteString(w.stdin, goLine+"\n"); err != nil {
			return fmt.Errorf("stress: %s's process: %w", Owner(w.id), err)
		}
	}
	return nil
}

// serve reads a worker process's records until it ends, then waits for it.
func (p *processes) serve(w *process, stdout io.Reader, ready chan<- error, records chan<- Record) {
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 64<<10), 1<<20)
	told := false
	for lines.Scan() {
		r, err := decodeRecord(lines.Bytes())
		if err != nil {
			p.fail(err)
			break
		}
		if r.Kind == readyKind {
			told = true
			ready <- nil
			continue
		}
		if r.Kind == Failed {
			w.failed = true
		}
		records <- r
	}
	err := w.cmd.Wait()
	p.mu.Lock()
	w.exited = true
	p.mu.Unlock()
	if err != nil && !w.failed {
		why := lastLine(w.stderr.String())
		if why == "" {
			why = err.Error()
		}
		err = fmt.Errorf("stress: %s's process ended: %s", Owner(w.id), why)
		if !told {
			ready <- err
			told = true
		}
		records <- Record{Worker: w.id, Kind: Failed, Return: Now(), Err: err.Error()}
		p.fail(err)
	}
	if !told {
		ready <- fmt.Errorf("stress: %s's process ended before it was ready", Owner(w.id))
	}
}

func (p *processes) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.first == nil {
		p.first = err
	}
}

// stopWithin is how long a worker process has to finish its round once
// asked to stop (a few backend calls, each bounded) before it is killed.
const stopWithin = 15 * time.Second

// stop thaws every frozen worker and asks each to end after its round;
// those that do not end in time are killed.
func (p *processes) stop() {
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.stopped = true
	for _, w := range p.workers {
		if w.exited {
			continue
		}
		// One that stopped itself is continued; one about to is told not to.
		w.cmd.Process.Signal(syscall.SIGCONT)
		io.WriteString(w.stdin, stopLine+"\n")
		w.stdin.Close()
	}
	p.mu.Unlock()
	go func() {
		done := make(chan struct{})
		go func() { p.wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(stopWithin):
			p.kill()
		}
	}()
}

// kill ends every worker process that has not ended.
func (p *processes) kill() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.workers {
		if !w.exited {
			w.cmd.Process.Kill()
		}
	}
}

func (p *processes) wait() error {
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.first
}

func (p *processes) processes() bool { return true }

// arm picks a worker process at random and tells it (SIGUSR1) to stop
// itself after it next takes the lease — unless one is armed or frozen
// already: one at a time, so the others go on and overtake it.
func (p *processes) arm() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.stopped {
		p.armOne(func(w *process) *bool { return &w.armed }, syscall.SIGUSR1)
	}
}

// armRead tells every other worker process (on its standard input) to
// stop itself after its next read outside a write's transaction, now that
// worker froze after its acquire — every other time (see Fleet): the one
// that takes the lease after the frozen one's runs out reads first, and
// the others are disarmed when it stops (a worker that reads under the row
// lock never stops there).
func (p *processes) armRead(worker int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.readFreezes++; p.readFreezes%2 == 0 || p.stopped {
		return
	}
	for _, w := range p.workers {
		if w.id != worker && !w.exited && !w.armedRead {
			if _, err := io.WriteString(w.stdin, armReadLine+"\n"); err == nil {
				w.armedRead = true
			}
		}
	}
}

// disarmReads disarms the pause after a read of every worker process but
// one, which took it; p.mu is held.
func (p *processes) disarmReads(but int) {
	for _, w := range p.workers {
		if w.id != but && w.armedRead && !w.exited {
			io.WriteString(w.stdin, disarmReadLine+"\n")
			w.armedRead = false
		}
	}
}

// armOne signals a worker at random to stop itself at one of its pauses,
// unless one is armed for it already; p.mu is held.
func (p *processes) armOne(flag func(*process) *bool, sig syscall.Signal) {
	var free []*process
	for _, w := range p.workers {
		if *flag(w) {
			return
		}
		if !w.exited {
			free = append(free, w)
		}
	}
	if len(free) == 0 {
		return
	}
	w := free[rand.N(len(free))]
	if w.cmd.Process.Signal(sig) == nil {
		*flag(w) = true
	}
}

// thaw continues a worker process that stopped itself, once the pause is
// over — or at once when the run is stopping. It waits for the stop to be
// seen first (where the platform shows it), so a SIGCONT never comes before
// the SIGSTOP it is meant to end.
func (p *processes) thaw(id int, d time.Duration, afterRead bool) {
	p.mu.Lock()
	if id < 0 || id >= len(p.workers) {
		p.mu.Unlock()
		return
	}
	w := p.workers[id]
	pid := w.cmd.Process.Pid
	if !afterRead {
		w.freezes++
		w.frozen = true
	} else {
		p.disarmReads(id)
	}
	freeze := w.freezes
	p.mu.Unlock()
	for range 2000 {
		if stopped, known := isStopped(pid); stopped || !known {
			break
		}
		time.Sleep(500 * time.Microsecond)
	}
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		p.mu.Lock()
		stopping := p.stopped
		p.mu.Unlock()
		if stopping {
			break
		}
		time.Sleep(min(time.Until(end), 10*time.Millisecond))
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if afterRead {
		if !w.exited {
			w.cmd.Process.Signal(syscall.SIGCONT)
		}
		w.armedRead = false
	} else if w.freezes == freeze && w.frozen {
		p.continueFrozen(w)
	}
}

// continueFrozen continues a worker process frozen after its acquire; p.mu
// is held.
func (p *processes) continueFrozen(w *process) {
	if !w.exited {
		w.cmd.Process.Signal(syscall.SIGCONT)
	}
	w.armed, w.frozen = false, false
}

// wake continues the worker process frozen after its acquire, if one is,
// now.
func (p *processes) wake() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.workers {
		if w.frozen {
			p.continueFrozen(w)
		}
	}
}

// ErrNotAWorker is a worker process started by something else than a
// stress run: nothing, or no spec, on its standard input.
var ErrNotAWorker = errors.New("not started by a stress run")

// ServeWorker is a worker process's side (fencelab's hidden worker
// command): it reads its spec from in, connects with connect, says it is
// ready, waits for the word to go, and runs, writing its records to out,
// until told to stop or until in closes (the run is gone).
func ServeWorker(ctx context.Context, in io.Reader, out io.Writer,
	connect func(ctx context.Context, spec WorkerSpec) (*Worker, func(), error)) error {
	lines := bufio.NewScanner(in)
	lines.Buffer(make([]byte, 64<<10), 1<<20)
	if !lines.Scan() {
		return fmt.Errorf("%w: nothing on standard input", ErrNotAWorker)
	}
	var spec WorkerSpec
	if err := json.Unmarshal(lines.Bytes(), &spec); err != nil || len(spec.Join) == 0 {
		return fmt.Errorf("%w: standard input holds no worker's spec", ErrNotAWorker)
	}
	worker, closeAll, err := connect(ctx, spec)
	if err != nil {
		return err
	}
	defer closeAll()
	if err := warm(ctx, worker.Ledger); err != nil {
		return err
	}
	var mu sync.Mutex
	report := func(r Record) {
		mu.Lock()
		defer mu.Unlock()
		out.Write(encodeRecord(r))
	}
	report(Record{Worker: spec.Worker.ID, Kind: readyKind, Return: Now()})
	if !lines.Scan() || lines.Text() != goLine {
		return nil // the run ended before it began
	}
	var armed, armedRead atomic.Bool
	arm := make(chan os.Signal, 1)
	signal.Notify(arm, syscall.SIGUSR1)
	defer signal.Stop(arm)
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-arm:
				armed.Store(true)
			case <-stop:
				return
			}
		}
	}()
	go func() {
		for lines.Scan() && lines.Text() != stopLine {
			switch lines.Text() {
			case armReadLine:
				armedRead.Store(true)
			case disarmReadLine:
				armedRead.Store(false)
			}
		}
		armed.Store(false)
		armedRead.Store(false)
		close(stop) // told to stop, or the run is gone
	}()
	worker.More = func() bool {
		select {
		case <-stop:
			return false
		default:
			return true
		}
	}
	// The pause: the whole process stops itself, at once, with the lease
	// in hand (or a read in hand); its run continues it.
	freeze := func(armed *atomic.Bool, afterRead bool) func(context.Context, func(Record)) {
		return func(_ context.Context, report func(Record)) {
			if !armed.CompareAndSwap(true, false) {
				return
			}
			start := Now()
			report(Record{Worker: spec.Worker.ID, Kind: Freezing, Return: start, AfterRead: afterRead})
			stopSelf()
			report(Record{Worker: spec.Worker.ID, Kind: Paused, Call: start, Return: Now()})
		}
	}
	worker.Pause, worker.PauseRead = freeze(&armed, false), freeze(&armedRead, true)
	return worker.Run(ctx, report)
}

// limitedWriter keeps the first n bytes written to it.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
