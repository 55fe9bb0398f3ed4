package cli

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
)

// A user's error line names the servers, not fencelab's packages.
func TestAnErrorLineNamesTheServersNotFencelabsPackages(t *testing.T) {
	code, _, stderr := call(t, "run", "lease-overrun", "--pg", "postgres://u@127.0.0.1:1/x")
	require.Equal(t, exitUnreachable, code, stderr)
	requireOneLine(t, stderr, "fencelab: PostgreSQL: connect: ")
	code, _, stderr = call(t, "run", "lease-overrun", "--redis", "redis://127.0.0.1:1")
	require.Equal(t, exitUnreachable, code, stderr)
	requireOneLine(t, stderr, "fencelab: Redis: reach redis://127.0.0.1:1: ")
	require.Equal(t, "a: Redis: b: PostgreSQL: c", engine.ServerNames("a: redisstore: b: pgcluster: c"))
	require.Equal(t, "mypgledger: x", engine.ServerNames("mypgledger: x"))
}

// A misspelt command or scenario id at the top level is named, with the
// nearest of both.
func TestAMisspeltCommandOrScenarioIsNamed(t *testing.T) {
	code, _, stderr := call(t, "chek", "lease-overrun")
	require.Equal(t, exitUsage, code)
	requireOneLine(t, stderr, `unknown command or scenario "chek" (did you mean check?)`)
	code, _, stderr = call(t, "lease-overun")
	require.Equal(t, exitUsage, code)
	requireOneLine(t, stderr, `unknown command or scenario "lease-overun" (did you mean lease-overrun?)`)
	code, _, stderr = call(t, "zzzzqq")
	require.Equal(t, exitUsage, code)
	requireOneLine(t, stderr, `unknown command "zzzzqq" (want list, run`)
}
