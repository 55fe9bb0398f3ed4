package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// The shipped talk loads in both languages, and every text it has is
// translated: no Korean text falls back to the English one.
func TestShippedTalkInEnglishAndKorean(t *testing.T) {
	en, err := loadTalk("../talks/fencing.toml", "en")
	require.NoError(t, err)
	ko, err := loadTalk("../talks/fencing.toml", "ko")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(en.Scenes), 8)
	require.NotEqual(t, en.Title, ko.Title)
	for i := range en.Scenes {
		require.NotEmpty(t, en.Scenes[i].Caption, "scene %d", i+1)
		require.NotEqual(t, en.Scenes[i].Caption, ko.Scenes[i].Caption, "scene %d has no Korean caption", i+1)
		for at, step := range en.Scenes[i].Steps {
			k := ko.Scenes[i].Steps[at]
			require.True(t, step.Caption == "" || step.Caption != k.Caption, "scene %d, action %d: caption", i+1, at)
			require.True(t, step.Turn == "" || step.Turn != k.Turn, "scene %d, action %d: turn", i+1, at)
		}
	}
}

// A malformed script is one line naming the file, the line and what is
// wrong, and exit 2.
func TestTalkScriptErrors(t *testing.T) {
	dir := t.TempDir()
	good := "title = \"t\"\n\n[[scene]]\nscenario = \"lease-overrun\"\n\n[[scene]]\nscenario = \"counter-loss\"\nmode = \"unsafe\"\n\n[[scene.step]]\nat = 3\ncaption = { en = \"x\", ko = \"y\" }\n"
	for _, tc := range []struct {
		name, body, want string
	}{
		{"syntax", strings.Replace(good, "at = 3", "at = = 3", 1), ":11: not TOML"},
		{"scenario", strings.Replace(good, `"counter-loss"`, `"counter-lost"`, 1), `:7: scene 2: scenario "counter-lost": want one of`},
		{"mode", strings.Replace(good, `"unsafe"`, `"both"`, 1), `:8: scene 2: mode "both": want safe or unsafe`},
		{"at", strings.Replace(good, "at = 3", "at = 30", 1), ":11: scene 2, step note 1: at = 30: want the number of an action, 1 to 10"},
		{"no en", strings.Replace(good, `en = "x", `, "", 1), ":12: scene 2, step note 1: caption: the table has no en text"},
		{"language", strings.Replace(good, `ko = "y"`, `fr = "y"`, 1), `:12: scene 2, step note 1: caption: want a string, or a table of en and ko strings; got key "fr"`},
		{"unknown key", strings.Replace(good, "mode = ", "mood = ", 1), `:8: scene 2: unknown key "mood"`},
		{"actor", strings.Replace(good, "mode = \"unsafe\"", "schedule = [{ action = \"step\", actor = \"Z\" }]", 1), `:8: scene 2: schedule entry 1 names actor "Z"`},
		{"no scene", "title = \"t\"\n", ": a talk needs at least one [[scene]]"},
		{"no title", strings.Replace(good, "title = \"t\"", "", 1), ": title: missing"},
		{"at a string", strings.Replace(good, "at = 3", `at = "3"`, 1), `:11: scene 2, step note 1: at = "3": want a number (no quotes), 1 to 10`},
		{"no at", strings.Replace(good, "at = 3", "", 1), ":10: scene 2, step note 1: at is missing"},
		{"minutes", "minutes = -5\n" + good, `:1: minutes = -5: want the talk's length`},
		{"too many actions", strings.Replace(good, "mode = \"unsafe\"", "schedule = ["+strings.Repeat(`{ action = "advance", by = "1s" }, `, 5001)+"]", 1), `:8: scene 2: 5001 actions, more than the 5000 a schedule may have`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(dir, tc.name+".toml")
			require.NoError(t, os.WriteFile(path, []byte(tc.body), 0o644))
			code, _, stderr := call(t, "talk", path)
			require.Equal(t, 2, code, stderr)
			requireOneLine(t, stderr, path+tc.want)
		})
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"talk"}, "talk takes one script file, got 0"},
		{[]string{"talk", filepath.Join(dir, "none.toml")}, "no such file or directory"},
		{[]string{"talk", dir}, "not a regular file"},

		{[]string{"talk", "../talks/fencing.toml", "--mode", "safe"}, "talk does not take --mode"},
	} {
		code, _, stderr := call(t, tc.args...)
		require.Equal(t, 2, code, stderr)
		requireOneLine(t, stderr, tc.want)
	}
}

