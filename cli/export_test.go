package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// export writes each format to standard output or a file; a second export
// replaces its own file but never one of the user's; a tape of an ID
// writes the trace it plays beside it; a trace is exported in its own mode;
// bad input is one line and exit 2.
func TestExportCommand(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := call(t, "export", "lease-overrun", "--to", "md")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "| **STALE_FENCE** |")

	md := filepath.Join(dir, "lo.md")
	for range 2 { // the second replaces the first
		code, _, stderr = call(t, "export", "lease-overrun", "--mode", "unsafe", "--to", "md", "-o", md)
		require.Equal(t, 0, code, stderr)
		requireOneLine(t, stderr, "md written: "+md)
	}
	page, err := os.ReadFile(md)
	require.NoError(t, err)
	require.Contains(t, string(page), "1. ✗ **broken at #9**")

	tape := filepath.Join(dir, "talk.tape")
	code, _, stderr = call(t, "export", "counter-loss", "--to", "tape", "-o", tape)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "the tape plays "+filepath.Join(dir, "talk.trace.json"))
	text, err := os.ReadFile(tape)
	require.NoError(t, err)
	require.Contains(t, string(text), `Type "fencelab --lang en --trace talk.trace.json"`, "named from the tape's directory")
	require.Contains(t, string(text), `Output "talk.gif"`)
	require.Contains(t, string(text), "vhs talk.tape")
	code, stdout, stderr = call(t, "replay", filepath.Join(dir, "talk.trace.json"))
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "verdict STALE_NAMESPACE")

	// A trace: its own mode, its path in the page.
	code, stdout, stderr = call(t, "export", filepath.Join(dir, "talk.trace.json"), "--to", "mermaid")
	require.Equal(t, 0, code, stderr)
	require.True(t, strings.HasPrefix(stdout, "sequenceDiagram\n"))
	code, stdout, stderr = call(t, "export", filepath.Join(dir, "talk.trace.json"), "--to", "md")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "fencelab replay "+filepath.Join(dir, "talk.trace.json"))

	cast := filepath.Join(dir, "lo.cast")
	code, _, stderr = call(t, "export", "lease-overrun", "--to", "cast", "--size", "120x40", "-o", cast)
	require.Equal(t, 0, code, stderr)
	head, err := os.ReadFile(cast)
	require.NoError(t, err)
	require.Contains(t, strings.SplitN(string(head), "\n", 2)[0], `"width":120`)

	// A GIF and an SVG drawn by fencelab itself; the second GIF replaces
	// the first (its signature is in a comment at its end), a GIF of the
	// user's is never overwritten.
	picture := filepath.Join(dir, "lo.gif")
	for range 2 {
		code, _, stderr = call(t, "export", "lease-overrun", "--to", "gif", "-o", picture, "--lang", "ko")
		require.Equal(t, 0, code, stderr)
	}
	data, err := os.ReadFile(picture)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(data), "GIF89a"))
	svg := filepath.Join(dir, "lo.svg")
	code, _, stderr = call(t, "export", "lease-overrun", "--to", "svg", "-o", svg)
	require.Equal(t, 0, code, stderr)
	data, err = os.ReadFile(svg)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(data), "<svg "))
	theirs := filepath.Join(dir, "theirs.gif")
	require.NoError(t, os.WriteFile(theirs, append([]byte("GIF89a"), make([]byte, 2000)...), 0o644))
	code, _, stderr = call(t, "export", "lease-overrun", "--to", "gif", "-o", theirs)
	require.Equal(t, 2, code)
	requireOneLine(t, stderr, "not a file fencelab exported; not overwritten")

	mine := filepath.Join(dir, "notes.md")
	require.NoError(t, os.WriteFile(mine, []byte("my notes"), 0o644))
	for _, tc := range []struct {
		args     []string
		contains string
	}{
		{[]string{"export", "lease-overrun"}, "export needs --to, one of: md, mermaid, cast, tape, gif, svg"},
		{[]string{"export", "lease-overrun", "--to", "pdf"}, `export --to "pdf": want one of md, mermaid, cast, tape, gif, svg`},
		{[]string{"export", "lease-overun", "--to", "md"}, `export "lease-overun": no such scenario`},
		{[]string{"export", "lease-overrun", "--to", "md", "--mode", "both"}, `--mode "both": export records one mode`},
		{[]string{"export", "lease-overrun", "--to", "cast", "--size", "100"}, `--size "100": want COLUMNSxROWS`},
		{[]string{"export", "lease-overrun", "--to", "cast", "--size", "60x20"}, "the explorer draws from 80x24"},
		{[]string{"export", filepath.Join(dir, "talk.trace.json"), "--to", "md", "--mode", "safe"}, "a trace is exported in its own mode"},
		{[]string{"export", filepath.Join(dir, "missing.json"), "--to", "md"}, "no such file or directory"},
		{[]string{"export", "lease-overrun", "--to", "md", "-o", mine}, "not a file fencelab exported; not overwritten"},
		{[]string{"export", "lease-overrun", "--to", "md", "-o", filepath.Join(dir, "no", "x.md")}, "no directory"},
		{[]string{"export", "lease-overrun", "stale-read", "--to", "md"}, "export takes one trace file or scenario id, got 2"},
		{[]string{"export", "lease-overrun", "--to", "md", "--n", "3"}, "export does not take --n"},
	} {
		code, _, stderr := call(t, tc.args...)
		require.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		requireOneLine(t, stderr, tc.contains)
	}
	kept, err := os.ReadFile(mine)
	require.NoError(t, err)
	require.Equal(t, "my notes", string(kept))
}

// A directory export cannot write in is named as the user gave it, not by
// the temporary file fencelab would have renamed over the target.
func TestAnExportItCannotWriteNamesTheUsersDirectory(t *testing.T) {
	t.Setenv("FENCELAB_CACHE_DIR", cacheDir(t))
	code, _, stderr := call(t, "export", "lease-overrun", "--to", "md", "-o", "/proc/fencelab-x.md")
	require.Equal(t, 2, code, stderr)
	requireOneLine(t, stderr, "export /proc/fencelab-x.md: create a file in /proc: ")
	require.NotContains(t, stderr, ".fencelab-export-")
}

// A file's actor is named once in Mermaid, and a result that fenced
// nothing says no fence, as the explorer's result strip says it.
func TestMermaidOfAFileSaysItsActorOnceAndNoFence(t *testing.T) {
	out := filepath.Join(t.TempDir(), "lf.mmd")
	code, stdout, stderr := call(t, "export", "../examples/lock-fence.toml", "--to", "mermaid", "-o", out)
	require.Equal(t, 0, code, stdout+stderr)
	text, err := os.ReadFile(out)
	require.NoError(t, err)
	require.Contains(t, string(text), "participant a1 as A\n")
	require.NotContains(t, string(text), "fence none")
	require.Contains(t, string(text), "result · expected 2 · final 2 · verdict")
}
