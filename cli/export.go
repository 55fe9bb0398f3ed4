package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/export"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/tui"
)

// exportFormats are the formats of `fencelab export --to`, in the order an
// error lists them.
var exportFormats = []string{"md", "mermaid", "cast", "tape", "gif", "svg"}

// exportSignature is in the first lines of every file export writes: a
// file that lacks it is the user's, and is never overwritten.
const exportSignature = export.Signature

// exportRequest is one `fencelab export` command line, checked.
type exportRequest struct {
	scenario *engine.Scenario
	mode     engine.Mode
	trace    *loadedTrace // the schedule's source; nil: the guided order
	format   string
	out      string // "" or "-": standard output
	width    int
	height   int
}

// parseExportRequest reads `export TRACE|ID --to FORMAT [--mode M] [-o FILE] [--size WxH]`.
func parseExportRequest(rest []string, format, mode string, modeGiven bool, out, size string) (exportRequest, error) {
	req := exportRequest{format: format, out: physical(out)}
	if len(rest) != 1 {
		return req, usageError("export takes one trace file or scenario id, got %d arguments (fencelab export --help)", len(rest))
	}
	switch {
	case format == "":
		return req, usageError("export needs --to, one of: %s", strings.Join(exportFormats, ", "))
	case !contains(exportFormats, format):
		return req, usageError("export --to %q: want one of %s", format, strings.Join(exportFormats, ", "))
	}
	if _, err := fmt.Sscanf(size, "%dx%d", &req.width, &req.height); err != nil || fmt.Sprintf("%dx%d", req.width, req.height) != size {
		return req, usageError("--size %q: want COLUMNSxROWS, like 100x30", size)
	}
	if req.width < 80 || req.height < 24 || req.width > 400 || req.height > 200 {
		return req, usageError("--size %s: the explorer draws from 80x24 to 400x200", size)
	}
	s, isID := scenarios.ByID(rest[0])
	if !isID && strings.HasSuffix(strings.ToLower(rest[0]), ".toml") {
		var err error
		if s, err = loadScenarioFile(rest[0]); err != nil {
			return req, err
		}
	}
	if s != nil {
		m, err := engine.ParseMode(mode)
		if err != nil {
			return req, usageError("--mode %q: export records one mode, safe or unsafe", mode)
		}
		req.scenario, req.mode = s, m
		return req, nil
	}
	if modeGiven {
		return req, usageError("a trace is exported in its own mode; leave out --mode")
	}
	if _, err := os.Lstat(rest[0]); errors.Is(err, fs.ErrNotExist) && !strings.ContainsAny(rest[0], "/.") {
		return req, usageError("export %q: no such scenario (one of: %s), no such scenario file (.toml) and no such trace file", rest[0], strings.Join(scenarios.IDs(), ", "))
	}
	t, err := loadTrace(rest[0])
	if err != nil {
		return req, err
	}
	req.trace, req.scenario, req.mode = &t, t.scenario, t.mode
	return req, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// runExport records the schedule on the backends and writes it in the
// format asked for.
func runExport(ctx context.Context, c config, req exportRequest, ttlGiven bool, stdout, stderr io.Writer) (err error) {
	if req.trace != nil {
		if c, err = c.withTraceTTL(*req.trace, ttlGiven); err != nil {
			return err
		}
	} else if req.mode == engine.Unsafe && c.pgDSN != "" && !c.allowUnsafe {
		return usageError("UNSAFE runs write naive code paths into --pg's server; pass --allow-unsafe to let them (nothing was written)")
	}
	toFile := req.out != "" && req.out != "-"
	if toFile {
		if err := checkExportTarget(req.out); err != nil {
			return err
		}
	}
	if req.format == "gif" && !toFile && isTerminal(stdout) {
		return usageError("export --to gif writes a picture, not text for a terminal: give -o FILE, or redirect standard output")
	}
	b, err := startBackends(ctx, c, func(waiting string) { fmt.Fprintf(stderr, "fencelab: %s\n", waiting) })
	if err != nil {
		return err
	}
	defer func() { warnLeftovers(stderr, b.stop(), err) }()

	lab, err := engine.NewLab(ctx, b.Backends, req.scenario, req.mode)
	if err != nil {
		return err
	}
	defer lab.Close(context.WithoutCancel(ctx))
	session, err := export.Record(ctx, lab)
	if err != nil {
		if at := guidedMistake(req.scenario, req.mode, lab, errors.Unwrap(err)); at != nil && req.trace == nil {
			return at
		}
		return fmt.Errorf("export: %w", err)
	}
	if req.trace != nil {
		session.TracePath = req.trace.path
	}

	var doc bytes.Buffer
	if err := render(ctx, &doc, req.format, req.out, session, req.width, req.height, func() (string, string, error) {
		return tapeFiles(session, req, stderr)
	}); err != nil {
		return err
	}
	if !toFile {
		_, err = stdout.Write(doc.Bytes())
		return err
	}
	if err := writeExport(req.out, doc.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "fencelab: %s\n", c.lang.T("%s written: %s", req.format, req.out))
	return nil
}

// render writes a session in a format. A tape plays a trace file:
// tapeFiles says which (writing it if need be) and where the GIF goes.
func render(ctx context.Context, w io.Writer, format, tape string, session export.Session, width, height int, tapeFiles func() (trace, gif string, err error)) error {
	switch format {
	case "md":
		return export.Markdown(w, session)
	case "mermaid":
		return export.Mermaid(w, session)
	case "cast", "gif", "svg":
		frame := func(k int) (string, error) {
			if err := ctx.Err(); err != nil {
				return "", err // a signal: no more frames, no file
			}
			status := session.Lang.T("the starting state")
			if k > 0 {
				status = fmt.Sprintf("%d/%d: %s", k, len(session.Steps)-1, session.Steps[k].Action.Words().In(session.Lang))
			}
			return tui.Frame(session.Steps[k].Snapshot, status, width, height, true, session.Lang), nil
		}
		switch format {
		case "gif":
			return export.GIF(w, session, width, height, frame)
		case "svg":
			return export.SVG(w, session, width, height, frame)
		}
		return export.Cast(w, session, width, height, frame)
	case "tape":
		trace, gif, err := tapeFiles()
		if err != nil {
			return err
		}
		name := "THIS.tape"
		if tape != "" {
			name = filepath.Base(tape)
		}
		return export.Tape(w, session, export.TapeOptions{Name: name, Trace: trace, Output: gif, Width: width, Height: height})
	}
	return fmt.Errorf("export: no format %q", format)
}

// tapeFiles are the trace a tape of `fencelab export` plays — the trace
// exported, or the guided order's written beside the tape — and its GIF.
func tapeFiles(session export.Session, req exportRequest, stderr io.Writer) (trace, gif string, err error) {
	base := fmt.Sprintf("fencelab-%s-%s", req.scenario.ID, strings.ToLower(req.mode.String()))
	dir := "."
	if req.out != "" && req.out != "-" {
		dir = filepath.Dir(req.out)
		base = strings.TrimSuffix(filepath.Base(req.out), ".tape")
	}
	trace = session.TracePath
	if trace == "" {
		// Replaces an earlier export's trace, never a file of the user's.
		trace = filepath.Join(dir, base+".trace.json")
		if err := saveTraceAs("the tape's trace "+trace, trace, session.Trace); err != nil {
			return "", "", err
		}
		fmt.Fprintf(stderr, "fencelab: %s\n", session.Lang.T("the tape plays %s, written beside it", trace))
	}
	// Both named from the tape's directory, where vhs runs it.
	if rel, err := filepath.Rel(dir, trace); err == nil && !strings.HasPrefix(rel, "..") {
		trace = rel
	} else if abs, err := filepath.Abs(trace); err == nil {
		trace = abs
	}
	return trace, base + ".gif", nil
}

// exportFromExplorer writes the explorer's session in a format as a new
// file in the current directory — a tape with the trace it plays — and
// says where.
func exportFromExplorer(format string, session export.Session) (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	base := fmt.Sprintf("fencelab-%s-%s", session.Scenario.ID, strings.ToLower(session.Mode.String()))
	var doc bytes.Buffer
	var trace string
	err = render(context.Background(), &doc, format, base+".tape", session, 100, 30, func() (string, string, error) {
		path, err := saveNewTrace(dir, base, session.Trace)
		trace = path
		return filepath.Base(path), strings.TrimSuffix(filepath.Base(path), ".trace.json") + ".gif", err
	})
	if err != nil {
		return "", err
	}
	ext := map[string]string{"md": ".md", "mermaid": ".mmd", "cast": ".cast", "tape": ".tape", "gif": ".gif", "svg": ".svg"}[format]
	path, err := saveNew(dir, base, ext, doc.Bytes())
	if err != nil {
		return "", err
	}
	if trace != "" {
		return filepath.Base(path) + " (plays " + filepath.Base(trace) + ")", nil
	}
	return filepath.Base(path), nil
}

// checkExportTarget says whether export may write path: its directory
// exists, and what is there already, if anything, is a file export wrote.
func checkExportTarget(path string) error {
	return checkReplaceable("-o "+path, path, lang.P("a file fencelab exported"), func(path string) bool {
		f, err := os.OpenFile(path, os.O_RDONLY|syscallNonblock|syscallNofollow, 0)
		if err != nil {
			return false
		}
		defer f.Close()
		head := make([]byte, 512)
		n, _ := io.ReadFull(f, head)
		if bytes.Contains(head[:n], []byte(exportSignature)) {
			return true
		}
		// A GIF says it in a comment just before its end.
		if !bytes.HasPrefix(head[:n], []byte("GIF89a")) {
			return false
		}
		info, err := f.Stat()
		if err != nil || info.Size() < 512 {
			return false
		}
		tail := make([]byte, 512)
		n, _ = f.ReadAt(tail, info.Size()-512)
		return bytes.Contains(tail[:n], []byte(exportSignature))
	})
}

// writeExport writes a document over path, whole or not at all.
func writeExport(path string, data []byte) error {
	if err := replaceFile(path, ".fencelab-export-*", data); err != nil {
		return fmt.Errorf("export %s: %w", path, err)
	}
	return nil
}
