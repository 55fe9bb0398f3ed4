package lang_test

import (
	"errors"
	"fmt"
	"github.com/fencelab/fencelab/scenarios/world"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
)

// verb matches a format's verb, %[2]d or %-9s.
var verb = regexp.MustCompile(`%(\[\d+\])?[-+# 0-9.]*[a-zA-Z%]`)

// formatArgument is where the calls that say a message take its English
// format: T and P (lang), Narrate, Emit and Emitf (a step's narration and
// detail), Pause (a guided pause's reason), broke (an invariant's break),
// usageError, outcomeError and lang.Error (the command line's one-line
// errors), wrongAt, fail and failStep (a talk script's).
var formatArgument = map[string]int{"T": 0, "P": 0, "Narrate": 0, "Emitf": 3, "Emit": 4, "Pause": 1, "broke": 1,
	"usageError": 0, "outcomeError": 0, "Error": 0, "wrongAt": 1, "fail": 1, "failStep": 1, "traceError": 0, "wrong": 1}

// messages are the English formats the code translates: every format
// argument of a call formatArgument names, written as a literal or as a
// string constant (the usage), the one and many forms of every counted(…)
// call, the invariants' texts and the scenarios' titles and stories. A
// format with no letters in it says nothing to translate.
func messages(t *testing.T) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	var files []*ast.File
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
		file, err := parser.ParseFile(fset, path, nil, 0)
		files = append(files, file)
		return err
	})
	require.NoError(t, err)

	// String constants by name, for a message passed as one.
	constants := map[string]*ast.BasicLit{}
	for _, file := range files {
		for _, decl := range file.Decls {
			if gen, ok := decl.(*ast.GenDecl); ok && gen.Tok == token.CONST {
				for _, spec := range gen.Specs {
					value := spec.(*ast.ValueSpec)
					for i, name := range value.Names {
						if i < len(value.Values) {
							if lit, ok := value.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
								constants[name.Name] = lit
							}
						}
					}
				}
			}
		}
	}

	found := map[string]string{}
	literal := func(e ast.Expr) {
		if id, ok := e.(*ast.Ident); ok && constants[id.Name] != nil {
			e = constants[id.Name]
		}
		if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			text, err := strconv.Unquote(lit.Value)
			require.NoError(t, err)
			if strings.IndexFunc(verb.ReplaceAllString(text, ""), unicode.IsLetter) < 0 {
				return
			}
			found[text] = fset.Position(lit.Pos()).String()
		}
	}
	for _, file := range files {
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
			name := ""
			switch fun := call.Fun.(type) {
			case *ast.SelectorExpr:
				name = fun.Sel.Name
			case *ast.Ident:
				name = fun.Name
			}
			if at, ok := formatArgument[name]; ok && len(call.Args) > at {
				literal(call.Args[at])
			}
			return true
		})
	}
	for n, text := range world.Invariants {
		found[text] = "world.Invariants[" + strconv.Itoa(n) + "]"
	}
	for _, s := range scenarios.All() {
		found[s.Title] = s.ID + "'s title"
		found[s.Story] = s.ID + "'s story"
		if s.Measure.Label != "" {
			found[s.Measure.Label] = s.ID + "'s measure"
		}
		for _, mode := range []engine.Mode{engine.Safe, engine.Unsafe} {
			for _, a := range s.Actors(mode) {
				for _, step := range a.Program {
					found[step.Name] = s.ID + "'s step of " + a.Name
					for _, call := range step.Calls {
						found[call.Name] = s.ID + "'s call of " + a.Name
					}
				}
			}
		}
	}
	for _, g := range engine.AllGuards() {
		found[g.What().Format] = "the guard " + g.String()
	}
	require.Greater(t, len(found), 60, "the scan found the narration")
	return found
}

// verbs are the verbs of a format by the argument (1-based) each one
// formats: "%s has %d" is {1: 's', 2: 'd'}. An argument formatted twice
// with different verbs is kept as '?', which no translation matches.
func verbs(format string) map[int]byte {
	used := map[int]byte{}
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
		if i >= len(format) {
			break
		}
		if v, ok := used[next]; ok && v != format[i] {
			used[next] = '?'
		} else {
			used[next] = format[i]
		}
		next++
	}
	return used
}

// Every message the code translates has its Korean, with the same verbs
// for the same arguments; and the catalog holds no message the code no longer has.
func TestEveryMessageHasItsKorean(t *testing.T) {
	found := messages(t)
	var missing []string
	for text, where := range found {
		if !lang.Ko.Has(text) {
			missing = append(missing, fmt.Sprintf("%s: %q", where, text))
		}
	}
	slices.Sort(missing)
	require.Empty(t, missing, "no Korean for these:\n%s", strings.Join(missing, "\n"))
	for text, where := range found {
		require.Equal(t, verbs(text), verbs(lang.Ko.T(text)), "%s: the Korean of %q formats other arguments, or with other verbs: %q",
			where, text, lang.Ko.Messages()[text])
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

func TestVerbs(t *testing.T) {
	require.Equal(t, map[int]byte{1: 's', 2: 'd'}, verbs("%s has %d%%"))
	require.Equal(t, map[int]byte{1: 's', 2: 'd'}, verbs("%[2]d을 %[1]s이"))
	require.NotEqual(t, verbs("%s has %d"), verbs("%[2]s has %[1]d"), "an argument moved to another verb")
	require.Equal(t, map[int]byte{1: '?'}, verbs("%s %[1]d"))
}

func TestPhraseSaysItsArgumentsInTheSameLanguage(t *testing.T) {
	with := lang.P("with token %d", 41)
	p := lang.P("%s commits summary = %s %s, %s", "A", lang.P("%d", 10), with, lang.P("with its checkpoint, execution and outbox row"))
	require.Equal(t, "A commits summary = 10 with token 41, with its checkpoint, execution and outbox row", p.In(lang.En))
	require.Equal(t, "A이(가) 토큰 41로 커밋합니다: summary = 10. 체크포인트, 실행 기록, 아웃박스 행과 함께", p.In(lang.Ko))
	require.Equal(t, "100%", lang.P("100%").In(lang.En), "a format without arguments is the text itself")
}

// An error a translation moves (%[1]w) is still said as its text, in the
// same language.
func TestATranslationMovesAWrappedError(t *testing.T) {
	inner := lang.Error("Redis did not answer")
	err := lang.Error("%w within %s (stopped, frozen or overloaded?)", inner, "3s")
	require.ErrorIs(t, err, inner)
	require.Equal(t, "Redis did not answer within 3s (stopped, frozen or overloaded?)", err.Error())
	require.Equal(t, "3s 안에 Redis가 응답하지 않았습니다 (멈췄거나, 얼었거나, 과부하?)", err.(*lang.Err).In(lang.Ko))
	require.Equal(t, "50%would: x", lang.P("50%%would: %w", errors.New("x")).In(lang.En), "%% then w is a percent sign and a letter")
}
