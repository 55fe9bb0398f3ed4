package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/storetest"
)

// The whole catalog, the race, a check and a stress run on a local Redis
// Cluster of three masters: every script's keys share a hash tag, so each
// runs on one node, and nothing of a run is left on any master.
func TestOnARedisCluster(t *testing.T) {
	cluster := storetest.RedisClusterURL(t)

	code, stdout, stderr := call(t, "run", "--all", "--mode", "both", "--redis", cluster)
	require.Equal(t, 0, code, "%s\n%s", stdout, stderr)
	require.Contains(t, stdout, "redis     cluster "+cluster)
	require.Equal(t, 2*len(scenarios.All()), strings.Count(stdout, "— as the catalog predicts"))

	code, stdout, stderr = call(t, "race", "--n", "20", "--free", "20", "--redis", cluster)
	require.Equal(t, 0, code, "%s\n%s", stdout, stderr)
	require.Contains(t, stdout, "20 forced interleaving scenarios\nGET -> SET: job hashes=40, unreferenced jobs=20\n")
	require.Contains(t, stdout, "All invariants passed")

	code, stdout, stderr = call(t, "check", "dynamic-tenant", "--mode", "both", "--redis", cluster, "--out", t.TempDir())
	require.Equal(t, 0, code, "%s\n%s", stdout, stderr)
	require.Equal(t, 2, strings.Count(stdout, "as the catalog claims"))

	// One node's address alone: the cluster is found from it.
	code, stdout, stderr = call(t, "stress", "--redis", storetest.ClusterNodeURL(t), "--workers", "4", "--duration", "2s",
		"--lease-ttl", "500ms", "--pause-every", "700ms", "--json")
	require.Equal(t, 0, code, "%s\n%s", stdout, stderr)
	var report struct {
		Accepted     int  `json:"accepted"`
		Linearizable bool `json:"linearizable"`
		AsExpected   bool `json:"asExpected"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &report))
	require.True(t, report.Linearizable)
	require.True(t, report.AsExpected)
	require.Positive(t, report.Accepted)

	// Worker processes join the cluster too.
	run := exec.Command(binary(t), "stress", "--procs", "--mode", "unsafe", "--redis", cluster, "--workers", "3",
		"--duration", "2s", "--lease-ttl", "500ms", "--pause-every", "600ms")
	run.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+cacheDir(t))
	out, err := run.CombinedOutput()
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "UNSAFE broke fencing")

	require.Empty(t, storetest.ClusterKeys(t, "fencelab:*"), "every run deleted its keys from every master")
}
