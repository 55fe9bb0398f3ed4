package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/fencelab/fencelab/lang"
)

// The anomaly each invariant of DESIGN §7 stands for when it breaks.
var anomalies = map[int]string{
	1: "STALE_OVERWRITE",
	2: "STALE_WRITE",
	3: "PARTIAL_COMMIT",
	4: "DUPLICATE_EFFECT",
	5: "TERMINAL_OVERWRITE",
	7: VerdictLostUpdate,
	// 6 names its kind: DUPLICATE_JOB or POINTER_STOLEN.
}

// Invariants are the rules of DESIGN §7, in words, for screens and help.
var Invariants = map[int]string{
	1: "a committed write carries a token above every token accepted before it",
	2: "a write happens only under the current membership, region, version and namespace",
	3: "business state, checkpoint, execution and outbox change together or not at all",
	4: "an OperationId is applied at most once by the provider",
	5: "a terminal job state (SUCCESS, FAILED) never changes",
	6: "every job hash is reachable from its running key while RUNNING; one running job per target",
	7: "every committed read-modify-write was computed from the value current at its commit",
}

// CheckLedger finds the invariants the database state breaks. Executions
// from index fresh on were committed by the step just taken, so they are
// checked against the configuration as it stands now (invariant 2); older
// ones were checked when they were new. It does no IO.
func CheckLedger(s LedgerState, fresh int) []Break {
	var breaks []Break
	broke := func(n int, format string, args ...any) {
		breaks = append(breaks, newBreak(n, anomalies[n], lang.P(format, args...)))
	}

	// 1: within a namespace epoch, committed tokens only grow.
	highest := map[int64]int64{}
	for _, e := range s.Executions {
		if e.State != "COMMITTED" || e.FencingToken == 0 {
			continue
		}
		if top := highest[e.NamespaceEpoch]; e.FencingToken <= top {
			broke(1, "%s committed token %d after token %d was accepted", e.Owner, e.FencingToken, top)
			continue
		}
		highest[e.NamespaceEpoch] = e.FencingToken
	}

	// 2: a fresh commit matches the configuration of the moment.
	tenants := map[string]Tenant{}
	for _, t := range s.Tenants {
		tenants[t.TenantID] = t
	}
	for i := fresh; i < len(s.Executions); i++ {
		e := s.Executions[i]
		if e.State != "COMMITTED" {
			continue
		}
		t, ok := tenants[e.TenantID]
		switch {
		case !ok || !t.Active || t.MembershipRevision != e.MembershipRevision:
			broke(2, "%s wrote under membership revision %d, current is %s", e.Owner, e.MembershipRevision, describeTenant(t, ok))
		case t.RegionID != e.RegionID || t.RegionEpoch != e.RegionEpoch:
			broke(2, "%s wrote from %s epoch %d, authoritative is %s epoch %d", e.Owner, e.RegionID, e.RegionEpoch, t.RegionID, t.RegionEpoch)
		case e.ContractVersion < max(s.Rollout.MinimumWriterVersion, s.Rollout.CheckpointSchemaVersion):
			broke(2, "%s wrote with contract %d, the rollout requires %d", e.Owner, e.ContractVersion,
				max(s.Rollout.MinimumWriterVersion, s.Rollout.CheckpointSchemaVersion))
		case e.NamespaceEpoch != 0 && e.NamespaceEpoch != s.Rollout.NamespaceEpoch:
			broke(2, "%s wrote under namespace epoch %d, current is %d", e.Owner, e.NamespaceEpoch, s.Rollout.NamespaceEpoch)
		}
	}

	// 3: every committed execution has its outbox row, and the checkpoint
	// agrees with the business row.
	outbox := map[string]bool{}
	for _, o := range s.Outbox {
		outbox[o.OperationID] = true
	}
	committed := map[string]bool{}
	for _, e := range s.Executions {
		if e.State == "COMMITTED" {
			committed[e.OperationID] = true
			if !outbox[e.OperationID] {
				broke(3, "execution %s committed without its outbox row", e.OperationID)
			}
		}
	}
	for id := range outbox {
		if !committed[id] {
			broke(3, "outbox row %s has no committed execution", id)
		}
	}
	for _, c := range s.Checkpoints {
		r, ok := s.Resource(c.ConflictKey)
		// Tokens compare only within an epoch: after a namespace bump the
		// resource's fence restarts at none while the checkpoint keeps the
		// last token of the old epoch.
		tokensComparable := c.FencingToken != 0 && r.LastAcceptedFence != 0
		if ok && (r.SummaryValue != c.SummaryValue || tokensComparable && r.LastAcceptedFence != c.FencingToken) {
			broke(3, "checkpoint of %s (%d, token %d) disagrees with the resource (%d, fence %d)",
				c.ConflictKey, c.SummaryValue, c.FencingToken, r.SummaryValue, r.LastAcceptedFence)
		}
	}
	// 7: a committed read-modify-write was built on the value the row held
	// when it landed; otherwise the updates committed in between are lost.
	for _, e := range s.Executions {
		if e.State == "COMMITTED" && e.HasRead && e.ReadValue != e.PreviousValue {
			broke(7, "%s wrote %d computed from %d, but the summary was %d when it committed: the update(s) that made it %d are lost",
				e.Owner, e.SummaryValue, e.ReadValue, e.PreviousValue, e.PreviousValue)
		}
	}
	return breaks
}

