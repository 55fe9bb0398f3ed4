package world

import (
	"context"
	"fmt"

	"github.com/fencelab/fencelab/engine"
)

// BackendProvider is the round trips to the external provider, an
// in-process service: each of its calls is one (Send).
const BackendProvider = "provider"

// ProviderOf is the provider as the actor's call sees it (gatedProvider).
func ProviderOf(t *engine.Turn) Provider { return gatedProvider{t.Lab().Backends().Provider} }

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
