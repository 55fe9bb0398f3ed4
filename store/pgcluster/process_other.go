//go:build !linux

package pgcluster

import (
	"fmt"
	"net"
	"os/exec"
	"syscall"
)

// maxSocketPath is the longest unix socket path the server accepts: a
// socket address's sun_path (104 bytes on the BSDs and macOS) less its
// closing NUL.
const maxSocketPath = 103

// sysProcAttr runs a server program as the account.
func (a *account) sysProcAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	if a.switched {
		attr.Credential = &syscall.Credential{Uid: a.uid, Gid: a.gid, NoSetGroups: true}
	}
	return attr
}

// awaitExit waits for the server process to exit. Without waitid's WNOWAIT
// it has to reap it, and says so.
func awaitExit(cmd *exec.Cmd) (reaped bool) {
	cmd.Wait()
	return true
}

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

// continueChildren does nothing where /proc cannot tell a process's parent.
func continueChildren(parent int) {}

// peerUID is not asked for where SO_PEERCRED is missing.
func peerUID(conn net.Conn) (uid uint32, known bool, err error) { return 0, false, nil }
