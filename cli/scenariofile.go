package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
)

// scenarioArg is what a person gave where a scenario goes: an id of the
// catalog, or the path of a scenario file (fencelab-scenario/1).
func scenarioArg(arg string) (*engine.Scenario, error) {
	if s, ok := scenarios.ByID(arg); ok {
		return s, nil
	}
	if looksLikeFile(arg) {
		return loadScenarioFile(arg)
	}
	return nil, unknownScenario(arg)
}

func unknownScenario(arg string) error {
	if err := misspeltScenario(arg); err != nil {
		return err
	}
	return usageError("unknown scenario %q (one of: %s; or a scenario file, like my-story.toml)", arg, strings.Join(scenarios.IDs(), ", "))
}

// unknownCatalogID is an id scenario show does not know: it shows the
// catalog's only, so no file is suggested.
func unknownCatalogID(arg string) error {
	if err := misspeltScenario(arg); err != nil {
		return err
	}
	return usageError("unknown scenario %q: scenario show prints a catalog scenario (one of: %s)", arg, strings.Join(scenarios.IDs(), ", "))
}

// misspeltScenario says which catalog id arg is close to, if one is.
func misspeltScenario(arg string) error {
	if near := scenarios.Nearest(arg, scenarios.IDs()); near != "" {
		return usageError("unknown scenario %q (did you mean %s?)", arg, near)
	}
	return nil
}

// isScenarioArg: an id of the catalog or a file, where a command could be.
func isScenarioArg(arg string) bool {
	_, isID := scenarios.ByID(arg)
	return isID || looksLikeFile(arg)
}

// looksLikeFile: a path, not an id (ids have no slash and no dot), or a
// file that is there.
func looksLikeFile(arg string) bool {
	if strings.ContainsAny(arg, "/.") {
		return true
	}
	_, err := os.Lstat(arg)
	return err == nil
}

// loadScenarioFile reads a scenario file. Every mistake in it is one line,
// FILE:LINE: what, and exit 2.
func loadScenarioFile(path string) (*engine.Scenario, error) {
	s, err := scenarios.Load(path)
	var fe *scenarios.FileError
	switch {
	case err == nil:
		return s, nil
	case errors.As(err, &fe):
		return nil, &exitError{code: exitUsage, err: fe}
	case errors.Is(err, fs.ErrNotExist):
		return nil, usageError("scenario %s: no such file, and no such scenario in the catalog (fencelab list)", path)
	}
	return nil, usageError("scenario %s: %v", path, unwrapPathError(err))
}

// scenarioDir reads every scenario file (*.toml) of a directory, for the
// explorer's picker. A file that does not compile stops the start, with
// its line: a talk should not find out on stage.
func scenarioDir(dir string) ([]*engine.Scenario, error) {
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		return nil, usageError("--scenarios %s: not a directory", dir)
	}
	paths, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil {
		return nil, usageError("--scenarios %s: %v", dir, err)
	}
	if len(paths) == 0 {
		return nil, usageError("--scenarios %s: no scenario file (*.toml) in it", dir)
	}
	slices.Sort(paths)
	var out []*engine.Scenario
	for _, p := range paths {
		s, err := loadScenarioFile(p)
		if err != nil {
			return nil, err
		}
		if i := slices.IndexFunc(out, func(o *engine.Scenario) bool { return o.ID == s.ID }); i >= 0 {
			return nil, usageError("--scenarios %s: %s and %s both have id %q", dir, out[i].File, p, s.ID)
		}
		out = append(out, s)
	}
	return out, nil
}

// withScenarios is the catalog with more scenarios after it: files, each
// an entry of its own even when it has a catalog id (a file made with
// `scenario show` and changed) — the picker names its path. The same file
// given twice (--scenarios and the command line) is one entry.
func withScenarios(catalog []*engine.Scenario, more ...*engine.Scenario) []*engine.Scenario {
	for _, s := range more {
		if i := slices.IndexFunc(catalog, func(c *engine.Scenario) bool { return c.File != "" && sameFile(c.File, s.File) }); i >= 0 {
			catalog[i] = s
		} else {
			catalog = append(catalog, s)
		}
	}
	return catalog
}

