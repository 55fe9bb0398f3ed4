package cli

// Faults, signals and other people's servers (the rows of the safety
// issue): each test here failed on the main before it and says what a user
// saw there.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/pgcluster"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
)

// callCtx runs one command line in-process under ctx.
func callCtx(t *testing.T, ctx context.Context, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = fencelab(ctx, args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// usersServer starts a PostgreSQL of the test's own, standing for a server
// the user points fencelab at with --pg.
func usersServer(t *testing.T) *pgcluster.Cluster {
	t.Helper()
	c, err := pgcluster.Start(context.Background(), pgcluster.Options{Dir: cacheDir(t)})
	require.NoError(t, err)
	t.Cleanup(func() { c.Stop() })
	return c
}

// freeze stops a server's postmaster and every backend (SIGSTOP), as a
// hung machine or a debugger would, and returns their pids. Each backend
// runs in a session of its own, so they are found by parent pid. It uses
// no *testing.T: tests call it from a goroutine.
func freeze(postmaster int) []int {
	pids := append([]int{postmaster}, storetest.Children(postmaster)...)
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGSTOP)
	}
	return pids
}

func thaw(pids []int) {
	for _, pid := range pids {
		syscall.Kill(pid, syscall.SIGCONT)
	}
}

// postmastersUnder lists the pids of the servers with a data directory
// under dir.
func postmastersUnder(dir string) []int {
	var pids []int
	for _, p := range storetest.Postmasters(dir) {
		pids = append(pids, p.PID)
	}
	return pids
}

// passwordRole gives a user's server a role alice with a password.
func passwordRole(t *testing.T, server *pgcluster.Cluster, secret string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, server.DSN(pgcluster.Database))
	require.NoError(t, err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `CREATE ROLE alice LOGIN SUPERUSER PASSWORD '`+secret+`'`)
	require.NoError(t, err)
}

// Row 5: a frozen PostgreSQL — the user's or the ephemeral one — is
// reported in seconds with exit 3 (on main: no answer after 90 s).
func TestFrozenUsersPostgreSQLIsReportedInSeconds(t *testing.T) {
	t.Parallel()
	server := usersServer(t)
	frozen := make(chan []int, 1)
	go func() {
		time.Sleep(400 * time.Millisecond)
		frozen <- freeze(server.PID())
	}()
	started := time.Now()
	code, _, stderr := call(t, "run", "--all", "--mode", "both", "--allow-unsafe", "--pg", server.DSN(pgcluster.Database))
	defer thaw(<-frozen)
	require.Equal(t, 3, code, stderr)
	requireOneLine(t, stderr, "did not answer within")
	require.Less(t, time.Since(started), 15*time.Second)
}

