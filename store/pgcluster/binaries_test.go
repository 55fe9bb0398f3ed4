package pgcluster

import (
	"os"
	"path/filepath"
	"testing"
)

// A packaged install's directory names its major version, which saves
// running postgres --version (a process as the server account); anything
// else is asked. A postgres that is not there cannot answer, so a path
// read wrong shows up as an error here.
func TestServerMajorFromAPackagedDirectory(t *testing.T) {
	for dir, want := range map[string]int{
		"/usr/lib/postgresql/15/bin":                  15,
		"/usr/pgsql-16/bin":                           16,
		"/opt/homebrew/Cellar/postgresql@17/17.2/bin": 17,
		"/usr/local/Cellar/postgresql@14/14.15/bin":   14,
	} {
		got, err := serverMajor(filepath.Join(dir, "postgres"), &account{uid: uint32(os.Geteuid())})
		if err != nil || got != want {
			t.Errorf("%s: got %d, %v; want %d", dir, got, err, want)
		}
	}
	for _, dir := range []string{"/nonexistent/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/15/bin/x", t.TempDir()} {
		if got, err := serverMajor(filepath.Join(dir, "postgres"), &account{uid: uint32(os.Geteuid())}); err == nil {
			t.Errorf("%s: got %d without asking a postgres that is not there", dir, got)
		}
	}
}
