package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/pgcluster"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
)

func TestMain(m *testing.M) {
	// As Main does: a failure is said in fencelab's one line, not the driver's.
	redisstore.DriverLog(io.Discard)
	var err error
	if buildDir, err = os.MkdirTemp("", "fencelab-bin-"); err != nil {
		panic(err)
	}
	os.Chmod(buildDir, 0o755)
	code := storetest.Run(m)
	os.RemoveAll(buildDir)
	os.Exit(code)
}

// call runs one command line in-process.
func call(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = fencelab(context.Background(), args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// lockedBuffer is what a child process writes to while the test reads it:
// exec copies a pipe into it from a goroutine of its own, so a bytes.Buffer
// read before Wait returns is a data race.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// pipedProgress is a progress line as a long command writes it every
// pipeEvery where stderr is no terminal: "check […] … (10s in)".
var pipedProgress = regexp.MustCompile(`^(check|matrix|race:|stress|bench:) .* \(\d[\dhms]* in\)$`)

// requireOneLine checks a failure is told in exactly one line (after the
// progress lines a run long enough writes on a pipe).
func requireOneLine(t *testing.T, stderr string, contains string) {
	t.Helper()
	lines := slices.DeleteFunc(strings.Split(strings.TrimRight(stderr, "\n"), "\n"), pipedProgress.MatchString)
	if len(lines) == 0 {
		lines = []string{""}
	}
	require.Len(t, lines, 1, "stderr: %q", stderr)
	require.Contains(t, lines[0], contains)
}

func TestList(t *testing.T) {
	code, out, _ := call(t, "list")
	require.Equal(t, 0, code)
	for _, id := range scenarios.IDs() {
		require.Contains(t, out, id)
	}
}

// refusal is a command line that must be refused: its exit code and a
// part of its one line.
type refusal struct {
	name     string
	args     []string
	code     int
	contains string
}

// requireRefused runs each refusal: one line, that exit code, within
// seconds.
func requireRefused(t *testing.T, refusals []refusal) {
	t.Helper()
	for _, tc := range refusals {
		t.Run(tc.name, func(t *testing.T) {
			started := time.Now()
			code, _, stderr := call(t, tc.args...)
			require.Equal(t, tc.code, code, "stderr: %s", stderr)
			requireOneLine(t, stderr, tc.contains)
			require.Less(t, time.Since(started), 10*time.Second)
		})
	}
}

func TestBadInput(t *testing.T) {
	requireRefused(t, []refusal{
		{"unknown scenario", []string{"run", "no-such-scenario"}, 2, `unknown scenario "no-such-scenario"`},
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"unknown flag", []string{"run", "--all", "--colour"}, 2, "unknown flag"},
		{"bad mode", []string{"run", "lease-overrun", "--mode", "sometimes"}, 2, "--mode"},
		{"id and --all", []string{"run", "lease-overrun", "--all"}, 2, "not both"},
		{"nothing to run", []string{"run"}, 2, "a scenario file or --all"},
		{"malformed DSN", []string{"run", "lease-overrun", "--pg", "host=x port=notaport"}, 2, "malformed DSN"},
		{"malformed Redis URL", []string{"run", "lease-overrun", "--redis", "http://localhost"}, 2, "--redis"},
		{"a Redis address without its scheme, said as typed", []string{"run", "lease-overrun", "--redis", "127.0.0.1:6401"}, 2, "--redis 127.0.0.1:6401: parse"},
		{"an empty --redis", []string{"run", "lease-overrun", "--redis", ""}, 2, "--redis is empty"},
		{"an empty --pg", []string{"run", "lease-overrun", "--pg", " "}, 2, "--pg is empty"},
		{"negative TTL", []string{"run", "lease-overrun", "--lease-ttl", "-1s"}, 2, "--lease-ttl"},
		{"TTL below the lab clock's", []string{"run", "lease-overrun", "--lease-ttl", "5ms"}, 2, "--lease-ttl"},
		{"TTL a real Redis cannot honour", []string{"run", "lease-overrun", "--lease-ttl", "10ms", "--redis", "redis://127.0.0.1:1/0"}, 2, "at least 500ms"},
		{"PostgreSQL down", []string{"run", "lease-overrun", "--pg", "postgres://nobody@127.0.0.1:1/none"}, 3, "connect"},
		{"Redis down", []string{"run", "lease-overrun", "--redis", "redis://127.0.0.1:1/0"}, 3, "redis://127.0.0.1:1"},
		{"race with no key sets", []string{"race", "--n", "0"}, 2, "--n"},
		{"zero TTL", []string{"run", "lease-overrun", "--lease-ttl", "0"}, 2, "--lease-ttl must be positive"},
		{"a flag list does not take", []string{"list", "--json"}, 2, "does not take --json"},
		{"race with --pg", []string{"race", "--pg", "postgres://x@h/db"}, 2, "does not take --pg"},
		{"explorer in both modes", []string{"--mode", "both"}, 2, "safe or unsafe"},
		{"explorer UNSAFE on --pg", []string{"--mode", "unsafe", "--pg", "postgres://x@h/db"}, 2, "--allow-unsafe"},
		{"race too large", []string{"race", "--n", "10001"}, 2, "between 1 and 10000"},
		{"race with too many free pairs", []string{"race", "--free", "100000"}, 2, "--free"},
		{"race with arguments", []string{"race", "now"}, 2, "no arguments"},
		{"race, Redis down", []string{"race", "--redis", "redis://127.0.0.1:1/0"}, 3, "redis://127.0.0.1:1"},
	})
}

func schemaExists(t *testing.T, dsn string) bool {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	require.NoError(t, err)
	defer conn.Close(context.Background())
	var n int
	require.NoError(t, conn.QueryRow(context.Background(),
		`SELECT count(*) FROM pg_namespace WHERE nspname = 'fencelab'`).Scan(&n))
	return n == 1
}

// UNSAFE writes to a user's server only with --allow-unsafe; without it
// nothing at all is written, not even the schema.
func TestUnsafeOnUserServerNeedsPermission(t *testing.T) {
	dsn := storetest.NewDatabaseDSN(t, false)
	for _, args := range [][]string{{"run", "lease-overrun", "--mode", "both"}, {"diff", "lease-overrun"}} {
		code, _, stderr := call(t, append(args, "--pg", dsn)...)
		require.Equal(t, 2, code, "%v", args)
		requireOneLine(t, stderr, "--allow-unsafe")
		require.False(t, schemaExists(t, dsn))
	}
}

// A schema named fencelab that fencelab did not create: refused, unchanged.
func TestForeignSchemaIsRefused(t *testing.T) {
	ctx := context.Background()
	dsn := storetest.NewDatabaseDSN(t, false)
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	_, err = conn.Exec(ctx, `CREATE SCHEMA fencelab; CREATE TABLE fencelab.resources (mine text); INSERT INTO fencelab.resources VALUES ('keep')`)
	require.NoError(t, err)

	code, _, stderr := call(t, "run", "lease-overrun", "--pg", dsn)
	require.Equal(t, 2, code)
	requireOneLine(t, stderr, "not created by fencelab")
	var mine string
	require.NoError(t, conn.QueryRow(ctx, `SELECT mine FROM fencelab.resources`).Scan(&mine))
	require.Equal(t, "keep", mine)
}

// With --pg the lab leaves its final state in place: the rows in the user's
// database are the rows the result reports.
func TestRunOnUserServerLeavesTheReportedRows(t *testing.T) {
	ctx := context.Background()
	dsn := storetest.NewDatabaseDSN(t, false)
	code, stdout, stderr := call(t, "run", "--all", "--mode", "both", "--allow-unsafe", "--json", "--pg", dsn)
	require.Equal(t, 0, code, stderr)

	var results []jsonResult
	require.NoError(t, json.Unmarshal([]byte(stdout), &results))
	require.Len(t, results, 2*len(scenarios.All()))
	for _, r := range results {
		require.True(t, r.AsPredicted, "%s %s", r.Scenario, r.Mode)
		require.NotEmpty(t, r.Timeline)
	}

	// The rows the last run left are the rows it reported.
	code, stdout, stderr = call(t, "run", "counter-loss", "--mode", "both", "--allow-unsafe", "--json", "--pg", dsn)
	require.Equal(t, 0, code, stderr)
	require.NoError(t, json.Unmarshal([]byte(stdout), &results))
	last := results[len(results)-1]

	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(t, err)
	defer conn.Close(ctx)
	var final int64
	var fence int64
	require.NoError(t, conn.QueryRow(ctx,
		`SELECT summary_value, last_accepted_fence FROM fencelab.resources WHERE conflict_key = $1`,
		scenarios.ConflictKey).Scan(&final, &fence))
	require.Equal(t, last.Final, final)
	require.Equal(t, last.LastAcceptedFence == nil, fence == 0)

	rows, err := conn.Query(ctx, `SELECT job_name, fencing_token, state, rejection FROM fencelab.executions ORDER BY execution_id`)
	require.NoError(t, err)
	got, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (jsonExecution, error) {
		var e jsonExecution
		return e, row.Scan(&e.JobName, &e.FencingToken, &e.State, &e.Rejection)
	})
	require.NoError(t, err)
	require.Equal(t, last.Executions, got)
}

