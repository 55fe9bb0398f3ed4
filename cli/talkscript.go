package cli

import (
	"errors"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/tui"
	"github.com/fencelab/fencelab/untrusted"
)

// A talk script is a TOML document a speaker edits by hand:
//
//	title   = { en = "Fencing, step by step", ko = "…" }
//	minutes = 20
//
//	[[scene]]
//	scenario = "lease-overrun"
//	mode     = "unsafe"               # safe (default) or unsafe
//	schedule = "guided"               # or actions as a trace writes them:
//	                                  # [{ action = "step", actor = "A" }, …]
//	caption  = { en = "…", ko = "…" } # shown large before the first step
//
//	[[scene.step]]
//	at      = 4                       # after the scene's 4th action
//	caption = { en = "…", ko = "…" }
//	turn    = { en = "…", ko = "…" }  # a card: the speaker turns to the room
//
// Every text is a string (any language) or a table with en and, optionally,
// ko. Whatever is wrong is one line naming the file, the line and what.

// talkLimits bound what fencelab reads as a talk script: a long talk is a
// few kilobytes, nested three deep (a scene's schedule of inline tables).
var talkLimits = untrusted.Limits{MaxBytes: 1 << 20, MaxDepth: 16, Syntax: untrusted.TOML}

// talkLanguages are the languages a talk's texts may be in; the first is
// the one every text must have.
var talkLanguages = []string{"en", "ko"}

// loadTalk reads a talk script and binds its scenes to the catalog, with
// its texts in lang.
func loadTalk(path, language string) (tui.Talk, error) {
	data, err := untrusted.ReadFile(path, talkLimits)
	if err != nil {
		return tui.Talk{}, usageError("talk %s: %v", path, err)
	}
	talk, err := parseTalkIn(string(data), language, filepath.Dir(path))
	var wrong *talkError
	if errors.As(err, &wrong) {
		return tui.Talk{}, usageError("talk %s:%s", path, wrong.phrase())
	}
	if err != nil {
		return tui.Talk{}, err
	}
	return talk, nil
}

// talkError is what is wrong with a script, at a line (0: the file).
type talkError struct {
	line int
	what lang.Phrase
}

// wrongAt is what is wrong at a line of the script.
func wrongAt(line int, format string, args ...any) *talkError {
	return &talkError{line, lang.P(format, args...)}
}

func (e *talkError) Error() string { return e.phrase().In(lang.En) }

// phrase is the error after the file's name: ":12: what", or ": what".
func (e *talkError) phrase() lang.Phrase {
	if e.line == 0 {
		return lang.P(" %s", e.what)
	}
	return lang.P("%d: %s", e.line, e.what)
}

// parseTalkIn reads a talk script's text; a scene's scenario file is found
// from dir, the script's own directory.
func parseTalkIn(text, language, dir string) (tui.Talk, error) {
	var doc map[string]any
	if _, err := toml.Decode(text, &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return tui.Talk{}, wrongAt(pe.Position.Line, "not TOML: %s", untrusted.WithoutContent(pe.Message))
		}
		return tui.Talk{}, wrongAt(0, "not TOML: %s", untrusted.WithoutContent(err.Error()))
	}
	showable(doc)
	at := locator{lines: strings.Split(text, "\n")}
	for key := range doc {
		if key != "title" && key != "minutes" && key != "scene" {
			return tui.Talk{}, wrongAt(at.top(key), "unknown key %q (a script has title, minutes and [[scene]]s)", key)
		}
	}
	if m, given := doc["minutes"]; given {
		if n, ok := m.(int64); !ok || n < 1 || n > 600 {
			return tui.Talk{}, wrongAt(at.top("minutes"), "minutes = %#v: want the talk's length, a number of minutes from 1 to 600", m)
		}
	}
	var talk tui.Talk
	if m, given := doc["minutes"].(int64); given {
		talk.Minutes = int(m)
	}
	var err error
	if talk.Title, err = textIn(doc["title"], language); err != nil {
		return tui.Talk{}, wrongAt(at.top("title"), "title: %v", err)
	}
	if talk.Title == "" {
		return tui.Talk{}, wrongAt(at.top("title"), "title: missing")
	}
	scenes, ok := doc["scene"].([]map[string]any)
	if !ok || len(scenes) == 0 {
		return tui.Talk{}, wrongAt(at.top("scene"), "a talk needs at least one [[scene]]")
	}
	for i, raw := range scenes {
		scene, err := parseScene(raw, language, i, at, dir)
		if err != nil {
			return tui.Talk{}, err
		}
		talk.Scenes = append(talk.Scenes, scene)
	}
	return talk, nil
}

