// Package provider is the simulated external system of DESIGN §5: a
// payment-like provider that cannot be fenced, idempotent by OperationId,
// answering queries, scripted per operation, with a ledger of what it
// applied.
package provider

import (
	"context"
	"fmt"
	"maps"
	"sync"

	"github.com/fencelab/fencelab/engine"
)

var _ engine.Provider = (*Provider)(nil)

// Provider is safe for concurrent use.
type Provider struct {
	mu           sync.Mutex
	script       map[string]string
	answers      map[string]engine.ProviderAnswer // final answer per OperationId
	applications []engine.Application
	executed     int
}

// New returns a provider that confirms everything until scripted.
func New() *Provider {
	p := &Provider{}
	p.Reset(nil)
	return p
}

func (p *Provider) Name() string { return "payments" }

// Reset forgets every operation and takes a new script.
func (p *Provider) Reset(script map[string]string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.script = map[string]string{}
	for id, outcome := range script {
		p.script[id] = outcome
	}
	p.answers = map[string]engine.ProviderAnswer{}
	p.applications = nil
	p.executed = 0
}

// Executed counts the Execute calls since the last Reset, repeats included.
func (p *Provider) Executed() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.executed
}

// Execute performs an operation once. Executing a known OperationId again
// answers what it did the first time, without applying again.
func (p *Provider) Execute(_ context.Context, operationID, effect string) (engine.ProviderAnswer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.executed++
	if answer, ok := p.answers[operationID]; ok {
		return answer, nil
	}
	receipt := fmt.Sprintf("rcpt-%03d", len(p.answers)+1)
	switch p.script[operationID] {
	case engine.ProviderDeclined:
		p.answers[operationID] = engine.ProviderAnswer{Status: engine.ProviderDeclined, Receipt: receipt}
		return p.answers[operationID], nil
	case engine.ProviderAppliedButTimeout:
		p.apply(operationID, effect, receipt)
		return engine.ProviderAnswer{Status: engine.ProviderUnknown}, nil
	default:
		p.apply(operationID, effect, receipt)
		return p.answers[operationID], nil
	}
}

func (p *Provider) apply(operationID, effect, receipt string) {
	p.applications = append(p.applications, engine.Application{OperationID: operationID, Effect: effect})
	p.answers[operationID] = engine.ProviderAnswer{Status: engine.ProviderConfirmed, Receipt: receipt}
}

// Query says what became of an OperationId, without executing anything.
func (p *Provider) Query(_ context.Context, operationID string) (engine.ProviderAnswer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if answer, ok := p.answers[operationID]; ok {
		return answer, nil
	}
	return engine.ProviderAnswer{Status: engine.ProviderNotFound}, nil
}

// Applications is the ledger, in order.
func (p *Provider) Applications() []engine.Application {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]engine.Application(nil), p.applications...)
}

// Answers is the provider's memory: its final answer per OperationId.
func (p *Provider) Answers() map[string]engine.ProviderAnswer {
	p.mu.Lock()
	defer p.mu.Unlock()
	return maps.Clone(p.answers)
}

// Snapshot copies what the provider remembers.
func (p *Provider) Snapshot() engine.ProviderSnapshot {
	p.mu.Lock()
	defer p.mu.Unlock()
	return engine.ProviderSnapshot{Answers: maps.Clone(p.answers), Executed: p.executed,
		Applications: append([]engine.Application(nil), p.applications...)}
}

// Restore makes the provider remember exactly a snapshot.
func (p *Provider) Restore(s engine.ProviderSnapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.answers = maps.Clone(s.Answers)
	if p.answers == nil {
		p.answers = map[string]engine.ProviderAnswer{}
	}
	p.applications = append([]engine.Application(nil), s.Applications...)
	p.executed = s.Executed
}
