package scenarios

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
)

// The outbox worker delivers committed effects to the provider (DESIGN §5):
// claim a row and commit, call the provider outside any transaction, record
// what it said. An unknown outcome is reconciled by querying the original
// OperationId — in UNSAFE mode it is retried under a new one instead.

const outboxName = "OUT"

// claimTimeout is how long a claim holds before reconciliation may take the
// row from a worker that died.
const claimTimeout = 30 * time.Second

func outboxSpec(program ...engine.Step) engine.ActorSpec {
	return engine.ActorSpec{Name: outboxName, Label: lang.P("outbox worker"), Owner: "outbox-worker", Program: program}
}

func claimOutbox() engine.Step {
	return engine.Step{Name: "claim the oldest due outbox row", Touches: stampDB, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		row, found, err := world.LedgerOf(t).ClaimNextOutbox(ctx, t.Now(), claimTimeout)
		if err != nil {
			return 0, err
		}
		if !found {
			t.Emitf(engine.LayerDatabase, "CLAIM", "IDLE", "no PENDING outbox row is due; the outbox worker waits")
			return engine.Wait, nil
		}
		world.MemoryOf(t).Delivery = world.Delivery{OperationID: row.OperationID, Attempt: row.AttemptCount}
		t.Emitf(engine.LayerDatabase, "CLAIM", "CLAIMED", "claimed %s (attempt %d) and committed the claim, until %s",
			row.OperationID, row.AttemptCount, engine.FormatClock(row.NextAttemptAt.Sub(world.SeedIn(t).Now)))
		t.Narrate("The claim is committed before the provider is called: no transaction stays open across a network call.")
		return engine.Advance, nil
	}}
}

// callProvider sends the claimed row's effect under its own OperationId.
func callProvider() engine.Step {
	return engine.Step{Name: "call the provider", Touches: provides, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		d := &world.MemoryOf(t).Delivery
		d.SentAs = d.OperationID
		answer, err := world.ProviderOf(t).Execute(ctx, d.SentAs, d.OperationID)
		if err != nil {
			return 0, err
		}
		d.Answer = answer
		emitAnswer(t, "CALL", d.SentAs, answer)
		return engine.Advance, nil
	}}
}

func emitAnswer(t *engine.Turn, code, operationID string, answer world.ProviderAnswer) {
	switch answer.Status {
	case world.ProviderUnknown:
		t.Emitf(engine.LayerExternal, code, "UNKNOWN", "%s: %s timed out — applied or not, the worker cannot tell", world.ProviderOf(t).Name(), operationID)
		t.Narrate("The provider timed out: the effect may or may not have happened. Guessing either way is the bug.")
	default:
		t.Emitf(engine.LayerExternal, code, answer.Status, "%s: %s answered %s (receipt %s)", world.ProviderOf(t).Name(), operationID, answer.Status, answer.Receipt)
		t.Narrate("The provider answers %s for %s, with receipt %s: the worker knows what happened, and records it next.", answer.Status, operationID, answer.Receipt)
	}
}

// recordOutcome stores the provider's answer on the outbox row.
func recordOutcome() engine.Step {
	return engine.Step{Name: "record the outcome", Touches: stampDB, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		d := world.MemoryOf(t).Delivery
		if d.Answer.Status == "" {
			t.Emitf(engine.LayerDatabase, "RECORD", "IDLE", "no answer to record")
			t.Narrate("There is no answer to record: the worker asked the provider nothing.")
			return engine.Advance, nil
		}
		status := d.Answer.Status
		if status == world.ProviderUnknown || status == world.ProviderNotFound {
			status = "RECONCILIATION_REQUIRED"
		}
		err := world.LedgerOf(t).RecordOutcome(ctx, world.Outcome{OperationID: d.OperationID, Status: status,
			Provider: world.ProviderOf(t).Name(), ReceiptOperationID: d.SentAs, Receipt: d.Answer.Receipt, Now: t.Now(), Attempt: d.Attempt})
		if errors.Is(err, engine.ErrNotFound) {
			// Its claim ran out and another worker claimed the row since:
			// the answer is that worker's to record, as a stale token's
			// write is the newer holder's to make.
			t.Emitf(engine.LayerDatabase, "RECORD", "REFUSED", "outbox %s is no longer claimed under attempt %d: %s is not recorded",
				d.OperationID, d.Attempt, status)
			t.Narrate("%s's claim ran out while it was away, and another worker claimed the row since: the claim's attempt fences the record, as a token fences a write.", t.Actor.Name)
			return engine.Advance, nil
		}
		if err != nil {
			return 0, err
		}
		t.Emitf(engine.LayerDatabase, "RECORD", status, "outbox %s → %s", d.OperationID, status)
		switch {
		case status == "RECONCILIATION_REQUIRED":
			t.Narrate("The row is marked for reconciliation: someone must ask the provider what became of %s.", d.OperationID)
		case d.SentAs != d.OperationID:
			t.Narrate("The outbox says CONFIRMED, and it is — twice over: the provider's ledger shows the same effect under two OperationIds.")
		default:
			t.Narrate("Recorded %s with its receipt: the effect happened once, and the outbox knows it.", status)
		}
		return engine.Advance, nil
	}}
}

