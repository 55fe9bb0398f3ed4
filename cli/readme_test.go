package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/tui"
)

// The README is a newcomer's first hour: one screen of what fencelab is,
// then tables of keys and commands. These tests keep it short and true.

// maxReadmeLines is as long as the README may grow; the rest goes to docs/.
const maxReadmeLines = 300

// maxUsageLines is as long as fencelab --help may grow: one line a command.
const maxUsageLines = 40

func readme(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	return string(data)
}

// readmeTable is the first column of the table under the README's heading
// "## NAME": each row's cell, as written.
func readmeTable(t *testing.T, heading string) []string {
	t.Helper()
	_, section, found := strings.Cut(readme(t), "\n## "+heading+"\n")
	require.True(t, found, "the README has a section %q", heading)
	section, _, _ = strings.Cut(section, "\n## ")
	var cells []string
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "|---") {
			continue
		}
		cell, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		cells = append(cells, cell)
	}
	require.NotEmpty(t, cells, "the README's %q has a table", heading)
	return cells[1:] // the header row
}

func TestReadmeIsShort(t *testing.T) {
	lines := strings.Count(readme(t), "\n")
	require.LessOrEqual(t, lines, maxReadmeLines, "the README has %d lines: move the detail to docs/", lines)
	require.NotContains(t, readme(t), "DESIGN", "the README cites a document its readers do not have")
}

// keyNames are the README's names of keys bubbles/key names otherwise.
var keyNames = map[string]string{"space": " ", "↑": "up", "↓": "down", "←": "left", "→": "right"}

// Each key of the README's table is a key of the explorer's keymap, and
// each key of the keymap is in the table.
func TestReadmeKeysAreTheExplorers(t *testing.T) {
	var listed []string
	backticked := regexp.MustCompile("`([^`]+)`")
	for _, cell := range readmeTable(t, "Keys") {
		for _, m := range backticked.FindAllStringSubmatch(cell, -1) {
			name := m[1]
			if name == "1-9" {
				listed = append(listed, "1", "2", "3", "4", "5", "6", "7", "8", "9")
				continue
			}
			if k, ok := keyNames[name]; ok {
				name = k
			}
			listed = append(listed, name)
		}
	}
	keymap := tui.Keys()
	for _, k := range listed {
		require.Contains(t, keymap, k, "the README lists %q, which the explorer's keymap does not bind", k)
	}
	for _, k := range keymap {
		require.Contains(t, listed, k, "the explorer binds %q, which the README's key table leaves out", k)
	}
}

// boolFlags take no value: the word after one is the command line's own.
var boolFlags = []string{"all", "json", "keep", "allow-bounded", "why", "strict", "watch", "procs", "allow-unsafe", "verbose", "help"}

// shorthands are the one-letter flags by their names.
var shorthands = map[string]string{"o": "output", "v": "verbose", "h": "help"}

// Each command line of the README's command table parses: it is a command
// fencelab has (or the explorer), every flag it gives is one that command
// takes, and every scenario it names is one there is. The quick ones run;
// the others' --help is read, which parses the same line.
func TestReadmeCommandsParse(t *testing.T) {
	rows := readmeTable(t, "Commands")
	t.Chdir("..") // the README's paths are the repository's
	quick := []string{"list", "guards", "version", "scenario"}
	for _, cell := range rows {
		line := strings.Trim(cell, "`")
		words := strings.Fields(line)
		require.Equal(t, "fencelab", words[0], "a row of the command table is a fencelab command line: %s", cell)
		args := words[1:]
		t.Run(line, func(t *testing.T) {
			code, stdout, stderr := call(t, append(slices.Clone(args), "--help", "--lang", "en")...)
			require.Equal(t, 0, code, "%s --help: %s", line, stderr)
			command := "explorer" // fencelab --help: usage, whose first line is the explorer's
			if stdout != usage(lang.En) {
				topic := slices.IndexFunc(helpTopics, func(topic string) bool { return stdout == commandHelp(topic, lang.En) })
				require.GreaterOrEqual(t, topic, 0, "%s --help prints no command's help", line)
				command = helpTopics[topic]
			}
			taken := commandFlags[command]
			if command == "explorer" {
				taken = commandFlags[""]
			}
			var positional []string
			for i := 0; i < len(args); i++ {
				name, given := "", args[i]
				switch {
				case strings.HasPrefix(given, "--"):
					name, _, _ = strings.Cut(strings.TrimPrefix(given, "--"), "=")
				case strings.HasPrefix(given, "-"):
					name = shorthands[strings.TrimPrefix(given, "-")]
				default:
					positional = append(positional, given)
					continue
				}
				require.True(t, slices.Contains(taken, name) || slices.Contains(globalFlags, name), "%s: %s does not take %s", line, command, given)
				if !slices.Contains(boolFlags, name) && !strings.Contains(given, "=") {
					i++ // its value
				}
			}
			if slices.Contains([]string{"explorer", "run", "check", "export", "diff", "matrix"}, command) {
				if command != "explorer" && len(positional) > 0 {
					positional = positional[1:] // the command's name
				}
				for _, arg := range positional {
					if strings.HasSuffix(arg, ".toml") {
						require.FileExists(t, arg, "%s names a scenario file", line)
					} else if !strings.HasSuffix(arg, ".json") {
						_, known := scenarios.ByID(arg)
						require.True(t, known, "%s names scenario %q, which the catalog does not have", line, arg)
					}
				}
			}
			if slices.Contains(quick, command) {
				code, _, stderr := call(t, args...)
				require.Equal(t, 0, code, "%s: %s", line, stderr)
			}
		})
	}
}

