package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/storetest"
)

var (
	buildOnce sync.Once
	buildDir  string // made and removed by TestMain
	built     string
	buildErr  error
)

// binary builds fencelab once per test run, for the tests that run it as a
// user would: under tmux, with signals, with its stdout closed.
func binary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		built = filepath.Join(buildDir, "fencelab")
		if out, err := exec.Command("go", "build", "-o", built, "..").CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v: %s", err, out)
		}
	})
	require.NoError(t, buildErr)
	return built
}

// cacheDir is a FENCELAB_CACHE_DIR of the test's own, which the server
// account (when tests run as root) can enter.
func cacheDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "fencelab-cache-")
	require.NoError(t, err)
	require.NoError(t, os.Chmod(dir, 0o755))
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// killTmux ends a test's tmux server and removes the socket it leaves in
// tmux's own directory (only a socket: nothing else there is touched).
func killTmux(socket string) {
	exec.Command("tmux", "-L", socket, "kill-server").Run()
	dir := os.Getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	path := filepath.Join(dir, fmt.Sprintf("tmux-%d", os.Getuid()), socket)
	if info, err := os.Lstat(path); err == nil && info.Mode()&os.ModeSocket != 0 {
		os.Remove(path)
	}
}

func requireTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed (CI installs it)")
	}
}

// tmuxSession drives the built binary in a tmux of the test's own, as a
// person would: one key per call, reading the screen.
type tmuxSession struct {
	t      *testing.T
	socket string
}

func (s tmuxSession) tmux(args ...string) string {
	s.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-L", s.socket}, args...)...).CombinedOutput()
	require.NoError(s.t, err, "tmux %v: %s", args, out)
	return string(out)
}

func (s tmuxSession) key(k string) { s.tmux("send-keys", "-t", "lab", k) }

func (s tmuxSession) screen() string { return s.tmux("capture-pane", "-p", "-t", "lab") }

// waitScreen waits until the screen shows every text, and returns it.
func (s tmuxSession) waitScreen(texts ...string) string {
	s.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		screen := s.screen()
		missing := ""
		for _, text := range texts {
			if !strings.Contains(screen, text) {
				missing = text
				break
			}
		}
		if missing == "" {
			return screen
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the screen never showed %q:\n%s", missing, screen)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Ctrl-Z stops the explorer as job control stops any program, and so does
// a SIGTSTP from elsewhere: the terminal given back to the shell first; fg
// brings it back whole, and the keys go on.
func TestCtrlZStopsTheExplorerAndFgResumesIt(t *testing.T) {
	requireTmux(t)
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash not installed: a shell with job control is needed")
	}
	dir := cacheDir(t)
	s := tmuxSession{t: t, socket: "fencelab-tstp-" + filepath.Base(dir)}
	s.tmux("new-session", "-d", "-s", "lab", "-x", "120", "-y", "40", "bash --norc --noprofile -i")
	defer killTmux(s.socket)
	s.key("cd " + dir + " && FENCELAB_CACHE_DIR=" + dir + " " + binary(t))
	s.key("Enter")
	s.waitScreen("lease-overrun in SAFE mode")
	s.key("n")
	s.waitScreen("guided 1/9")
	// stopped: the shell says so; fg brings back the screen as it was, and
	// the next key steps on.
	stoppedThenFg := func(stop func(), was []string, next ...string) {
		t.Helper()
		stop()
		s.waitScreen("Stopped")
		s.key("fg")
		s.key("Enter")
		s.waitScreen(was...)
		s.key("n")
		s.waitScreen(next...)
	}
	stoppedThenFg(func() { s.key("C-z") }, []string{"guided 1/9", "A_LEADER"}, "guided 2/9", "A_ACQUIRE")

	// A SIGTSTP from elsewhere stops it the same way: the explorer is the
	// only child of the shell this test started in its own tmux.
	var shell int
	_, err := fmt.Sscan(s.tmux("display-message", "-p", "-t", "lab", "#{pane_pid}"), &shell)
	require.NoError(t, err)
	children := storetest.Children(shell)
	require.Len(t, children, 1, "the shell runs the explorer alone")
	stoppedThenFg(func() { require.NoError(t, syscall.Kill(children[0], syscall.SIGTSTP)) },
		[]string{"guided 2/9", "A_ACQUIRE"}, "guided 3/9", "A_PAUSE")
	s.key("q")
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(s.screen(), "$ ") && !strings.Contains(s.screen(), "# ") {
		require.True(t, time.Now().Before(deadline), "the shell's prompt never came back:\n%s", s.screen())
		time.Sleep(50 * time.Millisecond)
	}
}

// The explorer end to end: the built binary under tmux, the guided
// lease-overrun by keys, then the UNSAFE overwrite, then q: exit 0 and no
// PostgreSQL left behind.
func TestExplorerUnderTmux(t *testing.T) {
	requireTmux(t)
	dir := cacheDir(t)
	bin := binary(t)

	s := tmuxSession{t: t, socket: "fencelab-e2e-" + filepath.Base(dir)}
	exitFile := filepath.Join(dir, "exit")
	script := "FENCELAB_CACHE_DIR=" + dir + " " + bin + "; echo $? > " + exitFile + "; sleep 60"
	s.tmux("new-session", "-d", "-s", "lab", "-x", "120", "-y", "40", script)
	defer killTmux(s.socket)

	s.waitScreen("lease-overrun in SAFE mode")
	for range 9 {
		s.key("n")
	}
	screen := s.waitScreen("guided order complete")
	require.Contains(t, screen, "worker-B  token 42   COMMITTED")
	require.Contains(t, screen, "worker-A  token 41   REJECTED STALE_FENCE")
	require.Contains(t, screen, "incoming 41 > last accepted 42 → false → REJECTED")
	require.Less(t, strings.Index(screen, "B_WRITE         COMMITTED"), strings.Index(screen, "A_WRITE         REJECTED"),
		"42 commits before 41 is rejected")

	s.key("m")
	s.waitScreen("lease-overrun in UNSAFE mode")
	for range 9 {
		s.key("n")
	}
	screen = s.waitScreen("guided order complete", "verdict STALE_OVERWRITE")
	require.Contains(t, screen, "BROKEN invariant 1")

	s.key("q")
	require.Equal(t, "0", waitExitFile(t, exitFile))
	require.Empty(t, storetest.Postmasters(dir), "PostgreSQL left running after q")
}

// waitExitFile waits for the exit code a test's shell writes once fencelab
// ended, and returns it.
func waitExitFile(t *testing.T, exitFile string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		// The shell makes the file before echo writes to it: empty is
		// not yet.
		code, err := os.ReadFile(exitFile)
		if err == nil && len(code) > 0 {
			return strings.TrimSpace(string(code))
		}
		require.True(t, time.Now().Before(deadline), "fencelab did not exit")
		time.Sleep(20 * time.Millisecond)
	}
}

