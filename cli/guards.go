package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
)

// printGuards lists the guards SAFE makes, each with what it checks:
// fencelab's, or a scenario file's.
func printGuards(w io.Writer, list []engine.Guard, asJSON bool, l lang.Lang) error {
	if asJSON {
		type jsonGuard struct {
			Name   string `json:"name"`
			Checks string `json:"checks"`
		}
		out := []jsonGuard{}
		for _, g := range list {
			out = append(out, jsonGuard{g.String(), g.What().In(lang.En)})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	width := 15 // a file's own names may be longer
	for _, g := range list {
		width = max(width, ansi.StringWidth(g.String()))
	}
	indent := strings.Repeat(" ", width+1)
	for _, g := range list {
		lines := strings.Split(ansi.Wordwrap(g.What().In(l), max(30, reportWidth-len(indent)), ""), "\n")
		fmt.Fprintf(w, "%s%s %s\n", g, strings.Repeat(" ", width-ansi.StringWidth(g.String())), strings.Join(lines, "\n"+indent))
	}
	if len(list) == 0 {
		fmt.Fprint(w, l.T("the file's steps define no guards: SAFE and UNSAFE run the same code")+"\n")
	}
	fmt.Fprint(w, l.T("\nSAFE makes every check; --without GUARD[,GUARD…] takes them out of its code (run, check,\nstress, export, the explorer), and fencelab matrix shows which scenario needs each.\n"))
	return nil
}
