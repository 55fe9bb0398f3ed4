package pgcluster_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// Row 5 of issue 21: root with umask 077 (or 027) on a fresh cache. The
// directories fencelab makes get the modes the server account needs to
// reach its slot, whatever the umask.
func TestFreshCacheUnderStrictUmask(t *testing.T) {
	base := tempDir(t)
	dir := filepath.Join(base, "made", "by", "fencelab")
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	startAndQuery(t, dir)
	for _, made := range []string{"made", "made/by", "made/by/fencelab"} {
		info, err := os.Stat(filepath.Join(base, made))
		require.NoError(t, err)
		require.Equal(t, os.FileMode(0o755), info.Mode().Perm(), made)
	}
}
