package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/fencelab/fencelab/lang"
)

// commands are the commands usage has a section for.
var commands = []string{"list", "run", "check", "replay", "export", "talk", "race", "stress", "version"}

// usage is the whole help in language l.
func usage(l lang.Lang) string { return l.T(usageHead) + l.T(usageCommands) + l.T(usageFlags) }

// commandUsage is the part of usage about one command, in language l: its
// lines, then the flags every command takes and the exit codes. Empty for
// no such command.
func commandUsage(name string, l lang.Lang) string {
	var section []string
	in := false
	for _, line := range strings.Split(l.T(usageCommands), "\n") {
		switch {
		case strings.HasPrefix(line, "  fencelab "+name+" ") || line == "  fencelab "+name:
			in = true
		case strings.HasPrefix(line, "  fencelab ") || line == "":
			in = false
		}
		if in {
			section = append(section, line)
		}
	}
	if len(section) == 0 {
		return ""
	}
	head := l.T(usageHead)
	return head[strings.LastIndex(strings.TrimSuffix(head, "\n"), "\n")+1:] + strings.Join(section, "\n") + "\n" + l.T(usageFlags)
}

// printHelp prints the help of a command, or all of it, in language l.
func printHelp(w io.Writer, command string, l lang.Lang) error {
	if text := commandUsage(command, l); text != "" {
		_, err := fmt.Fprint(w, text)
		return err
	}
	if command != "" && command != "help" {
		return usageError("no help for %q: there is no such command (want %s)", command, strings.Join(commands, ", "))
	}
	_, err := fmt.Fprint(w, usage(l))
	return err
}

// printVersion says which fencelab this is: its module version and the
// commit it was built from, as the build recorded them.
func printVersion(w io.Writer) error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		_, err := fmt.Fprintln(w, "fencelab (no build information)")
		return err
	}
	line := "fencelab " + info.Main.Version
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	if rev := settings["vcs.revision"]; rev != "" {
		line += " · commit " + rev
		if settings["vcs.modified"] == "true" {
			line += " (with uncommitted changes)"
		}
		if at := settings["vcs.time"]; at != "" {
			line += " of " + at
		}
	} else {
		line += " · no commit recorded (built with -buildvcs=false, or outside a repository)"
	}
	line += " · " + info.GoVersion
	_, err := fmt.Fprintln(w, line)
	return err
}
