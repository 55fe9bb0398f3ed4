//go:build unix

package cli

import "syscall"

// A FIFO opened for reading would wait for a writer; a symlink planted
// where a new trace goes is not followed.
const (
	syscallNonblock = syscall.O_NONBLOCK
	syscallNofollow = syscall.O_NOFOLLOW
)
