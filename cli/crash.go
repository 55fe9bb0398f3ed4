package cli

import (
	"fmt"
	"os"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/fencelab/fencelab/lang"
)

// exitCrashed is a bug of fencelab's own: a panic (EX_SOFTWARE of
// sysexits.h). It is never 0, whatever ended the run.
const exitCrashed = 70

// crash is a panic kept to be reported once the terminal is the user's
// again: its value and the stack where it happened.
type crash struct {
	value any
	stack []byte
}

// crashes keeps the first panic of a run.
type crashes struct {
	mu    sync.Mutex
	first *crash
}

func (c *crashes) keep(value any) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.first == nil {
		c.first = &crash{value: value, stack: debug.Stack()}
	}
}

func (c *crashes) kept() *crash {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.first
}

// catchCrashes wraps the explorer's model: a panic in its Update or View,
// or in a command it returns (they run on goroutines of Bubble Tea's), is
// kept and ends the program, which gives the terminal back. Bubble Tea
// would catch it too, but print its stack over the screen and let the run
// end as a success.
type catchCrashes struct {
	model   tea.Model
	crashes *crashes
	// quit ends the program from View, which cannot return a command.
	quit func()
}

func (c catchCrashes) Init() tea.Cmd { return c.guard(c.model.Init()) }

func (c catchCrashes) Update(msg tea.Msg) (model tea.Model, cmd tea.Cmd) {
	if c.crashes.kept() != nil {
		return c, tea.Quit // a model that panicked is not run on
	}
	defer func() {
		if r := recover(); r != nil {
			c.crashes.keep(r)
			model, cmd = c, tea.Quit
		}
	}()
	next, cmd := c.model.Update(msg)
	c.model = next
	return c, c.guard(cmd)
}

func (c catchCrashes) View() (view string) {
	if c.crashes.kept() != nil {
		return ""
	}
	defer func() {
		if r := recover(); r != nil {
			c.crashes.keep(r)
			go c.quit() // View runs on the program's loop: Quit waits for it
			view = ""
		}
	}()
	return c.model.View()
}

var cmdType = reflect.TypeOf((*tea.Cmd)(nil)).Elem()

// guard makes a command keep its panic and quit, and so the commands its
// message holds: a batch, or a sequence (whose type Bubble Tea does not
// export, hence reflection: it is a slice of commands either way).
func (c catchCrashes) guard(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				c.crashes.keep(r)
				msg = tea.Quit()
			}
		}()
		msg = cmd()
		if v := reflect.ValueOf(msg); v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
			for i := range v.Len() {
				if inner, _ := v.Index(i).Interface().(tea.Cmd); inner != nil {
					v.Index(i).Set(reflect.ValueOf(c.guard(inner)))
				}
			}
		}
		return msg
	}
}

// report writes the crash log — the panic and its whole stack (not the
// command line: it may hold a password) — to a new file of the user's temporary directory, and returns the
// exit error that says the panic's first line, where fencelab was, and
// where the log went.
func (k *crash) report() *exitError {
	value := fmt.Sprint(k.value)
	where := panicSite(k.stack)
	log := fmt.Sprintf("fencelab crashed at %s\npanic: %s\n\n%s", time.Now().UTC().Format(time.RFC3339), value, k.stack)
	first := strings.SplitN(value, "\n", 2)[0]
	// CreateTemp makes a file of a new name, 0600, refusing one that is
	// there already: a name another account planted is never followed.
	f, err := os.CreateTemp("", "fencelab-crash-*.log")
	if err == nil {
		_, err = f.WriteString(log)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}
	if err != nil {
		return &exitError{code: exitCrashed, err: fmt.Errorf("crashed: %s", first),
			said: lang.P("fencelab crashed (a bug of its own): %s, in %s; no crash log could be written: %s", first, where, err.Error())}
	}
	return &exitError{code: exitCrashed, err: fmt.Errorf("crashed: %s", first),
		said: lang.P("fencelab crashed (a bug of its own): %s, in %s; the crash log is %s — please report it with the keys you pressed", first, where, f.Name())}
}

// panicSite is where in fencelab's own code the panic was, from a stack
// debug.Stack wrote: the first frame below "panic(" whose function is
// fencelab's, as its package directory and file, "tui/history.go:58".
func panicSite(stack []byte) string {
	const module = "github.com/fencelab/fencelab/"
	lines := strings.Split(string(stack), "\n")
	below := false
	for i := 0; i+1 < len(lines); i++ {
		switch {
		case strings.HasPrefix(lines[i], "panic("):
			below = true
		case below && strings.HasPrefix(lines[i], module):
			file := strings.TrimSpace(lines[i+1])
			if sp := strings.IndexByte(file, ' '); sp >= 0 {
				file = file[:sp] // " +0x1c"
			}
			parts := strings.Split(file, "/")
			return strings.Join(parts[max(0, len(parts)-2):], "/")
		}
	}
	return "an unknown place"
}
