package engine

import (
	"fmt"
	"regexp"
	"strings"
	"time"
	"unicode"

	"github.com/fencelab/fencelab/lang"
)

// How values read on every screen, the headless output and the explorer alike.

// FormatClock shows lab time as m:ss.mmm, or m:ss when whole seconds.
func FormatClock(d time.Duration) string {
	m := int(d / time.Minute)
	s := d % time.Minute
	if s%time.Second == 0 {
		return fmt.Sprintf("%d:%02d", m, int(s/time.Second))
	}
	return fmt.Sprintf("%d:%06.3f", m, s.Seconds())
}

// FormatMark shows a result's mark (Result.Mark); 0 is none.
func FormatMark(f int64) string { return MarkIn(f, lang.En) }

// MarkIn shows a result's mark in a language; 0 is none.
func MarkIn(f int64, l lang.Lang) string {
	if f == 0 {
		return l.T("none")
	}
	return fmt.Sprint(f)
}

// storePrefix is a store package's name where its errors begin a part
// of the line ("pgledger: connect: …"): a name of fencelab's code.
var storePrefix = regexp.MustCompile(`(^|: )(pgledger|pgcluster|redisstore): `)

// ServerNames says the servers' names where a line of an error names
// fencelab's store packages: "PostgreSQL: connect: …", "Redis: reach …".
// The user knows the servers, not the packages.
func ServerNames(line string) string {
	return storePrefix.ReplaceAllStringFunc(line, func(m string) string {
		lead := ""
		if strings.HasPrefix(m, ": ") {
			lead = ": "
		}
		if strings.Contains(m, "redisstore") {
			return lead + "Redis: "
		}
		return lead + "PostgreSQL: "
	})
}

// OneLine flattens an error to one line for a terminal: drivers (pgx)
// spread theirs over several, and text that came from a server loses any
// control character (an escape sequence would act on the screen). A line
// said again is left out: pgx lists each try of a connection, and with
// sslmode=prefer (the default) a refused one is tried twice, alike.
func OneLine(err error) string {
	printable := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && !unicode.IsSpace(r) {
			return -1
		}
		return r
	}, err.Error())
	var words []string
	seen := map[string]bool{}
	for _, line := range strings.Split(printable, "\n") {
		fields := strings.Fields(line)
		key := strings.Join(fields, " ")
		if key != "" && seen[key] {
			continue
		}
		seen[key] = true
		words = append(words, fields...)
	}
	return strings.Join(words, " ")
}
