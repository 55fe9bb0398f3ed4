package pgcluster

import (
	"errors"
	"syscall"
	"time"
)

// Processes: how fencelab starts, stops and proves its servers. The rule is
// that a process is signalled only while it is proven to be fencelab's own:
// its own unreaped child (the postmaster it started, initdb), or, on Linux,
// a process held by a pidfd from before the proof to the signal.

// shutdownSteps stop a server: fast shutdown, then immediate shutdown, then
// SIGKILL. After each signal the server and its backends are continued, so
// a frozen (SIGSTOPped) server can act on it.
var shutdownSteps = []struct {
	sig  syscall.Signal
	wait time.Duration
}{{syscall.SIGINT, 5 * time.Second}, {syscall.SIGQUIT, 2 * time.Second}, {syscall.SIGKILL, time.Second}}

// shutdown runs the steps until gone reports the server ended within a
// step's wait; it reports whether it did.
func shutdown(signal func(syscall.Signal), resume func(), gone func(time.Duration) bool) bool {
	for _, step := range shutdownSteps {
		signal(step.sig)
		resume()
		if gone(step.wait) {
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
