// Package untrusted is how fencelab takes in files a person gives it —
// traces, talk scripts — and what it shows of them: bounded before they
// are parsed, and with no control character reaching a terminal.
//
// A file is read only if it is a regular file no larger than its kind
// allows and nested no deeper than that (a cheap scan of brackets and
// braces outside strings and comments, before any decoder sees it: a
// decoder's memory and stack grow with the nesting). Every text from a
// file is then shown through Text, so a caption cannot clear the screen,
// set colours or a window title.
package untrusted

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/fencelab/fencelab/lang"
)

// MaxText is the most characters one text from a file may have (a
// caption, a note): a caption is a sentence or two a speaker says.
const MaxText = 1000

// Syntax is how a kind of file nests: what opens and closes a level and
// what is a string or a comment, where brackets do not count.
type Syntax int

const (
	JSON Syntax = iota
	TOML
)

// Limits bound a kind of file.
type Limits struct {
	MaxBytes int64
	MaxDepth int
	Syntax   Syntax
}

// TooLarge is a file larger than its kind allows.
type TooLarge struct{ Max int64 }

func (e *TooLarge) Error() string { return e.In(lang.En) }

// In says the error in a language.
func (e *TooLarge) In(l lang.Lang) string { return lang.P("larger than %s", size(e.Max)).In(l) }

// TooDeep is a file nested deeper than its kind allows.
type TooDeep struct {
	Max  int
	Line int // where the nesting went past Max
}

func (e *TooDeep) Error() string { return e.In(lang.En) }

// In says the error in a language.
func (e *TooDeep) In(l lang.Lang) string {
	return lang.P("line %d: nested more than %d deep", e.Line, e.Max).In(l)
}

// ErrNotRegular is a path that is not a regular file (a directory, a FIFO,
// a device).
var ErrNotRegular = lang.Error("not a regular file")

// ReadFile reads a file within limits. A FIFO is not waited on: it is
// opened without blocking and refused, as is anything not a regular file.
// Errors from the system are the bare cause (no path: the caller names
// the file as the user gave it).
func ReadFile(path string, l Limits) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, bare(err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, bare(err)
	}
	if !info.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	if info.Size() > l.MaxBytes {
		return nil, &TooLarge{l.MaxBytes}
	}
	data, err := io.ReadAll(io.LimitReader(f, l.MaxBytes+1))
	if err != nil {
		return nil, bare(err)
	}
	if int64(len(data)) > l.MaxBytes { // it grew while read
		return nil, &TooLarge{l.MaxBytes}
	}
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		// Before the nesting check, which random bytes full of brackets
		// would fail first, with a sentence about depth.
		return nil, ErrNotText
	}
	if err := CheckNesting(data, l); err != nil {
		return nil, err
	}
	return data, nil
}

// ErrNotText is a file whose bytes are no text: invalid UTF-8, or a NUL.
var ErrNotText = errors.New("not a text file: it holds bytes no text holds (binary data?)")

func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func size(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// CheckNesting refuses data nested deeper than l.MaxDepth, in one pass and
// constant memory. Brackets in strings and comments do not count;
// unbalanced closers are left to the parser to report. In TOML a dotted
// key nests a table per dot without any bracket (a.b.c = 1, [a.b.c]), so
// where a key is — from the start of a line at the top level, a table
// header included, and after { or , in an inline table, up to its = — each
// dot counts as a level too.
func CheckNesting(data []byte, l Limits) error {
	toml := l.Syntax == TOML
	open := make([]byte, 0, l.MaxDepth+1) // what opened each level
	line := 1
	key, dots := toml, 0
	header := false // in a [table] or [[array]] header
	deeper := func(levels int) error {
		if levels > l.MaxDepth {
			return &TooDeep{Max: l.MaxDepth, Line: line}
		}
		return nil
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
			line++
			key, dots, header = toml && len(open) == 0, 0, false
		case c == '.' && key:
			dots++
			levels := len(open) + dots + 1
			if header {
				levels = dots + 1 // its brackets are no levels of their own
			}
			if err := deeper(levels); err != nil {
				return err
			}
		case c == '=' && key:
			key, dots = false, 0
		case c == '[' || c == '{':
			if err := deeper(len(open) + 1); err != nil {
				return err
			}
			header = header || toml && key && c == '[' && len(open) == 0
			open = append(open, c)
			// A header's dots count on; an inline table starts a key.
			key = toml && (c == '{' || header)
		case c == ']' || c == '}':
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
			if len(open) == 0 {
				header = false
			}
			key = header
		case c == ',' && toml:
			key, dots = len(open) > 0 && open[len(open)-1] == '{', 0
		case c == '"':
			i, line = skipString(data, i, line, l.Syntax)
		case c == '\'' && toml:
			i, line = skipString(data, i, line, l.Syntax)
		case c == '#' && toml:
			for i+1 < len(data) && data[i+1] != '\n' {
				i++
			}
		}
	}
	return nil
}

