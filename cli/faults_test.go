package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/storetest"
)

// A terminal that never answers (docker run -t without -i) must not stall
// a command: fencelab never asks the terminal anything. Bubble Tea's
// package init would write an OSC 11 background query and wait 5 s for
// the answer; the bytes on the terminal show whether it was asked.
func TestNoTerminalQueryOnATerminalThatNeverAnswers(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil {
		t.Skip("no script(1) to give fencelab a terminal")
	}
	bin := binary(t)
	for _, args := range []string{"version", "list", "help run"} {
		cmd := exec.Command(script, "-qec", bin+" "+args, "/dev/null")
		cmd.Stdin = strings.NewReader("") // the terminal's keyboard sends nothing
		out, err := cmd.Output()
		require.NoError(t, err, "fencelab %s: %s", args, out)
		require.NotContains(t, string(out), "\x1b]11;?", "fencelab %s asked the terminal its background", args)
		require.False(t, bytes.Contains(out, []byte("\x1b[6n")), "fencelab %s asked the terminal its cursor", args)
	}
}

// Local I/O is not a backend: output lost while written (a full disk) is
// exit 1, a path that cannot be used is exit 2; only a server that cannot
// be reached is 3. (syscall.Errno is a net.Error too, which once made a
// full disk "unreachable".)
func TestLocalFailuresAreNotUnreachable(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	for _, args := range [][]string{
		{"version"}, {"--help"}, {"list"}, {"guards"},
		{"export", "lease-overrun", "--to", "md"},
		{"run", "lease-overrun", "--mode", "safe", "--json", "--pg", storetest.NewDatabaseDSN(t, false)},
	} {
		var stderr bytes.Buffer
		code := fencelab(context.Background(), args, full, &stderr)
		require.Equal(t, 1, code, "fencelab %v on a full disk: %s", args, stderr.String())
		requireOneLine(t, stderr.String(), "no space left on device")
	}

	aFile := filepath.Join(t.TempDir(), "a-file")
	require.NoError(t, os.WriteFile(aFile, nil, 0o644))
	requireRefused(t, []refusal{
		{"-o in a missing directory", []string{"export", "lease-overrun", "--to", "md", "-o", filepath.Join(t.TempDir(), "no", "x.md")}, 2, "no directory"},
		{"-o under a file", []string{"export", "lease-overrun", "--to", "md", "-o", filepath.Join(aFile, "x.md")}, 2, "x.md"},
	})
	t.Setenv("FENCELAB_CACHE_DIR", filepath.Join(aFile, "cache"))
	code, _, stderr := call(t, "run", "lease-overrun", "--mode", "safe")
	require.Equal(t, 2, code, "an unusable cache directory: %s", stderr)
	requireOneLine(t, stderr, "not a directory")
}

// hostile is what a trace or talk script may carry to take over a
// terminal: a window title, a cleared screen, a colour.
const hostile = "\x1b]0;pwned\x07\x1b[2J\x1b[31mRED"

// requireInert requires bytes written for a terminal to carry none of
// hostile's sequences (fencelab's own colours aside): the title, the
// clear and the colour arrive as visible text, or not at all.
func requireInert(t *testing.T, what string, out []byte) {
	t.Helper()
	for _, seq := range []string{"\x1b]0;", "\x07", "\x1b[31mRED", "\x1b[2JRED", "\x1b[2J\x1b[31m"} {
		require.NotContains(t, string(out), seq, "%s wrote %q raw", what, seq)
	}
}

