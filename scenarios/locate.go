package scenarios

import (
	"strconv"
	"strings"
)

// lines knows the line of every key and array element of a scenario file,
// so a mistake the decoder could not see (an unknown step, an actor that
// does not exist) is named by the line a person must change. The TOML
// decoder keeps no positions it will tell, so this is a small scan of the
// file's structure, run only on a file the decoder already accepted.
//
// Paths join keys with dots; the element of an array of tables and of an
// array is its index: "actor.1.program.2" is the third step of the second
// actor's program.
type lines map[string]int

// lineOf is the line of path, or of the nearest enclosing key that has one
// (0: none at all).
func (ls lines) lineOf(path string) int {
	for path != "" {
		if n, ok := ls[path]; ok {
			return n
		}
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			break
		}
		path = path[:i]
	}
	return 0
}

// locate scans a decoded TOML file for the lines of its keys and elements.
func locate(src []byte) lines {
	s := &scan{src: src, line: 1, at: lines{}, arrays: map[string]int{}}
	table := ""
	for {
		s.skipSpace(true)
		if s.i >= len(s.src) {
			return s.at
		}
		switch {
		case s.peek("[["):
			s.i += 2
			parts := s.keyParts("]")
			s.i += 2
			// The tables the header goes through, then its own array.
			path := join(s.resolve(strings.Join(parts[:max(0, len(parts)-1)], ".")), parts[len(parts)-1])
			s.arrays[path]++
			table = path + "." + strconv.Itoa(s.arrays[path]-1)
			s.at[table] = s.line
		case s.peek("["):
			s.i++
			table = s.resolve(strings.Join(s.keyParts("]"), "."))
			s.i++
			if _, ok := s.at[table]; !ok {
				s.at[table] = s.line
			}
		default:
			parts := s.keyParts("=")
			s.i++ // =
			path := join(table, strings.Join(parts, "."))
			for k := range parts {
				// A dotted key defines its tables where it stands.
				if p := join(table, strings.Join(parts[:k+1], ".")); s.at[p] == 0 {
					s.at[p] = s.line
				}
			}
			s.at[path] = s.line
			s.value(path)
		}
		s.skipToLineEnd()
	}
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

type scan struct {
	src  []byte
	i    int
	line int
	at   lines
	// arrays counts the tables of each array of tables so far.
	arrays map[string]int
}

func (s *scan) peek(p string) bool {
	return strings.HasPrefix(string(s.src[s.i:min(len(s.src), s.i+len(p))]), p)
}

// resolve puts the index of the latest element after every array of
// tables a header's path goes through: [actor.unsafe] after the second
// [[actor]] is actor.1.unsafe.
func (s *scan) resolve(name string) string {
	if name == "" {
		return ""
	}
	parts := strings.Split(name, ".")
	path := ""
	for _, p := range parts {
		path = join(path, p)
		if n := s.arrays[path]; n > 0 {
			path += "." + strconv.Itoa(n-1)
		}
	}
	return path
}

// skipSpace skips blanks and comments, and newlines when across says so.
func (s *scan) skipSpace(across bool) {
	for s.i < len(s.src) {
		switch c := s.src[s.i]; {
		case c == ' ' || c == '\t' || c == '\r':
			s.i++
		case c == '\n' && across:
			s.line++
			s.i++
		case c == '#':
			for s.i < len(s.src) && s.src[s.i] != '\n' {
				s.i++
			}
		default:
			return
		}
	}
}

func (s *scan) skipToLineEnd() {
	for s.i < len(s.src) && s.src[s.i] != '\n' {
		if s.src[s.i] == '"' || s.src[s.i] == '\'' {
			s.str()
			continue
		}
		s.i++
	}
}

// keyParts reads a dotted key up to the byte that ends it, which it does
// not consume.
func (s *scan) keyParts(end string) []string {
	var parts []string
	for s.i < len(s.src) {
		s.skipSpace(false)
		if s.i >= len(s.src) || s.peek(end) {
			return parts
		}
		switch s.src[s.i] {
		case '.':
			s.i++
		case '"', '\'':
			start := s.i
			s.str()
			text := string(s.src[start:s.i])
			if unq, err := strconv.Unquote(text); err == nil && text[0] == '"' {
				parts = append(parts, unq)
			} else {
				parts = append(parts, strings.Trim(text, "'"))
			}
		default:
			start := s.i
			for s.i < len(s.src) && !strings.ContainsRune(" \t.=]\n", rune(s.src[s.i])) {
				s.i++
			}
			parts = append(parts, string(s.src[start:s.i]))
		}
	}
	return parts
}

// str skips a string of any of TOML's four kinds, counting its lines.
func (s *scan) str() {
	q := s.src[s.i]
	triple := s.peek(strings.Repeat(string(q), 3))
	if triple {
		s.i += 3
	} else {
		s.i++
	}
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '\\' && q == '"':
			s.i += 2
			continue
		case c == '\n':
			s.line++
		case c == q && !triple:
			s.i++
			return
		case c == q && s.peek(strings.Repeat(string(q), 3)):
			s.i += 3
			for s.i < len(s.src) && s.src[s.i] == q { // """"" ends with quotes inside
				s.i++
			}
			return
		}
		s.i++
	}
}

// value skips one value, noting the lines of an array's elements and of
// an inline table's keys.
func (s *scan) value(path string) {
	s.skipSpace(false)
	if s.i >= len(s.src) {
		return
	}
	switch s.src[s.i] {
	case '"', '\'':
		s.str()
	case '[':
		s.i++
		for n := 0; ; n++ {
			s.skipSpace(true)
			if s.i >= len(s.src) || s.src[s.i] == ']' {
				s.i++
				return
			}
			element := path + "." + strconv.Itoa(n)
			s.at[element] = s.line
			s.value(element)
			s.skipSpace(true)
			if s.i < len(s.src) && s.src[s.i] == ',' {
				s.i++
			}
		}
	case '{':
		s.i++
		for {
			s.skipSpace(true)
			if s.i >= len(s.src) || s.src[s.i] == '}' {
				s.i++
				return
			}
			parts := s.keyParts("=")
			s.i++
			key := path + "." + strings.Join(parts, ".")
			s.at[key] = s.line
			s.value(key)
			s.skipSpace(true)
			if s.i < len(s.src) && s.src[s.i] == ',' {
				s.i++
			}
		}
	default:
		for s.i < len(s.src) && !strings.ContainsRune(",]}\n#", rune(s.src[s.i])) {
			s.i++
		}
	}
}
