package redact_test

import (
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/store/redact"
)

func TestPostgresDSN(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"host=db port=5432 user=alice password=alicepw dbname=lab", "host=db port=5432 user=alice dbname=lab"},
		{"password = 'a b\\'c' host=db", "host=db"},
		{"host=db password=pw\\ still", "host=db"},
		{"host=db", "host=db"},
		{"postgres://alice:alicepw@db:5432/lab?sslmode=disable", "postgres://alice@db:5432/lab?sslmode=disable"},
		{"postgresql://alice@db/lab?password=alicepw", "postgresql://alice@db/lab"},
		{"postgres://alice:pw@[bad", "postgres://xxxxx@[bad"},
		{"POSTGRES://alice:alicepw@db/lab", "postgres://alice@db/lab"},
		{"PostgreSQL://alice:alicepw@db/lab?sslmode=disable", "postgresql://alice@db/lab?sslmode=disable"},
		{"postgres://alice:1234?alicepw@db/lab", "postgres://xxxxx@db/lab"},
		{"postgres://alice:12#alicepw@db/lab", "postgres://xxxxx@db/lab"},
		{"host=db garbage alicepw", "host=db xxxxx"},
		{`host='/tmp/a  b\\c\'d' password='x  y'  dbname=lab`, `host='/tmp/a  b\\c\'d' dbname=lab`}, // a quoted value keeps its spaces
		{"host =\n db  port= 5432", "host=db port=5432"},
	} {
		got := redact.PostgresDSN(tc.in)
		require.Equal(t, tc.want, got, tc.in)
		require.NotContains(t, got, "alicepw")
	}
}

func TestURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"redis://u:redispw@host:6379/0", "redis://u@host:6379/0"},
		{"redis://:redispw@host:6379/0", "redis://host:6379/0"},
		{"rediss://host:6379/0?password=redispw", "rediss://host:6379/0"},
		{"redis://host:6379/0", "redis://host:6379/0"},
		{"redis://u:redis%pw@host/0", "redis://xxxxx@host/0"},
		{"unix:///tmp/redis.sock", "unix:///tmp/redis.sock"},
	} {
		got := redact.URL(tc.in)
		require.Equal(t, tc.want, got, tc.in)
		require.NotContains(t, got, "redispw")
	}
}

func TestWithin(t *testing.T) {
	for _, tc := range []struct{ msg, source string }{
		{`parse "redis://:SECRET@h:1/%zz": invalid URL escape "%zz"`, "redis://:SECRET@h:1/%zz"},
		{`parse ":SECRET@127.0.0.1:6390": missing protocol scheme`, ":SECRET@127.0.0.1:6390"},
		{`bad port in redis://u:SECRET@h:notaport/0`, "redis://u:SECRET@h:notaport/0"},
		{`cannot parse host=x password='SECRET' port=nope`, "host=x password='SECRET' port=nope"},
		{`failed: ?password=SECRET`, "postgres://a@h/db?password=SECRET"},
		{`escaped S%45CRET and unescaped SECRET`, "redis://:S%45CRET@h/0"},
	} {
		got := redact.Within(tc.msg, tc.source)
		require.NotContains(t, got, "SECRET", tc.msg)
		require.NotContains(t, got, "S%45CRET", tc.msg)
	}
	require.Equal(t, "nothing here", redact.Within("nothing here", ""))
}

// A password of a letter or two is masked where a DSN or URL holds it, not
// in every word that has its letters ("xxxxxgledger: dial tcxxxxx").
func TestWithinAShortPassword(t *testing.T) {
	const source = "postgres://u:p@127.0.0.1:1/db"
	require.Equal(t, "pgledger: connect: dial tcp 127.0.0.1:1: connection refused",
		redact.Within("pgledger: connect: dial tcp 127.0.0.1:1: connection refused", source))
	require.Equal(t, "cannot parse postgres://u:xxxxx@127.0.0.1:1/d (password=xxxxx)",
		redact.Within("cannot parse postgres://u:p@127.0.0.1:1/d (password=p)", source))
}

// What cannot hold a password is shown as it is: a cluster's list of
// nodes (which url.Parse refuses), an address without a scheme.
func TestURLWithoutPassword(t *testing.T) {
	for _, raw := range []string{"redis://127.0.0.1:7101,127.0.0.1:7102", "localhost:6399", "redis://127.0.0.1:7101,"} {
		require.Equal(t, raw, redact.URL(raw))
	}
	require.Equal(t, "redis://u@h1:1,h2:2/0", redact.URL("redis://u:secret@h1:1,h2:2/0"))
}

// Shell's word reads back as itself in a POSIX shell: no expansion, no
// splitting, whatever it holds.
func TestShellWordsReadBack(t *testing.T) {
	for _, word := range []string{"plain/path-1.json", "host=/a b port=5432", `it's $HOME \n "x"`, "", "a'b''c"} {
		out, err := exec.Command("sh", "-c", `eval "set -- $1"; printf %s "$1"`, "sh", redact.Shell(word)).Output()
		require.NoError(t, err)
		require.Equal(t, word, string(out), "%s", redact.Shell(word))
	}
	require.Equal(t, "plain/path-1.json", redact.Shell("plain/path-1.json"), "a plain word stays as it is")
}
