package cli

import (
	"bytes"
	"context"
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
}

func (r *psqlReader) Read(p []byte) (int, error) {
	if r.done {
		return 0, io.EOF
	}
	r.done = true
	m := regexp.MustCompile(`psql '([^']+)'`).FindStringSubmatch(r.stderr.String())
	require.Len(r.t, m, 2, "no psql line on stderr: %s", r.stderr.String())
	conn, err := pgx.Connect(context.Background(), m[1])
	require.NoError(r.t, err)
	defer conn.Close(context.Background())
	require.NoError(r.t, conn.QueryRow(context.Background(), `SELECT summary_value FROM fencelab.resources WHERE conflict_key = $1`, scenarios.ConflictKey).Scan(&r.final))
	return copy(p, "\n"), nil
}

// run --keep keeps the ephemeral PostgreSQL up with the run's rows until
// Enter; --keep with --pg is refused.
func TestRunKeepsTheServerForPsql(t *testing.T) {
	t.Setenv("FENCELAB_CACHE_DIR", cacheDir(t))
	var stdout, stderr bytes.Buffer
	reader := &psqlReader{t: t, stderr: &stderr}
	old := stdin
	stdin = reader
	defer func() { stdin = old }()
	code := fencelab(context.Background(), []string{"run", "lease-overrun", "--keep"}, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	require.True(t, reader.done, "the run never waited for Enter")
	require.EqualValues(t, 42, reader.final, "the rows of the run, read while it kept the server")

	code, _, errOut := call(t, "run", "lease-overrun", "--keep", "--pg", "postgres://u@localhost/db")
	require.Equal(t, 2, code)
	requireOneLine(t, errOut, "--keep keeps fencelab's own PostgreSQL up")
}
