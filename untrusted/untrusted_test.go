package untrusted

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestNestingCountsOnlyStructure(t *testing.T) {
	l := Limits{MaxBytes: 1 << 20, MaxDepth: 3, Syntax: TOML}
	fine := []string{
		`a = [[1], [2]]`,
		`a = "[[[[[[ in a string"`,
		`a = '[[[[[[ in a literal'`,
		"a = \"\"\"\n[[[[[[\n\"\"\"",
		"a = '''\n{{{{{{{\n'''",
		"# [[[[[[[ in a comment\na = 1",
		`a = "an escaped \" quote [[[[[["`,
		"[[scene]]\n[[scene.step]]\nx = {a = {b = 1}}",
	}
	for _, doc := range fine {
		require.NoError(t, CheckNesting([]byte(doc), l), doc)
	}
	for _, doc := range []string{
		"a.b = 1.5\nx = [1.5, 2.5]\nt = 1979-05-27T07:32:00.999",
		"[a.b]\nc.d = {e.f = 1}",
		"[[scene.step]]\nat = 1",
		`"a.b.c.d.e" = 1`,
		"x = [\n  1.5,\n  2.5.5,\n]",
	} {
		require.NoError(t, CheckNesting([]byte(doc), l), doc)
	}
	var deep *TooDeep
	// Dotted keys nest without brackets.
	for _, doc := range []string{"a.b.c.d = 1", "[a.b.c.d]", "[[a.b.c.d]]", "x = {a.b.c = 1}", "x = {y = 1, a.b.c = 1}", "\n\nz = 1\na.a.a.a.a.a = 1"} {
		require.ErrorAs(t, CheckNesting([]byte(doc), l), &deep, doc)
	}
	require.Equal(t, 4, deep.Line)
	err := CheckNesting([]byte("a = 1\nb = [[[[1]]]]"), l)
	require.ErrorAs(t, err, &deep)
	require.Equal(t, 2, deep.Line)
	require.ErrorAs(t, CheckNesting([]byte(`x = {a={a={a={a=1}}}}`), l), &deep)
	// A bracket after a string ends counts again.
	require.ErrorAs(t, CheckNesting([]byte(`a = ["]", [[["x"]]]]`), l), &deep)

	j := Limits{MaxBytes: 1 << 20, MaxDepth: 3, Syntax: JSON}
	require.NoError(t, CheckNesting([]byte(`{"a": "[[[[[[", "b": ["it's"]}`), j))
	require.ErrorAs(t, CheckNesting([]byte(`{"a": [[{"b": 1}]]}`), j), &deep)
	// '#' and '\'' are nothing in JSON.
	require.ErrorAs(t, CheckNesting([]byte(`{"a": "#", "b": [[[1]]]}`), j), &deep)
}

func TestReadFileRefusesBeforeDecoding(t *testing.T) {
	dir := t.TempDir()
	l := Limits{MaxBytes: 1 << 10, MaxDepth: 8, Syntax: TOML}

	big := filepath.Join(dir, "big.toml")
	require.NoError(t, os.WriteFile(big, []byte("a = \""+strings.Repeat("x", 2000)+"\""), 0o644))
	_, err := ReadFile(big, l)
	var tooLarge *TooLarge
	require.ErrorAs(t, err, &tooLarge)
	require.Equal(t, "larger than 1 KiB", err.Error())

	deep := filepath.Join(dir, "deep.toml")
	require.NoError(t, os.WriteFile(deep, []byte("x = "+strings.Repeat("{a=", 100)+"1"+strings.Repeat("}", 100)), 0o644))
	_, err = ReadFile(deep, l)
	require.EqualError(t, err, "line 1: nested more than 8 deep")

	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	_, err = ReadFile(fifo, l) // returns at once: nobody writes to it
	require.ErrorIs(t, err, ErrNotRegular)

	_, err = ReadFile(dir, l)
	require.ErrorIs(t, err, ErrNotRegular)

	_, err = ReadFile(filepath.Join(dir, "none"), l)
	require.True(t, errors.Is(err, os.ErrNotExist))
	require.Equal(t, "no such file or directory", err.Error())
}

func TestTextShowsControlCharacters(t *testing.T) {
	hostile := "\x1b]0;pwned\x07\x1b[2J\x1b[31mRED\u009b31m\x7f\tend\r\n"
	require.Equal(t, "␛]0;pwned␇␛[2J␛[31mRED\uFFFD31m␡ end␍\n", Text(hostile))
	require.Equal(t, "␛]0;pwned␇␛[2J␛[31mRED\uFFFD31m␡ end␍␊", Line(hostile))
	for _, s := range []string{Text(hostile), Line(hostile), Text("\xff\xfe bad"), Line("ok ✓ 토큰")} {
		for _, r := range s {
			require.False(t, r < 0x20 && r != '\n' || r >= 0x7f && r < 0xa0, "%q left %U", s, r)
		}
	}
	require.Equal(t, "ok ✓ 토큰\nnext", Text("ok ✓ 토큰\nnext"))
	require.Equal(t, "a\uFFFDgnp.exe\uFFFD", Line("a\u202egnp.exe\u2069"), "no reordering of what follows")
	require.Equal(t, "\uFFFD bad", Line("\xff\xfe bad")) // a run of bad bytes is one
}

func TestWithoutContentKeepsNoByteOfTheFile(t *testing.T) {
	for msg, want := range map[string]string{
		"invalid character 'r' looking for beginning of value": "invalid character looking for beginning of value",
		`invalid character '\'' after object key`:              "invalid character after object key",
		"expected '.' or '=', but got ':' instead":             "expected '.' or '=', but got something else",
		`expected value but found "hunter2" instead`:           "expected value but found something else",
		"strings cannot contain newlines":                      "strings cannot contain newlines",
	} {
		require.Equal(t, want, WithoutContent(msg))
	}
}
