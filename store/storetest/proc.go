package storetest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Tests look at processes the way fencelab must not guess at them: from
// /proc, by what each one is.

// Process is a process as /proc shows it.
type Process struct {
	PID     int
	Cmdline string
}

// Postmasters lists the PostgreSQL servers whose data directory is under
// dir (not initdb's bootstrap backend: a server fencelab starts listens on
// a socket, -k).
func Postmasters(dir string) []Process {
	var found []Process
	paths, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue // ended meanwhile
		}
		cmdline := strings.ReplaceAll(string(raw), "\x00", " ")
		if strings.Contains(cmdline, "postgres") && strings.Contains(cmdline, "-D "+dir) && strings.Contains(cmdline, " -k ") {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			found = append(found, Process{pid, cmdline})
		}
	}
	return found
}

// Running reports whether a process exists and is not a zombie (a child
// that ended and was not waited for).
func Running(pid int) bool {
	state, _ := stat(pid)
	return state != "" && state != "Z"
}

// Children lists the processes whose parent is pid.
func Children(pid int) []int {
	var children []int
	paths, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, path := range paths {
		child, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
		if _, parent := stat(child); parent == pid {
			children = append(children, child)
		}
	}
	return children
}

// stat reads a process's state and parent pid from /proc/PID/stat.
func stat(pid int) (state string, parent int) {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", -1
	}
	// pid (comm) state ppid …; comm may hold spaces and parentheses.
	fields := strings.Fields(string(raw[bytes.LastIndexByte(raw, ')')+1:]))
	if len(fields) < 2 {
		return "", -1
	}
	parent, _ = strconv.Atoi(fields[1])
	return fields[0], parent
}
