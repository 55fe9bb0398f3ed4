// Command fencelab is a keyboard-driven explorer of job safety in
// distributed systems: real workers against a real Redis and a real
// PostgreSQL, one step at a time, in SAFE and UNSAFE mode.
//
//	fencelab                      the explorer, on lease-overrun in SAFE mode
//	fencelab list                 the catalog
//	fencelab run ID|--all [--mode safe|unsafe|both] [--json]
//	fencelab race [--n 100] [--free K]
//
// main.go parses the command line; backends.go starts the stores and wires
// them into the engine; run.go is the headless run.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/pflag"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/redisstore"
)

func main() {
	// fencelab owns SIGINT, SIGTERM and SIGHUP: the first one cancels ctx,
	// and whatever runs stops its servers, deletes its keys and restores
	// the terminal on the way out; it then exits 128+signal. The explorer
	// turns Bubble Tea's own handler off, so only this one acts. A second
	// signal, should the teardown hang, ends the process at once (the kernel
	// then stops an ephemeral server, see pgcluster).
	ctx, cancel := context.WithCancelCause(context.Background())
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		sig := <-signals
		signal.Stop(signals)
		cancel(signalled{sig.(syscall.Signal)})
	}()
	// A closed pipe on stdout (fencelab … | head) is an error of a write,
	// not an instant death, so the run still cleans up; then fencelab ends
	// by SIGPIPE as other tools do.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	// go-redis logs through one logger per process; its lines would land in
	// the middle of the explorer's screen. fencelab reports failures itself.
	redisstore.DriverLog(io.Discard)

	code := fencelab(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if code == exitBrokenPipe {
		signal.Reset(syscall.SIGPIPE)
		syscall.Kill(os.Getpid(), syscall.SIGPIPE)
	}
	os.Exit(code)
}

// signalled is the cause of a context a signal cancelled.
type signalled struct{ sig syscall.Signal }

func (s signalled) Error() string { return "interrupted by " + s.sig.String() }

const usage = `fencelab — watch why a leader lease alone is not enough

usage:
  fencelab [flags]                        the explorer (lease-overrun, SAFE);
                                          ? inside it lists the keys
  fencelab list                           the scenario catalog
  fencelab run ID|--all [flags]           run the guided order headless
        --mode safe|unsafe|both           (default safe)
        --json                            one JSON object per scenario × mode
  fencelab race [--n 100] [--free K]      the second seed's forced interleaving on N
                                          key sets (Redis only), and K free-running pairs

flags:
  --redis redis://HOST:PORT/DB   a real Redis instead of the embedded one
  --pg DSN                       an existing PostgreSQL instead of an ephemeral cluster;
                                 only schema fencelab is touched
  --allow-unsafe                 let UNSAFE runs write to the --pg server
  --lease-ttl DURATION           lease TTL (default 30s embedded, 1.5s on a real Redis)
  -v, --verbose                  with --json, print the backends to stderr
  -h, --help                     this help

exit: 0 as expected · 1 a run ended otherwise than the catalog predicts, or
failed (its output could not be written, say) · 2 bad usage or configuration ·
3 a server could not be reached or stopped answering · 128+N ended by
signal N (130 Ctrl-C, 143 SIGTERM)
`

// fencelab runs one command line and returns the exit code.
func fencelab(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	code := command(ctx, args, out, stderr)
	switch {
	case errors.Is(out.err, syscall.EPIPE):
		return exitBrokenPipe // the reader went away: nobody to tell
	case out.err != nil && code == exitOK:
		fmt.Fprintf(stderr, "fencelab: output lost: %v\n", out.err)
		return exitUnexpected
	}
	return code
}

// checkedWriter keeps the first write error, so a command whose output was
// lost (a full disk, a reader that went away) does not end as if all went
// well.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// command runs one command line and returns the exit code.
func command(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	flags := pflag.NewFlagSet("fencelab", pflag.ContinueOnError)
	flags.SetOutput(io.Discard)
	var c config
	var (
		all        bool
		mode       string
		asJSON     bool
		helpWanted bool
		n, free    int
	)
	flags.StringVar(&c.redisURL, "redis", "", "use a real Redis `URL` (redis://HOST:PORT/DB) instead of the embedded one")
	flags.StringVar(&c.pgDSN, "pg", "", "use an existing PostgreSQL (`DSN`) instead of an ephemeral cluster; only schema fencelab is touched")
	flags.BoolVar(&c.allowUnsafe, "allow-unsafe", false, "let UNSAFE runs write to the server given with --pg")
	flags.DurationVar(&c.leaseTTL, "lease-ttl", 0, "lease TTL (default 30s on the embedded Redis, 1.5s on a real one)")
	flags.BoolVarP(&c.verbose, "verbose", "v", false, "say more about the backends")
	flags.BoolVar(&all, "all", false, "run: every scenario")
	flags.StringVar(&mode, "mode", "safe", "run: safe, unsafe or both")
	flags.BoolVar(&asJSON, "json", false, "run: print JSON")
	flags.IntVar(&n, "n", 100, "race: number of key sets for the forced interleaving")
	flags.IntVar(&free, "free", 0, "race: also run K pairs of truly concurrent requests")
	flags.BoolVarP(&helpWanted, "help", "h", false, "show this help")

	if err := flags.Parse(args); err != nil {
		fmt.Fprintf(stderr, "fencelab: %v (fencelab --help)\n", err)
		return exitUsage
	}
	if helpWanted {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if err := c.check(); err != nil {
		return report(ctx, stderr, err)
	}

	rest := flags.Args()
	name := ""
	if len(rest) > 0 {
		name, rest = rest[0], rest[1:]
	}
	var err error
	switch name {
	case "list":
		if len(rest) > 0 {
			err = usageError("list takes no arguments, got %q", rest)
			break
		}
		listCatalog(stdout)
	case "run":
		var req runRequest
		req, err = parseRunRequest(rest, all, mode, asJSON, c)
		if err == nil {
			err = runHeadless(ctx, c, req, stdout, stderr)
		}
	case "race":
		if len(rest) > 0 {
			err = usageError("race takes no arguments, got %q", rest)
			break
		}
		err = runRace(ctx, c, n, free, stdout, stderr)
	case "":
		err = explore(ctx, c)
	default:
		err = usageError("unknown command %q (want list, run or race; fencelab --help)", name)
	}
	return report(ctx, stderr, err)
}

// report prints an error as one line and returns its exit code.
func report(ctx context.Context, stderr io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	var exit *exitError
	if !errors.As(classify(ctx, err), &exit) {
		exit = &exitError{code: exitUnexpected, err: err}
	}
	if exit.err != nil {
		fmt.Fprintf(stderr, "fencelab: %s\n", engine.OneLine(exit.err))
	}
	return exit.code
}

func listCatalog(w io.Writer) {
	for _, s := range scenarios.All() {
		fmt.Fprintf(w, "%-22s %s\n%-22s %s\n", s.ID, s.Title, "", s.Story)
	}
}
