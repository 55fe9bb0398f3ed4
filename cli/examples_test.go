package cli

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The examples people copy run as their files predict in both modes,
// the way a user runs them: one `run --mode both`, SAFE's lab and then
// UNSAFE's on the same database. (The second lab once got a connection
// the first gave back that was not on the wire: its actors' steps ran
// whole, and counter.toml's guided order could not be followed.)
func TestEveryExampleRunsInBothModes(t *testing.T) {
	files, err := filepath.Glob("../examples/*.toml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			code, stdout, stderr := call(t, "run", path, "--mode", "both")
			require.Equal(t, 0, code, "%s\n%s", stdout, stderr)
			require.Contains(t, stdout, "2 as predicted, 0 not")
		})
	}
}
