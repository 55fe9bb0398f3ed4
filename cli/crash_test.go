package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/store/storetest"
)

// panicky panics where it is told to: in Update on the key "u", in View
// once it saw "v", in a command on "c", in a command batched or sequenced
// with others on "b" and "s".
type panicky struct{ viewPanics bool }

func (p panicky) Init() tea.Cmd { return nil }

func (p panicky) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	boom := func() tea.Msg { var s []int; return s[3] }
	key, ok := msg.(tea.KeyMsg)
	if !ok {
		return p, nil
	}
	switch key.String() {
	case "u":
		var m map[string]int
		m["x"]++ // a write to a nil map
	case "v":
		p.viewPanics = true
	case "c":
		return p, boom
	case "b":
		return p, tea.Batch(func() tea.Msg { return nil }, boom)
	case "s":
		return p, tea.Sequence(func() tea.Msg { return nil }, tea.Batch(boom))
	}
	return p, nil
}

func (p panicky) View() string {
	if p.viewPanics {
		panic("the view broke")
	}
	return "fine"
}

// Each way the explorer's model can panic ends the program (it does not
// run on, nor hang) with the panic kept, and the report is exit 70 with
// its first line, fencelab's frame and a crash log that holds the stack.
func TestAPanicAnywhereInTheExplorerIsACrash(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	for _, key := range []string{"u", "v", "c", "b", "s"} {
		t.Run(key, func(t *testing.T) {
			kept := &crashes{}
			var program *tea.Program
			program = tea.NewProgram(catchCrashes{model: panicky{}, crashes: kept, quit: func() { program.Quit() }},
				tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
			done := make(chan error, 1)
			go func() { _, err := program.Run(); done <- err }()
			program.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(key)})
			select {
			case err := <-done:
				require.NoError(t, err, "the crash is ours to report, not Bubble Tea's")
			case <-time.After(10 * time.Second):
				program.Kill()
				t.Fatal("a panic left the program running")
			}
			k := kept.kept()
			require.NotNil(t, k, "the panic was not kept")
			exit := k.report()
			require.Equal(t, exitCrashed, exit.code)
			line := exit.said.In("en")
			require.Contains(t, line, "cli/crash_test.go:", "fencelab's frame below the panic")
			logPath := line[strings.Index(line, "the crash log is ")+len("the crash log is ") : strings.Index(line, " — please")]
			log, err := os.ReadFile(logPath)
			require.NoError(t, err)
			require.Contains(t, string(log), "panic(")
			require.Contains(t, string(log), "crash_test.go")
		})
	}
}

// The explorer end to end, with a bug put in (a patch of tui/history.go in
// a binary built aside with go build -overlay; the shipped code has no
// switch for it): the panic on h gives the terminal back and ends fencelab
// with exit 70, the panic's line, where it was, and the crash log's path —
// not exit 0 with a stack across the screen.
func TestAnExplorerThatPanicsExits70WithItsCrashLog(t *testing.T) {
	requireTmux(t)
	if testing.Short() {
		t.Skip("builds fencelab with a patched explorer")
	}
	clean := "\tback := msg.String() == \"left\" || msg.String() == \"h\"\n"
	dir := cacheDir(t)
	bin := buildPatched(t, dir, "../tui/history.go", clean, clean+"\tif back {\n\t\tvar none []int\n\t\t_ = none[3]\n\t}\n")

	s := tmuxSession{t: t, socket: "fencelab-crash-" + filepath.Base(dir)}
	exitFile := filepath.Join(dir, "exit")
	script := "TMPDIR=" + dir + " FENCELAB_CACHE_DIR=" + dir + " " + bin + "; echo $? > " + exitFile + "; sleep 60"
	s.tmux("new-session", "-d", "-s", "lab", "-x", "120", "-y", "40", script)
	defer killTmux(s.socket)
	s.waitScreen("lease-overrun in SAFE mode")
	s.key("n")
	s.waitScreen("guided 1/9")
	s.key("h")
	screen := s.waitScreen("fencelab crashed (a bug of its own): runtime error: index out of range [3] with length 0, in tui/history.go:", "the crash log is "+dir)
	require.NotContains(t, screen, "goroutine ", "no stack across the screen")
	code := waitExitFile(t, exitFile)
	require.Equal(t, "70", code)
	logs, err := filepath.Glob(filepath.Join(dir, "fencelab-crash-*.log"))
	require.NoError(t, err)
	require.Len(t, logs, 1)
	log, err := os.ReadFile(logs[0])
	require.NoError(t, err)
	require.Contains(t, string(log), "tui.(*history).Update")
}

// buildPatched builds fencelab into dir with old replaced by new in file
// (relative to cli/), by go build -overlay: the shipped code has no
// switch for a bug a test needs.
func buildPatched(t *testing.T, dir, file, old, new string) string {
	t.Helper()
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	require.Contains(t, string(src), old)
	patched := filepath.Join(dir, filepath.Base(file))
	require.NoError(t, os.WriteFile(patched, []byte(strings.Replace(string(src), old, new, 1)), 0o644))
	here, err := filepath.Abs(file)
	require.NoError(t, err)
	overlay, err := json.Marshal(map[string]map[string]string{"Replace": {here: patched}})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644))
	bin := filepath.Join(dir, "fencelab")
	out, err := exec.Command("go", "build", "-overlay", filepath.Join(dir, "overlay.json"), "-o", bin, "..").CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// A panic in a goroutine a check started (one opening a lab's
