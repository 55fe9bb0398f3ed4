//go:build !unix

package stress

import (
	"context"
	"errors"
	"io"
	"os/exec"
)

// CanFreeze reports whether this platform freezes processes (SIGSTOP):
// this one cannot.
const CanFreeze = false

// Processes needs SIGSTOP, which this platform lacks.
func Processes(func() *exec.Cmd, any) Fleet { return nil }

// WorkerSpec is what a worker process is told on its standard input.
type WorkerSpec struct {
	Worker WorkerConfig
}

// ServeWorker needs SIGSTOP's platforms.
func ServeWorker(context.Context, io.Reader, io.Writer, func(context.Context, WorkerSpec) (*Worker, func(), error)) error {
	return errors.New("stress: worker processes need a platform with SIGSTOP")
}
