package main

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"
)

// commands are the commands usage has a section for.
var commands = []string{"list", "run", "check", "replay", "export", "talk", "race", "version"}

// commandUsage is the part of usage about one command: its lines, then the
// flags every command takes and the exit codes. Empty for no such command.
func commandUsage(name string) string {
	lines := strings.Split(usage, "\n")
	var section []string
	in := false
	for _, line := range lines {
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
	rest := usage[strings.Index(usage, "\nflags:\n"):]
	return "usage:\n" + strings.Join(section, "\n") + "\n" + rest
}

// printHelp prints the help of a command, or all of it.
func printHelp(w io.Writer, command string) error {
	if text := commandUsage(command); text != "" {
		_, err := fmt.Fprint(w, text)
		return err
	}
	if command != "" && command != "help" {
		return usageError("no help for %q: there is no such command (want %s)", command, strings.Join(commands, ", "))
	}
	_, err := fmt.Fprint(w, usage)
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
