//go:build unix && !linux

package stress

import "syscall"

// workerAttributes: a worker process is in a process group of its own, so
// a Ctrl-C at the terminal reaches the run, which stops its workers in
// order. Without Linux's parent-death signal, a worker whose run dies
// stops when its standard input closes.
func workerAttributes() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// isStopped cannot see a process's state here: the thaw just waits out
// the pause, which is far longer than the moment a stop takes.
func isStopped(int) (stopped, known bool) { return false, false }

// stopSelf stops this process with SIGSTOP.
func stopSelf() { syscall.Kill(syscall.Getpid(), syscall.SIGSTOP) }
