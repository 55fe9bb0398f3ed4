package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
)

func TestStressBadInput(t *testing.T) {
	mine := filepath.Join(t.TempDir(), "mine.html")
	require.NoError(t, os.WriteFile(mine, []byte("my notes"), 0o644))
	requireRefused(t, []refusal{
		{"no workers", []string{"stress", "--workers", "0"}, 2, "--workers must be between 1 and 200, got 0"},
		{"absurdly many workers", []string{"stress", "--workers", "100000"}, 2, "--workers must be between 1 and 200"},
		{"a duration with no unit", []string{"stress", "--duration", "10"}, 2, `--duration "10": want a duration with its unit`},
		{"no duration", []string{"stress", "--duration", "0s"}, 2, "--duration must be between"},
		{"a year", []string{"stress", "--duration", "9000h"}, 2, "--duration must be between"},
		{"duration and ops", []string{"stress", "--duration", "1s", "--ops", "10"}, 2, "not both"},
		{"no ops", []string{"stress", "--ops", "0"}, 2, "--ops must be between"},
		{"pauses in the past", []string{"stress", "--pause-every", "-1s"}, 2, "--pause-every"},
		{"a pause of an hour", []string{"stress", "--pause", "1h"}, 2, "--pause must be between"},
		{"both modes", []string{"stress", "--mode", "both"}, 2, "stress runs safe or unsafe"},
		{"arguments", []string{"stress", "now"}, 2, "no arguments"},
		{"a flag it does not take", []string{"stress", "--all"}, 2, "does not take --all"},
		{"UNSAFE on --pg", []string{"stress", "--mode", "unsafe", "--pg", "postgres://x@h/db"}, 2, "--allow-unsafe"},
		{"a page of the user's", []string{"stress", "--html", mine}, 2, "not overwritten"},
		{"an empty shared name", []string{"stress", "--shared", ""}, 2, "--shared"},
		{"Redis down", []string{"stress", "--redis", "redis://127.0.0.1:1/0"}, 3, "redis://127.0.0.1:1"},
		{"worker with flags", []string{"worker", "--json"}, 2, "does not take --json"},
	})
	data, err := os.ReadFile(mine)
	require.NoError(t, err)
	require.Equal(t, "my notes", string(data), "the user's file is untouched")
}

// SAFE under pauses longer than the lease holds; UNSAFE under the same
// pauses breaks, as check's exit codes say; UNSAFE without pauses shows
// nothing, and says why.
func TestStressSafeHoldsUnsafeBreaks(t *testing.T) {
	short := []string{"--workers", "4", "--duration", "2s", "--lease-ttl", "100ms", "--pause-every", "300ms"}
	code, stdout, stderr := call(t, append([]string{"stress"}, short...)...)
	require.Equal(t, 0, code, "%s\n%s", stdout, stderr)
	require.Contains(t, stdout, "SAFE held: every invariant, progress, and the history is linearizable — as expected")
	require.Contains(t, stdout, "✓ 1 tokens accepted strictly increase in commit order")
	require.Contains(t, stdout, "✓ linearizable: ")
	require.Regexp(t, `rejected [0-9,]+: STALE_FENCE`, stdout, "a paused worker came back with an old token")

	code, stdout, stderr = call(t, append([]string{"stress", "--mode", "unsafe"}, short...)...)
	require.Equal(t, 0, code, "%s\n%s", stdout, stderr)
	require.Contains(t, stdout, "✗ 1 tokens accepted strictly increase in commit order")
	require.Contains(t, stdout, "NOT linearizable")
	require.Contains(t, stdout, "UNSAFE broke fencing")

	code, stdout, stderr = call(t, "stress", "--mode", "unsafe", "--workers", "2", "--duration", "1s", "--pause-every", "0")
	require.Equal(t, 1, code, stdout)
	require.Contains(t, stdout, "no pauses")
	requireOneLine(t, stderr, "UNSAFE showed no violation")

	code, stdout, _ = call(t, "--lang", "ko", "stress", "--workers", "2", "--ops", "50", "--json")
	require.Equal(t, 0, code)
	var report struct {
		Writes       int  `json:"writes"`
		Linearizable bool `json:"linearizable"`
		AsExpected   bool `json:"asExpected"`
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &report))
	require.True(t, report.Linearizable)
	require.True(t, report.AsExpected)
	require.GreaterOrEqual(t, report.Writes, 50)
}

