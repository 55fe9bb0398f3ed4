package cli

import (
	"runtime"
	"runtime/debug"
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
	code, again, stderr := call(t, "--version")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, stdout, again)
	code, _, stderr = call(t, "version", "extra")
	require.Equal(t, 2, code)
	requireOneLine(t, stderr, "version takes no arguments")
}

// Built with -buildvcs=false (as this machine's GOFLAGS say), the version
// still says what the binary is: a build from a checkout, by which Go, for
// which platform, with which flags; a release says its version and commit.
func TestVersionWithoutACommit(t *testing.T) {
	line := versionLine(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/fencelab/fencelab", Version: "(devel)"},
		Settings: []debug.BuildSetting{{Key: "-buildmode", Value: "exe"}, {Key: "-compiler", Value: "gc"}, {Key: "-trimpath", Value: "true"},
			{Key: "CGO_ENABLED", Value: "0"}, {Key: "GOARCH", Value: "amd64"}, {Key: "GOOS", Value: "linux"}}})
	require.Equal(t, "fencelab (devel: built from a checkout, not a release) · no commit recorded (built with -buildvcs=false, or outside a repository)"+
		" · go1.26.8 linux/amd64 · built with -trimpath CGO_ENABLED=0", line)
	line = versionLine(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.0"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "277e966"}, {Key: "vcs.time", Value: "2026-12-01T16:40:00Z"},
			{Key: "GOARCH", Value: "arm64"}, {Key: "GOOS", Value: "darwin"}}})
	require.Equal(t, "fencelab v1.2.0 · commit 277e966 of 2026-12-01T16:40:00Z · go1.26.8 darwin/arm64", line)
}

// stress --help says one lease TTL for stress, wherever it says one.
func TestStressHelpSaysOneLeaseTTL(t *testing.T) {
	for lang, says := range map[string][]string{
		"en": {"The lease TTL is 500ms unless --lease-ttl says", "stress: 500ms", "twice the lease TTL, so 1s"},
		"ko": {"리스 TTL은 --lease-ttl이 없으면 500ms", "stress는 500ms", "리스 TTL의 두 배, 즉 1s"},
	} {
		code, stdout, stderr := call(t, "stress", "--help", "--lang", lang)
		require.Equal(t, 0, code, stderr)
		for _, said := range says {
			require.Contains(t, stdout, said, lang)
		}
		require.NotContains(t, stdout, "1.5s", lang)
	}
}
