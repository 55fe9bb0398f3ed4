package engine

import (
	"context"
	"errors"
	"time"
)

// A world that keeps all its state in the process (its own service, saved
// and restored with the lab: LabWorld.Save) needs no servers: a lab whose
// Backends name no Redis or no PostgreSQL runs on these, which hold
// nothing. The engine's own tests run a toy world so.

// errNoStore is what a call to a store the lab does not have answers.
var errNoStore = errors.New("this lab has no such store: its Backends name none")

// noKeys is no Redis: no keys, and time passes for none of them.
type noKeys struct{}

func (noKeys) Client(string) RedisClient                               { return noKeys{} }
func (noKeys) RunCode(context.Context, RedisCall) (CodeReply, error)   { return CodeReply{}, errNoStore }
func (noKeys) Wipe(context.Context) error                              { return nil }
func (noKeys) Keys(context.Context) ([]RedisKey, error)                { return nil, nil }
func (noKeys) Restore(context.Context, []RedisKey, []RedisKey) error   { return nil }
func (noKeys) Elapse(context.Context, time.Duration) error             { return nil }
func (noKeys) Virtual() bool                                           { return true }
func (noKeys) LostKeys(context.Context, bool) ([]string, error)        { return nil, nil }
func (noKeys) Restart(context.Context) (bool, error)                   { return true, nil }
func (noKeys) Describe() string                                        { return "none" }
func (noKeys) Prefix() string                                          { return "" }
func (noKeys) Close() error                                            { return nil }
func (noDatabase) Connect(context.Context, string) (Ledger, error)     { return noLedger{}, nil }
func (noDatabase) Describe() string                                    { return "none" }
func (noDatabase) DSN() string                                         { return "" }
func (noDatabase) Writes() uint64                                      { return 0 }
func (noDatabase) ReadBack(bool)                                       {}
func (noLedger) Statement(context.Context, string) (CodeReply, error)  { return CodeReply{}, errNoStore }
func (noLedger) InTransaction() bool                                   { return false }
func (noLedger) PrepareCode(context.Context, map[string]string) error  { return nil }
func (noLedger) DropCode(context.Context, string) error                { return nil }
func (noLedger) State(context.Context) (LedgerState, error)            { return LedgerState{}, nil }
func (noLedger) Restore(context.Context, LedgerDump, LedgerDump) error { return nil }
func (noLedger) Lost() bool                                            { return false }
func (noLedger) Close(context.Context) error                           { return nil }
func (noLedger) SetupCode(context.Context, string, []string, map[string]string) error {
	return errNoStore
}

// noDatabase is no PostgreSQL: connections to nothing, holding no rows.
type noDatabase struct{}

// noLedger is a connection to no database.
type noLedger struct{}

var (
	_ Coordination = noKeys{}
	_ Database     = noDatabase{}
)
