package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

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

// The explorer end to end: the built binary under tmux, the guided
// lease-overrun by keys, then the UNSAFE overwrite, then q: exit 0 and no
// PostgreSQL left behind.
func TestExplorerUnderTmux(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed (CI installs it)")
	}
	dir, err := os.MkdirTemp("", "fencelab-e2e-")
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	require.NoError(t, os.Chmod(dir, 0o755))
	bin := filepath.Join(dir, "fencelab")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)

	s := tmuxSession{t: t, socket: "fencelab-e2e-" + filepath.Base(dir)}
	exitFile := filepath.Join(dir, "exit")
	script := "FENCELAB_CACHE_DIR=" + dir + " " + bin + "; echo $? > " + exitFile + "; sleep 60"
	s.tmux("new-session", "-d", "-s", "lab", "-x", "120", "-y", "40", script)
	defer exec.Command("tmux", "-L", s.socket, "kill-server").Run()

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
	deadline := time.Now().Add(10 * time.Second)
	for {
		code, err := os.ReadFile(exitFile)
		if err == nil {
			require.Equal(t, "0", strings.TrimSpace(string(code)))
			break
		}
		require.True(t, time.Now().Before(deadline), "fencelab did not exit after q")
		time.Sleep(20 * time.Millisecond)
	}
	require.Empty(t, serversUnder(t, dir), "PostgreSQL left running after q")
}
