//go:build !linux

package pgcluster

import (
	"errors"
	"fmt"
	"syscall"
)

// stopOrphan stops nothing where there is no /proc and no pidfd to prove
// whose a process is: a server that may still run on dataDir is reported,
// and the user stops it.
func stopOrphan(dataDir string, owner *account) error {
	pid, ok := postmasterPID(dataDir, owner)
	if !ok || !alive(pid) {
		return nil
	}
	return fmt.Errorf("pgcluster: a server (pid %d) may still run on %s; stop it (pg_ctl stop -D %s) and start again", pid, dataDir, dataDir)
}

// alive reports whether a process with this pid exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