// CheckEffects finds effects the provider applied more than once
// (invariant 4). It does no IO.
func CheckEffects(applications []Application) []Break {
	var breaks []Break
	ids := map[string][]string{}
	var order []string
	for _, a := range applications {
		if _, seen := ids[a.Effect]; !seen {
			order = append(order, a.Effect)
		}
		ids[a.Effect] = append(ids[a.Effect], a.OperationID)
	}
	for _, effect := range order {
		if n := len(ids[effect]); n > 1 {
			breaks = append(breaks, newBreak(4, anomalies[4],
				lang.P("effect %s applied %d times (as %s)", effect, n, strings.Join(ids[effect], ", "))))
		}
	}
	return breaks
}

// jobWatch remembers what invariants 5 and 6 need from earlier steps: the
// first terminal status of each job, and which RUNNING jobs were once
// reachable from their running key (a job between the naive HSET and SET
// has not been reachable yet; one whose pointer is gone has lost it).
type jobWatch struct {
	terminal  map[string]string
	reachable map[string]bool
}

func newJobWatch() *jobWatch {
	return &jobWatch{terminal: map[string]string{}, reachable: map[string]bool{}}
}

// check finds the breaks of invariants 5 and 6 in s and updates the watch.
func (w *jobWatch) check(s JobsState) []Break {
	var breaks []Break
	running := map[string][]string{}
	for _, j := range s.Jobs {
		key := j.Target + "/" + j.ID
		if first, ok := w.terminal[key]; ok && j.Status != first {
			breaks = append(breaks, newBreak(5, anomalies[5], lang.P("%s went %s → %s after it had ended", j.ID, first, j.Status)))
		} else if !ok && (j.Status == JobSuccess || j.Status == JobFailed) {
			w.terminal[key] = j.Status
		}
		if j.Status == JobRunning {
			running[j.Target] = append(running[j.Target], j.ID)
		}
	}
	targets := make([]string, 0, len(running))
	for target := range running {
		targets = append(targets, target)
	}
	sort.Strings(targets)
	for _, target := range targets {
		ids := running[target]
		if len(ids) > 1 {
			breaks = append(breaks, newBreak(6, "DUPLICATE_JOB", lang.P("%d RUNNING jobs for %s: %s", len(ids), target, strings.Join(ids, ", "))))
		}
		pointer := s.Running[target]
		for _, id := range ids {
			key := target + "/" + id
			switch {
			case pointer == id:
				w.reachable[key] = true
			case w.reachable[key] && pointer == "":
				breaks = append(breaks, newBreak(6, "POINTER_STOLEN", lang.P("%s is RUNNING but the running key of %s is gone", id, target)))
			case w.reachable[key]:
				breaks = append(breaks, newBreak(6, "DUPLICATE_JOB", lang.P("%s is RUNNING but the running key of %s points at %s", id, target, pointer)))
			}
		}
	}
	return breaks
}

// newBreak is a break of invariant n, its detail kept in English (Told is
// set when the lab records it, in the lab's language).
func newBreak(n int, anomaly string, detail lang.Phrase) Break {
	return Break{Invariant: n, Anomaly: anomaly, Detail: detail.In(lang.En), phrase: detail}
}

func describeTenant(t Tenant, ok bool) lang.Phrase {
	switch {
	case !ok:
		return lang.P("no assignment")
	case !t.Active:
		return lang.P("tenant removed")
	default:
		return lang.P("revision %d", t.MembershipRevision)
	}
}

// checkInvariants reads the database and records breaks not seen before,
// on the step just taken.
func (l *Lab) checkInvariants(ctx context.Context) error {
	state, err := l.readLedger(ctx)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, b := range l.breaks {
		seen[b.Detail] = true
	}
	jobs, err := l.backends.Coordination.Jobs(ctx)
	if err != nil {
		return err
	}
	applications := l.backends.Provider.Applications()
	l.world = World{Ledger: state, Applications: applications, Jobs: jobs}
	found := append(CheckLedger(state, l.seenExecs), CheckEffects(applications)...)
	found = append(found, l.jobWatch.check(jobs)...)
	for _, b := range found {
		if seen[b.Detail] {
			continue
		}
		b.Sequence = len(l.events)
		b.Told = b.phrase.In(l.lang)
		l.breaks = append(l.breaks, b)
		l.emit(Event{Actor: "lab", Layer: LayerDatabase, Code: fmt.Sprintf("INVARIANT_%d", b.Invariant),
			State: "BROKEN", Detail: b.Detail, Told: b.Told,
			Narration: l.lang.T("Invariant %d broke: %s — %s.", b.Invariant, l.lang.T(Invariants[b.Invariant]), b.Told)})
	}
	l.seenExecs = len(state.Executions)
	return nil
}

// readLedger reads the schema for the checks. The checker, whose databases
// nobody else writes, reads it again only when a connection of the lab has
// written since the last read: most steps of most scenarios touch Redis
// alone.
func (l *Lab) readLedger(ctx context.Context) (LedgerState, error) {
	writes := l.backends.Database.Writes()
	if l.checking && l.ledgerRead && writes == l.readAt {
		return l.world.Ledger, nil
	}
	state, err := l.ledger.State(ctx)
	if err != nil {
		return LedgerState{}, err
	}
	l.ledgerRead, l.readAt = true, writes
	return state, nil
}
