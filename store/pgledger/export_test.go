package pgledger

import (
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/fencelab/fencelab/engine"
)

// RawConn is a ledger's connection, for tests that change rows no fencelab
// code path would.
func RawConn(t *testing.T, l engine.Ledger) *pgx.Conn {
	t.Helper()
	return l.(*Ledger).conn
}

// OnTheWire says whether a ledger's connection was made as an actor's:
// its statements go through the wire tracer, so an actor's round trips on
// it park (engine.Send).
func OnTheWire(l engine.Ledger) bool {
	_, ok := l.(*Ledger).conn.Config().Tracer.(wireTracer)
	return ok
}

// SchemaShape is what schema fencelab's shape sums to on conn, and what it
// must sum to.
func SchemaShape(t *testing.T, conn *pgx.Conn) (got, want string) {
	t.Helper()
	if err := conn.QueryRow(t.Context(), schemaShapeSQL).Scan(&got); err != nil {
		t.Fatal(err)
	}
	return got, schemaShape
}

// ScramVerifierSalted is what fencelab sends the server in place of a
// role's password, with the salt given.
func ScramVerifierSalted(password string, salt []byte) string {
	return scramVerifierSalted(password, salt)
}
