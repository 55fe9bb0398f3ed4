package lang_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
)

// messages are the English formats the code translates: the first
// argument of every Narrate(…) and T(…) call written as a literal, the
// one and many forms of every counted(…) call, the invariants' texts and
// the scenarios' titles and stories.
func messages(t *testing.T) map[string]string {
	t.Helper()
	found := map[string]string{}
	root := ".."
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		literal := func(e ast.Expr) {
			if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				text, err := strconv.Unquote(lit.Value)
				require.NoError(t, err)
				found[text] = fset.Position(lit.Pos()).String()
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "counted" && len(call.Args) == 4 {
				literal(call.Args[2])
				literal(call.Args[3])
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok || (sel.Sel.Name != "Narrate" && sel.Sel.Name != "T") {
				return true
			}
			literal(call.Args[0])
			return true
		})
		return nil
	})
	require.NoError(t, err)
	for n, text := range engine.Invariants {
		found[text] = "engine.Invariants[" + strconv.Itoa(n) + "]"
	}
	for _, s := range scenarios.All() {
		found[s.Title] = s.ID + "'s title"
		found[s.Story] = s.ID + "'s story"
		for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
			for _, a := range s.Actors(mode) {
				for _, step := range a.Program {
					found[step.Name] = s.ID + "'s step of " + a.Name
				}
			}
		}
	}
	require.Greater(t, len(found), 60, "the scan found the narration")
	return found
}

// args are the argument numbers a format's verbs use (1-based), in order.
func args(format string) []int {
	var used []int
	next := 1
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			continue
		}
		i++
		if i < len(format) && format[i] == '%' {
			continue
		}
		for i < len(format) && strings.ContainsRune("+-# 0123456789.[]", rune(format[i])) {
			if format[i] == '[' {
				end := strings.IndexByte(format[i:], ']')
				n, _ := strconv.Atoi(format[i+1 : i+end])
				next = n
				i += end
			}
			i++
		}
		used = append(used, next)
		next++
	}
	return used
}

// Every message the code translates has its Korean, with verbs for the
// same arguments; and the catalog holds no message the code no longer has.
func TestEveryMessageHasItsKorean(t *testing.T) {
	found := messages(t)
	for text, where := range found {
		require.True(t, lang.Ko.Has(text), "%s: no Korean for %q", where, text)
		english, korean := args(text), args(lang.Ko.T(text))
		slices.Sort(korean)
		korean = slices.Compact(korean)
		require.Equal(t, len(english), len(korean), "%s: the Korean of %q uses other arguments: %q", where, text, lang.Ko.Messages()[text])
		for i := range english {
			require.Equal(t, i+1, korean[i], "%s: the Korean of %q", where, text)
		}
	}
	for text := range lang.Ko.Messages() {
		_, used := found[text]
		require.True(t, used, "the Korean catalog has %q, which nothing says any more", text)
	}
}

func TestParseAndLocale(t *testing.T) {
	l, err := lang.Parse("KO")
	require.NoError(t, err)
	require.Equal(t, lang.Ko, l)
	_, err = lang.Parse("fr")
	require.EqualError(t, err, `--lang "fr": want en or ko`)
	for _, tc := range []struct {
		all, messages, lang_ string
		want                 lang.Lang
	}{
		{"", "", "ko_KR.UTF-8", lang.Ko},
		{"", "en_US.UTF-8", "ko_KR.UTF-8", lang.En},
		{"ko_KR", "", "C.UTF-8", lang.Ko},
		{"", "", "", lang.En},
	} {
		t.Setenv("LC_ALL", tc.all)
		t.Setenv("LC_MESSAGES", tc.messages)
		t.Setenv("LANG", tc.lang_)
		require.Equal(t, tc.want, lang.FromEnv(), "%+v", tc)
	}
}