// parseScene reads the i-th [[scene]].
func parseScene(raw map[string]any, language string, i int, at locator, dir string) (tui.TalkScene, error) {
	fail := func(key, format string, args ...any) error {
		return wrongAt(at.scene(i, key), "scene %d: %s", i+1, lang.P(format, args...))
	}
	for key := range raw {
		switch key {
		case "scenario", "mode", "schedule", "caption", "step", "watch", "split", "why":
		default:
			return tui.TalkScene{}, fail(key, "unknown key %q (a scene has scenario, mode, schedule, caption, watch, split, why and [[scene.step]]s)", key)
		}
	}
	id, _ := raw["scenario"].(string)
	s, ok := scenarios.ByID(id)
	if !ok && id != "" && strings.HasSuffix(strings.ToLower(id), ".toml") {
		// A scenario file, from the script's directory.
		path := id
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		var err error
		if s, err = scenarios.Load(path); err != nil {
			// The script's line, then the file's.
			var fe *scenarios.FileError
			if errors.As(err, &fe) {
				return tui.TalkScene{}, fail("scenario", "%v", fe)
			}
			return tui.TalkScene{}, fail("scenario", "scenario %s: %v", path, unwrapPathError(err))
		}
		ok = true
	}
	if !ok {
		return tui.TalkScene{}, fail("scenario", "scenario %q: want one of %s, or a scenario file (.toml)", raw["scenario"], strings.Join(scenarios.IDs(), ", "))
	}
	watch := false
	if w, given := raw["watch"]; given {
		b, isBool := w.(bool)
		switch {
		case !isBool:
			return tui.TalkScene{}, fail("watch", "watch: want true or false")
		case b && s.File == "":
			return tui.TalkScene{}, fail("watch", "watch = true reloads a scenario file; %s is the catalog's (fencelab scenario show %s > %s.toml makes a file of it)", s.ID, s.ID, s.ID)
		case b && raw["schedule"] != nil && raw["schedule"] != "guided":
			return tui.TalkScene{}, fail("watch", "a watched scene plays its file's guided order: leave out schedule")
		}
		watch = b
	}
	mode := engine.Safe
	if m, given := raw["mode"]; given {
		text, _ := m.(string)
		var err error
		if mode, err = engine.ParseMode(text); err != nil {
			return tui.TalkScene{}, fail("mode", "mode %q: want safe or unsafe", m)
		}
	}
	schedule := s.Guided(mode)
	sch := raw["schedule"]
	if list, ok := sch.([]any); ok { // an array of inline tables
		tables := make([]map[string]any, len(list))
		for k, a := range list {
			if tables[k], ok = a.(map[string]any); !ok {
				return tui.TalkScene{}, fail("schedule", "schedule entry %d: want a table like { action = \"step\", actor = \"A\" }", k+1)
			}
		}
		sch = tables
	}
	switch sch := sch.(type) {
	case nil:
	case string:
		if sch != "guided" {
			return tui.TalkScene{}, fail("schedule", `schedule %q: want "guided" or a list of actions`, sch)
		}
	case []map[string]any:
		if len(sch) > engine.MaxTraceActions {
			return tui.TalkScene{}, fail("schedule", "%d actions, more than the %d a schedule may have", len(sch), engine.MaxTraceActions)
		}
		t := engine.Trace{Scenario: s.ID, Mode: strings.ToLower(mode.String())}
		for _, a := range sch {
			var ta engine.TraceAction
			ta.Action, _ = a["action"].(string)
			ta.Actor, _ = a["actor"].(string)
			ta.By, _ = a["by"].(string)
			ta.Note, _ = a["note"].(string)
			if _, err := capped(ta.Note); err != nil {
				return tui.TalkScene{}, fail("schedule", "note: %v", err)
			}
			t.Schedule = append(t.Schedule, ta)
		}
		var err error
		if schedule, err = t.Bind(s); err != nil {
			var wrong *engine.TraceError
			if errors.As(err, &wrong) {
				return tui.TalkScene{}, fail("schedule", "%s", wrong.What)
			}
			return tui.TalkScene{}, fail("schedule", "%v", err)
		}
	default:
		return tui.TalkScene{}, fail("schedule", `schedule: want "guided" or a list of actions like [{ action = "step", actor = "A" }]`)
	}
	if len(schedule) == 0 {
		return tui.TalkScene{}, fail("schedule", "the schedule has no actions")
	}
	scene := tui.TalkScene{Scenario: s.WithSchedule(mode, schedule, nil), Mode: mode, Steps: map[int]tui.TalkStep{}}
	if watch {
		scene.Scenario, scene.Watch = s, true
	}
	if split, given := raw["split"]; given {
		b, isBool := split.(bool)
		if !isBool {
			return tui.TalkScene{}, fail("split", "split: want true or false")
		}
		scene.Split = b
	}
	if why, given := raw["why"]; given {
		b, isBool := why.(bool)
		if !isBool {
			return tui.TalkScene{}, fail("why", "why: want true or false")
		}
		scene.Why = b
	}
	var err error
	if scene.Caption, err = textIn(raw["caption"], language); err != nil {
		return tui.TalkScene{}, fail("caption", "caption: %v", err)
	}
	steps, ok := raw["step"].([]map[string]any)
	if _, given := raw["step"]; given && !ok {
		return tui.TalkScene{}, fail("step", "step: want [[scene.step]] tables")
	}
	for j, st := range steps {
		failStep := func(key, format string, args ...any) error {
			return wrongAt(at.step(i, j, key), "scene %d, step note %d: %s", i+1, j+1, lang.P(format, args...))
		}
		for key := range st {
			if key != "at" && key != "caption" && key != "turn" {
				return tui.TalkScene{}, failStep(key, "unknown key %q (a step note has at, caption and turn)", key)
			}
		}
		raw, given := st["at"]
		n, ok := raw.(int64)
		switch {
		case !given:
			return tui.TalkScene{}, failStep("at", "at is missing: want the number of an action, 1 to %d", len(schedule))
		case !ok:
			return tui.TalkScene{}, failStep("at", "at = %#v: want a number (no quotes), 1 to %d", raw, len(schedule))
		case n < 1 || int(n) > len(schedule):
			return tui.TalkScene{}, failStep("at", "at = %d: want the number of an action, 1 to %d", n, len(schedule))
		}
		if _, taken := scene.Steps[int(n)]; taken {
			return tui.TalkScene{}, failStep("at", "a second note for action %d", n)
		}
		var note tui.TalkStep
		if note.Caption, err = textIn(st["caption"], language); err != nil {
			return tui.TalkScene{}, failStep("caption", "caption: %v", err)
		}
		if note.Turn, err = textIn(st["turn"], language); err != nil {
			return tui.TalkScene{}, failStep("turn", "turn: %v", err)
		}
		scene.Steps[int(n)] = note
	}
	return scene, nil
}

