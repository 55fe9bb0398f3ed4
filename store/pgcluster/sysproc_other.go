//go:build !linux

package pgcluster

import (
	"os/exec"
	"syscall"
)

// sysProcAttr runs a server program as the account.
func (a *account) sysProcAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	if a.switched {
		attr.Credential = &syscall.Credential{Uid: a.uid, Gid: a.gid, NoSetGroups: true}
	}
	return attr
}

// awaitExit waits for the server process to exit. Without waitid's WNOWAIT
// it has to reap it, and says so: its process group is then no longer
// signalled.
func awaitExit(cmd *exec.Cmd) (reaped bool) {
	cmd.Wait()
	return true
}

// continueChildren does nothing where /proc cannot tell a process's parent.
func continueChildren(parent int) {}