// connection, here, with a bug put in) is a crash like any other: exit 70,
// one line with where it was and the crash log, and the ephemeral server
// stopped — not Go's exit 2 with a stack, past every cleanup.
func TestAPanicInACheckGoroutineIsACrash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds fencelab with a patched engine")
	}
	dir := cacheDir(t)
	clean := "\t\t\tledgers[i], errs[i] = backends.Database.Connect(ctx, name)\n"
	bin := buildPatched(t, dir, "../engine/lab.go", clean, "\t\t\tif name == \"B\" {\n\t\t\t\tvar none []int\n\t\t\t\t_ = none[3]\n\t\t\t}\n"+clean)

	cmd := exec.Command(bin, "check", "lease-overrun")
	cmd.Env = append(os.Environ(), "TMPDIR="+dir, "FENCELAB_CACHE_DIR="+dir)
	var stdout, stderr lockedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "stderr: %s", stderr.String())
	require.Equal(t, exitCrashed, exit.ExitCode(), "stderr: %s", stderr.String())
	requireOneLine(t, stderr.String(), "fencelab crashed (a bug of its own): runtime error: index out of range [3] with length 0, in engine/lab.go:")
	require.Contains(t, stderr.String(), "the crash log is "+dir)
	logs, err := filepath.Glob(filepath.Join(dir, "fencelab-crash-*.log"))
	require.NoError(t, err)
	require.Len(t, logs, 1)
	log, err := os.ReadFile(logs[0])
	require.NoError(t, err)
	require.Contains(t, string(log), "engine.NewLab.func")
	require.Empty(t, storetest.Postmasters(dir), "the ephemeral server is stopped")
}

// A matrix interrupted once it has found counterexamples says where they
// are (they are as good as those of a whole run), and exits 130.
func TestAnInterruptedMatrixNamesTheCounterexamplesFoundSoFar(t *testing.T) {
	tmp := cacheDir(t)
	matrix := exec.Command(binary(t), "matrix", "lease-overrun", "stale-release")
	matrix.Env = append(os.Environ(), "TMPDIR="+tmp, "FENCELAB_CACHE_DIR="+cacheDir(t))
	var stderr lockedBuffer
	matrix.Stderr = &stderr
	require.NoError(t, matrix.Start())
	deadline := time.Now().Add(60 * time.Second)
	var found []string
	for len(found) == 0 {
		require.True(t, time.Now().Before(deadline), "matrix wrote no counterexample: %s", stderr.String())
		time.Sleep(20 * time.Millisecond)
		found, _ = filepath.Glob(filepath.Join(tmp, "fencelab-matrix-*", "*.trace.json"))
	}
	require.NoError(t, matrix.Process.Signal(os.Interrupt))
	err := matrix.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	require.Equal(t, 130, exit.ExitCode(), stderr.String())
	dir := filepath.Dir(found[0])
	require.Contains(t, stderr.String(), "found before the stop ", stderr.String())
	require.Contains(t, stderr.String(), dir)
	written, _ := filepath.Glob(filepath.Join(dir, "*.trace.json"))
	if len(written) > 1 {
		require.Contains(t, stderr.String(), fmt.Sprintf("the %d counterexamples", len(written)))
	}
}

// A matrix interrupted before it wrote anything leaves no --out directory
// it made itself: an empty directory named by no line would be litter.
func TestAMatrixInterruptedEarlyLeavesNoEmptyOutDirectory(t *testing.T) {
	out := filepath.Join(t.TempDir(), "traces")
	matrix := exec.Command(binary(t), "matrix", "lease-overrun", "stale-release", "--out", out)
	matrix.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+cacheDir(t))
	var stderr lockedBuffer
	matrix.Stderr = &stderr
	require.NoError(t, matrix.Start())
	deadline := time.Now().Add(30 * time.Second)
	for {
		require.True(t, time.Now().Before(deadline), "matrix made no --out directory: %s", stderr.String())
		if _, err := os.Stat(out); err == nil {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	require.NoError(t, matrix.Process.Signal(os.Interrupt))
	err := matrix.Wait()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	require.Equal(t, 130, exit.ExitCode(), stderr.String())
	if written, _ := filepath.Glob(filepath.Join(out, "*.trace.json")); len(written) > 0 {
		require.Contains(t, stderr.String(), "found before the stop", "it wrote some: it says where")
		return
	}
	_, err = os.Stat(out)
	require.ErrorIs(t, err, fs.ErrNotExist, "an empty directory the matrix made is removed: %s", stderr.String())
}

// A lab's backends that could not be started (a database the server would
// not create, the context ended) are stopped, not kept in the pool: the
// next take started them again, where it used to hand out backends with
// no database, and the lab opened on them panicked.
func TestBackendsThatCouldNotStartAreNotHandedOut(t *testing.T) {
	t.Setenv("FENCELAB_CACHE_DIR", cacheDir(t))
	ctx := context.Background()
	c := config{lang: lang.En}
	b, err := startBackends(ctx, c, nil)
	require.NoError(t, err)
	defer b.stop()
	pool := newLabPool(b, c)
	defer pool.stop()

	gone, cancel := context.WithCancel(ctx)
	cancel()
	_, err = pool.take(gone, 2)
	require.Error(t, err)
	all, err := pool.take(ctx, 2)
	require.NoError(t, err)
	require.Len(t, all, 2)
	require.NotNil(t, all[1].Database, "the second lab's backends")
}