// --procs: every worker a process of its own, frozen by a real SIGSTOP; the
// visualization is written; and no worker process outlives the run, whether
// it ends, is interrupted or its parent is killed outright.
func TestStressProcs(t *testing.T) {
	bin := binary(t)
	env := append(os.Environ(), "FENCELAB_CACHE_DIR="+cacheDir(t))
	page := filepath.Join(t.TempDir(), "history.html")
	cmd := exec.Command(bin, "stress", "--procs", "--mode", "unsafe", "--workers", "4", "--duration", "3s",
		"--lease-ttl", "100ms", "--pause-every", "400ms", "--html", page, "--json")
	cmd.Env = env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	require.NoError(t, err, stderr.String())
	var report struct {
		Processes    bool   `json:"processes"`
		Pauses       int    `json:"pauses"`
		StaleCommits int    `json:"staleCommits"`
		Linearizable bool   `json:"linearizable"`
		First        string `json:"firstViolation"`
	}
	require.NoError(t, json.Unmarshal(out, &report))
	require.True(t, report.Processes)
	require.Positive(t, report.Pauses)
	require.Positive(t, report.StaleCommits, "each frozen worker came back and overwrote")
	require.False(t, report.Linearizable)
	require.Contains(t, report.First, "was accepted at")
	html, err := os.ReadFile(page)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(strings.ToLower(string(html)), "<!doctype html>\n<!-- written by fencelab stress -->"))
	require.Contains(t, string(html), "<title>fencelab stress · UNSAFE · 4 workers")
	require.Empty(t, workerProcesses(bin), "no worker process outlives its run")

	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			run := exec.Command(bin, "stress", "--procs", "--workers", "3", "--duration", "1m", "--pause-every", "300ms")
			run.Env = env
			require.NoError(t, run.Start())
			deadline := time.Now().Add(20 * time.Second)
			for len(storetest.Children(run.Process.Pid)) < 3+1 && time.Now().Before(deadline) { // the workers and postgres
				time.Sleep(50 * time.Millisecond)
			}
			time.Sleep(700 * time.Millisecond) // a pause or two under way
			workers := workerProcesses(bin)
			require.Len(t, workers, 3)
			require.NoError(t, run.Process.Signal(sig))
			err := run.Wait()
			if sig == syscall.SIGINT {
				require.Equal(t, 130, run.ProcessState.ExitCode(), "%v", err)
			}
			for time.Now().Before(deadline) && len(workerProcesses(bin)) > 0 {
				time.Sleep(20 * time.Millisecond)
			}
			require.Empty(t, workerProcesses(bin), "no orphans after %s", sig)
		})
	}
}

// workerProcesses are the running worker processes of the binary bin.
func workerProcesses(bin string) []int {
	var pids []int
	paths, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, path := range paths {
		raw, err := os.ReadFile(path)
		if err != nil {
			continue
		}
		if string(raw) == bin+"\x00worker\x00" {
			pid := 0
			for _, c := range filepath.Base(filepath.Dir(path)) {
				pid = 10*pid + int(c-'0')
			}
			if storetest.Running(pid) {
				pids = append(pids, pid)
			}
		}
	}
	return pids
}

