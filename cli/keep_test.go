package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"regexp"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/scenarios"
)

// psqlReader is stdin for --keep: when the run first reads it, the server
// must still answer on the DSN the run printed, with the run's rows; then
// it gives the Enter.
type psqlReader struct {
	t      *testing.T
	stderr *bytes.Buffer
	final  int64
	done   bool
	// query reads final; empty: the scenario's summary.
	query string
	// err is what went wrong reading: said by the test, not from Read
	// (a failure on the run's reader goroutine would leave the run
	// waiting for its Enter).
	err error
}

func (r *psqlReader) Read(p []byte) (int, error) {
	if r.done {
		return 0, io.EOF
	}
	r.done = true
	r.err = r.read()
	return copy(p, "\n"), nil
}

func (r *psqlReader) read() error {
	m := regexp.MustCompile(`psql '([^']+)'`).FindStringSubmatch(r.stderr.String())
	if len(m) != 2 {
		return fmt.Errorf("no psql line on stderr: %s", r.stderr.String())
	}
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, m[1])
	if err != nil {
		return err
	}
	defer conn.Close(ctx)
	if r.query != "" {
		return conn.QueryRow(ctx, r.query).Scan(&r.final)
	}
	return conn.QueryRow(ctx, `SELECT summary_value FROM fencelab.resources WHERE conflict_key = $1`, scenarios.ConflictKey).Scan(&r.final)
}

// runKept runs fencelab with args (a run with --keep), its stdin a
// psqlReader reading query (empty: the scenario's summary) while the run
// keeps the server.
func runKept(t *testing.T, query string, args ...string) (code int, stderr string, reader *psqlReader) {
	t.Helper()
	t.Setenv("FENCELAB_CACHE_DIR", cacheDir(t))
	var out, errOut bytes.Buffer
	reader = &psqlReader{t: t, stderr: &errOut, query: query}
	old := stdin
	stdin = reader
	defer func() { stdin = old }()
	code = fencelab(context.Background(), args, &out, &errOut)
	require.True(t, reader.done, "the run never waited for Enter")
	require.NoError(t, reader.err)
	return code, errOut.String(), reader
}

// run --keep keeps the ephemeral PostgreSQL up with the run's rows until
// Enter; --keep with --pg is refused.
func TestRunKeepsTheServerForPsql(t *testing.T) {
	code, stderr, reader := runKept(t, "", "run", "lease-overrun", "--keep")
	require.Equal(t, 0, code, stderr)
	require.EqualValues(t, 42, reader.final, "the rows of the run, read while it kept the server")

	code, _, errOut := call(t, "run", "lease-overrun", "--keep", "--pg", "postgres://u@localhost/db")
	require.Equal(t, 2, code)
	requireOneLine(t, errOut, "--keep keeps fencelab's own PostgreSQL up")
}

// A file's tables are kept too, in the schema the run names.
func TestRunKeepsAFilesTablesForPsql(t *testing.T) {
	code, stderr, reader := runKept(t, `SELECT value FROM fencelab_code_counter.counters WHERE id = 1`, "run", "../examples/counter.toml", "--keep")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stderr, "the file's tables are in schema fencelab_code_counter")
	require.EqualValues(t, 2, reader.final, "the file's rows, read while the run kept the server")
}
