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

// printGuards lists the guards SAFE makes, each with what it checks.
func printGuards(w io.Writer, asJSON bool, l lang.Lang) error {
	if asJSON {
		type jsonGuard struct {
			Name   string `json:"name"`
			Checks string `json:"checks"`
		}
		out := []jsonGuard{}
		for _, g := range engine.AllGuards() {
			out = append(out, jsonGuard{g.String(), g.What().In(lang.En)})
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	const indent = "                "
	for _, g := range engine.AllGuards() {
		lines := strings.Split(ansi.Wordwrap(g.What().In(l), reportWidth-len(indent), ""), "\n")
		fmt.Fprintf(w, "%-15s %s\n", g, strings.Join(lines, "\n"+indent))
	}
	fmt.Fprint(w, l.T("\nSAFE makes every check; --without GUARD[,GUARD…] takes them out of its code (run, check,\nstress, export, the explorer), and fencelab matrix shows which scenario needs each.\n"))
	return nil
}
