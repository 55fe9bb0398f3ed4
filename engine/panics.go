package engine

import (
	"fmt"
	"runtime/debug"
)

// Panic is a panic of a goroutine fencelab started, caught there and
// carried as an error to the goroutine that waits for it. Uncaught, it
// would end the process past every cleanup (the ephemeral server, a real
// Redis's keys, the terminal) with Go's exit 2 — the code of a usage
// error — and a stack over the user's screen; caught, it unwinds as any
// error does, and the command line reports it as a crash (exit 70).
type Panic struct {
	Value any
	Stack []byte // where it happened: the goroutine's own stack
}

func (p *Panic) Error() string { return fmt.Sprintf("panic: %v", p.Value) }

// CatchPanic, deferred by a goroutine's function, turns its panic into
// *err. (It must be the deferred call itself: recover answers only there.)
func CatchPanic(err *error) {
	if r := recover(); r != nil {
		*err = &Panic{Value: r, Stack: debug.Stack()}
	}
}
