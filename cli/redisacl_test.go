package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/storetest"
)

// docsACL is the ACL SETUSER line of docs/backends.md for a Redis user
// of fencelab's own: its rules after the password.
func docsACL(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../docs/backends.md")
	require.NoError(t, err)
	const start = "\nACL SETUSER fencelab reset on >PASSWORD "
	_, rest, found := strings.Cut(string(data), start)
	require.True(t, found, "docs/backends.md gives the ACL of a Redis user of fencelab's own")
	line, _, _ := strings.Cut(rest, "\n")
	return strings.Fields(line)
}

// A Redis user kept to fencelab's keys by an ACL — with every command but
// the dangerous ones (INFO among them), or with only the commands
// docs/backends.md lists — runs a lab, a check, the race and stress,
// shared or not, on one server and on a Redis Cluster, and the server
// refuses it nothing.
// fencelab asked INFO whether a server was a cluster's node, and stopped
// there: NOPERM.
func TestRedisUserKeptToItsKeys(t *testing.T) {
	listed := docsACL(t)
	for _, tc := range []struct {
		name string
		url  func(t *testing.T) string
	}{
		{"+@all -@dangerous", func(t *testing.T) string {
			return storetest.RedisUser(t, "~fencelab:*", "+@all", "-@dangerous")
		}},
		{"the commands docs/backends.md lists", func(t *testing.T) string { return storetest.RedisUser(t, listed...) }},
		{"the commands docs/backends.md lists, on a cluster", func(t *testing.T) string { return storetest.ClusterUser(t, listed...) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := tc.url(t)
			pg := storetest.NewDatabaseDSN(t, false)
			for _, args := range [][]string{
				{"run", "lease-overrun", "--mode", "both", "--allow-unsafe", "--pg", pg},
				{"check", "lease-overrun", "--pg", pg, "--out", t.TempDir()},
				{"race", "--n", "3", "--free", "3"},
				{"stress", "--workers", "2", "--ops", "20", "--lease-ttl", "500ms", "--pg", pg},
				{"stress", "--shared", "acl", "--workers", "2", "--ops", "20", "--lease-ttl", "500ms", "--pg", pg},
			} {
				code, stdout, stderr := call(t, append(args, "--redis", url)...)
				require.Equal(t, 0, code, "%v\n%s\n%s", args, stdout, stderr)
				require.NotContains(t, stdout+stderr, storetest.ACLPassword)
			}
			require.Empty(t, storetest.ACLDenials(t, url), "what the server refused fencelab")
		})
	}
}