// textIn is a text of the script in language: a string, or a table of
// languages (en required; a missing ko falls back to en).
func textIn(v any, language string) (string, error) {
	switch t := v.(type) {
	case nil:
		return "", nil
	case string:
		return capped(t)
	case map[string]any:
		var keys []string
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if _, ok := t[k].(string); !ok || !contains(talkLanguages, k) {
				return "", lang.Error("want a string, or a table of %s strings; got key %q", strings.Join(talkLanguages, " and "), k)
			}
		}
		en, ok := t["en"].(string)
		if !ok {
			return "", lang.Error("the table has no en text")
		}
		for _, text := range t {
			if _, err := capped(text.(string)); err != nil {
				return "", err
			}
		}
		if text, ok := t[language].(string); ok {
			return text, nil
		}
		return en, nil
	}
	return "", lang.Error("want a string, or a table like { en = \"…\", ko = \"…\" }; got %v", v)
}

// capped is a text no longer than a text from a file may be.
func capped(text string) (string, error) {
	if n := utf8.RuneCountInString(text); n > untrusted.MaxText {
		return "", lang.Error("%d characters, more than the %d a text may have", n, untrusted.MaxText)
	}
	return text, nil
}

// showable makes every string of a decoded document safe to show: its
// control characters visible (an escape sequence in a caption must not
// reach the terminal).
func showable(doc map[string]any) {
	for k, v := range doc {
		doc[k] = showableValue(v)
	}
}

