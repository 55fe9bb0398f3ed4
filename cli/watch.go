package cli

import (
	"context"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/tui"
)

// settle is how long a file must stay unchanged after a change before it
// is read: an editor's save is often several writes (or a write to a new
// file and a rename), and the first of them can be half a file.
const settle = 80 * time.Millisecond

// watchScenario calls reload with a scenario file's new version each time
// it is saved, or with the error that keeps it from compiling. It watches
// the file's directory, not the file: an editor that saves by writing a
// new file and renaming it over the old one would end a watch on the file
// itself.
func watchScenario(ctx context.Context, path string, reload func(tui.ReloadMsg)) (stop func(), err error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, usageError("--watch %s: %v", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		w.Close()
		return nil, usageError("--watch %s: %v", path, err)
	}
	if err := w.Add(filepath.Dir(abs)); err != nil {
		w.Close()
		return nil, usageError("--watch %s: %v", path, unwrapPathError(err))
	}
	// A symbolic link is saved through its target: its directory too.
	names := []string{abs}
	if target, err := filepath.EvalSymlinks(abs); err == nil && target != abs {
		names = append(names, target)
		if filepath.Dir(target) != filepath.Dir(abs) {
			if err := w.Add(filepath.Dir(target)); err != nil {
				w.Close()
				return nil, usageError("--watch %s: %v", path, unwrapPathError(err))
			}
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		var timer <-chan time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-w.Events:
				if !ok {
					return
				}
				if slices.Contains(names, filepath.Clean(e.Name)) && e.Op&(fsnotify.Write|fsnotify.Create|fsnotify.Rename) != 0 {
					timer = time.After(settle)
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			case <-timer:
				timer = nil
				s, err := scenarios.Load(path)
				if err != nil {
					reload(tui.ReloadMsg{File: path, Err: err})
					continue
				}
				s.File = path
				reload(tui.ReloadMsg{File: path, Scenario: s})
			}
		}
	}()
	return func() {
		w.Close()
		<-done
	}, nil
}
