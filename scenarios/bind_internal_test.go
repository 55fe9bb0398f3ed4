package scenarios

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A parameter is bound only where a statement has code: a value put into
// a constant, a quoted name or a comment could end it, and what follows
// would run as code no rule of the file's text saw.
func TestAParameterIsBoundOnlyInCode(t *testing.T) {
	hostile := "*/ $q$ \" ' \n; CREATE TABLE made (x int); --"
	vars := map[string]string{"v": hostile, "n": "42", "b": `tail\`, "m": "-1"}
	for text, want := range map[string]string{
		"SELECT $v":                "SELECT '*/ $q$ \" '' \n; CREATE TABLE made (x int); --'",
		"SELECT $n + 1":            "SELECT 42 + 1",
		"SELECT $q$ $v $q$":        "SELECT $q$ $v $q$",
		"SELECT 1 /* $v */":        "SELECT 1 /* $v */",
		"SELECT 1 -- $v":           "SELECT 1 -- $v",
		`SELECT 1 AS "$v"`:         `SELECT 1 AS "$v"`,
		"SELECT '$v'":              "SELECT '$v'",
		`SELECT E'\'$v'`:           `SELECT E'\'$v'`,
		"SELECT x$v, E$v":          "SELECT x$v, E$v",
		"SELECT $b, $n":            `SELECT E'tail\\', 42`,
		"SELECT /* /* */ $v */ $n": "SELECT /* /* */ $v */ 42",
		"SELECT 2-$m":              "SELECT 2-(-1)",
	} {
		require.Equal(t, want, bind(text, vars, true), text)
	}
	require.Equal(t, "GET "+hostile, bind("GET $v", vars, false), "outside SQL a value is as it is")
}

// A [setup] string holds statements as psql takes them: split at each ;
// of their code, not at one in a constant, a name or a comment.
func TestSetupStatementsAreSplitAsPsqlSplitsThem(t *testing.T) {
	text := `CREATE TABLE t (x text DEFAULT ';');  -- a comment; still one
INSERT INTO t VALUES ($$a;b$$), (E'\';'); /* ; */
INSERT INTO "a;b" VALUES (1);
;`
	require.Equal(t, []string{
		"CREATE TABLE t (x text DEFAULT ';')",
		"-- a comment; still one\nINSERT INTO t VALUES ($$a;b$$), (E'\\';')",
		"/* ; */\nINSERT INTO \"a;b\" VALUES (1)",
	}, splitStatements(text))
}
