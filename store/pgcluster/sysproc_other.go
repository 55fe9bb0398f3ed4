//go:build !linux

package pgcluster

import "syscall"

// sysProcAttr runs a server program as the account.
func (a *account) sysProcAttr() *syscall.SysProcAttr {
	attr := &syscall.SysProcAttr{Setpgid: true}
	if a.switched {
		attr.Credential = &syscall.Credential{Uid: a.uid, Gid: a.gid, NoSetGroups: true}
	}
	return attr
}
