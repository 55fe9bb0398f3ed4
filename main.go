// Command fencelab is a keyboard-driven explorer of job safety in
// distributed systems: real workers against a real Redis and a real
// PostgreSQL, one step at a time, in SAFE and UNSAFE mode.
//
//	fencelab                      the explorer, on lease-overrun in SAFE mode
//	fencelab list                 the catalog
//	fencelab run ID|--all [--mode safe|unsafe|both] [--json]
//	fencelab check ID|--all [--mode both] [--out DIR]
//	fencelab replay FILE
//	fencelab export TRACE|ID --to md|mermaid|cast|tape
//	fencelab talk SCRIPT
//	fencelab race [--n 100] [--free K]
//	fencelab stress [--workers 8] [--procs] [--mode unsafe]
//
// The command line is package cli; main only runs it.
package main

import (
	"os"

	// Before Bubble Tea's init: no terminal query, no 5 s stall where the
	// terminal never answers (see the package).
	_ "fencelab.invalid/beforetea"

	"github.com/fencelab/fencelab/cli"
)

func main() { os.Exit(cli.Main()) }
