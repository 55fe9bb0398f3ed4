package tui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/fencelab/fencelab/engine"
)

// wrap keeps every word and its order, breaks a word only when it is wider
// than a line, and never makes a line wider than asked.
func TestWrapKeepsWordsWithinWidth(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		width := rapid.IntRange(1, 40).Draw(t, "width")
		words := rapid.SliceOf(rapid.SampledFrom([]string{
			"a", "job-1", "worker-A", "토큰", "fence", strings.Repeat("x", 45), strings.Repeat("가", 30), "✓",
		})).Draw(t, "words")
		lines := wrap(strings.Join(words, " "), width)
		for _, line := range lines {
			// A grapheme wider than the whole line still has to go somewhere.
			require.True(t, ansi.StringWidth(line) <= max(width, 2), "%q wider than %d", line, width)
		}
		require.Equal(t, strings.Join(words, ""), strings.ReplaceAll(strings.Join(lines, ""), " ", ""))
		if width >= 45 {
			require.Len(t, lines, len(fitted(words, width)))
		}
	})
	require.Equal(t, []string{"the fence", "of 42"}, wrap("the fence of 42", 9))
	require.Equal(t, []string{"ab", "cdefg", "hijk"}, wrap("ab cdefghijk", 5))
	require.Equal(t, []string{""}, wrap("", 10))
}

// fitted is the greedy wrap of words that all fit a line, done the
// plainest way.
func fitted(words []string, width int) []string {
	var lines []string
	for _, w := range words {
		if n := len(lines); n > 0 && ansi.StringWidth(lines[n-1])+1+ansi.StringWidth(w) <= width {
			lines[n-1] += " " + w
		} else {
			lines = append(lines, w)
		}
	}
	if lines == nil {
		return []string{""}
	}
	return lines
}

// A one-word caption of a megabyte once took 51 s to wrap: each cut
// measured the rest of the word again. Linear time is eight times the work
// for eight times the text; quadratic would be 64 times. Measured as a
// ratio in this process, the best of five.
func TestWrapIsLinearInALongWord(t *testing.T) {
	timeOf := func(n int) time.Duration {
		word := strings.Repeat("가", n)
		best := time.Duration(1 << 62)
		for range 5 {
			started := time.Now()
			wrap(word, 60)
			best = min(best, time.Since(started))
		}
		return best
	}
	small, large := timeOf(4<<10), timeOf(32<<10)
	t.Logf("ratio %.1f", float64(large)/float64(small))
	require.Less(t, float64(large)/float64(small), 24.0, "wrap of 8× the text took %s vs %s", large, small)
}

// clockWidth is FormatClock's width, without formatting.
func TestClockWidthIsFormatClocksWidth(t *testing.T) {
	for _, d := range []time.Duration{0, time.Millisecond, 841 * time.Millisecond, 59 * time.Second,
		time.Minute, 10*time.Minute + 500*time.Millisecond, 1000 * time.Hour, 1000*time.Hour + time.Millisecond} {
		require.Equal(t, len(engine.FormatClock(d)), clockWidth(d), "%s", d)
	}
}

// The status line names the servers, not fencelab's packages: "Redis: keep
// lab TTLs: …", as the command line's error lines do.
func TestABackendErrorNamesTheServer(t *testing.T) {
	said := describe(newStyles(), errors.New("redisstore: keep lab TTLs: Redis did not answer within 3s"))
	require.Equal(t, "backend error, the step did not complete: Redis: keep lab TTLs: Redis did not answer within 3s", said)
}
