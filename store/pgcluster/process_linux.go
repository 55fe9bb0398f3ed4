package pgcluster

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// maxSocketPath is the longest unix socket path the server accepts: a
// socket address's sun_path (108 bytes on Linux) less its closing NUL.
const maxSocketPath = 107

// sysProcAttr runs a server program as the account and has the kernel send
// it SIGINT (fast shutdown) should fencelab die without stopping it, even by
// SIGKILL.
func (a *account) sysProcAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Pdeathsig: syscall.SIGINT, Setpgid: true}
	if a.switched {
		attr.Credential = &syscall.Credential{Uid: a.uid, Gid: a.gid, NoSetGroups: true}
	}
	return attr
}

// awaitExit blocks until the server process has exited, without reaping it
// (WNOWAIT): while it is not reaped its pid cannot be taken by another
// process. It reports whether it reaped.
func awaitExit(cmd *exec.Cmd) (reaped bool) {
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if !errors.Is(err, unix.EINTR) {
			return false
		}
	}
}

// stopOrphan deals with the process named in dataDir's postmaster.pid
// before a server starts there (the slot lock proves no fencelab holds the
// slot). Held by a pidfd from before the proof to the signal:
//   - proven to be a server on this very data directory (it runs as the
//     server account and its working directory is this directory, as a
//     postmaster's is): left by a fencelab that was killed, so stopped;
//   - proven to be something else (another directory, another account):
//     the pid file is stale and is removed, the process left alone;
//   - not provable: fencelab refuses, changing nothing.
func stopOrphan(dataDir string, owner *account) error {
	pid, ok := postmasterPID(dataDir, owner)
	if !ok {
		// Not a plain file with a pid (a FIFO would hang the server's own
		// check): no server of ours wrote it.
		if owner.ownsDir(dataDir) && fileExists(filepath.Join(dataDir, "postmaster.pid")) {
			return removeStalePIDFile(dataDir)
		}
		return nil
	}
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return nil // gone: the server's own check handles a dead pid
	}
	if err != nil {
		return fmt.Errorf("pgcluster: cannot tell whether process %d named in %s/postmaster.pid is a server of this slot (%v); stop it or remove the file", pid, dataDir, err)
	}
	defer unix.Close(fd)
	ours, known := runsOn(pid, dataDir, owner.uid)
	if unix.PidfdSendSignal(fd, 0, nil, 0) != nil {
		return nil // it ended while we looked: what we read may be another's
	}
	switch {
	case !known:
		return fmt.Errorf("pgcluster: cannot tell whether process %d named in %s/postmaster.pid is a server of this slot; stop it or remove the file", pid, dataDir)
	case !ours:
		return removeStalePIDFile(dataDir)
	}
	stopped := shutdown(
		func(sig syscall.Signal) { unix.PidfdSendSignal(fd, sig, nil, 0) },
		func() { unix.PidfdSendSignal(fd, unix.SIGCONT, nil, 0); continueChildren(pid) },
		func(d time.Duration) bool { return waitGone(fd, d) })
	if !stopped {
		return fmt.Errorf("pgcluster: the server left running on %s (pid %d) did not stop", dataDir, pid)
	}
	return nil
}

// runsOn reads /proc: whether pid runs as uid with dataDir (the same
// directory, by device and inode, whatever path named it) as its working
// directory. known is false when /proc would not say.
func runsOn(pid int, dataDir string, uid uint32) (ours, known bool) {
	proc := "/proc/" + strconv.Itoa(pid)
	info, err := os.Stat(proc)
	if err != nil {
		return false, false
	}
	if info.Sys().(*syscall.Stat_t).Uid != uid {
		return false, true // another account's process is no server of ours
	}
	cwd, err := os.Stat(proc + "/cwd")
	if err != nil {
		return false, false
	}
	data, err := os.Lstat(dataDir)
	if err != nil {
		return false, false
	}
	return os.SameFile(cwd, data), true
}

// waitGone polls a pidfd until its process has ended, for up to d.
func waitGone(fd int, d time.Duration) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	deadline := time.Now().Add(d)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			return unix.PidfdSendSignal(fd, 0, nil, 0) != nil
		}
		n, err := unix.Poll(fds, int(left/time.Millisecond)+1)
		if err != nil && !errors.Is(err, unix.EINTR) {
			return false
		}
		if n > 0 {
			return true
		}
	}
}

// continueChildren sends SIGCONT to every child of parent (a server's
// backends each run in a session of their own, so no group signal reaches
// them). Each is held by a pidfd while /proc shows parent as its parent, so
// a pid reused meanwhile is never signalled.
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
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 2 {
		return -1
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return -1
	}
	return ppid
}

// peerUID is the uid of the process at the other end of a unix socket.
func peerUID(conn net.Conn) (uid uint32, known bool, err error) {
	unixConn, ok := conn.(*net.UnixConn)
	if !ok {
		return 0, false, nil
	}
	raw, err := unixConn.SyscallConn()
	if err != nil {
		return 0, false, err
	}
	var cred *unix.Ucred
	var credErr error
	if err := raw.Control(func(fd uintptr) {
		cred, credErr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED)
	}); err != nil {
		return 0, false, err
	}
	if credErr != nil {
		return 0, false, credErr
	}
	return cred.Uid, true, nil
}
