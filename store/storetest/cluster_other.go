//go:build !linux

package storetest

import "syscall"

func nodeAttributes() *syscall.SysProcAttr { return nil }