// requireNoControl walks a value read from a file and requires none of its
// strings to hold a control character other than a line break.
func requireNoControl(t *testing.T, what string, v reflect.Value) {
	t.Helper()
	switch v.Kind() {
	case reflect.String:
		for _, r := range v.String() {
			require.False(t, r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0, "%s: %q keeps %U", what, v.String(), r)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				requireNoControl(t, what+"."+v.Type().Field(i).Name, v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			requireNoControl(t, fmt.Sprintf("%s[%d]", what, i), v.Index(i))
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			requireNoControl(t, what, v.Elem())
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			requireNoControl(t, what+"["+fmt.Sprint(k)+"]", v.MapIndex(k))
		}
	}
}

// Every text a trace or a talk script gives is shown with its control
// characters visible: in replay's output, exports, the explorer and talk
// mode, and in an error naming the file.
func TestEscapeSequencesFromFilesAreShownNotActedOn(t *testing.T) {
	dir := t.TempDir()
	// Every text field of the trace gets the sequence.
	trace := editedTrace(t, dir, "unsafe", "hostile.trace.json", func(doc map[string]any) {
		for _, a := range doc["schedule"].([]any) {
			a := a.(map[string]any)
			a["caption"] = "caption " + hostile
			if a["action"] == "pause" {
				a["note"] = "note " + hostile
			}
		}
		for _, e := range doc["events"].([]any) {
			e := e.(map[string]any)
			e["detail"] = "detail " + hostile
			e["state"] = "state " + hostile
		}
		result := doc["result"].(map[string]any)
		result["verdict"] = "verdict " + hostile
		for _, b := range result["broken"].([]any) {
			b.(map[string]any)["detail"] = "broken " + hostile
		}
	})

	loaded, err := loadTrace(trace)
	require.NoError(t, err)
	requireNoControl(t, "trace", reflect.ValueOf(loaded.trace))
	requireNoControl(t, "scenario", reflect.ValueOf(loaded.scenario.Guided(loaded.mode)))
	require.Contains(t, loaded.trace.Schedule[0].Caption, "␛]0;pwned␇", "shown, not dropped")

	code, stdout, stderr := call(t, "replay", trace) // it differs: the recorded texts are not the run's
	require.Equal(t, 1, code, stderr)
	requireInert(t, "replay", []byte(stdout+stderr))
	require.Contains(t, stdout+stderr, "␛]0;pwned")

	for _, to := range []string{"cast", "md", "mermaid", "tape"} {
		out := filepath.Join(dir, "out."+to)
		code, _, stderr := call(t, "export", trace, "--to", to, "-o", out)
		require.Equal(t, 0, code, "export --to %s: %s", to, stderr)
		written, err := os.ReadFile(out)
		require.NoError(t, err)
		if to == "cast" { // the terminal's bytes are JSON strings there
			var frames strings.Builder
			for _, line := range strings.Split(string(written), "\n")[1:] {
				var event []any
				if json.Unmarshal([]byte(line), &event) == nil && len(event) == 3 {
					frames.WriteString(event[2].(string))
				}
			}
			written = []byte(frames.String())
			require.Contains(t, frames.String(), "␛]0;pwned", "the cast shows the caption")
		}
		requireInert(t, "export --to "+to, written)
	}

	// A path is a text from outside too: it would be printed back (the
	// explorer's hint, a tape's commands, "written: …"), so it is refused.
	named := filepath.Join(dir, "z"+hostile+".json")
	require.NoError(t, os.WriteFile(named, raw(t, trace), 0o644))
	for _, args := range [][]string{{"replay", named}, {"--trace", named}, {"export", "lease-overrun", "--to", "md", "-o", named}} {
		code, _, stderr = call(t, args...)
		require.Equal(t, 2, code, stderr)
		requireInert(t, fmt.Sprintf("%v", args), []byte(stderr))
		requireOneLine(t, stderr, "control characters in it is refused")
	}
	cache := os.Getenv("FENCELAB_CACHE_DIR")
	t.Setenv("FENCELAB_CACHE_DIR", filepath.Join(dir, hostile))
	code, _, stderr = call(t, "run", "lease-overrun")
	require.Equal(t, 2, code, stderr)
	requireInert(t, "a cache directory named so", []byte(stderr))
	os.Setenv("FENCELAB_CACHE_DIR", cache)

	script := filepath.Join(dir, "hostile.toml")
	toml := strings.ReplaceAll(hostile, "\x1b", `\u001b`)
	toml = strings.ReplaceAll(toml, "\x07", `\u0007`)
	require.NoError(t, os.WriteFile(script, []byte(`title = "title `+toml+`"

[[scene]]
scenario = "lease-overrun"
schedule = [{ action = "step", actor = "A" }, { action = "pause", actor = "A", note = "note `+toml+`" }]
caption = { en = "caption `+toml+`", ko = "자막 `+toml+`" }

[[scene.step]]
at = 1
caption = "step `+toml+`"
turn = "turn `+toml+`"
`), 0o644))
	for _, language := range []string{"en", "ko"} {
		talk, err := loadTalk(script, language)
		require.NoError(t, err)
		requireNoControl(t, "talk", reflect.ValueOf(talk))
		require.Contains(t, talk.Scenes[0].Caption, "␛]0;pwned␇")
	}

	if _, err := exec.LookPath("tmux"); err != nil {
		return
	}
	for _, args := range [][]string{{"--trace", trace}, {"talk", script}} {
		r := startExplorer(t, cacheDir(t), args...)
		r.waitScreen("␛]0;pwned␇␛[2J␛[31mRED")
		for range 3 {
			r.key("n")
		}
		r.waitScreen("␛]0;pwned")
		require.NotContains(t, r.tmux("display-message", "-p", "-t", "lab", "#{pane_title}"), "pwned", "fencelab %v set the window title", args)
		r.quit()
	}
}

// longTrace is a saved trace of lease-overrun with n clock advances after
// its schedule: an export of it makes a frame per action.
func longTrace(t *testing.T, dir string, n int) string {
	t.Helper()
	return editedTrace(t, dir, "unsafe", fmt.Sprintf("trace-%d.json", n), func(doc map[string]any) {
		for range n {
			doc["schedule"] = append(doc["schedule"].([]any), map[string]any{"action": "advance", "by": "1s"})
		}
	})
}

func raw(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

// editedTrace is a run of lease-overrun in mode saved as a trace, its JSON
// edited, written to dir/name.
func editedTrace(t *testing.T, dir, mode, name string, edit func(doc map[string]any)) string {
	t.Helper()
	saved := filepath.Join(dir, "saved-"+mode+".trace.json")
	if _, err := os.Stat(saved); err != nil {
		code, _, stderr := call(t, "run", "lease-overrun", "--mode", mode, "--save-trace", saved)
		require.Equal(t, 0, code, stderr)
	}
	var doc map[string]any
	raw, err := os.ReadFile(saved)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &doc))
	edit(doc)
	raw, err = json.Marshal(doc)
	require.NoError(t, err)
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, raw, 0o644))
	return path
}

