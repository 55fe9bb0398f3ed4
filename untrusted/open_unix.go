//go:build unix

package untrusted

import "syscall"

// A FIFO opened for reading would wait for a writer.
const openNonblock = syscall.O_NONBLOCK