// The default: an ephemeral cluster under the cache dir, stopped on exit.
func TestRunOnEphemeralCluster(t *testing.T) {
	dir, err := os.MkdirTemp("", "fencelab-cache-")
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	require.NoError(t, os.Chmod(dir, 0o755))
	t.Setenv("FENCELAB_CACHE_DIR", dir)

	code, stdout, stderr := call(t, "run", "lease-overrun", "--mode", "both")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "postgres 15 (ephemeral)")
	require.Contains(t, stdout, "psql 'host="+dir)
	require.Contains(t, stdout, "A_WRITE            REJECTED")
	require.Contains(t, stdout, "guard: incoming 41 > last accepted 42 → false")
	require.Contains(t, stdout, "verdict STALE_FENCE")
	require.Contains(t, stdout, "verdict STALE_OVERWRITE")

	require.Empty(t, storetest.Postmasters(dir), "no server left running on the cache dir")

	// However long a state (RECONCILIATION_REQUIRED), the details start in
	// one column, and each guard and narration under its event's detail.
	code, stdout, stderr = call(t, "run", "non-fenceable-effect", "--mode", "both")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "RECONCILIATION_REQUIRED")
	detailAt := map[string]int{} // per scenario × mode, the column
	block := ""
	for _, line := range strings.Split(stdout, "\n") {
		switch {
		case strings.HasPrefix(line, "non-fenceable-effect · "):
			block = line
		case block != "" && len(line) > 4 && line[3] == ' ' && strings.TrimSpace(line[:3]) != "":
			fields := strings.Fields(line)
			at := strings.Index(line, " "+fields[5]+" ") + len(fields[5]) + 2
			for at < len(line) && line[at] == ' ' {
				at++
			}
			if want, ok := detailAt[block]; ok {
				require.Equal(t, want, at, "the detail's column in %q", line)
			}
			detailAt[block] = at
		case block != "" && strings.TrimSpace(line) != "" && strings.HasPrefix(line, "   "):
			lead := len(line) - len(strings.TrimLeft(line, " "))
			require.Equal(t, detailAt[block], lead, "under the detail: %q", line)
		}
	}
	require.Len(t, detailAt, 2)
}

