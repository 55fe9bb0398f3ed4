package pgcluster

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
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

// continueChildren sends SIGCONT to every child of parent. Each is held by
// a pidfd while /proc shows parent as its parent, so a pid reused meanwhile
// is never signalled.
func continueChildren(parent int) {
	for _, pid := range childrenOf(parent) {
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			continue
		}
		if parentOf(pid) == parent {
			unix.PidfdSendSignal(fd, unix.SIGCONT, nil, 0)
		}
		unix.Close(fd)
	}
}

// childrenOf lists the processes whose parent is pid, from /proc.
func childrenOf(pid int) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var children []int
	for _, e := range entries {
		child, err := strconv.Atoi(e.Name())
		if err == nil && parentOf(child) == pid {
			children = append(children, child)
		}
	}
	return children
}

// parentOf reads a process's parent pid from /proc/PID/stat (-1: gone).
func parentOf(pid int) int {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	// pid (comm) state ppid …; comm may hold spaces and parentheses.
	rest := stat[bytes.LastIndexByte(stat, ')')+1:]
	fields := strings.Fields(string(rest))
	if len(fields) < 2 {
		return -1
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return -1
	}
	return ppid
}