// A signal ends an export at once, whatever it is doing (running the
// schedule, drawing frames): 143, and no file, not even half of one.
func TestExportEndsOnSIGTERM(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		actions int
		to      string
		after   time.Duration
	}{
		{4990, "cast", 500 * time.Millisecond}, // while the schedule runs (about 5,000 actions: a trace's most)
		{600, "gif", 5 * time.Second},          // while frames are drawn (about 40 ms each)
	} {
		trace := longTrace(t, dir, tc.actions)
		out := filepath.Join(dir, "long."+tc.to)
		cmd := exec.Command(binary(t), "export", trace, "--to", tc.to, "-o", out)
		cmd.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+cacheDir(t))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		require.NoError(t, cmd.Start())
		time.Sleep(tc.after)
		require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
		signalled := time.Now()
		err := cmd.Wait()
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "export --to %s ended 0 after SIGTERM: %s", tc.to, stderr.String())
		require.Equal(t, 143, exit.ExitCode(), stderr.String())
		require.Less(t, time.Since(signalled), 3*time.Second, "SIGTERM ended export --to %s only after %s", tc.to, time.Since(signalled))
		for _, pattern := range []string{"long.*", ".fencelab-*"} {
			left, err := filepath.Glob(filepath.Join(dir, pattern))
			require.NoError(t, err)
			require.Empty(t, left, "SIGTERM left a file")
		}
	}
}

// A hostile file is refused before it is decoded, in one line, exit 2,
// with the memory of any command: 10,000 nested tables once took 3.6 GB,
// an 8 MB nested array overflowed the stack.
func TestHostileFilesAreRefusedInBoundedMemory(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(body), 0o644))
		return path
	}
	deepTables := write("deep.toml", "x = "+strings.Repeat("{a=", 10000)+"1"+strings.Repeat("}", 10000)+"\n")
	dottedKey := write("dotted.toml", "a"+strings.Repeat(".a", 10000)+" = 1\n") // 1.45 GB once
	dottedHeader := write("header.toml", "["+strings.Repeat("a.", 10000)+"a]\n")
	bigArray := write("array.toml", "x = "+strings.Repeat("[", 4<<20)+strings.Repeat("]", 4<<20)+"\n")
	deepTrace := write("deep.trace.json", `{"format": "fencelab-trace/1", "schedule": `+strings.Repeat("[", 100000)+strings.Repeat("]", 100000)+"}")
	bigTrace := write("big.trace.json", `{"format": "fencelab-trace/1", "x": "`+strings.Repeat("x", 9<<20)+`"}`)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"talk", deepTables}, "line 1: nested more than 16 deep"},
		{[]string{"talk", dottedKey}, "line 1: nested more than 16 deep"},
		{[]string{"talk", dottedHeader}, "line 1: nested more than 16 deep"},
		{[]string{"talk", bigArray}, "larger than 1 MiB"},
		{[]string{"replay", deepTrace}, "line 1: nested more than 16 deep"},
		{[]string{"--trace", deepTrace}, "nested more than 16 deep"},
		{[]string{"export", deepTrace, "--to", "md"}, "nested more than 16 deep"},
		{[]string{"replay", bigTrace}, "larger than 8 MiB"},
	} {
		// In this process: what it allocates is what refusing costs (a
		// child's peak memory cannot be read apart from its parent's when
		// Go starts it).
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		code, _, stderr := call(t, tc.args...)
		runtime.ReadMemStats(&after)
		require.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		requireOneLine(t, stderr, tc.want)
		allocated := after.TotalAlloc - before.TotalAlloc
		require.Less(t, allocated, uint64(64<<20), "%v allocated %d MiB", tc.args, allocated>>20)
	}
}