// findUnknown takes the oldest row whose outcome is unknown: marked for
// reconciliation, or claimed by a worker whose claim expired.
func findUnknown() engine.Step {
	return engine.Step{Name: "find rows to reconcile", Touches: stampDB, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		row, found, err := world.LedgerOf(t).ClaimForReconciliation(ctx, t.Now(), claimTimeout)
		if err != nil {
			return 0, err
		}
		d := &world.MemoryOf(t).Delivery
		if !found {
			*d = world.Delivery{}
			t.Emitf(engine.LayerDatabase, "RECONCILE", "IDLE", "no row awaits reconciliation")
			t.Narrate("No row awaits reconciliation: each is settled, or claimed by a worker whose claim still runs.")
			return engine.Advance, nil
		}
		*d = world.Delivery{OperationID: row.OperationID, Attempt: row.AttemptCount}
		t.Emitf(engine.LayerDatabase, "RECONCILE", row.Status, "%s needs reconciling (%s); claimed it (attempt %d)", row.OperationID, row.Status, row.AttemptCount)
		t.Narrate("The reconciler claims %s: before anything is sent again, it asks the provider what became of it.", row.OperationID)
		return engine.Advance, nil
	}}
}

// queryProvider asks what became of the original OperationId. It never
// executes anything. Without the operation-id guard it does what the naive
// code does instead: it sends the effect again under a new OperationId.
func queryProvider() engine.Step {
	return engine.Step{Name: "resolve the unknown outcome", Touches: provides, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		if t.Off(world.GuardOperationID) {
			return retry(ctx, t)
		}
		d := &world.MemoryOf(t).Delivery
		if d.OperationID == "" {
			t.Emitf(engine.LayerExternal, "QUERY", "IDLE", "nothing to query")
			t.Narrate("There is nothing to ask the provider about.")
			return engine.Advance, nil
		}
		d.SentAs = d.OperationID
		answer, err := world.ProviderOf(t).Query(ctx, d.OperationID)
		if err != nil {
			return 0, err
		}
		d.Answer = answer
		t.Emitf(engine.LayerExternal, "QUERY", answer.Status, "%s: query(%s) → %s%s", world.ProviderOf(t).Name(), d.OperationID,
			answer.Status, receiptSuffix(answer))
		t.Narrate("Instead of sending it again, the worker asks about the original OperationId: the provider did apply it, once.")
		return engine.Advance, nil
	}}
}

func receiptSuffix(a world.ProviderAnswer) lang.Phrase {
	if a.Receipt == "" {
		return lang.P("")
	}
	return lang.P(" (receipt %s)", a.Receipt)
}

// retryWithNewID is the UNSAFE reaction to an unknown outcome: send the
// effect again under a fresh OperationId, which the provider cannot
// recognise as the same effect.
func retryWithNewID() engine.Step {
	return engine.Step{Name: "retry with a new OperationId", Touches: provides, Run: retry}
}

func retry(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
	d := &world.MemoryOf(t).Delivery
	if d.OperationID == "" {
		t.Emitf(engine.LayerExternal, "RETRY", "IDLE", "nothing to retry")
		t.Narrate("There is nothing to send again.")
		return engine.Advance, nil
	}
	d.Retries++
	d.SentAs = fmt.Sprintf("%s/retry-%d", d.OperationID, d.Retries)
	answer, err := world.ProviderOf(t).Execute(ctx, d.SentAs, d.OperationID)
	if err != nil {
		return 0, err
	}
	d.Answer = answer
	emitAnswer(t, "RETRY", d.SentAs, answer)
	t.Narrate("A new OperationId looks like a new payment to the provider: the effect is applied a second time.")
	return engine.Advance, nil
}
