package world

import "github.com/fencelab/fencelab/engine"

// The engine's names this package says most often, said as its own.
type (
	Actor       = engine.Actor
	Break       = engine.Break
	GuardSet    = engine.GuardSet
	LedgerDump  = engine.LedgerDump
	LedgerState = engine.LedgerState
	RedisKey    = engine.RedisKey
)

const VerdictLostUpdate = engine.VerdictLostUpdate

var newBreak = engine.NewBreak