// The ephemeral server frozen mid-run: reported as quickly, and stopped
// with all its backends (continued first, so they can end).
func TestFrozenEphemeralPostgreSQLIsReportedInSeconds(t *testing.T) {
	dir := cacheDir(t)
	t.Setenv("FENCELAB_CACHE_DIR", dir)
	code, _, stderr := call(t, "run", "lease-overrun") // the first start makes the cluster
	require.Equal(t, 0, code, stderr)
	frozen := make(chan []int, 1)
	go func() {
		for range 200 {
			if pids := postmastersUnder(dir); len(pids) > 0 {
				time.Sleep(300 * time.Millisecond)
				frozen <- freeze(pids[0])
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
		frozen <- nil
	}()
	started := time.Now()
	code, _, stderr = call(t, "run", "--all", "--mode", "both")
	pids := <-frozen
	defer thaw(pids)
	require.NotEmpty(t, pids, "the server was never frozen")
	require.Equal(t, 3, code, stderr)
	requireOneLine(t, stderr, "did not answer within")
	require.Less(t, time.Since(started), 15*time.Second)
	for _, pid := range pids {
		require.False(t, storetest.Running(pid), "server process %d was left behind", pid)
	}
}

// Row 6: a password given in --pg or --redis is never printed, in any
// form of DSN, on stdout or stderr (on main: in full in the psql line, and
// twice in a --redis error).
func TestPasswordsAreNeverPrinted(t *testing.T) {
	t.Parallel()
	const secret = "s3cr3t-pw"
	server := usersServer(t)
	passwordRole(t, server, secret)
	socket := filepath.Join(server.SlotDir, "run")

	for _, args := range [][]string{
		{"run", "lease-overrun", "--pg", fmt.Sprintf("host=%s user=alice dbname=fencelab password=%s", socket, secret)},
		{"run", "lease-overrun", "--pg", fmt.Sprintf("host=%s user=alice dbname=fencelab password='%s'", socket, secret)},
		{"run", "lease-overrun", "--json", "-v", "--pg", fmt.Sprintf("postgres://alice:%s@/fencelab?host=%s", secret, socket)},
		{"run", "lease-overrun", "--pg", fmt.Sprintf("postgres://alice@/fencelab?host=%s&password=%s", socket, secret)},
		{"run", "lease-overrun", "--pg", fmt.Sprintf("host=%s port=notaport password=%s", socket, secret)},
		{"run", "lease-overrun", "--pg", fmt.Sprintf("postgres://alice:%s@%s:99999/x", secret, "localhost")},
		{"run", "lease-overrun", "--pg", fmt.Sprintf("POSTGRES://alice:%s@db/lab", secret)},
		{"run", "lease-overrun", "--pg", fmt.Sprintf("postgres://alice:%s@[bad", secret)},
		{"run", "lease-overrun", "--pg", fmt.Sprintf("postgres://alice:12?%s@localhost:1/x", secret)},
		{"run", "lease-overrun", "--redis", "redis://u:" + secret + "@127.0.0.1:6390/notanumber"},
		{"run", "lease-overrun", "--redis", "redis://:" + secret + "@h:1/%zz"},
		{"run", "lease-overrun", "--redis", "redis://:" + secret + "@127.0.0.1:notaport/0"},
		{"run", "lease-overrun", "--redis", "redis://alice:" + secret + "@[::1/0"},
		{"run", "lease-overrun", "--redis", ":" + secret + "@127.0.0.1:6390"},
		{"run", "lease-overrun", "--redis", "redis://u:" + secret + "@127.0.0.1:1/0"},
		{"race", "--redis", "redis://:" + secret + "@127.0.0.1:1/0"},
	} {
		code, stdout, stderr := call(t, args...)
		require.NotContains(t, stdout+stderr, secret, "%v printed the password (exit %d):\n%s%s", args, code, stdout, stderr)
		if code == 0 {
			require.Contains(t, stdout+stderr, "password as in your --pg, or PGPASSWORD", args)
		}
	}
}

// Row 7: three runs at once on one --pg and one --redis each end as the
// catalog predicts (on main: deadlock detected, duplicate key, "not as
// the catalog predicts", all as exit 3). The runs sharing the database
// wait for each other and say so; the runs sharing Redis keep to their
// own keys.
func TestConcurrentRunsOnSharedServers(t *testing.T) {
	t.Parallel()
	bin := binary(t)
	sharedPG := storetest.NewDatabaseDSN(t, false)
	redisURL := storetest.RealRedisURL(t)
	type run struct {
		args   []string
		stdout bytes.Buffer
		stderr bytes.Buffer
		err    error
	}
	var runs []*run
	for range 3 {
		runs = append(runs, &run{args: []string{"run", "--all", "--mode", "both", "--allow-unsafe", "--json", "--pg", sharedPG}})
	}
	for range 3 {
		runs = append(runs, &run{args: []string{"run", "lease-overrun", "counter-loss", "async-job-acquire",
			"--mode", "both", "--allow-unsafe", "--json", "--pg", storetest.NewDatabaseDSN(t, false),
			"--redis", redisURL, "--lease-ttl", "500ms"}})
	}
	var wg sync.WaitGroup
	for _, r := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(bin, r.args...)
			cmd.Stdout, cmd.Stderr = &r.stdout, &r.stderr
			r.err = cmd.Run()
		}()
	}
	wg.Wait()
	waited := 0
	for _, r := range runs {
		require.NoError(t, r.err, "%v: %s", r.args, r.stderr.String())
		var results []jsonResult
		require.NoError(t, json.Unmarshal(r.stdout.Bytes(), &results))
		for _, res := range results {
			require.True(t, res.AsPredicted, "%s %s", res.Scenario, res.Mode)
		}
		if strings.Contains(r.stderr.String(), "another fencelab run is using this database") {
			waited++
		}
	}
	require.GreaterOrEqual(t, waited, 1, "no run said it waited for another")

	require.Empty(t, storetest.ServerKeys(t, redisURL, redisstore.Prefix+"*"), "the runs left keys on the shared Redis")
}

