package world

import (
	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/provider"
)

// The catalog's stores' ports and rows still live in the engine; these
// names let this package say them as its own until they move here.
type (
	Actor            = engine.Actor
	Application      = provider.Application
	Break            = engine.Break
	LedgerState      = engine.LedgerState
	LedgerDump       = engine.LedgerDump
	GuardSet         = engine.GuardSet
	ProviderAnswer   = provider.Answer
	ProviderSnapshot = provider.Snapshot
	RedisKey         = engine.RedisKey
)

const (
	VerdictLostUpdate = engine.VerdictLostUpdate

	ProviderConfirmed         = provider.Confirmed
	ProviderDeclined          = provider.Declined
	ProviderUnknown           = provider.Unknown
	ProviderNotFound          = provider.NotFound
	ProviderAppliedButTimeout = provider.AppliedButTimeout
)

var (
	newBreak = engine.NewBreak
)