// Without server binaries and without --pg: one line naming the install
// command and --pg, exit 3.
func TestNoPostgreSQLBinaries(t *testing.T) {
	t.Setenv("PATH", "")
	saved := pgcluster.SearchPatterns
	pgcluster.SearchPatterns = nil
	defer func() { pgcluster.SearchPatterns = saved }()
	code, _, stderr := call(t, "run", "lease-overrun")
	require.Equal(t, 3, code)
	requireOneLine(t, stderr, "--pg")
	require.Contains(t, stderr, "install")
}

// A database that goes away in the middle of a run: one line, exit 3,
// within seconds.
func TestDatabaseGoesAwayMidRun(t *testing.T) {
	redisURL := storetest.RealRedisURL(t) // its TTLs are waited out: the run takes seconds
	dir, err := os.MkdirTemp("", "fencelab-doomed-")
	require.NoError(t, err)
	defer os.RemoveAll(dir)
	require.NoError(t, os.Chmod(dir, 0o755))
	doomed, err := pgcluster.Start(context.Background(), pgcluster.Options{Dir: dir})
	require.NoError(t, err)
	defer doomed.Stop()

	// The database stops once the run has printed its first result: mid-
	// run on any machine, however fast or loaded.
	stopped := make(chan struct{})
	out := &firstWrite{written: make(chan struct{})}
	go func() {
		<-out.written
		doomed.Stop()
		close(stopped)
	}()
	started := time.Now()
	var errOut bytes.Buffer
	code := fencelab(context.Background(), []string{"run", "--all", "--mode", "both", "--pg", doomed.DSN(pgcluster.Database),
		"--allow-unsafe", "--redis", redisURL, "--lease-ttl", "500ms"}, out, &errOut)
	out.once.Do(func() { close(out.written) }) // a run that printed nothing
	<-stopped
	stderr := errOut.String()
	require.Equal(t, 3, code, "stderr: %s", stderr)
	requireOneLine(t, stderr, "")
	t.Log(stderr)
	require.Less(t, time.Since(started), 15*time.Second)
}

