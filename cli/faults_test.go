package cli

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
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
