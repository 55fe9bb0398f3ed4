//go:build unix

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// stdoutWasClosed reports whether fencelab started with its standard output
// closed (`fencelab list >&-`). The Go runtime then puts /dev/null, opened
// read-write, in its place, so writes would vanish without an error; a
// shell's `>/dev/null` opens it write-only, and a terminal, file or pipe is
// something else altogether.
func stdoutWasClosed() bool {
	var out, null unix.Stat_t
	if unix.Fstat(int(os.Stdout.Fd()), &out) != nil || unix.Stat(os.DevNull, &null) != nil {
		return false
	}
	if out.Mode&unix.S_IFMT != unix.S_IFCHR || out.Rdev != null.Rdev {
		return false
	}
	flags, err := unix.FcntlInt(os.Stdout.Fd(), unix.F_GETFL, 0)
	return err == nil && flags&unix.O_ACCMODE == unix.O_RDWR
}
