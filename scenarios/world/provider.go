package world

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/provider"
)

// BackendProvider is the round trips to the external provider, an
// in-process service: each of its calls is one (Send).
const BackendProvider = "provider"

// The provider's answers and records (store/provider's), as the catalog
// names them.
type (
	Application      = provider.Application
	ProviderAnswer   = provider.Answer
	ProviderSnapshot = provider.Snapshot
)

const (
	ProviderConfirmed         = provider.Confirmed
	ProviderDeclined          = provider.Declined
	ProviderUnknown           = provider.Unknown
	ProviderNotFound          = provider.NotFound
	ProviderAppliedButTimeout = provider.AppliedButTimeout
)

// Provider is the external system, which cannot be fenced: it is
// idempotent by OperationId and answers queries about one. Each lab has
// its own (store/provider's), made with the lab's world.
type Provider interface {
	Name() string
	Execute(ctx context.Context, operationID, effect string) (ProviderAnswer, error)
	Query(ctx context.Context, operationID string) (ProviderAnswer, error)
	Applications() []Application
	// Answers is what the provider remembers: its final answer per
	// OperationId (a query's answer), declined operations included.
	Answers() map[string]ProviderAnswer
	// Reset forgets everything and takes a new script: OperationId →
	// CONFIRMED, DECLINED or APPLIED_BUT_TIMEOUT (default CONFIRMED).
	Reset(script map[string]string)
	// Snapshot copies what the provider remembers since the last Reset;
	// Restore puts a copy back (the script stays as Reset set it).
	Snapshot() ProviderSnapshot
	Restore(ProviderSnapshot)
}

var _ Provider = (*provider.Provider)(nil)

// ProviderOf is the provider as the actor's call sees it (gatedProvider).
func ProviderOf(t *engine.Turn) Provider { return gatedProvider{of(t).provider} }

// ProviderIn is the lab's provider, as it stands (nil: the lab has no
// catalog world).
func ProviderIn(l *engine.Lab) Provider {
	if w := in(l); w != nil {
		return w.provider
	}
	return nil
}

// gatedProvider is the provider as an actor's call sees it: each call a
// round trip.
type gatedProvider struct{ Provider }

func (p gatedProvider) Execute(ctx context.Context, operationID, effect string) (ProviderAnswer, error) {
	back, err := engine.Send(ctx, engine.RoundTrip{Backend: BackendProvider, Text: fmt.Sprintf("execute %s (%s)", operationID, effect)})
	if err != nil {
		return ProviderAnswer{}, err
	}
	answer, err := p.Provider.Execute(ctx, operationID, effect)
	back(answer.Status)
	return answer, err
}

func (p gatedProvider) Query(ctx context.Context, operationID string) (ProviderAnswer, error) {
	back, err := engine.Send(ctx, engine.RoundTrip{Backend: BackendProvider, Text: "query " + operationID})
	if err != nil {
		return ProviderAnswer{}, err
	}
	answer, err := p.Provider.Query(ctx, operationID)
	back(answer.Status)
	return answer, err
}
