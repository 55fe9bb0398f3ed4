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
	Checkpoint       = engine.Checkpoint
	Execution        = engine.Execution
	GuardSet         = engine.GuardSet
	JobResult        = engine.JobResult
	Ledger           = engine.Ledger
	LedgerState      = engine.LedgerState
	Outcome          = engine.Outcome
	OutboxRow        = engine.OutboxRow
	ProviderAnswer   = provider.Answer
	ProviderSnapshot = provider.Snapshot
	Receipt          = engine.Receipt
	RecordedTime     = engine.RecordedTime
	Rollout          = engine.Rollout
	RedisKey         = engine.RedisKey
	Resource         = engine.Resource
	Seed             = engine.Seed
	Tenant           = engine.Tenant
	Write            = engine.Write
	WriteResult      = engine.WriteResult
)

const (
	StaleMembership     = engine.StaleMembership
	WrongRegion         = engine.WrongRegion
	IncompatibleVersion = engine.IncompatibleVersion
	StaleNamespace      = engine.StaleNamespace
	StaleFence          = engine.StaleFence
	VerdictLostUpdate   = engine.VerdictLostUpdate

	ProviderConfirmed         = provider.Confirmed
	ProviderDeclined          = provider.Declined
	ProviderUnknown           = provider.Unknown
	ProviderNotFound          = provider.NotFound
	ProviderAppliedButTimeout = provider.AppliedButTimeout
)

var (
	newBreak    = engine.NewBreak
	FormatFence = engine.FormatFence
)