// skipString moves past the string that opens at data[i] (a double or
// single quote, or three of either) and returns the index of its last
// byte and the line it ends on.
func skipString(data []byte, i, line int, syntax Syntax) (int, int) {
	quote := data[i]
	multi := syntax == TOML && i+2 < len(data) && data[i+1] == quote && data[i+2] == quote
	escapes := quote == '"'
	if multi {
		i += 2
	}
	for i++; i < len(data); i++ {
		switch c := data[i]; {
		case c == '\n':
			line++
			if !multi {
				return i - 1, line - 1 // an unterminated string: the parser says so
			}
		case c == '\\' && escapes:
			i++
			if i < len(data) && data[i] == '\n' {
				line++
			}
		case c == quote && !multi:
			return i, line
		case c == quote && i+2 < len(data) && data[i+1] == quote && data[i+2] == quote:
			return i + 2, line
		}
	}
	return i, line
}

// WithoutContent is a parser's error message without the piece of the
// file it quotes ("invalid character 'r'", "but got ':' instead", "found
// "hunter2" instead"): a file given by mistake — a symlink to a secret, say
// — must not have its bytes shown, even one. The position stays.
func WithoutContent(msg string) string {
	msg = quotedCharacter.ReplaceAllString(msg, "invalid character")
	return quotedFound.ReplaceAllString(msg, "$1 something else")
}

var (
	quotedCharacter = regexp.MustCompile(`invalid character '(?:[^'\\]|\\.)*'`)
	quotedFound     = regexp.MustCompile(`\b(got|found) .+? instead`)
)

// Text is a text from a file as it may be shown on a terminal: every
// control character (C0, DEL, C1; ESC and BEL among them) becomes its
// visible picture (␛, ␇, …) or, for C1, U+FFFD, and a tab a space; a line
// break stays. Invalid UTF-8 becomes U+FFFD.
func Text(s string) string {
	if clean(s, true) {
		return s
	}
	return picture(s, true)
}

// Line is Text for a text that must stay on one line (a name, an id, a
// message): a line break becomes ␊ too.
func Line(s string) string {
	if clean(s, false) {
		return s
	}
	return picture(s, false)
}

func clean(s string, keepNewline bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 && !(keepNewline && c == '\n') || c == 0x7f || c >= 0x80 {
			if c >= 0x80 {
				return cleanUTF8(s[i:], keepNewline)
			}
			return false
		}
	}
	return true
}

func cleanUTF8(s string, keepNewline bool) bool {
	for _, r := range s {
		if r == utf8.RuneError || r < 0x20 && !(keepNewline && r == '\n') || (r >= 0x7f && r < 0xa0) || bidi(r) {
			return false
		}
	}
	return true
}

// bidi is a character that reorders the text around it on screen (an
// embedding, override or isolate): shown as it is, a caption could read
// otherwise than it is.
func bidi(r rune) bool { return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 }

func picture(s string, keepNewline bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case r == '\n' && keepNewline:
			b.WriteRune(r)
		case r == '\t':
			b.WriteByte(' ')
		case r < 0x20:
			b.WriteRune(0x2400 + r) // ␀ … ␟
		case r == 0x7f:
			b.WriteRune('\u2421') // ␡
		case r >= 0x80 && r < 0xa0, bidi(r):
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
