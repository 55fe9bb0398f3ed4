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
		}
	}
}
