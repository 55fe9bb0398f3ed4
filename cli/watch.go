package cli

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/tui"
	"github.com/fencelab/fencelab/untrusted"
)

// settle is how long a file must stay unchanged after a change before it
// is read: an editor's save is often several writes (or a write to a new
// file and a rename), and the first of them can be half a file.
const settle = 80 * time.Millisecond

// rearmEvery is how often a watched directory that went away is looked
// for again.
const rearmEvery = 250 * time.Millisecond

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
	dirs := []string{filepath.Dir(abs)}
	if d := filepath.Dir(names[len(names)-1]); d != dirs[0] {
		dirs = append(dirs, d)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		// timer: a change waits to settle. rearm: a watched directory went
		// away (removed, renamed, replaced by a checkout or a sync tool):
		// inotify watched the directory, not its path, so fencelab looks
		// for the path again on each tick until a directory is there, and
		// watches that one.
		var timer, rearm <-chan time.Time
		gone := map[string]bool{}
		for {
			select {
			case <-ctx.Done():
				return
			case e, ok := <-w.Events:
				if !ok {
					return
				}
				name := filepath.Clean(e.Name)
				if slices.Contains(dirs, name) && e.Op&(fsnotify.Remove|fsnotify.Rename) != 0 {
					w.Remove(name) // a renamed directory would still be watched where it went
					gone[name] = true
					rearm = time.After(rearmEvery)
					timer = time.After(settle) // say it is gone
				}
				if slices.Contains(names, name) && e.Op&(fsnotify.Write|fsnotify.Create|fsnotify.Rename|fsnotify.Remove) != 0 {
					timer = time.After(settle)
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
			case <-rearm:
				rearm = nil
				for dir := range gone {
					if w.Add(dir) == nil {
						delete(gone, dir)
						timer = time.After(settle) // what is there now: the file again, or not yet
					}
				}
				if len(gone) > 0 {
					rearm = time.After(rearmEvery)
				}
			case <-timer:
				timer = nil
				reload(loadWatched(path, abs))
			}
		}
	}()
	return func() {
		w.Close()
		<-done
	}, nil
}

// loadWatched is the watched file's version now: the new scenario, the
// mistake that keeps it from compiling, or that it (or its directory) is
// gone — said until it is back, while the last good version runs on.
// abs is the path made absolute when the watch began: a relative path
// names nothing once the working directory itself was replaced.
func loadWatched(path, abs string) tui.ReloadMsg {
	at := path
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		at = abs
	}
	if _, err := os.Stat(at); errors.Is(err, fs.ErrNotExist) {
		if _, err := os.Stat(filepath.Dir(abs)); errors.Is(err, fs.ErrNotExist) {
			return tui.ReloadMsg{File: path, Err: lang.Error("%s is gone with its directory %s: watched until it is back", untrusted.Line(path), untrusted.Line(filepath.Dir(path)))}
		}
		return tui.ReloadMsg{File: path, Err: lang.Error("%s is gone (removed or renamed): watched until it is back", untrusted.Line(path))}
	}
	s, err := scenarios.Load(at)
	if err != nil {
		return tui.ReloadMsg{File: path, Err: err}
	}
	s.File = path
	return tui.ReloadMsg{File: path, Scenario: s}
}
