package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/fencelab/fencelab/engine"
)

// withTraceTTL is the configuration with a trace's lease TTL, which a
// replay needs to see the same events; it must suit the backend.
func (c config) withTraceTTL(t loadedTrace, ttlGiven bool) (config, error) {
	if ttlGiven {
		return c, usageError("a trace runs with its own lease TTL (%s); leave out --lease-ttl", time.Duration(t.trace.HoldTTL))
	}
	c.leaseTTL = time.Duration(t.trace.HoldTTL)
	// A trace runs with the guards its run removed, unless --without names
	// others: its schedule then runs on that code, and a replay's
	// differences are what the change makes.
	switch {
	case c.without == 0:
		c.without = t.trace.WithoutOf()
	case t.mode == engine.Unsafe:
		return c, usageError("--without removes guards from SAFE; the trace is UNSAFE, the naive code, which has none")
	}
	if err := c.check(); err != nil {
		return c, usageError("trace %s: %v", t.path, err)
	}
	if t.mode == engine.Unsafe && c.pgDSN != "" && !c.allowUnsafe {
		return c, usageError("the trace is UNSAFE, which writes naive code paths into --pg's server; pass --allow-unsafe to let it (nothing was written)")
	}
	return c, nil
}

// orNoGuard names a set of guards, or says it is empty.
func orNoGuard(s engine.GuardSet) string {
	if s == 0 {
		return "none"
	}
	return s.String()
}

// runReplay runs a trace's schedule headless, prints what `run` prints and
// compares every event and the result with what the trace recorded.
func runReplay(ctx context.Context, c config, path string, asJSON, ttlGiven bool, stdout, stderr io.Writer) (err error) {
	t, err := loadTrace(path)
	if err != nil {
		return err
	}
	if c, err = c.withTraceTTL(t, ttlGiven); err != nil {
		return err
	}
	b, err := startBackends(ctx, c, func(waiting string) { fmt.Fprintf(stderr, "fencelab: %s\n", waiting) })
	if err != nil {
		return err
	}
	defer func() { warnLeftovers(stderr, b.stop(), err) }()
	if !asJSON {
		fmt.Fprint(stdout, backendLines(b))
	} else if c.verbose {
		fmt.Fprint(stderr, backendLines(b))
	}

	lab, err := engine.NewLab(ctx, b.Backends, t.scenario, t.mode)
	if err != nil {
		return err
	}
	defer lab.Close(context.WithoutCancel(ctx))
	if err := lab.RunGuided(ctx); err != nil {
		return fmt.Errorf("replay %s: %w", path, err)
	}
	again, err := lab.Trace(ctx)
	if err != nil {
		return err
	}
	result, err := lab.Result(ctx)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(jsonResults([]engine.Result{result})); err != nil {
			return err
		}
	} else {
		printResultAs(stdout, result, c.lang.T("the trace recorded"), false, c.lang)
	}
	if recorded := t.trace.WithoutOf(); c.without != recorded && t.trace.Recorded() {
		fmt.Fprintf(stderr, "fencelab: %s\n", c.lang.T("the trace recorded SAFE with guards removed: %s; this replay removes %s, so the differences below are what that changes",
			orNoGuard(recorded), orNoGuard(c.without)))
	}
	if !t.trace.Recorded() {
		fmt.Fprintf(stderr, "fencelab: %s\n", c.lang.T("%s records no run to compare with (a schedule only)", path))
		return nil
	}
	diffs := t.trace.Differences(again)
	for _, d := range diffs {
		fmt.Fprintf(stderr, "fencelab: %s\n", c.lang.T("differs: %s", d))
	}
	if len(diffs) > 0 {
		return outcomeError("the replay differs from %s in %d place(s)", path, len(diffs))
	}
	return nil
}

// checkOutDir makes sure --out names a directory, creating it (and only
// it: its parent must exist) when it does not exist yet, and returns it as
// the system resolves it (a trace's path is then joined to that, not to
// the text given: "lnk/.." is not ".").
func checkOutDir(dir string) (string, error) {
	if dir == "" {
		return "", nil
	}
	info, err := os.Stat(dir)
	switch {
	case err == nil && info.IsDir():
	case err == nil:
		return "", usageError("--out %s: not a directory", dir)
	case os.IsNotExist(err):
		if err := os.Mkdir(dir, 0o755); err != nil {
			return "", usageError("--out %s: %v", dir, unwrapPathError(err))
		}
	default:
		return "", usageError("--out %s: %v", dir, unwrapPathError(err))
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", usageError("--out %s: %v", dir, unwrapPathError(err))
	}
	return real, nil
}
