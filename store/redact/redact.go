// Package redact takes passwords out of connection strings before anything
// is shown: a terminal, a log, a projector. Both stores and the command line
// use it, so a password is hidden the same way everywhere. What is left is
// still a working connection string (psql then asks for the password, or
// reads PGPASSWORD), so a user can copy it.
package redact

import (
	"net/url"
	"regexp"
	"strings"
)

// Mask stands where a password may have been but could not be cut out.
const Mask = "xxxxx"

// URL drops the password of a URL's user info and any password query
// parameter. A string that does not parse as a URL, or whose parse leaves an
// @ unaccounted for (a password with an unescaped ? or #), is masked from
// its scheme to its last @, since where the password ends cannot be known.
func URL(raw string) string {
	scheme := strings.Index(raw, "://")
	at := strings.LastIndex(raw, "@")
	masked := func() string {
		lower := strings.ToLower(raw)
		switch {
		case at < 0 && !strings.Contains(lower, "pass"):
			// Nothing in it can be a password (a cluster's list of nodes,
			// which url.Parse refuses, or a mistyped address): as it is.
			return raw
		case scheme >= 0 && at > scheme:
			return raw[:scheme+3] + Mask + raw[at:]
		case scheme >= 0:
			return raw[:scheme+3] + Mask
		default:
			return Mask
		}
	}
	u, err := url.Parse(raw)
	if err != nil || (at > scheme && u.User == nil) {
		return masked()
	}
	if q := u.Query(); q.Has("password") || q.Has("pass") {
		q.Del("password")
		q.Del("pass")
		u.RawQuery = q.Encode()
	}
	if _, has := u.User.Password(); has {
		name := u.User.Username()
		u.User = nil
		if name != "" {
			u.User = url.User(name)
		}
	}
	return u.String()
}

// PostgresDSN drops the password of a PostgreSQL connection string in
// either form: a URL, or libpq's keyword/value pairs (password=… with the
// value bare or single-quoted, backslash escapes inside quotes).
func PostgresDSN(dsn string) string {
	// Any scheme, in any case: what looks like a URL is treated as one.
	if trimmed := strings.TrimSpace(dsn); strings.Contains(trimmed, "://") {
		return URL(trimmed)
	}
	// The pairs kept, one space between them: a quoted value keeps its own
	// spaces (a socket directory's path may have two in a row).
	var kept []string
	s := dsn
	for len(s) > 0 {
		// Skip whitespace, then take one key = value pair.
		s = strings.TrimLeft(s, " \t\n\r\f\v")
		if s == "" {
			break
		}
		eq := strings.IndexByte(s, '=')
		if eq < 0 {
			// Not keyword=value: what follows cannot be read, so none of it
			// is shown.
			kept = append(kept, Mask)
			break
		}
		key := strings.TrimSpace(s[:eq])
		j := eq + 1
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		end := j + valueEnd(s[j:])
		if key != "password" {
			kept = append(kept, key+"="+s[j:end])
		}
		s = s[end:]
	}
	return strings.Join(kept, " ")
}

// valueEnd is the length of the value at the start of s: up to the next
// whitespace, or a single-quoted string with backslash escapes.
func valueEnd(s string) int {
	if strings.HasPrefix(s, "'") {
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '\'':
				return i + 1
			}
		}
		return len(s)
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case ' ', '\t', '\n', '\r', '\f', '\v':
			return i
		}
	}
	return len(s)
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == '\v'
}

// passwordValue matches a keyword/value or query password: password=VALUE.
var passwordValue = regexp.MustCompile(`(?i)\bpass(?:word)?\s*=\s*('(?:[^'\\]|\\.)*'|[^&\s]+)`)

// Within takes the password of source (a DSN or URL) out of a message that
// may quote source whole or in part — a driver's parse error, say.
func Within(msg, source string) string { return within(msg, source, PostgresDSN) }

// WithinURL is Within for a redis:// URL: where msg quotes it whole, it is
// written as URL writes it (a mistyped address with no password in it
// stays as it is, so the user sees what they typed).
func WithinURL(msg, source string) string { return within(msg, source, URL) }

// within writes source as shown writes it wherever msg quotes it whole,
// and masks what may be its password wherever else it stands.
func within(msg, source string, shown func(string) string) string {
	if strings.TrimSpace(source) == "" {
		return msg // nothing to hide, and blanks are in every message
	}
	msg = strings.ReplaceAll(msg, source, shown(source))
	for _, secret := range passwords(source) {
		if len(secret) >= bareSecret {
			msg = strings.ReplaceAll(msg, secret, Mask)
			continue
		}
		// Too short to mask wherever it stands ("p" is in every other
		// word): where a DSN or URL would hold it.
		msg = strings.ReplaceAll(msg, ":"+secret+"@", ":"+Mask+"@")
		value := regexp.MustCompile(`(?i)(\bpass(?:word)?\s*=\s*'?)` + regexp.QuoteMeta(secret) + `('|\W|$)`)
		msg = value.ReplaceAllString(msg, "${1}"+Mask+"${2}")
	}
	return msg
}

// bareSecret is the length from which a password is masked wherever a
// message holds it, not only where a DSN or URL would.
const bareSecret = 4

// passwords finds what may be the password in a DSN or URL, as written and
// unescaped: the user info after its first colon, and password= values.
func passwords(source string) []string {
	var found []string
	add := func(s string) {
		if s == "" {
			return
		}
		found = append(found, s)
		if unescaped, err := url.PathUnescape(s); err == nil && unescaped != s {
			found = append(found, unescaped)
		}
	}
	rest := source
	if i := strings.Index(rest, "://"); i >= 0 {
		rest = rest[i+3:]
	}
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		if colon := strings.IndexByte(rest[:at], ':'); colon >= 0 {
			add(rest[colon+1 : at])
		}
	}
	for _, m := range passwordValue.FindAllStringSubmatch(source, -1) {
		value := m[1]
		if strings.HasPrefix(value, "'") {
			value = strings.Trim(value, "'")
		}
		add(value)
	}
	return found
}

// Shell is a word as a POSIX shell reads it back: as it is when it holds
// only characters no shell treats specially, else in single quotes (in
// which nothing expands: a $ or a backslash in a path stays itself). For
// the command lines fencelab prints to be pasted: psql's, a trace's.
func Shell(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@=,+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