// explorerRun is the built binary under a tmux of the test's own, with its
// pid, exit code and terminal settings after it ends written to files.
type explorerRun struct {
	tmuxSession
	dir string
}

func startExplorer(t *testing.T, dir string, args ...string) explorerRun {
	t.Helper()
	r := explorerRun{tmuxSession: tmuxSession{t: t, socket: fmt.Sprintf("fencelab-%s-%d", filepath.Base(dir), time.Now().UnixNano())}, dir: dir}
	for _, f := range []string{"pid", "exit", "stty"} {
		os.Remove(filepath.Join(dir, f))
	}
	quoted := ""
	for _, a := range args {
		quoted += " '" + a + "'"
	}
	// It runs in dir, where `w` writes its traces.
	script := fmt.Sprintf(`cd %[1]s; FENCELAB_CACHE_DIR=%[1]s sh -c 'echo $$ > %[1]s/pid; exec %[2]s "$@"' fencelab%[3]s; echo $? > %[1]s/exit; stty -a > %[1]s/stty; sleep 60`,
		dir, binary(t), quoted)
	r.tmux("new-session", "-d", "-s", "lab", "-x", "120", "-y", "40", script)
	t.Cleanup(func() { killTmux(r.socket) })
	return r
}

// quit presses q and requires the explorer to end with exit 0.
func (r explorerRun) quit() {
	r.t.Helper()
	r.key("q")
	code, _ := r.waitExit(10 * time.Second)
	require.Equal(r.t, 0, code)
}

func (r explorerRun) pid() int {
	r.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if data, err := os.ReadFile(filepath.Join(r.dir, "pid")); err == nil {
			if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
				return pid
			}
		}
		require.True(r.t, time.Now().Before(deadline), "the explorer did not start")
		time.Sleep(5 * time.Millisecond)
	}
}

