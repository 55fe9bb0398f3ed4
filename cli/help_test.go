package cli

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Each command has its own help (COMMAND --help, help COMMAND): its lines
// of the usage, the global flags and the exit codes, and nothing of the
// other commands.
func TestCommandHelp(t *testing.T) {
	for _, command := range commands {
		for _, args := range [][]string{{command, "--help"}, {"help", command}} {
			code, stdout, stderr := call(t, args...)
			require.Equal(t, 0, code, stderr)
			require.Contains(t, stdout, "  fencelab "+command)
			require.Contains(t, stdout, "--lease-ttl")
			require.Contains(t, stdout, "exit: 0")
			for _, other := range commands {
				if other != command {
					require.NotContains(t, stdout, "  fencelab "+other+" ", "%v shows %s", args, other)
				}
			}
		}
	}
	code, stdout, _ := call(t, "--help")
	require.Equal(t, 0, code)
	for _, command := range commands {
		require.Contains(t, stdout, "  fencelab "+command)
	}
	code, _, stderr := call(t, "help", "nope")
	require.Equal(t, 2, code)
	requireOneLine(t, stderr, `no help for "nope"`)
}

func TestVersion(t *testing.T) {
	code, stdout, stderr := call(t, "version")
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(stdout, "fencelab "), stdout)
	require.Contains(t, stdout, runtime.Version())
	code, _, stderr = call(t, "version", "extra")
	require.Equal(t, 2, code)
	requireOneLine(t, stderr, "version takes no arguments")
}