// The shipped talk plays to its end under tmux, by the keys a presenter
// remote sends: turn cards on the way, b blanks, --lang ko shows Korean.
func TestTalkUnderTmux(t *testing.T) {
	requireTmux(t)
	script, err := filepath.Abs("../talks/fencing.toml")
	require.NoError(t, err)
	r := startExplorer(t, cacheDir(t), "talk", script)
	r.waitScreen("talk · scene 1/", "Most job schedulers stop at a leader lease", " of 20:00 · ")
	r.key("b")
	waitChange(r, r.screen())
	require.Empty(t, strings.TrimSpace(r.screen()), "b blanks the screen")
	r.key("b")
	r.waitScreen("talk · scene 1/")

	cards, keys := 0, []string{"Space", ".", "Right"}
	for presses := 0; ; presses++ {
		require.Less(t, presses, 300, "the talk never ended")
		before := r.screen()
		if strings.Contains(before, "the end of the talk") {
			break
		}
		if strings.Contains(before, "turn to the room") {
			cards++
		}
		key := keys[presses%3] // space, '.', →
		if presses%7 == 6 {
			key = "NPage" // PageDown
		}
		r.key(key)
		waitChange(r, before)
	}
	require.GreaterOrEqual(t, cards, 4, "the script's turn cards showed")
	screen := r.screen()
	require.Contains(t, screen, "scene 11/11")
	require.Contains(t, screen, "verdict NOT_OWNER")
	// Back, quickly: through scene 11's six recorded screens to its start,
	// then into scene 10 at its end — no key lost while it reopens.
	for range 7 {
		r.key("Left")
	}
	r.waitScreen("talk · scene 10/11 · action 4/4")
	r.quit()

	ko := startExplorer(t, cacheDir(t), "talk", script, "--lang", "ko")
	ko.waitScreen("발표 · 장면 1/", "대부분의 잡 스케줄러는", "워커")
	ko.quit()
}

// waitChange waits until the screen is no longer before (a step ran, a card
// showed) and has settled — the same twice, nothing working — for at most
// a few seconds.
func waitChange(r explorerRun, before string) {
	last := before
	for range 250 {
		time.Sleep(30 * time.Millisecond)
		screen := r.screen()
		if screen != before && screen == last && !strings.Contains(screen, "working…") {
			return
		}
		last = screen
	}
}

// --lang ko (or a Korean locale) tells the narration and the details in
// Korean; the identifiers and the guards stay as they are, and a trace
// keeps the English details, so traces compare alike in any language.
func TestKoreanNarrationInRun(t *testing.T) {
	trace := filepath.Join(t.TempDir(), "ko.trace.json")
	code, stdout, stderr := call(t, "--lang", "ko", "run", "lease-overrun", "--save-trace", trace)
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "› PostgreSQL이 A을(를) 거절합니다(incoming 41 > last accepted 42 → false)")
	require.Contains(t, stdout, "PostgreSQL이 토큰 41로 쓴 A의 쓰기(summary = 41)를 거절합니다: STALE_FENCE")
	require.Contains(t, stdout, "가드: incoming 41 > last accepted 42 → false")
	saved, err := os.ReadFile(trace)
	require.NoError(t, err)
	require.Contains(t, string(saved), "PostgreSQL rejects A's summary = 41 with token 41: STALE_FENCE")
	code, _, stderr = call(t, "--lang", "en", "replay", trace)
	require.Equal(t, 0, code, "a Korean run's trace replays in English: %s", stderr)

	t.Setenv("LANG", "ko_KR.UTF-8")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	code, stdout, stderr = call(t, "run", "lease-overrun", "--mode", "unsafe")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "(커밋된 쓰기는 그 전에 받아들여진 모든 토큰보다 큰 토큰을 가진다)")
	code, stdout, _ = call(t, "--lang", "en", "run", "lease-overrun")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "› PostgreSQL refuses A (incoming 41 > last accepted 42 → false)")

	code, stdout, _ = call(t, "--lang", "ko", "list")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "리스 초과: 멈췄던 워커가 옛 토큰을 들고 돌아온다")
	code, stdout, _ = call(t, "--lang", "ko", "run", "lease-overrun")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "판정 STALE_FENCE  — 카탈로그의 예측 그대로")

	code, stdout, _ = call(t, "--lang", "ko", "export", "lease-overrun", "--to", "md")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "## 타임라인")
	require.Contains(t, stdout, "PostgreSQL이 A을(를) 거절합니다")

	code, _, stderr = call(t, "--lang", "fr", "list")
	require.Equal(t, 2, code)
	requireOneLine(t, stderr, `--lang "fr": want en or ko`)

	// Bad input is refused in the user's language too.
	code, _, stderr = call(t, "--lang", "ko", "run", "nope")
	require.Equal(t, 2, code)
	requireOneLine(t, stderr, `알 수 없는 시나리오 "nope"`)
	code, _, stderr = call(t, "--lang", "ko", "run", "lease-overrun", "--max-schedules", "3")
	require.Equal(t, 2, code)
	requireOneLine(t, stderr, "run은(는) --max-schedules을(를) 받지 않습니다")
	code, stdout, _ = call(t, "--lang", "ko", "run", "--help")
	require.Equal(t, 0, code)
	require.Contains(t, stdout, "  fencelab run ID|FILE|--all")
	require.Contains(t, stdout, "화면 없이")
}