// waitExit waits up to within for the explorer to end and returns its exit
// code and whether the terminal was left in canonical (cooked) mode.
func (r explorerRun) waitExit(within time.Duration) (code int, cooked bool) {
	r.t.Helper()
	deadline := time.Now().Add(within)
	for {
		if data, err := os.ReadFile(filepath.Join(r.dir, "stty")); err == nil && len(data) > 0 {
			code, _ := os.ReadFile(filepath.Join(r.dir, "exit"))
			n, _ := strconv.Atoi(strings.TrimSpace(string(code)))
			return n, strings.Contains(" "+strings.Join(strings.Fields(string(data)), " ")+" ", " icanon ")
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("the explorer did not end within %s:\n%s", within, r.screen())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Row 4: SIGTERM and SIGINT end the explorer within a second, however far
// it got — starting its server, on screen, in the middle of steps — with
// exit 128+signal, the terminal restored and the server stopped (on main:
// 2 of 9 hung). A signal in the process's first milliseconds, before main
// installs its handler, ends it by the default action: the same exit code,
// and nothing was started yet.
func TestExplorerEndsOnSignals(t *testing.T) {
	requireTmux(t)
	dir := cacheDir(t)
	for i, when := range []string{"at once", "while starting", "on screen", "mid-steps", "at once", "on screen", "mid-steps", "while starting"} {
		sig := syscall.SIGTERM
		if i%2 == 1 {
			sig = syscall.SIGINT
		}
		t.Run(fmt.Sprintf("%s %s", sig, when), func(t *testing.T) {
			r := startExplorer(t, dir)
			r.t = t
			pid := r.pid()
			switch when {
			case "while starting":
				time.Sleep(30 * time.Millisecond)
			case "on screen":
				r.waitScreen("in SAFE mode")
			case "mid-steps":
				r.waitScreen("in SAFE mode")
				for range 4 {
					r.key("n")
				}
			}
			require.NoError(t, syscall.Kill(pid, sig))
			code, cooked := r.waitExit(time.Second)
			require.Equal(t, 128+int(sig), code)
			require.True(t, cooked, "the terminal was left raw")
			deadline := time.Now().Add(time.Second)
			for len(storetest.Postmasters(dir)) > 0 {
				require.True(t, time.Now().Before(deadline), "PostgreSQL left running: %v", storetest.Postmasters(dir))
				time.Sleep(10 * time.Millisecond)
			}
		})
	}
}

// Rows 5 and 6 in the explorer: the DSN view has no password, and with its
// server frozen the explorer stays responsive, says so, and q quits at once
// (on main: the password in clear, and q took 15 s).
func TestExplorerOnAFrozenServerWithAPassword(t *testing.T) {
	t.Parallel()
	requireTmux(t)
	const secret = "pr0jector-pw"
	server := usersServer(t)
	passwordRole(t, server, secret)
	dsn := fmt.Sprintf("postgres://alice:%s@/fencelab?host=%s", secret, filepath.Join(server.SlotDir, "run"))

	r := startExplorer(t, cacheDir(t), "--pg", dsn)
	r.waitScreen("in SAFE mode")
	r.key("d")
	screen := r.waitScreen("psql 'postgres://alice@/fencelab")
	require.NotContains(t, screen, secret)

	defer thaw(freeze(server.PID()))
	r.key("n")
	r.key("?")
	r.waitScreen("quit") // the help screen: keys still act while the step waits
	r.key("?")
	r.waitScreen("did not answer within")
	started := time.Now()
	r.key("q")
	code, cooked := r.waitExit(3 * time.Second)
	require.Equal(t, 0, code)
	require.True(t, cooked)
	require.Less(t, time.Since(started), 3*time.Second)
}

// A run stepped by hand and saved with `w` is a trace: it replays to the
// same events and result, and `--trace` plays it again with `n` alone.
func TestExplorerSavesATraceThatReplaysAndPlays(t *testing.T) {
	requireTmux(t)
	dir := cacheDir(t)
	r := startExplorer(t, dir)
	r.waitScreen("lease-overrun in SAFE mode")
	// The overrun by hand: A leads and takes 41, A pauses, its lease
	// expires, B leads, takes 42 and commits, A resumes and writes.
	for _, k := range []string{"1", "1", "p", "t", "2", "2", "2", "1", "p", "1"} {
		r.key(k)
	}
	r.waitScreen("worker-A  token 41   REJECTED STALE_FENCE")
	r.key("w")
	r.waitScreen("fencelab-lease-overrun-safe.trace.json")
	r.quit()

	trace := filepath.Join(dir, "fencelab-lease-overrun-safe.trace.json")
	code, stdout, stderr := call(t, "replay", trace)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "verdict STALE_FENCE  — as the trace recorded")

	played := startExplorer(t, dir, "--trace", trace)
	played.waitScreen("lease-overrun in SAFE mode", "▶ trace fencelab-lease-overrun-safe.trace.json · guided 0/9", "Press n to follow the schedule of the trace")
	for range 9 {
		played.key("n")
	}
	screen := played.waitScreen("guided order complete", "worker-A  token 41   REJECTED STALE_FENCE")
	require.Contains(t, screen, "worker-B  token 42   COMMITTED")
	played.quit()
}

// Keys and n mix on the guided path: A's first step by hand, then n to the
// end, plays the whole story with the header on the path. A key off the
// path says so in the header, and n then refuses instead of stepping.
func TestExplorerMixedPathUnderTmux(t *testing.T) {
	requireTmux(t)
	r := startExplorer(t, cacheDir(t))
	r.waitScreen("lease-overrun in SAFE mode", "guided 0/9")
	r.key("1")
	r.waitScreen("guided 1/9")
	for range 8 {
		r.key("n")
	}
	screen := r.waitScreen("guided 9/9", "guided order complete")
	require.Contains(t, screen, "worker-A  token 41   REJECTED STALE_FENCE")
	require.Contains(t, screen, "verdict STALE_FENCE")

	r.key("r")
	r.waitScreen("guided 0/9")
	r.key("2")
	r.waitScreen("free · guided order left at 0/9")
	r.key("n")
	r.waitScreen("you left the guided order at 0/9")
	r.key("u")
	r.waitScreen("guided 0/9 · next: step A")
	r.quit()
}

// The explorer on a real redis-server tells lease-overrun's story as on
// the embedded one, whatever the pace of the keys: with n every 200 ms,
// and every 3 s — each gap longer than the 2 s lease on the wall clock —
// A's leases run out only when the lab clock says, and the story reaches
// STALE_FENCE with 42. u takes the last step back and ← shows an earlier
// screen: a real Redis follows the lab clock.
func TestTheStoryOnARealRedisAtTwoPaces(t *testing.T) {
	requireTmux(t)
	url := storetest.RealRedisURL(t)
	for _, pace := range []time.Duration{200 * time.Millisecond, 3 * time.Second} {
		t.Run(pace.String(), func(t *testing.T) {
			t.Parallel()
			r := startExplorer(t, cacheDir(t), "--redis", url, "--lease-ttl", "2s")
			r.waitScreen("lease-overrun in SAFE mode", "guided 0/9", "redis unix:")
			for i := 1; i <= 9; i++ {
				r.key("n")
				r.waitScreen(fmt.Sprintf("guided %d/9", i))
				time.Sleep(pace)
			}
			screen := r.waitScreen("guided 9/9", "verdict STALE_FENCE")
			require.Contains(t, screen, "worker-A  token 41   REJECTED STALE_FENCE")
			require.Contains(t, screen, "worker-B  token 42   COMMITTED")
			require.Regexp(t, `final\s+42`, screen)
			r.key("u")
			r.waitScreen("guided 8/9")
			r.key("Left")
			r.waitScreen("recorded after action 7 of 8")
			r.quit()
		})
	}
}

// With its Redis frozen, q quits at once and says, once the terminal is
// the user's again, that the run's keys are left there and when a run
// deletes them (it said nothing, exit 0, keys left).
func TestExplorerQuitOnAFrozenRedisSaysWhatItLeft(t *testing.T) {
	requireTmux(t)
	url := storetest.RealRedisURL(t)
	r := startExplorer(t, cacheDir(t), "--redis", url)
	r.waitScreen("lease-overrun in SAFE mode", "guided 0/9")
	r.key("n")
	r.waitScreen("guided 1/9")
	server := redisServerOf(t, url)
	require.NoError(t, syscall.Kill(server, syscall.SIGSTOP))
	defer syscall.Kill(server, syscall.SIGCONT)
	r.key("n")
	r.waitScreen("did not answer within")
	r.key("q")
	code, cooked := r.waitExit(5 * time.Second)
	require.Equal(t, 0, code)
	require.True(t, cooked)
	r.waitScreen("fencelab: warning: the run's keys fencelab:")
	// One line, as the pane wraps it.
	said := strings.ReplaceAll(r.screen(), "\n", "")
	require.Contains(t, said, "(a fencelab run there deletes them once 5m0s have passed): Redis did not answer within 3s")
}