// Every page the README, docs/ and the help point to is there, and so is
// the picture the README shows.
func TestReadmeLinksAreThere(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	pages, err := filepath.Glob("../docs/*.md")
	require.NoError(t, err)
	for _, page := range append(pages, "../README.md") {
		data, err := os.ReadFile(page)
		require.NoError(t, err)
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			if strings.Contains(m[1], "://") {
				continue
			}
			require.FileExists(t, filepath.Join(filepath.Dir(page), m[1]), "%s links to %s", page, m[1])
		}
	}
	gif, err := os.Stat("../docs/lease-overrun.gif")
	require.NoError(t, err)
	require.Less(t, gif.Size(), int64(2<<20), "the README's picture is small enough to load at once")

	mentioned := regexp.MustCompile(`docs/[a-z-]+\.md`)
	for _, l := range lang.All {
		texts := []string{usage(l)}
		for _, topic := range helpTopics {
			texts = append(texts, commandHelp(topic, l))
		}
		for _, text := range texts {
			for _, page := range mentioned.FindAllString(text, -1) {
				require.FileExists(t, "../"+page, "the help (%s) points to %s", l, page)
			}
		}
	}
}

// fencelab --help is one line a command and fits a screen, in every
// language.
func TestHelpIsShort(t *testing.T) {
	for _, l := range lang.All {
		for _, args := range [][]string{{"--help"}, {"help"}, {"-h"}} {
			code, stdout, stderr := call(t, append(args, "--lang", string(l))...)
			require.Equal(t, 0, code, stderr)
			lines := strings.Count(stdout, "\n")
			require.LessOrEqual(t, lines, maxUsageLines, "fencelab %v --lang %s is %d lines", args, l, lines)
			for _, command := range commands {
				require.Equal(t, 1, strings.Count(stdout, "\n  fencelab "+command+" "), "fencelab %v --lang %s: one line for %s", args, l, command)
			}
		}
	}
}

// help COMMAND and COMMAND --help give that command's help in English and
// in Korean: the same text both ways, every flag the command takes, its
// examples, and the flags every command takes.
func TestHelpOfEveryCommand(t *testing.T) {
	for _, topic := range helpTopics {
		taken := commandFlags[topic]
		if topic == "explorer" {
			taken = commandFlags[""]
		}
		var said []string
		for _, l := range lang.All {
			code, stdout, stderr := call(t, "help", topic, "--lang", string(l))
			require.Equal(t, 0, code, stderr)
			code, again, stderr := call(t, topic, "--help", "--lang", string(l))
			require.Equal(t, 0, code, stderr)
			require.Equal(t, stdout, again, "help %s and %s --help (%s)", topic, topic, l)
			require.Equal(t, commandHelp(topic, l), stdout)
			for _, name := range taken {
				flag := "--" + name
				if name == "output" {
					flag = "-o"
				}
				require.Contains(t, stdout, flag, "%s's help (%s) leaves out %s", topic, l, flag)
			}
			for _, name := range []string{"save-trace", "md", "html"} {
				if slices.Contains(taken, name) {
					require.Regexp(t, `--`+name+` FILE +(another name for -o|-o의 다른 이름)`, stdout, "%s's help says --%s is -o's alias", topic, name)
				}
			}
			require.Contains(t, stdout, "fencelab", topic)
			require.Regexp(t, `\n  fencelab[ \n]`, stdout, "%s's help (%s) has examples", topic, l)
			require.Contains(t, stdout, "--lease-ttl", "%s's help (%s) ends with the flags every command takes", topic, l)
			said = append(said, stdout)
		}
		english, _, _ := strings.Cut(said[0], "\n")
		korean, _, _ := strings.Cut(said[1], "\n")
		require.NotEqual(t, english, korean, "%s's help is said in Korean (is lang/ko.go's stale?)", topic)
	}
	code, stdout, stderr := call(t, "lease-overrun", "--help")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, commandHelp("explorer", lang.FromEnv()), stdout, "a scenario's --help is the explorer's")
}

// -o is the file every command writes one of; an older name given beside
// it must name the same file.
func TestHelpOneFileFlag(t *testing.T) {
	requireRefused(t, []refusal{
		{"run", []string{"run", "lease-overrun", "-o", "a.json", "--save-trace", "b.json"}, 2, "-o and --save-trace both name the file to write"},
		{"matrix", []string{"matrix", "lease-overrun", "-o", "a.md", "--md", "b.md"}, 2, "-o and --md both name the file to write"},
		{"stress", []string{"stress", "-o", "a.html", "--html", "b.html"}, 2, "-o and --html both name the file to write"},
		{"matrix -o empty", []string{"matrix", "lease-overrun", "-o", ""}, 2, "needs a file name"},
		{"one file", []string{"check", "lease-overrun", "-o", "a.json"}, 2, "check does not take -o (fencelab help check says what it takes)"},
	})
}
