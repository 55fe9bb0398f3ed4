package pgcluster

import "syscall"

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
