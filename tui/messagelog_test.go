package tui_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/tui"
)

// A message longer than the status line has room for is not lost: the
// line wraps, then says L shows it whole, and L lists every message so
// far, each whole (at 80×24, where the status line has one line).
func TestAMessageTooLongForTheStatusLineIsReadWhole(t *testing.T) {
	tm := startOn(t, 80, 24, "lease-overrun", engine.Safe)
	tail := "and this is the end of a long message that says exactly what went wrong"
	tm.Send(tui.ReloadMsg{File: "mine.toml", Err: errors.New("mine.toml:14: error: relation \"reprot\" does not exist (SQLSTATE 42P01) " + tail)})
	waitFor(t, tm, "L shows it whole")
	press(tm, "L")
	waitFor(t, tm, "the status line's, oldest first")
	screen := finalView(t, tm)
	joined := strings.Join(strings.Fields(screen), " ")
	require.Contains(t, joined, "does not exist (SQLSTATE 42P01) "+tail, screen)
	require.Contains(t, joined, "the last good version runs", screen)
}

// The header's second line wraps once where the screen has room, rather
// than cutting what it says (off the guided path, at 80×30).
func TestTheHeadersSecondLineWrapsBeforeItCuts(t *testing.T) {
	tm := startOn(t, 80, 30, "lease-overrun", engine.Safe)
	press(tm, "2")
	waitFor(t, tm, "free · guided order left at 0/9")
	press(tm, "q")
	screen := tm.FinalModel(t).View()
	joined := strings.Join(strings.Fields(screen), " ")
	require.Contains(t, joined, "r starts it again, u takes back your last action · redis miniredis", screen)
}
