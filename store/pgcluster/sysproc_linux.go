package pgcluster

import (
	"errors"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// sysProcAttr runs a server program as the account and, on Linux, has the
// kernel send it SIGINT (fast shutdown) should fencelab die without stopping
// it, even by SIGKILL.
func (a *account) sysProcAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Pdeathsig: syscall.SIGINT, Setpgid: true}
	if a.switched {
		attr.Credential = &syscall.Credential{Uid: a.uid, Gid: a.gid, NoSetGroups: true}
	}
	return attr
}

// awaitExit blocks until the server process has exited, without reaping it
// (WNOWAIT): while it is not reaped its pid, and so its process group id,
// cannot be taken by another process. It reports whether it reaped.
func awaitExit(cmd *exec.Cmd) (reaped bool) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return false
		}
	}
}