// race prints the seed's six lines and needs no PostgreSQL.
func TestRace(t *testing.T) {
	t.Setenv("PATH", "")
	saved := pgcluster.SearchPatterns
	pgcluster.SearchPatterns = nil
	defer func() { pgcluster.SearchPatterns = saved }()
	code, stdout, stderr := call(t, "race")
	require.Equal(t, 0, code, stderr)
	require.Equal(t, `100 forced interleaving scenarios
GET -> SET: job hashes=200, unreferenced jobs=100
Lua acquire: acquired=100, reused=100, job hashes=100
Terminal transition: late SUCCESS before=100, after=0
Pointer ownership: late SUCCESS rejected=100, current pointers preserved=100
All invariants passed
`, stdout)
	require.Contains(t, stderr, "race on miniredis: ")
	require.Contains(t, stderr, "the GET -> SET line is the naive path (UNSAFE)")
}

// A run that does not end as the catalog predicts exits 1.
func TestUnexpectedOutcomeExitsOne(t *testing.T) {
	s, _ := scenarios.ByID("lease-overrun")
	wrong := *s
	wrong.Predicted = map[engine.Mode]engine.Prediction{engine.Safe: {Final: 41, Mark: 41, Verdict: engine.VerdictMatch}}
	var out, errOut bytes.Buffer
	err := runHeadless(context.Background(), config{pgDSN: storetest.NewDatabaseDSN(t, false)},
		runRequest{scenarios: []*engine.Scenario{&wrong}, modes: []engine.Mode{engine.Safe}}, &out, &errOut)
	require.Equal(t, 1, report(context.Background(), &errOut, err, config{}))
	require.Contains(t, out.String(), "NOT as the catalog predicts")
}

// firstWrite is a command's stdout that says when it is first written to.
type firstWrite struct {
	bytes.Buffer
	once    sync.Once
	written chan struct{}
}

func (w *firstWrite) Write(p []byte) (int, error) {
	n, err := w.Buffer.Write(p)
	w.once.Do(func() { close(w.written) })
	return n, err
}
