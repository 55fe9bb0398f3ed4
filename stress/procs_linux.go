package stress

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// workerAttributes: a worker process is in a process group of its own, so
// a Ctrl-C at the terminal reaches the run, which stops its workers in
// order; and the kernel kills it if the run's process dies first.
func workerAttributes() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// isStopped reads a process's state from /proc: stopped (T) or not.
func isStopped(pid int) (stopped, known bool) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false, false
	}
	// pid (comm) STATE …: the name may hold spaces and parentheses.
	i := bytes.LastIndexByte(data, ')')
	if i < 0 || i+2 >= len(data) {
		return false, false
	}
	return data[i+2] == 'T', true
}

// stopSelf stops this process with SIGSTOP, sent to the calling thread:
// the kernel stops every thread of the process, and this one before it
// takes another step — a signal to the process as a whole may be taken by
// another thread while this one goes on into its write.
func stopSelf() {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	unix.Tgkill(unix.Getpid(), unix.Gettid(), unix.SIGSTOP)
}