// Row 8: race on a user's Redis leaves none of its keys, also when it is
// interrupted (on main: 1,100 keys left for an hour).
func TestRaceLeavesNoKeys(t *testing.T) {
	url := storetest.RealRedisURL(t)
	leftovers := func() []string { return storetest.ServerKeys(t, url, redisstore.Prefix+"*") }

	code, _, stderr := call(t, "race", "--redis", url, "--free", "20")
	require.Equal(t, 0, code, stderr)
	require.Empty(t, leftovers())

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	code, _, stderr = callCtx(t, ctx, "race", "--redis", url, "--n", "5000")
	require.Equal(t, 130, code, stderr)
	requireOneLine(t, stderr, "interrupted")
	require.Empty(t, leftovers())
}

// Row 9: quieter faults.
func TestOutputThatCannotBeWrittenFails(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full")
	}
	defer full.Close()
	for _, args := range [][]string{{"list"}, {"run", "lease-overrun", "--pg", storetest.NewDatabaseDSN(t, false)}, {"race", "--n", "3"}} {
		var errOut bytes.Buffer
		code := fencelab(context.Background(), args, full, &errOut)
		require.Equal(t, 1, code, "%v > /dev/full", args)
		requireOneLine(t, errOut.String(), "no space left on device")
	}

	// A reader that goes away (fencelab … | true): the run still deletes
	// its keys, then ends by SIGPIPE as other tools do.
	url := storetest.RealRedisURL(t)
	err = exec.Command("bash", "-c", "set -o pipefail; "+binary(t)+" race --n 20 --redis "+url+" | true").Run()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit)
	require.Equal(t, 128+13, exit.ExitCode())
	require.Empty(t, storetest.ServerKeys(t, url, redisstore.Prefix+"*"))
}

// An interrupt while the backends start is exit 130 "interrupted", not 3
// "context canceled"; the next start works (row 3 end to end).
func TestInterruptDuringStart(t *testing.T) {
	dir := cacheDir(t)
	t.Setenv("FENCELAB_CACHE_DIR", dir)
	for _, after := range []time.Duration{30 * time.Millisecond, 250 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), after)
		code, _, stderr := callCtx(t, ctx, "run", "lease-overrun")
		cancel()
		if code == 0 {
			continue // it was quicker than the interrupt
		}
		require.Equal(t, 130, code, stderr)
		requireOneLine(t, stderr, "interrupted")
	}
	code, _, stderr := call(t, "run", "lease-overrun")
	require.Equal(t, 0, code, stderr)
	require.Empty(t, postmastersUnder(dir))
}

