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
