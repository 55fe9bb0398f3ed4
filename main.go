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

	"github.com/fencelab/fencelab/scenarios"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := fencelab(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

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
`

// fencelab runs one command line and returns the exit code.
func fencelab(ctx context.Context, args []string, stdout, stderr io.Writer) int {
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
		return report(stderr, err)
	}

	rest := flags.Args()
	command := ""
	if len(rest) > 0 {
		command, rest = rest[0], rest[1:]
	}
	var err error
	switch command {
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
		err = runRace(ctx, c, n, free, stdout)
	case "":
		err = explore(ctx, c)
	default:
		err = usageError("unknown command %q (want list, run or race; fencelab --help)", command)
	}
	return report(stderr, err)
}

// report prints an error as one line and maps it to an exit code.
func report(stderr io.Writer, err error) int {
	if err == nil {
		return exitOK
	}
	var exit *exitError
	if errors.As(err, &exit) {
		if exit.err != nil {
			fmt.Fprintf(stderr, "fencelab: %s\n", firstLine(exit.err))
		}
		return exit.code
	}
	if errors.Is(err, context.Canceled) {
		fmt.Fprintln(stderr, "fencelab: interrupted")
		return 130
	}
	fmt.Fprintf(stderr, "fencelab: %s\n", firstLine(err))
	return exitUnreachable
}

func listCatalog(w io.Writer) {
	for _, s := range scenarios.All() {
		fmt.Fprintf(w, "%-22s %s\n%-22s %s\n", s.ID, s.Title, "", s.Story)
	}
}
