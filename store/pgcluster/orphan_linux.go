package pgcluster

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// stopOrphan stops the postmaster named in dataDir's postmaster.pid, but
// only when it is proven to be fencelab's own server for this slot, left
// running by a fencelab that was killed: it runs as the server account and
// its command line names exactly this data directory. The process is held
// by a pidfd from before the check to the signal, so a pid reused meanwhile
// is never signalled. A pid file naming any other live process is stale
// (only fencelab starts servers on a slot, always with -D, and the slot lock
// proves no fencelab holds it): the file is removed, the process left alone.
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
	if err != nil {
		return nil // gone, or no pidfd on this kernel: signal nothing
	}
	defer unix.Close(fd)
	proven := runsOn(pid, dataDir, owner.uid)
	if unix.PidfdSendSignal(fd, 0, nil, 0) != nil {
		return nil // it ended while we looked: what we read may be another's
	}
	if !proven {
		return removeStalePIDFile(dataDir)
	}
	for _, step := range []struct {
		sig  syscall.Signal
		wait time.Duration
	}{{unix.SIGINT, 5 * time.Second}, {unix.SIGQUIT, 2 * time.Second}, {unix.SIGKILL, time.Second}} {
		unix.PidfdSendSignal(fd, step.sig, nil, 0)
		// A frozen server cannot act on it: continue it and its backends.
		unix.PidfdSendSignal(fd, unix.SIGCONT, nil, 0)
		continueChildren(pid)
		if waitGone(fd, step.wait) {
			return nil
		}
	}
	return fmt.Errorf("pgcluster: the server left running on %s (pid %d) did not stop", dataDir, pid)
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

// runsOn reads /proc: pid's effective uid is uid and its arguments hold
// "-D dataDir".
func runsOn(pid int, dataDir string, uid uint32) bool {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return false
	}
	effective := -1
	for _, line := range strings.Split(string(status), "\n") {
		if rest, ok := strings.CutPrefix(line, "Uid:"); ok {
			if f := strings.Fields(rest); len(f) >= 2 {
				effective, _ = strconv.Atoi(f[1])
			}
		}
	}
	if effective != int(uid) {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	args := bytes.Split(bytes.TrimRight(cmdline, "\x00"), []byte{0})
	for i := 0; i+1 < len(args); i++ {
		if string(args[i]) == "-D" && string(args[i+1]) == dataDir {
			return true
		}
	}
	return false
}

// alive reports whether a process with this pid exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
