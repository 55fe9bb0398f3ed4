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
)

// Provider is safe for concurrent use.
type Provider struct {
	mu           sync.Mutex
	script       map[string]string
	answers      map[string]Answer // final answer per OperationId
	applications []Application
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
	p.answers = map[string]Answer{}
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
func (p *Provider) Execute(_ context.Context, operationID, effect string) (Answer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.executed++
	if answer, ok := p.answers[operationID]; ok {
		return answer, nil
	}
	receipt := fmt.Sprintf("rcpt-%03d", len(p.answers)+1)
	switch p.script[operationID] {
	case Declined:
		p.answers[operationID] = Answer{Status: Declined, Receipt: receipt}
		return p.answers[operationID], nil
	case AppliedButTimeout:
		p.apply(operationID, effect, receipt)
		return Answer{Status: Unknown}, nil
	default:
		p.apply(operationID, effect, receipt)
		return p.answers[operationID], nil
	}
}

func (p *Provider) apply(operationID, effect, receipt string) {
	p.applications = append(p.applications, Application{OperationID: operationID, Effect: effect})
	p.answers[operationID] = Answer{Status: Confirmed, Receipt: receipt}
}

// Query says what became of an OperationId, without executing anything.
func (p *Provider) Query(_ context.Context, operationID string) (Answer, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if answer, ok := p.answers[operationID]; ok {
		return answer, nil
	}
	return Answer{Status: NotFound}, nil
}

// Applications is the ledger, in order.
func (p *Provider) Applications() []Application {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Application(nil), p.applications...)
}

// Answers is the provider's memory: its final answer per OperationId.
func (p *Provider) Answers() map[string]Answer {
	p.mu.Lock()
	defer p.mu.Unlock()
	return maps.Clone(p.answers)
}

// Snapshot copies what the provider remembers.
func (p *Provider) Snapshot() Snapshot {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Snapshot{Answers: maps.Clone(p.answers), Executed: p.executed,
		Applications: append([]Application(nil), p.applications...)}
}

// Restore makes the provider remember exactly a snapshot.
func (p *Provider) Restore(s Snapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.answers = maps.Clone(s.Answers)
	if p.answers == nil {
		p.answers = map[string]Answer{}
	}
	p.applications = append([]Application(nil), s.Applications...)
	p.executed = s.Executed
}
