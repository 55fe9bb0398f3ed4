//go:build unix

package cli

import (
	"os"
	"os/signal"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
)

// suspendOnSignal stops the explorer as job control stops a program — on
// Ctrl-Z (which a raw terminal reads as a key: suspend) and on a SIGTSTP
// sent from elsewhere — giving the terminal back first and taking it again
// when the shell continues it (fg). Once a program has asked for SIGTSTP,
// Go's runtime keeps it from stopping the process, so the process stops
// itself with SIGSTOP, which nothing can catch: only this process, the
// shell's job, stops. stop ends the watch.
func suspendOnSignal(program *tea.Program) (suspend func(), stop func()) {
	tstp := make(chan os.Signal, 1)
	signal.Notify(tstp, syscall.SIGTSTP)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case <-tstp:
			}
			cont := make(chan os.Signal, 1)
			signal.Notify(cont, syscall.SIGCONT)
			if program.ReleaseTerminal() == nil {
				syscall.Kill(os.Getpid(), syscall.SIGSTOP)
				select {
				case <-cont:
				case <-done:
				}
				program.RestoreTerminal()
			}
			signal.Stop(cont)
		}
	}()
	suspend = func() {
		select {
		case tstp <- syscall.SIGTSTP:
		default: // one is on its way already
		}
	}
	return suspend, func() {
		close(done)
		signal.Stop(tstp)
	}
}
