package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/untrusted"
)

// traceLimits bound what fencelab reads as a trace: the longest schedule
// of the catalog makes a few tens of kilobytes, and a trace nests four
// deep (the document, its schedule, an action).
var traceLimits = untrusted.Limits{MaxBytes: 8 << 20, MaxDepth: 16, Syntax: untrusted.JSON}

// loadedTrace is a trace file read and bound to its scenario.
type loadedTrace struct {
	path     string
	trace    engine.Trace
	scenario *engine.Scenario // its schedule as the guided order of its mode
	mode     engine.Mode
}

// loadTrace reads a trace file. Whatever is wrong with it — missing, not a
// regular file, malformed, truncated, of a newer format, naming a scenario
// or actor fencelab does not have — is a usage error in one line.
func loadTrace(path string) (loadedTrace, error) {
	data, err := untrusted.ReadFile(path, traceLimits)
	if err != nil {
		return loadedTrace{}, usageError("trace %s: %v", path, err)
	}
	t, err := engine.ParseTrace(data)
	if err != nil {
		return loadedTrace{}, usageError("trace %s: %v", path, err)
	}
	s, ok := scenarios.ByID(t.Scenario)
	if t.ScenarioFile != "" {
		// The trace carries its scenario's file: that, not the catalog's.
		name := path + " (its scenario file)"
		if s, err = scenarios.Parse(name, []byte(t.ScenarioFile)); err != nil {
			return loadedTrace{}, &exitError{code: exitUsage, err: err}
		}
		if s.ID != t.Scenario {
			return loadedTrace{}, usageError("trace %s: it names scenario %q but carries the file of %q", path, t.Scenario, s.ID)
		}
		s.File = name
	} else if !ok {
		return loadedTrace{}, usageError("trace %s: %v", path,
			&engine.TraceError{What: lang.P("unknown scenario %q (one of: %s)", t.Scenario, strings.Join(scenarios.IDs(), ", "))})
	}
	schedule, err := t.Bind(s)
	if err != nil {
		return loadedTrace{}, usageError("trace %s: %v", path, err)
	}
	var recorded *engine.TraceResult
	if t.Recorded() {
		recorded = &t.Result
	}
	mode := t.ModeOf()
	scenario := s.WithSchedule(mode, schedule, recorded)
	scenario.From, scenario.FromMode = path, mode
	return loadedTrace{path: path, trace: t, scenario: scenario, mode: mode}, nil
}

// without is the guards the trace's run removed from SAFE.
func (t loadedTrace) without() engine.GuardSet {
	g, _ := engine.ParseGuards(strings.Join(t.trace.Without, ","))
	return g
}

// fileError is a failure to write a file, said cause first and the path
// once, relative to the current directory when it is in it. It still
// wraps the system's error (a full disk is exit 1).
type fileError struct {
	path string
	err  error
}

func (e fileError) Error() string {
	path := e.path
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			path = rel
		}
	}
	return fmt.Sprintf("%v (%s)", unwrapPathError(e.err), path)
}

func (e fileError) Unwrap() error { return e.err }

// physical is a path given for a file to write, with its directory as the
// system resolves it. filepath.Dir and Join read the text: "lnk/../t.tape"
// is ./t.tape to them, beside lnk's target to the system, and a file
// written next to it (a tape's trace) or checked before it is written
// would be another file. A directory that does not exist stays as given:
// the caller says so.
func physical(path string) string {
	if path == "" || path == "-" {
		return path
	}
	dir, file := ".", path
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		dir, file = path[:i], path[i+1:]
		if dir == "" {
			dir = "/"
		}
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil || file == "" || file == "." || file == ".." {
		return path
	}
	return filepath.Join(real, file)
}

func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func encodeTrace(t engine.Trace) []byte {
	data, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		panic(fmt.Sprintf("a trace that does not encode: %v", err))
	}
	return append(data, '\n')
}

// checkTraceTarget says whether a trace may be written to path: its
// directory exists, and what is there already, if anything, is a fencelab
// trace (a file of the user's that is something else is never
// overwritten). Errors name the path as the user gave it: "-o X" (or its
// older name, --save-trace, which says the same).
func checkTraceTarget(path string) error { return checkTraceTargetAs("-o "+path, path) }

func checkTraceTargetAs(name, path string) error {
	return checkReplaceable(name, path, lang.P("a fencelab trace"), func(path string) bool {
		_, err := loadTrace(path)
		return err == nil
	})
}

// checkReplaceable says whether a file may be written to path: its
// directory exists, and what is there already, if anything, is a regular
// file that ours says fencelab wrote (kind names it for the error). A file
// of the user's is never overwritten.
func checkReplaceable(name, path string, kind lang.Phrase, ours func(path string) bool) error {
	dir := filepath.Dir(path)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return usageError("%s: no directory %s", name, dir)
	}
	info, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return usageError("%s: %v", name, unwrapPathError(err))
	case !info.Mode().IsRegular():
		return usageError("%s: exists and is not a regular file; not overwritten", name)
	case !ours(path):
		return usageError("%s: exists and is not %s; not overwritten", name, kind)
	}
	return nil
}

// saveTrace writes a trace to path through a new file in the same
// directory renamed over it, so a reader never sees half a trace and an
// interrupted write leaves the old one.
func saveTrace(path string, t engine.Trace) error { return saveTraceAs("-o "+path, path, t) }

// saveTraceAs is saveTrace with errors naming the path as name.
func saveTraceAs(name, path string, t engine.Trace) error {
	if err := checkTraceTargetAs(name, path); err != nil {
		return err
	}
	if err := replaceFile(path, ".fencelab-trace-*", encodeTrace(t)); err != nil {
		return fmt.Errorf("save trace %s: %w", path, err)
	}
	return nil
}

// replaceFile writes data through a new file in path's directory (named
// after pattern) renamed over path: a reader never sees half of it, and an
// interrupted write leaves what was there.
func replaceFile(path, pattern string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), pattern)
	var pathErr *fs.PathError
	if errors.As(err, &pathErr) {
		// The temporary name is fencelab's: the directory is the user's.
		return &fs.PathError{Op: "create a file in", Path: filepath.Dir(path), Err: pathErr.Err}
	}
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	return err
}

// saveNewTrace writes a trace as a new file in dir named base.trace.json
// (base-2.trace.json, … when taken): nothing in dir is replaced.
func saveNewTrace(dir, base string, t engine.Trace) (string, error) {
	return saveNew(dir, base, ".trace.json", encodeTrace(t))
}

// saveNew writes data as a new file in dir named base+ext (base-2+ext, …
// when taken); a name that is there already, or a symlink planted there,
// is never written through. An error says why first and the file once
// after ("no space left on device (fencelab-….trace.json)"): the
// explorer's status line may cut the end.
func saveNew(dir, base, ext string, data []byte) (string, error) {
	for i := 1; i < 1000; i++ {
		name := base + ext
		if i > 1 {
			name = fmt.Sprintf("%s-%d%s", base, i, ext)
		}
		path := filepath.Join(dir, name)
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscallNofollow, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", fileError{path, err}
		}
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(path)
			return "", fileError{path, err}
		}
		return path, nil
	}
	return "", fmt.Errorf("%s holds a thousand files named %s%s already", dir, base, ext)
}
