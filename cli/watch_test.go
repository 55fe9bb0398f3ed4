package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/tui"
)

// watched is what a watch said, in order.
type watched chan tui.ReloadMsg

// next waits for the watch's next word that satisfies ok.
func (w watched) next(t *testing.T, what string, ok func(tui.ReloadMsg) bool) tui.ReloadMsg {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		select {
		case msg := <-w:
			if ok(msg) {
				return msg
			}
		case <-deadline:
			t.Fatalf("the watch never said %s", what)
		}
	}
}

func saidErr(msg tui.ReloadMsg) string {
	if msg.Err == nil {
		return ""
	}
	if e, ok := msg.Err.(interface{ In(lang.Lang) string }); ok {
		return e.In(lang.En)
	}
	return msg.Err.Error()
}

func titled(title string) func(tui.ReloadMsg) bool {
	return func(msg tui.ReloadMsg) bool { return msg.Scenario != nil && msg.Scenario.Title == title }
}

// A watch outlives its directory: removed and made again (a checkout of
// another branch, rm -rf and mkdir, a sync tool), renamed away and
// replaced, the file removed alone. While the file or its directory is
// gone it says so; once it is back the new version comes.
func TestAWatchOutlivesItsDirectory(t *testing.T) {
	src, err := os.ReadFile("../examples/lock-fence.toml")
	require.NoError(t, err)
	version := func(title string) []byte {
		lines := strings.Split(string(src), "\n")
		for i, line := range lines {
			if strings.HasPrefix(line, "title = ") {
				lines[i] = "title = \"" + title + "\""
				break
			}
		}
		return []byte(strings.Join(lines, "\n"))
	}
	root := t.TempDir()
	dir := filepath.Join(root, "designs")
	require.NoError(t, os.Mkdir(dir, 0o755))
	file := filepath.Join(dir, "mine.toml")
	require.NoError(t, os.WriteFile(file, version("first"), 0o644))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	said := make(watched, 64)
	stop, err := watchScenario(ctx, file, func(msg tui.ReloadMsg) { said <- msg })
	require.NoError(t, err)
	defer stop()

	require.NoError(t, os.WriteFile(file, version("second"), 0o644))
	said.next(t, "the second version", titled("second"))

	require.NoError(t, os.RemoveAll(dir))
	msg := said.next(t, "that the directory is gone", func(m tui.ReloadMsg) bool { return m.Err != nil })
	require.Contains(t, saidErr(msg), "is gone with its directory")
	require.NoError(t, os.Mkdir(dir, 0o755))
	require.NoError(t, os.WriteFile(file, version("third"), 0o644))
	said.next(t, "the version in the directory made again", titled("third"))
	require.NoError(t, os.WriteFile(file, version("fourth"), 0o644))
	said.next(t, "a save in the directory made again", titled("fourth"))

	require.NoError(t, os.Rename(dir, filepath.Join(root, "old")))
	said.next(t, "that the renamed directory is gone", func(m tui.ReloadMsg) bool { return m.Err != nil })
	require.NoError(t, os.WriteFile(filepath.Join(root, "old", "mine.toml"), version("in the old place"), 0o644))
	require.NoError(t, os.Mkdir(dir, 0o755))
	require.NoError(t, os.WriteFile(file, version("fifth"), 0o644))
	said.next(t, "the version in the new directory, not the renamed one", func(m tui.ReloadMsg) bool {
		require.False(t, titled("in the old place")(m), "the renamed directory is still watched")
		return titled("fifth")(m)
	})

	require.NoError(t, os.Remove(file))
	msg = said.next(t, "that the file is gone", func(m tui.ReloadMsg) bool { return m.Err != nil })
	require.Contains(t, saidErr(msg), "mine.toml is gone (removed or renamed)")
	require.NoError(t, os.WriteFile(file, version("sixth"), 0o644))
	said.next(t, "the file back", titled("sixth"))
}
