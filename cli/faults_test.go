package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

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
