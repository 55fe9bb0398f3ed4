package export

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
)

// Every character fencelab may put on its screen — the strings of the
// packages that write it, the catalog's and the talks' files — is drawn
// in an exported picture by an embedded font with a glyph of its own that
// fits the cells the terminal gives it: no box, no arrow cut to a dash.
func TestEveryGlyphOnTheScreenIsDrawnWhole(t *testing.T) {
	runes := map[rune]string{}
	note := func(text, where string) {
		for _, r := range text {
			if r > unicode.MaxASCII && unicode.IsGraphic(r) && !unicode.IsSpace(r) {
				if _, ok := runes[r]; !ok {
					runes[r] = where
				}
			}
		}
	}
	for _, dir := range []string{"../tui", "../engine", "../scenarios", "../lang", "../cli"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, path := range files {
			if strings.HasSuffix(path, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
			require.NoError(t, err)
			ast.Inspect(f, func(n ast.Node) bool {
				if lit, ok := n.(*ast.BasicLit); ok && (lit.Kind == token.STRING || lit.Kind == token.CHAR) {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						note(s, path)
					}
				}
				return true
			})
		}
	}
	for _, pattern := range []string{"../scenarios/catalog/*.toml", "../talks/*.toml", "../examples/*.toml"} {
		files, err := filepath.Glob(pattern)
		require.NoError(t, err)
		for _, path := range files {
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			note(string(data), path)
		}
	}
	require.Contains(t, runes, '→', "the story's formula is among them")
	fs, err := faces()
	require.NoError(t, err)
	var wrong []string
	for r, where := range runes {
		width := ansi.StringWidth(string(r))
		if width == 0 {
			continue // a combining mark, drawn with the character before it
		}
		chosen := faceFor(fs, r, width*cellWidth)
		drawn := false
		for _, f := range fs {
			if f.face == chosen {
				drawn = f.has(r) && fits(f, r, width*cellWidth)
			}
		}
		if !drawn {
			wrong = append(wrong, string(r)+" U+"+strings.ToUpper(strconv.FormatInt(int64(r), 16))+" ("+where+")")
		}
	}
	sort.Strings(wrong)
	require.Empty(t, wrong, "characters no embedded font draws whole in their cells")
}
