package cli

import (
	"strings"
	"testing"
)

// Every word fencelab echoes back from the command line goes through the
// same quoting: escapes fed to each error path of the flag parser and of
// the subcommands never reach the terminal raw (a title escape would
// retitle it, a clear would wipe it), and each is refused.
func TestNoEscapeTheUserTypedIsEchoedRaw(t *testing.T) {
	const title, red = "\x1b]0;TITLE\a", "\x1b[31m"
	for _, args := range [][]string{
		{"run", "lease-overrun", "--x" + title},
		{"run", "lease-overrun", "-" + red},
		{"run", "lease-overrun", "--lease-ttl", "3" + red},
		{"run", "lease-overrun", "--mode", "sa" + red},
		{"check", "lease-overrun", "--max-schedules", red},
		{"check", "lease-overrun", "--without", "fen" + title},
		{"stress", "--workers", red},
		{"export", "lease-overrun", "--to", title},
		{"run", "le" + red + "ase"},
		{"matrix", red + ".toml"},
		{"diff", title},
		{"replay", red + ".json"},
		{"talk", red + ".toml"},
		{"scenario", "show", red},
		{"scenario", "check", title + ".toml"},
		{"scenario", red},
		{"guards", red},
		{"list", title},
		{"--lang", red, "list"},
		{red},
	} {
		code, stdout, stderr := call(t, args...)
		if code == 0 {
			t.Errorf("%q: exit 0, want a refusal", args)
		}
		for _, out := range []string{stdout, stderr} {
			if strings.ContainsAny(out, "\x1b\a") {
				t.Errorf("%q echoed an escape raw: %q", args, out)
			}
			if strings.Contains(out, `\\x1b`) {
				t.Errorf("%q quoted the word twice: %s", args, out)
			}
		}
	}
}

// A misspelt scenario id or flag gets a did-you-mean; scenario show, which
// takes catalog ids only, suggests no file.
func TestMisspeltNamesGetADidYouMean(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"run", "lease-overun"}, `unknown scenario "lease-overun" (did you mean lease-overrun?)`},
		{[]string{"run", "lease-overrun", "--mdoe", "safe"}, "unknown flag --mdoe (did you mean --mode?)"},
		{[]string{"check", "lease-overrun", "--withot", "fence"}, "unknown flag --withot (did you mean --without?)"},
		{[]string{"scenario", "show", "nosuch"}, "scenario show prints a catalog scenario"},
	} {
		code, _, stderr := call(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.says) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", c.args, code, stderr, c.says)
		}
		if c.args[0] == "scenario" && strings.Contains(stderr, ".toml") {
			t.Errorf("%q suggests a file: %q", c.args, stderr)
		}
	}
}