// race shows progress on a terminal once it takes more than a second.
func TestRaceProgress(t *testing.T) {
	var buf bytes.Buffer
	p := &progress{w: &buf, what: "forced key sets", started: time.Now()}
	p.show(1, 100)
	require.Empty(t, buf.String(), "nothing in the first second")
	p.started = time.Now().Add(-2 * time.Second)
	p.show(42, 100)
	require.Equal(t, "\r\x1b[Krace: 42/100 forced key sets (42%)…", buf.String())
	p.done()
	require.True(t, strings.HasSuffix(buf.String(), "\r\x1b[K"))

	// Off a terminal (a pipe, a CI log): nothing for a short run, then a
	// line of its own every pipeEvery, no escape in it.
	var log bytes.Buffer
	piped := newProgress(&log, "forced key sets")
	piped.show(1, 2)
	require.Empty(t, log.String(), "a short run writes nothing")
	piped.last = time.Now().Add(-pipeEvery)
	piped.show(1, 2)
	require.True(t, strings.HasPrefix(log.String(), "race: 1/2 forced key sets (50%)…"), log.String())
	require.True(t, strings.HasSuffix(log.String(), "in)\n"), log.String())
	require.Regexp(t, pipedProgress, strings.TrimSuffix(log.String(), "\n"), "requireOneLine knows it for progress")
	require.NotContains(t, log.String(), "\x1b")
	piped.done()
	require.NotContains(t, log.String(), "\x1b")
}

// A check whose memory passes --max-memory stops there, exit 1, and says
// it proves nothing and how to go further; a size that is none is refused.
// (A 9-actor file once grew to 675 MB in silence on a pipe.)
func TestCheckStopsAtItsMemoryBound(t *testing.T) {
	t.Setenv("FENCELAB_CACHE_DIR", cacheDir(t))
	code, stdout, stderr := call(t, "check", "lease-overrun", "--mode", "safe", "--max-memory", "1MiB", "--out", t.TempDir())
	require.Equal(t, exitUnexpected, code, stderr+stdout)
	require.Contains(t, stdout, "BOUNDED by --max-memory: not every schedule")
	require.Contains(t, stdout, "past --max-memory 1MiB: this proves nothing; a larger --max-memory goes further")
	require.NotContains(t, stdout, "BOUNDED by --max-schedules")

	code, stdout, stderr = call(t, "check", "lease-overrun", "--mode", "safe", "--out", t.TempDir())
	require.Equal(t, 0, code, stderr+stdout)
	require.NotContains(t, stdout, "BOUNDED")

	for _, size := range []string{"12", "lots", "-1GiB", "0"} {
		code, _, stderr = call(t, "check", "lease-overrun", "--max-memory", size)
		require.Equal(t, exitUsage, code, stderr)
		requireOneLine(t, stderr, `--max-memory "`+size+`": not a size from 1MiB up`)
	}
	for size, want := range map[string]uint64{"512MiB": 512 << 20, "2GiB": 2 << 30, "1.5G": 3 << 29, "4096k": 4 << 20} {
		got, err := parseSize(size)
		require.NoError(t, err)
		require.Equal(t, want, got, size)
	}
}

// Row 7's last part: a run that fails for a reason other than reaching the
// server is not exit 3 "unreachable" (on main it was, for deadlocks and
// duplicate keys). Here the user's database refuses the lab's inserts.
func TestFailureThatIsNotReachabilityIsNotExitThree(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dsn := storetest.NewDatabaseDSN(t, false)
	code, _, stderr := call(t, "run", "lease-overrun", "--pg", dsn)
	require.Equal(t, 0, code, stderr)
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `ALTER TABLE fencelab.executions ADD CONSTRAINT refuse_all CHECK (false) NOT VALID`)
	require.NoError(t, err)

	code, _, stderr = call(t, "run", "lease-overrun", "--pg", dsn)
	require.Equal(t, 1, code, stderr)
	requireOneLine(t, stderr, "refuse_all")
}