// The explorer ends when its terminal goes away, also when no SIGHUP
// comes (a terminal that is not the process's controlling one, a
// multiplexer that only closes): end of file on the terminal is a hang-up,
// exit 129, with whatever it started stopped. Bubble Tea alone stops
// reading and runs on.
func TestExplorerEndsWhenItsTerminalGoesAway(t *testing.T) {
	master, tty, err := pty.Open()
	require.NoError(t, err)
	defer tty.Close()
	require.NoError(t, pty.Setsize(master, &pty.Winsize{Rows: 40, Cols: 120}))
	cmd := exec.Command(binary(t))
	cmd.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+cacheDir(t), "TERM=xterm-256color")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal: no SIGHUP
	require.NoError(t, cmd.Start())
	// Read up to the first frame, then stop reading: a read still pending
	// would keep the terminal open.
	screen := make(chan string, 1)
	go func() {
		var seen strings.Builder
		buf := make([]byte, 4096)
		for !strings.Contains(seen.String(), "Timeline") {
			n, err := master.Read(buf)
			seen.Write(buf[:n])
			if err != nil {
				return
			}
		}
		screen <- seen.String()
	}()
	select {
	case <-screen:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("the explorer drew no first frame")
	}
	tty.Close()
	require.NoError(t, master.Close())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit)
		require.Equal(t, 129, exit.ExitCode())
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("the explorer ran on after its terminal went away")
	}
}

// Every duration has a bound, and a duration past it is refused in one
// line naming the flag or the field: a trace's advance of 2562047h47m16s
// once made the lab clock negative, stress blamed a --pause nobody gave,
// and run waited.
func TestHugeDurationsAreRefused(t *testing.T) {
	dir := t.TempDir()
	edited := func(name string, edit func(doc map[string]any)) string {
		return editedTrace(t, dir, "safe", name, edit)
	}
	advances := func(by string, n int) func(map[string]any) {
		return func(doc map[string]any) {
			for range n {
				doc["schedule"] = append(doc["schedule"].([]any), map[string]any{"action": "advance", "by": by})
			}
		}
	}
	overflow := edited("overflow.json", advances("2562047h47m16s", 1))
	yearly := edited("years.json", advances("24h", 400))
	longLease := edited("lease.json", func(doc map[string]any) { doc["leaseTTL"] = "2562047h" })
	tooMany := edited("many.json", advances("1s", engine.MaxTraceActions)) // after the run's own
	requireRefused(t, []refusal{
		{"an advance past a day", []string{"replay", overflow}, 2, `schedule entry 10: advance by "2562047h47m16s": at most 24h0m0s at a time`},
		{"advances past a year", []string{"--trace", yearly}, 2, "would take the lab clock past 525600:00"},
		{"a trace's lease TTL", []string{"export", longLease, "--to", "md"}, 2, "leaseTTL must be positive and at most 24h0m0s"},
		{"more actions than a trace may have", []string{"export", tooMany, "--to", "cast"}, 2, "more than the 5000 a trace may have"},
		{"--lease-ttl", []string{"run", "lease-overrun", "--lease-ttl", "2562047h", "--redis", "redis://127.0.0.1:1/0"}, 2, "--lease-ttl must be at most 24h0m0s"},
		{"stress --lease-ttl", []string{"stress", "--lease-ttl", "2562047h"}, 2, "--lease-ttl must be at most"},
		{"stress's pause from --lease-ttl", []string{"stress", "--lease-ttl", "2m"}, 2, "--lease-ttl 2m0s: a stress pause is twice the lease TTL"},
		{"stress --duration", []string{"stress", "--duration", "2562047h"}, 2, "--duration must be between"},
		{"stress --pause-every", []string{"stress", "--pause-every", "2562047h"}, 2, "--pause-every must be between"},
		{"stress --pause", []string{"stress", "--pause", "2562047h"}, 2, "--pause must be between"},
	})
}

