package cli

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/storetest"
)

// Row 4 of issue 21: a cache directory with spaces, a quote and a
// backslash in its path connects (the DSN's host was unquoted: exit 3
// after 31 s while the server said it was ready).
func TestCacheDirWithSpacesAndQuotes(t *testing.T) {
	dir := filepath.Join(cacheDir(t), `my  cache's \dir $HOME`)
	t.Setenv("FENCELAB_CACHE_DIR", dir)
	code, stdout, stderr := call(t, "run", "lease-overrun", "--mode", "safe")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "verdict STALE_FENCE")
	// The psql line, pasted into a shell, gives psql the DSN with the
	// socket's directory quoted as libpq reads it ($HOME not expanded).
	_, line, found := strings.Cut(stdout, "psql ")
	require.True(t, found, stdout)
	line, _, _ = strings.Cut(line, "   (")
	word, err := exec.Command("sh", "-c", `eval "set -- $1"; printf %s "$1"`, "sh", line).Output()
	require.NoError(t, err)
	require.Contains(t, string(word), `host='`+strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(dir)+`/pg`,
		"the psql line names the socket's directory quoted, as psql reads it")
	require.Empty(t, storetest.Postmasters(dir), "no server left running on the cache dir")
}

// Row 4: a cache directory so deep that the server's socket path would
// not fit in a unix socket address (107 bytes on Linux) is refused in one
// line that says what to do, exit 2, before anything starts.
func TestCacheDirTooDeepForTheSocket(t *testing.T) {
	dir := filepath.Join(cacheDir(t), strings.Repeat("d", 100))
	t.Setenv("FENCELAB_CACHE_DIR", dir)
	requireRefused(t, []refusal{
		{"socket path too long", []string{"run", "lease-overrun"}, 2, "shorter FENCELAB_CACHE_DIR"},
	})
	slots, err := filepath.Glob(filepath.Join(dir, "pg*", "slot-*"))
	require.NoError(t, err)
	require.Empty(t, slots, "a slot was made for a server that cannot start")
}
