package cli

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The "open it:" hint calls fencelab as it was run: by its name when the
// PATH found it or `go run` built it in a temporary directory, by its path
// otherwise, quoted for a shell.
func TestTheOpenHintCallsFencelabAsItWasRun(t *testing.T) {
	tmp := t.TempDir()
	for arg0, want := range map[string]string{
		"fencelab":                "fencelab",
		"./fencelab":              "./fencelab",
		"/opt/fence lab/fencelab": "'/opt/fence lab/fencelab'",
		filepath.Join(tmp, "go-build1234", "b001", "exe", "fencelab"): "fencelab",
		filepath.Join(tmp, "built", "fencelab"):                       filepath.Join(tmp, "built", "fencelab"),
	} {
		require.Equal(t, want, invokedAs(arg0, tmp), arg0)
	}
}
