package export

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"
)

// Cast writes an asciinema v2 recording of the explorer: the seeded state,
// then a frame per action, each a marker named after its step, and each
// held long enough to read its narration. frame draws step k (0: the
// seeded state) at width×height; its error (an export cancelled) ends the
// recording.
func Cast(w io.Writer, s Session, width, height int, frame Frames) error {
	p := &printer{w: w}
	header, err := json.Marshal(map[string]any{
		"version": 2,
		"width":   width,
		"height":  height,
		"title":   fmt.Sprintf("%s · %s · %s", Signature, s.Scenario.ID, s.ModeLabel()),
		"env":     map[string]string{"TERM": "xterm-256color", "SHELL": "/bin/sh"},
	})
	if err != nil {
		return err
	}
	p.printf("%s\n", header)
	event := func(at time.Duration, kind, data string) {
		line, err := json.Marshal([]any{roundSeconds(at), kind, data})
		if err != nil && p.err == nil {
			p.err = err
		}
		p.printf("%s\n", line)
	}
	var at time.Duration
	for k, step := range s.Steps {
		label := s.Lang.T("start: %s", s.Lang.T(s.Scenario.Title))
		if k > 0 {
			label = fmt.Sprintf("%d/%d %s", k, len(s.Steps)-1, step.Action.Words().In(s.Lang))
		}
		event(at, "m", label)
		// Home, clear, then the screen line by line; the cursor hidden as
		// the explorer hides it.
		drawn, err := frame(k)
		if err != nil {
			return err
		}
		screen := strings.ReplaceAll(drawn, "\n", "\r\n")
		event(at, "o", "\x1b[?25l\x1b[H\x1b[2J"+screen)
		at += readingTime(step)
	}
	event(at, "o", "") // holds the last frame until here
	return p.err
}

// Frames draws step k of a session (0: the seeded state) as a screen of
// text; an error ends the export (it was cancelled, say).
type Frames func(k int) (string, error)

// readingTime is how long a step's frame stays: two seconds, and more for
// the narration the frame shows (about 30 characters a second), at most
// seven.
func readingTime(step Step) time.Duration {
	chars := 0
	if n := len(step.Events); n > 0 {
		chars = utf8.RuneCountInString(step.Events[n-1].Narration)
		if chars == 0 {
			chars = utf8.RuneCountInString(step.Events[n-1].Said())
		}
	}
	return min(7*time.Second, 2*time.Second+time.Duration(chars)*time.Second/30)
}

// roundSeconds is a time in seconds with millisecond precision, as
// asciinema writes it.
func roundSeconds(d time.Duration) float64 {
	return float64(d.Round(time.Millisecond).Milliseconds()) / 1000
}