// sameFile: two paths of one file.
func sameFile(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// runScenarioCommand is `fencelab scenario show|check|steps`.
func runScenarioCommand(ctx context.Context, c config, rest []string, stdout, stderr io.Writer) error {
	l := c.lang
	if len(rest) == 0 {
		return usageError("scenario needs show ID, check FILE… or steps (fencelab scenario --help)")
	}
	switch verb, args := rest[0], rest[1:]; verb {
	case "show":
		if len(args) != 1 {
			return usageError("scenario show takes one scenario id, got %d arguments", len(args))
		}
		s, ok := scenarios.ByID(args[0])
		if !ok {
			return unknownCatalogID(args[0])
		}
		_, err := stdout.Write(s.Source)
		return err
	case "check":
		if len(args) == 0 {
			return usageError("scenario check needs a scenario file")
		}
		// Every file read and its statements parsed before a line is
		// printed: a file that passes is said to pass only once it has.
		var files, withSQL []*engine.Scenario
		for _, path := range args {
			s, err := loadScenarioFile(path)
			if err != nil {
				return err
			}
			files = append(files, s)
			if s.Code != nil && s.Code.Schema != "" {
				withSQL = append(withSQL, s)
			}
		}
		if err := prepareFiles(ctx, c, withSQL, stderr); err != nil {
			return err
		}
		for i, s := range files {
			fmt.Fprint(stdout, l.T("%s: %s · actors: %d · guided entries: %d in SAFE, %d in UNSAFE · %s\n", args[i], s.ID,
				len(s.Actors(engine.Safe)), len(s.Guided(engine.Safe)), len(s.Guided(engine.Unsafe)), predicts(s, l)))
			for _, w := range s.Warnings {
				fmt.Fprintln(stderr, w.In(l))
			}
		}
		return nil
	case "steps":
		if len(args) > 0 {
			return usageError("scenario steps takes no arguments, got %q", args)
		}
		printVocabulary(stdout, l)
		return nil
	}
	return usageError("scenario %q: want show, check or steps", rest[0])
}

// predicts says which modes a scenario predicts.
func predicts(s *engine.Scenario, l lang.Lang) string {
	var modes []string
	for _, m := range []engine.Mode{engine.Safe, engine.Unsafe} {
		if p, ok := s.Predicted[m]; ok {
			modes = append(modes, fmt.Sprintf("%s %s", m, p.Verdict))
		}
	}
	if len(modes) == 0 {
		return l.T("no prediction: run and check report what happened")
	}
	return l.T("predicts %s", strings.Join(modes, ", "))
}

// printVocabulary lists every step a file can name, by actor kind.
func printVocabulary(w io.Writer, l lang.Lang) {
	kind := ""
	for _, d := range scenarios.Vocabulary() {
		if d.Kind != kind {
			kind = d.Kind
			fmt.Fprintf(w, "%s\n", l.T("kind = %q", kind))
		}
		name := d.Name
		if ps := d.Params(); len(ps) > 0 {
			name += " {" + strings.Join(ps, ", ") + "}"
		}
		fmt.Fprintf(w, "  %-44s %s\n", name, l.T(d.What))
	}
}

// prepareFiles sets up each file's schema on PostgreSQL (the ephemeral
// server, or --pg's), in a throwaway lab, and has the server parse every
// statement of its steps: what the Lua compiler found at the parse, the
// server finds for SQL — a typo, an unknown column — at its FILE:LINE,
// before anything runs.
func prepareFiles(ctx context.Context, c config, files []*engine.Scenario, stderr io.Writer) (err error) {
	if len(files) == 0 {
		return nil
	}
	b, err := startBackends(ctx, c, func(waiting string) { fmt.Fprintf(stderr, "fencelab: %s\n", waiting) })
	if err != nil {
		return err
	}
	defer func() { warnLeftovers(stderr, b.stop(), err) }()
	for _, s := range files {
		lab, err := engine.NewLab(ctx, b.Backends, s, engine.Safe)
		if err != nil {
			return err
		}
		lab.Close(ctx)
	}
	return nil
}