// A file the explorer cannot write is said cause first, the file once:
// the status line may cut the end, and it once cut the cause off and
// named the path twice.
func TestAFullDiskIsSaidCauseFirst(t *testing.T) {
	var err error = fileError{"/somewhere/else/t.trace.json", &fs.PathError{Op: "write", Path: "/somewhere/else/t.trace.json", Err: syscall.ENOSPC}}
	require.Equal(t, "no space left on device (/somewhere/else/t.trace.json)", err.Error())
	var exit *exitError
	require.ErrorAs(t, classify(context.Background(), err), &exit)
	require.Equal(t, 1, exit.code, "a full disk is output lost, not a server")

	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=4k"); err != nil {
		t.Skipf("no tmpfs to fill (%v)", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) }) // after t.Chdir takes the test out of it
	t.Chdir(dir)
	trace := engine.Trace{Format: engine.TraceFormat, Scenario: "lease-overrun", Mode: "safe",
		Schedule: []engine.TraceAction{{Action: "step", Actor: "A", Caption: strings.Repeat("x", 8000)}}}
	_, err = saveExplorerTrace(trace)
	require.EqualError(t, err, "no space left on device (fencelab-lease-overrun-safe.trace.json)")
	left, _ := os.ReadDir(dir)
	require.Empty(t, left, "no half-written file stays")
}

// A path through a symlink and .. is where the system says it is, for the
// file and for what is written beside it: `-o lnk/../t.tape` once wrote
// the tape beside lnk's target and its trace in the current directory.
func TestAnOutputPathThroughASymlinkIsOnePlace(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join("real", "sub"), filepath.Join(dir, "lnk")))
	t.Chdir(dir)
	code, _, stderr := call(t, "export", "lease-overrun", "--to", "tape", "-o", "lnk/../t.tape")
	require.Equal(t, 0, code, stderr)
	code, _, stderr = call(t, "run", "lease-overrun", "--mode", "safe", "--save-trace", "lnk/../s.trace.json")
	require.Equal(t, 0, code, stderr)
	code, _, stderr = call(t, "check", "lease-overrun", "--mode", "unsafe", "--out", "lnk/..")
	require.Equal(t, 0, code, stderr)
	here, err := os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, here, 2, "only lnk and real stay here: %v", here)
	for _, name := range []string{"t.tape", "t.trace.json", "s.trace.json"} {
		require.FileExists(t, filepath.Join(dir, "real", name))
	}
	traces, err := filepath.Glob(filepath.Join(dir, "real", "lease-overrun*.trace.json"))
	require.NoError(t, err)
	require.NotEmpty(t, traces, "check --out lnk/.. writes beside lnk's target")
}

// A trace or talk script that is not one — a symlink to a secret, given by
// mistake — is refused without a byte of it in the error.
func TestAFileGivenByMistakeIsNotQuoted(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "shadow")
	require.NoError(t, os.WriteFile(secret, []byte("root:$y$j9T$hunter2:19000:0:99999:7:::\npassword = hunter2\n"), 0o600))
	for _, tc := range []struct{ command, name string }{{"replay", "x.trace.json"}, {"talk", "x.toml"}, {"--trace", "y.trace.json"}} {
		link := filepath.Join(dir, tc.name)
		require.NoError(t, os.Symlink(secret, link))
		code, _, stderr := call(t, tc.command, link)
		require.Equal(t, 2, code, stderr)
		for _, piece := range []string{"'r'", "':'", "hunter2", "$y$", "root"} {
			require.NotContains(t, stderr, piece, "%s quotes the file", tc.command)
		}
	}
	password := filepath.Join(dir, "p.toml")
	require.NoError(t, os.WriteFile(password, []byte("title = \"t\"\npassword = hunter2\n"), 0o600))
	code, _, stderr := call(t, "talk", password)
	require.Equal(t, 2, code, stderr)
	require.NotContains(t, stderr, "hunter2")
	requireOneLine(t, stderr, "p.toml:2: not TOML")
}

// A cache directory the server account may not enter is a configuration
// to fix, exit 2, not a server that cannot be reached.
func TestACacheDirTheServerCannotEnterIsUsage(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the server runs as another account only for root")
	}
	closed := t.TempDir() // 0700, root's
	t.Setenv("FENCELAB_CACHE_DIR", filepath.Join(closed, "cache"))
	code, _, stderr := call(t, "run", "lease-overrun", "--mode", "safe")
	require.Equal(t, 2, code, stderr)
	requireOneLine(t, stderr, "which cannot enter /tmp/")
	require.Contains(t, stderr, "(mode 0700)")
}
