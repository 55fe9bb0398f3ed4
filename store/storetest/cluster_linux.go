package storetest

import "syscall"

// nodeAttributes: a cluster node dies with the test process, however it
// ends.
func nodeAttributes() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} }
