package pgcluster

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// ErrNoServer means no PostgreSQL server binaries (initdb and postgres) were
// found on this machine.
var ErrNoServer = errors.New("pgcluster: no PostgreSQL server binaries found")

// minMajor is the oldest server fencelab supports (initdb --no-instructions).
const minMajor = 14

// Binaries is one PostgreSQL installation's server programs.
type Binaries struct {
	Dir   string // holds initdb and postgres
	Major int    // e.g. 15
}

func (b Binaries) path(name string) string { return filepath.Join(b.Dir, name) }

// SearchPatterns are the install prefixes FindBinaries globs, after PATH and
// pg_config: Debian's, the PGDG RPMs', a source build's and Homebrew's.
var SearchPatterns = []string{
	"/usr/lib/postgresql/*/bin",
	"/usr/pgsql-*/bin",
	"/usr/local/pgsql/bin",
	"/opt/homebrew/opt/postgresql@*/bin",
	"/opt/homebrew/opt/postgresql/bin",
	"/usr/local/opt/postgresql@*/bin",
	"/usr/local/opt/postgresql/bin",
	"/opt/homebrew/bin",
}

// FindBinaries looks for initdb and postgres where installations usually put
// them: PATH, Debian's /usr/lib/postgresql/*/bin, the source-build prefix and
// Homebrew's, and, when none of those has them, `pg_config --bindir` (a
// program run only when needed: Debian's is a slow wrapper). The newest
// supported version wins.
//
// The probes (`postgres --version`, `pg_config`) run as the server account
// when fencelab runs as root: they are found on PATH and by glob, and root
// runs nothing it has not chosen.
func FindBinaries() (Binaries, error) {
	owner, err := serverAccount()
	if err != nil {
		return Binaries{}, err
	}
	var candidates []string
	if p, err := exec.LookPath("postgres"); err == nil {
		candidates = append(candidates, filepath.Dir(p))
	}
	for _, pattern := range SearchPatterns {
		matches, _ := filepath.Glob(pattern)
		candidates = append(candidates, matches...)
	}
	found := checkCandidates(candidates, owner)
	if len(found) == 0 {
		if out, err := owner.command("pg_config", "--bindir").Output(); err == nil {
			found = checkCandidates([]string{strings.TrimSpace(string(out))}, owner)
		}
	}
	if len(found) == 0 {
		return Binaries{}, ErrNoServer
	}
	sort.SliceStable(found, func(i, j int) bool { return found[i].Major > found[j].Major })
	return found[0], nil
}

// checkCandidates keeps the directories with a usable initdb and postgres,
// each real directory once (links such as /usr/local/bin/postgres count as
// the directory they point into).
func checkCandidates(candidates []string, owner *account) []Binaries {
	var found []Binaries
	seen := map[string]bool{}
	for _, dir := range candidates {
		if real, err := filepath.EvalSymlinks(filepath.Join(dir, "postgres")); err == nil {
			dir = filepath.Dir(real)
		}
		if seen[dir] {
			continue
		}
		seen[dir] = true
		if !isExecutable(filepath.Join(dir, "postgres")) || !isExecutable(filepath.Join(dir, "initdb")) {
			continue
		}
		major, err := serverMajor(filepath.Join(dir, "postgres"), owner)
		if err != nil || major < minMajor {
			continue
		}
		found = append(found, Binaries{Dir: dir, Major: major})
	}
	return found
}

func isExecutable(path string) bool {
	info, err := os.Stat(path)
	return err == nil && !info.IsDir() && info.Mode()&0o111 != 0
}

var versionPattern = regexp.MustCompile(`\(PostgreSQL\) (\d+)`)

// majorInPath is the major version a packaged install names in its
// directory: Debian's /usr/lib/postgresql/15/bin, the PGDG RPMs'
// /usr/pgsql-16/bin, Homebrew's Cellar/postgresql@16/… — one version per
// directory by the packagers' own layout.
var majorInPath = regexp.MustCompile(`^(?:/usr/lib/postgresql/(\d+)/bin|/usr/pgsql-(\d+)/bin|.*/Cellar/postgresql@(\d+)/[^/]+/bin)$`)

// serverMajor is the server's major version: from a packaged install's
// directory when it names one (asking postgres itself, a process run as
// the server account, costs a start 10–15 ms), else from postgres
// --version.
func serverMajor(postgres string, owner *account) (int, error) {
	if m := majorInPath.FindStringSubmatch(filepath.Dir(postgres)); m != nil {
		for _, digits := range m[1:] {
			if digits != "" {
				return strconv.Atoi(digits)
			}
		}
	}
	out, err := owner.command(postgres, "--version").Output()
	if err != nil {
		return 0, fmt.Errorf("%s --version: %w", postgres, err)
	}
	m := versionPattern.FindSubmatch(out)
	if m == nil {
		return 0, fmt.Errorf("%s --version: unexpected output %q", postgres, out)
	}
	return strconv.Atoi(string(m[1]))
}

// InstallHint names the command that installs the server binaries on this
// kind of machine, for the one-line error when none are found.
func InstallHint() string {
	switch {
	case isExecutable("/usr/bin/apt-get"):
		return "sudo apt-get install postgresql"
	case isExecutable("/usr/bin/dnf"):
		return "sudo dnf install postgresql-server"
	case isExecutable("/opt/homebrew/bin/brew"), isExecutable("/usr/local/bin/brew"):
		return "brew install postgresql@16"
	case isExecutable("/sbin/apk"):
		return "apk add postgresql"
	default:
		return "install the PostgreSQL server package (14 or newer)"
	}
}
