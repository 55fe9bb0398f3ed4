package storetest

import (
	"os"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// Freeze stops a PostgreSQL server of the test's own as a hung machine or
// a debugger would (SIGSTOP) and returns thaw, which continues it
// (SIGCONT); t.Cleanup thaws it too. postmaster must be a child of the
// test process that it has not reaped (pgcluster.Cluster.PID of a cluster
// it started); its backends, each in a session of its own, are its
// children. Every process is held by a pidfd from the proof of its parent
// to the last signal, so a pid reused meanwhile is never signalled. The
// postmaster is stopped first, so it starts no backend while they are
// found.
func Freeze(t testing.TB, postmaster int) (thaw func()) {
	t.Helper()
	hold := func(pid, parent int) (int, bool) {
		fd, err := unix.PidfdOpen(pid, 0)
		if err != nil {
			return -1, false
		}
		if _, p := stat(pid); p != parent {
			unix.Close(fd)
			return -1, false
		}
		return fd, true
	}
	fd, ok := hold(postmaster, os.Getpid())
	if !ok {
		t.Fatalf("storetest: process %d is not a server this test started", postmaster)
	}
	fds := []int{fd}
	unix.PidfdSendSignal(fd, unix.SIGSTOP, nil, 0)
	for _, child := range Children(postmaster) {
		if fd, ok := hold(child, postmaster); ok {
			unix.PidfdSendSignal(fd, unix.SIGSTOP, nil, 0)
			fds = append(fds, fd)
		}
	}
	var once sync.Once
	thaw = func() {
		once.Do(func() {
			for _, fd := range fds {
				unix.PidfdSendSignal(fd, unix.SIGCONT, nil, 0)
				unix.Close(fd)
			}
		})
	}
	t.Cleanup(thaw)
	return thaw
}