// A frozen Redis is reported as quickly: each command, its retry included,
// has 3 s (on main a command on a frozen Redis took about 10 s).
func TestFrozenRedisIsReportedInSeconds(t *testing.T) {
	t.Parallel()
	url := storetest.RealRedisURL(t)
	socket := strings.TrimPrefix(url, "unix://")
	var server int
	paths, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, path := range paths {
		raw, _ := os.ReadFile(path)
		if strings.Contains(string(raw), "redis-server") && strings.Contains(string(raw), socket) {
			server, _ = strconv.Atoi(filepath.Base(filepath.Dir(path)))
		}
	}
	require.NotZero(t, server, "no redis-server for %s", socket)
	go func() {
		time.Sleep(400 * time.Millisecond)
		syscall.Kill(server, syscall.SIGSTOP)
	}()
	defer syscall.Kill(server, syscall.SIGCONT)
	started := time.Now()
	code, _, stderr := call(t, "run", "--all", "--mode", "both", "--allow-unsafe", "--redis", url, "--pg", storetest.NewDatabaseDSN(t, false))
	require.Equal(t, 3, code, stderr)
	requireOneLine(t, stderr, "Redis did not answer within 3s")
	// The line names the deadline each command had; the whole run ends
	// well within what one command once took times the commands in
	// flight. Alone it takes about 4 s; the bound leaves room for a CI
	// machine running other packages beside it (15 s seen).
	require.Less(t, time.Since(started), 30*time.Second)
}

// redisServerOf is the pid of the redis-server listening on a unix://
// URL's socket.
func redisServerOf(t *testing.T, url string) int {
	t.Helper()
	socket := strings.TrimPrefix(url, "unix://")
	paths, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, path := range paths {
		raw, _ := os.ReadFile(path)
		if strings.Contains(string(raw), "redis-server") && strings.Contains(string(raw), socket) {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(path)))
			return pid
		}
	}
	t.Fatalf("no redis-server for %s", socket)
	return 0
}

// A Redis frozen in the middle of check --all ends it one deadline later,
// as the line says: the first command to find the server silent cuts the
// others in flight on it, and the labs that end after it skip their
// cleanup there, rather than each wait out a deadline of its own (15–24 s
// on main; a call given up between two round trips hung it for good).
func TestARedisFrozenMidCheckEndsItOneDeadlineLater(t *testing.T) {
	url := storetest.RealRedisURL(t)
	server := redisServerOf(t, url)
	check := exec.Command(binary(t), "check", "--all", "--mode", "both", "--allow-unsafe", "--out", t.TempDir(),
		"--redis", url, "--pg", storetest.NewDatabaseDSN(t, false))
	check.Env = append(os.Environ(), "FENCELAB_CACHE_DIR="+cacheDir(t))
	out, err := check.StdoutPipe()
	require.NoError(t, err)
	var stderr lockedBuffer
	check.Stderr = &stderr
	require.NoError(t, check.Start())
	defer syscall.Kill(server, syscall.SIGCONT)
	// Frozen once the search is well under way: a scenario is done.
	buf := make([]byte, 4096)
	var seen []byte
	for !bytes.Contains(seen, []byte("lease-overrun · UNSAFE")) {
		n, err := out.Read(buf)
		require.NoError(t, err, "check ended before it got going: %s", stderr.String())
		seen = append(seen, buf[:n]...)
	}
	require.NoError(t, syscall.Kill(server, syscall.SIGSTOP))
	frozen := time.Now()
	go func() { _, _ = io.Copy(io.Discard, out) }()
	ended := make(chan error, 1)
	go func() { ended <- check.Wait() }()
	select {
	case err = <-ended:
	case <-time.After(60 * time.Second):
		check.Process.Kill()
		t.Fatal("check on a frozen Redis never ended")
	}
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, stderr.String())
	require.Equal(t, 3, exit.ExitCode(), stderr.String())
	requireOneLine(t, stderr.String(), "Redis did not answer within 3s")
	// One deadline (3 s) and the teardown; room left for a busy machine.
	require.Less(t, time.Since(frozen), 12*time.Second, "check went on %s after the freeze", time.Since(frozen))
}