// Runs of --shared NAME, started at once on one Redis and one PostgreSQL
// (on many machines, in a class), contend for one lease and one row: each
// checks the history it saw, and the rows are all of theirs — the summary
// counts every accepted write of every run.
func TestStressSharedByRuns(t *testing.T) {
	bin := binary(t)
	redis, pg := storetest.RealRedisURL(t), storetest.NewDatabaseDSN(t, false)
	type result struct {
		Accepted     int   `json:"accepted"`
		Summary      int64 `json:"summary"`
		Linearizable bool  `json:"linearizable"`
		AsExpected   bool  `json:"asExpected"`
	}
	run := func(args ...string) (result, error) {
		cmd := exec.Command(bin, append([]string{"stress", "--shared", "class-1", "--redis", redis, "--pg", pg, "--json"}, args...)...)
		cmd.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+cacheDir(t))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		var r result
		if err == nil {
			err = json.Unmarshal(out, &r)
		}
		if err != nil {
			return r, fmt.Errorf("%w: %s", err, stderr.String())
		}
		return r, nil
	}
	results := make([]result, 3)
	errs := make([]error, 3)
	var wg sync.WaitGroup
	for i := range results {
		wg.Go(func() {
			results[i], errs[i] = run("--workers", "2", "--duration", "3s", "--lease-ttl", "500ms", "--pause-every", "1s")
		})
	}
	wg.Wait()
	accepted := 0
	for i, r := range results {
		require.NoError(t, errs[i])
		require.True(t, r.Linearizable, "run %d: %+v", i, r)
		require.True(t, r.AsExpected, "run %d: %+v", i, r)
		accepted += r.Accepted
	}
	last, err := run("--workers", "1", "--ops", "1")
	require.NoError(t, err)
	require.Equal(t, int64(accepted+last.Accepted), last.Summary, "the summary counts every run's accepted writes")

	code, _, stderr := call(t, "stress", "--shared", "class-1")
	require.Equal(t, 2, code)
	requireOneLine(t, stderr, "give the --redis and --pg they all reach")
	code, _, stderr = call(t, "stress", "--shared", "Class 1", "--redis", redis, "--pg", pg)
	require.Equal(t, 2, code)
	requireOneLine(t, stderr, "lowercase letters")
	require.Len(t, storetest.ServerKeys(t, redis, "fencelab:shared:class-1:*"), 2, "the counter and epoch of a shared resource stay, for the next run")
}

// A Redis that goes away mid-run ends stress in one line with exit 3, and
// its worker processes with it.
func TestStressBackendGoneMidRun(t *testing.T) {
	bin := binary(t)
	url, stop := storetest.RedisServerToStop(t)
	cmd := exec.Command(bin, "stress", "--procs", "--workers", "3", "--duration", "1m", "--redis", url)
	cmd.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+cacheDir(t))
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	deadline := time.Now().Add(20 * time.Second)
	for len(workerProcesses(bin)) < 3 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	started := time.Now()
	stop()
	err := cmd.Wait()
	require.Error(t, err)
	require.Equal(t, 3, cmd.ProcessState.ExitCode(), "%s\n%s", stdout.String(), stderr.String())
	requireOneLine(t, stderr.String(), "a backend went away")
	require.Less(t, time.Since(started), 15*time.Second)
	require.Empty(t, workerProcesses(bin))
}

// A worker process is the stress run's: started by hand, with nothing or
// no spec on its standard input, it says so and exits 2.
func TestWorkerByHand(t *testing.T) {
	bin := binary(t)
	for _, input := range []string{"", "{}\n", "not json\n", `{"worker":{"id":0},"join":{}}` + "\n"} {
		cmd := exec.Command(bin, "worker")
		cmd.Stdin = strings.NewReader(input)
		out, err := cmd.CombinedOutput()
		require.Error(t, err, "%q", input)
		require.Equal(t, 2, cmd.ProcessState.ExitCode(), "%q: %s", input, out)
		require.Equal(t, "fencelab: worker is a process of fencelab stress --procs, which starts it; run fencelab stress --procs\n", string(out))
	}
}

// A Redis that freezes mid-run ends stress --procs one deadline later: the
// worker process that found it silent says so to the run, whose own
// cleanup then does not wait out a deadline more (6.1 s before).
func TestStressProcsOnAFrozenRedisIsOneDeadline(t *testing.T) {
	bin := binary(t)
	url := storetest.RealRedisURL(t)
	server := redisServerOf(t, url)
	defer syscall.Kill(server, syscall.SIGCONT)
	cmd := exec.Command(bin, "stress", "--procs", "--workers", "3", "--duration", "1m", "--redis", url)
	cmd.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+cacheDir(t))
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	require.NoError(t, cmd.Start())
	deadline := time.Now().Add(20 * time.Second)
	for len(workerProcesses(bin)) < 3 && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	require.NoError(t, syscall.Kill(server, syscall.SIGSTOP))
	frozen := time.Now()
	err := cmd.Wait()
	took := time.Since(frozen)
	require.Error(t, err)
	require.Equal(t, 3, cmd.ProcessState.ExitCode(), "%s\n%s", stdout.String(), stderr.String())
	requireOneLine(t, stderr.String(), "Redis did not answer within 3s")
	require.Less(t, took, redisstore.CallTimeout+2500*time.Millisecond, "stress went on %s after the freeze", took)
}
