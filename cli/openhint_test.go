package cli

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// The "open it:" hint calls fencelab as it was run: by its path or its
// name, quoted for a shell; a binary `go run` built — in a temporary
// go-build folder, or in the build cache — by `go run .` in fencelab's
// source, else by fencelab.
func TestTheOpenHintCallsFencelabAsItWasRun(t *testing.T) {
	tmp, gotmp, cache := t.TempDir(), t.TempDir(), t.TempDir()
	inv := func(arg0 string) invocation {
		return invocation{arg0: arg0, temps: []string{tmp, gotmp}, caches: []string{cache}}
	}
	for arg0, want := range map[string]string{
		"fencelab":                "fencelab",
		"fencelab-dev":            "fencelab-dev",
		"./fencelab":              "./fencelab",
		"/opt/fence lab/fencelab": "'/opt/fence lab/fencelab'",
		filepath.Join(tmp, "go-build1234", "b001", "exe", "fencelab"): "fencelab",
		filepath.Join(gotmp, "go-build99", "b001", "exe", "fencelab"): "fencelab",
		filepath.Join(cache, "a8", "a84eb04d-d", "fencelab"):          "fencelab",
		filepath.Join(tmp, "built", "fencelab"):                       filepath.Join(tmp, "built", "fencelab"),
	} {
		require.Equal(t, want, invokedAs(inv(arg0)), arg0)
	}

	built := inv(filepath.Join(cache, "a8", "a84eb04d-d", "fencelab"))
	built.inSource = true
	require.Equal(t, "go run .", invokedAs(built), "in the source")
	own := inv("./fencelab")
	own.inSource = true
	require.Equal(t, "./fencelab", invokedAs(own), "a binary of its own, in the source")
}

// The source is known by go.mod's module directive, wherever it is in the
// file and however it is written.
func TestModulePath(t *testing.T) {
	require.Equal(t, "github.com/fencelab/fencelab", modulePath("module github.com/fencelab/fencelab\n\ngo 1.26\n"))
	require.Equal(t, "github.com/fencelab/fencelab", modulePath("// a fork\n\nmodule \"github.com/fencelab/fencelab\" // ours\n"))
	require.Equal(t, "example.com/other", modulePath("module example.com/other\n"))
	require.Empty(t, modulePath("go 1.26\n"))
}