func showableValue(v any) any {
	switch v := v.(type) {
	case string:
		return untrusted.Text(v)
	case map[string]any:
		showable(v)
	case []map[string]any:
		for _, m := range v {
			showable(m)
		}
	case []any:
		for i := range v {
			v[i] = showableValue(v[i])
		}
	}
	return v
}

// locator finds the line of a key in a script's text, for errors: the
// decoded document keeps no positions.
type locator struct{ lines []string }

var tableHeader = regexp.MustCompile(`^\s*\[\[?\s*([A-Za-z0-9_.]+)\s*\]\]?`)

// find is the line (1-based) of key = … among lines from..to, or of the
// table header at from when the key is not there.
func (at locator) find(key string, from, to int) int {
	assign := regexp.MustCompile(`^\s*"?` + regexp.QuoteMeta(key) + `"?\s*=`)
	for i := from; i < to && i < len(at.lines); i++ {
		if assign.MatchString(at.lines[i]) {
			return i + 1
		}
	}
	if from > 0 {
		return from
	}
	return 0
}

// headers are the lines (0-based) of the headers named name, in order.
func (at locator) headers(name string) []int {
	var out []int
	for i, line := range at.lines {
		if m := tableHeader.FindStringSubmatch(line); m != nil && m[1] == name {
			out = append(out, i)
		}
	}
	return out
}

// top is the line of a top-level key (before the first table).
func (at locator) top(key string) int {
	end := len(at.lines)
	for i, line := range at.lines {
		if tableHeader.MatchString(line) {
			end = i
			break
		}
	}
	if n := at.find(key, 0, end); n > 0 {
		return n
	}
	if hs := at.headers(key); len(hs) > 0 {
		return hs[0] + 1
	}
	return 0
}

// block is the lines of the i-th table named name: from its header to the
// next header of any table.
func (at locator) block(name string, i int) (from, to int, ok bool) {
	hs := at.headers(name)
	if i >= len(hs) {
		return 0, 0, false
	}
	from, to = hs[i], len(at.lines)
	for j := from + 1; j < len(at.lines); j++ {
		if tableHeader.MatchString(at.lines[j]) {
			to = j
			break
		}
	}
	return from, to, true
}

// scene is the line of a key of the i-th scene.
func (at locator) scene(i int, key string) int {
	from, to, ok := at.block("scene", i)
	if !ok {
		return 0
	}
	if key == "step" {
		to = len(at.lines)
	}
	return at.find(key, from+1, to) // the header itself when the key is not there
}

// step is the line of a key of the j-th step note of the i-th scene.
func (at locator) step(i, j int, key string) int {
	sceneFrom, _, ok := at.block("scene", i)
	if !ok {
		return 0
	}
	nextScene := len(at.lines)
	if hs := at.headers("scene"); i+1 < len(hs) {
		nextScene = hs[i+1]
	}
	k := 0
	for _, h := range at.headers("scene.step") {
		if h < sceneFrom || h > nextScene {
			continue
		}
		if k == j {
			from, to, _ := at.blockAt(h)
			return at.find(key, from+1, to)
		}
		k++
	}
	return sceneFrom + 1
}

// blockAt is the block of the table whose header is at line h.
func (at locator) blockAt(h int) (from, to int, ok bool) {
	to = len(at.lines)
	for j := h + 1; j < len(at.lines); j++ {
		if tableHeader.MatchString(at.lines[j]) {
			to = j
			break
		}
	}
	return h, to, true
}
