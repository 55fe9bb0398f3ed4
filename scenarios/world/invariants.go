package world

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/fencelab/fencelab/lang"
)

// The anomaly each invariant of DESIGN §7 stands for when it breaks.
var anomalies = map[int]string{
	1:  "STALE_OVERWRITE",
	2:  "STALE_WRITE",
	3:  "PARTIAL_COMMIT",
	4:  "DUPLICATE_EFFECT",
	5:  "TERMINAL_OVERWRITE",
	7:  VerdictLostUpdate,
	8:  "LEASE_STOLEN",
	9:  "LEASE_TOO_LONG",
	10: "JOB_FAILED_EARLY",
	// 6 names its kind: DUPLICATE_JOB or POINTER_STOLEN; 1 and 3 name a
	// second write of one token DUPLICATE_WRITE (alsoAnomalies).
}

// alsoAnomalies are the anomalies an invariant names a kind of its break
// with, beside its own: 1 and 3 a second write of one token, 3 a row a
// write was not for, 4 an answer of the provider's not on record and a
// row claimed by two workers at once, 6 its
// two kinds, a job acquire that named a job not running and a SUCCESS of
// a job the running key did not name, 9 a fencing
// history that would expire, 10 a moment recorded off the lab clock.
var alsoAnomalies = []string{"DUPLICATE_WRITE", "POINTER_STOLEN", "DUPLICATE_JOB", "ORPHAN_SUCCESS", "UNRECORDED_EFFECT", "DOUBLE_CLAIM", "WRONG_ROW", "OFF_CLOCK", "HISTORY_EXPIRES", "WRONG_JOB"}

// Invariants are the rules of DESIGN §7, in words, for screens and help.
// They are checked after every call (CheckLedger, CheckEffects, jobWatch,
// checkLeases), and by stress from its rows and history. As the code
// holds them, beyond DESIGN's first wording: 3 also holds the business row
// to what its last committed execution wrote (a write that changed the row
// without one — a dual write cut in half, a retry applied twice — breaks
// it); 6 lets a pointer end on its TTL (its job is then an orphan, which
// competes with no newer job) but not by another job's code; 8, lease
// integrity, is new: a lease ends only by its holder's release or its TTL
// (or a restart of Redis), and only its holder extends it; a lease a call
// told its caller it holds is, after the call, the caller's (answers.go).
// Progress is no invariant: the checker counts it beside them
// (CheckReport.Progressed).
var Invariants = map[int]string{
	1:  "a committed write carries a token above every token accepted before it",
	2:  "a write happens only under the current membership, region, version and namespace",
	3:  "a write changes its own row, checkpoint, execution and outbox together, or nothing",
	4:  "an OperationId is applied at most once, its outbox row is claimed by one worker at a time, and its final answer is on record",
	5:  "a terminal job state (SUCCESS, FAILED) never changes",
	6:  "every job hash is reachable from its running key while RUNNING; one running job per target; the job an acquire names is the one running, and a job becomes SUCCESS only while its running key names it",
	7:  "every committed read-modify-write was computed from the value current at its commit",
	8:  "a lease ends only by its holder's release or its TTL, and only its holder extends it: no worker gets a lease while another's is live, and a worker told it holds a lease holds it",
	9:  "no lease lives longer than its TTL: after every step, a lease's remaining time on the lab clock is at most the TTL it was granted with, and the fencing history (counter, epoch) never expires",
	10: "time is the lab clock's: a job is failed only after its deadline on it, and every moment a step records is on it",
}

// CheckLedger finds the invariants the database state breaks. Executions
// from index fresh on were committed by the step just taken, so they are
// checked against the configuration as it stands now (invariant 2); older
// ones were checked when they were new. It does no IO.
func CheckLedger(s Rows, fresh int) []Break {
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
		if top := highest[e.NamespaceEpoch]; e.FencingToken == top {
			breaks = append(breaks, newBreak(1, "DUPLICATE_WRITE", lang.P("%s committed token %d a second time", e.Owner, e.FencingToken)))
			continue
		} else if e.FencingToken < top {
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
	// 3, the business row itself: it is what its last committed write made
	// it. A write that changed the row without its execution — a dual
	// write cut in half, a retry applied a second time — breaks it.
	last := map[string]Execution{}
	for _, e := range s.Executions {
		if e.State == "COMMITTED" && e.ConflictKey != "" {
			last[e.ConflictKey] = e
		}
	}
	for _, r := range s.Resources {
		e, ok := last[r.ConflictKey]
		switch {
		case !ok && r.LastAcceptedFence != 0:
			broke(3, "%s has fence %d but no committed execution: its business row changed without one", r.ConflictKey, r.LastAcceptedFence)
		case !ok || r.SummaryValue == e.SummaryValue:
		case e.FencingToken != 0 && r.LastAcceptedFence == e.FencingToken && r.NamespaceEpoch == e.NamespaceEpoch:
			breaks = append(breaks, newBreak(3, "DUPLICATE_WRITE", lang.P("the summary is %d, but token %d's committed write made it %d: the same token wrote again without an execution of its own",
				r.SummaryValue, e.FencingToken, e.SummaryValue)))
		default:
			broke(3, "the summary is %d, but its last committed execution (%s) wrote %d: the business row changed without its execution",
				r.SummaryValue, e.OperationID, e.SummaryValue)
		}
	}
	// 4, the record of the provider's answers: an outbox row marked with
	// a final answer has the receipt of that answer, and every receipt is
	// for an outbox row. A status set in one transaction and its receipt
	// in another (or never), or a receipt kept under an OperationId the
	// outbox does not know, breaks it.
	rows := map[string]string{}
	for _, o := range s.Outbox {
		rows[o.OperationID] = o.Status
	}
	receipts := map[string]string{}
	for _, r := range s.Receipts {
		receipts[r.OperationID] = r.Status
		if _, ok := rows[r.OperationID]; !ok {
			breaks = append(breaks, newBreak(4, "UNRECORDED_EFFECT", lang.P("%s's receipt (%s) is for no outbox row", r.OperationID, r.Status)))
		}
	}
	for _, o := range s.Outbox {
		if o.Status != "CONFIRMED" && o.Status != "DECLINED" {
			continue
		}
		if got, ok := receipts[o.OperationID]; !ok {
			breaks = append(breaks, newBreak(4, "UNRECORDED_EFFECT", lang.P("outbox row %s is %s with no receipt", o.OperationID, o.Status)))
		} else if got != o.Status {
			breaks = append(breaks, newBreak(4, "UNRECORDED_EFFECT", lang.P("outbox row %s is %s, its receipt %s", o.OperationID, o.Status, got)))
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
// first terminal status of each job, where each target's running pointer
// pointed, and which jobs lost their pointer to the environment (its TTL
// ran out, Redis restarted) while RUNNING: an orphan, which no longer
// holds its target's run right and competes with no one.
type jobWatch struct {
	terminal map[string]string
	pointers map[string]string // target → job id, as last seen
	orphaned map[string]bool
	// born is when the lab first saw each job, on the lab clock: the
	// deadline of invariant 10 runs from there, not from the createdAt
	// the job's hash claims (a hash written in seconds where milliseconds
	// were meant claims 1970, and its job looks long overdue).
	born map[string]time.Time
	// claims are the outbox claims granted and not yet recorded, by
	// OperationId, for invariant 4's one claimant at a time (answers.go).
	claims map[string]outboxClaim
}

// outboxClaim is a worker's claim on an outbox row: its own to deliver
// until then, on the lab clock.
type outboxClaim struct {
	holder string
	until  time.Time
}

func newJobWatch() *jobWatch {
	return &jobWatch{terminal: map[string]string{}, pointers: map[string]string{}, orphaned: map[string]bool{}, born: map[string]time.Time{},
		claims: map[string]outboxClaim{}}
}

func (w *jobWatch) clone() *jobWatch {
	return &jobWatch{terminal: maps.Clone(w.terminal), pointers: maps.Clone(w.pointers), orphaned: maps.Clone(w.orphaned),
		born: maps.Clone(w.born), claims: maps.Clone(w.claims)}
}

// check finds the breaks of invariants 5, 6 and 10 in s and updates the
// watch. environment: the action was the clock's or a restart's, not a
// step's, so a pointer it ended ended on its TTL; now is the lab clock,
// deadline the scenario's job deadline.
func (w *jobWatch) check(s JobsState, environment bool, now time.Time, deadline time.Duration) []Break {
	var breaks []Break
	status := map[string]string{} // target/job → status
	running := map[string][]string{}
	for _, j := range s.Jobs {
		key := j.Target + "/" + j.ID
		status[key] = j.Status
		if _, seen := w.born[key]; !seen {
			w.born[key] = now
		}
		if first, ok := w.terminal[key]; ok && j.Status != first {
			breaks = append(breaks, newBreak(5, anomalies[5], lang.P("%s went %s → %s after it had ended", j.ID, first, j.Status)))
		} else if !ok && (j.Status == JobSuccess || j.Status == JobFailed) {
			w.terminal[key] = j.Status
			if b, early := jobFailedEarly(j, w.born[key], now, deadline); early && j.Status == JobFailed {
				breaks = append(breaks, b)
			}
			// SUCCESS is a run's to claim while its target's running key
			// names it, as the call before this one left the key: a job
			// whose key ran out, or was taken over, has lost the right
			// to run, and its results must not be published.
			if pointer := w.pointers[j.Target]; j.Status == JobSuccess && pointer != j.ID {
				named := any(pointer)
				if pointer == "" {
					named = lang.P("no job")
				}
				breaks = append(breaks, newBreak(6, "ORPHAN_SUCCESS", lang.P("%s became SUCCESS though its running key named %s", j.ID, named)))
			}
		}
		if j.Status == JobRunning && !w.orphaned[key] {
			running[j.Target] = append(running[j.Target], j.ID)
		}
	}
	// A pointer that named a job still RUNNING moved: on its TTL (the job
	// is an orphan from now on), or by a step — taken over or cleared by
	// another job's code while its own job still runs.
	targets := slices.Sorted(maps.Keys(w.pointers))
	for _, target := range targets {
		was, now := w.pointers[target], s.Running[target]
		key := target + "/" + was
		if was == now || status[key] != JobRunning {
			continue
		}
		switch {
		case environment:
			w.orphaned[key] = true
			running[target] = slices.DeleteFunc(running[target], func(id string) bool { return id == was })
		case now == "":
			breaks = append(breaks, newBreak(6, "POINTER_STOLEN", lang.P("%s is RUNNING but the running key of %s is gone", was, target)))
		default:
			breaks = append(breaks, newBreak(6, "DUPLICATE_JOB", lang.P("%s is RUNNING but the running key of %s points at %s", was, target, now)))
		}
	}
	for _, target := range slices.Sorted(maps.Keys(running)) {
		if ids := running[target]; len(ids) > 1 {
			breaks = append(breaks, newBreak(6, "DUPLICATE_JOB", lang.P("%d RUNNING jobs for %s: %s", len(ids), target, strings.Join(ids, ", "))))
		}
	}
	w.pointers = maps.Clone(s.Running)
	if w.pointers == nil {
		w.pointers = map[string]string{}
	}
	// Only a job still there and not ended may yet be failed: the others'
	// births are forgotten, so states that differ in nothing else are one.
	maps.DeleteFunc(w.born, func(key string, _ time.Time) bool {
		st, there := status[key]
		return !there || st == JobSuccess || st == JobFailed
	})
	return breaks
}

// jobFailedEarly is the break of invariant 10 of a job first seen FAILED
// at now: failed before its creation + deadline on the lab clock — its
// creation the later of its hash's createdAt and when the lab first saw
// it (born), since a job is not made before it appears. A poller that
// read the host's clock instead — a machine whose date is past the
// seed's —, or a createdAt written in the wrong unit, fails jobs early,
// and this says so.
func jobFailedEarly(j Job, born, now time.Time, deadline time.Duration) (Break, bool) {
	created := j.CreatedAt
	if born.After(created) {
		created = born
	}
	if deadline <= 0 || created.IsZero() {
		return Break{}, false
	}
	due := created.Add(deadline)
	if !now.Before(due) {
		return Break{}, false
	}
	return newBreak(10, anomalies[10], lang.P("%s was failed %s before its deadline (created + %s)",
		j.ID, due.Sub(now).Round(time.Second), deadline)), true
}

// offClock is how far from the lab clock a moment a step records may lie
// before invariant 10 calls it another clock's: no step sets one further
// ahead than its claim timeout (30 s), and a moment read from the host's
// clock, or written in the wrong unit, is months or years away.
const offClock = time.Hour

// checkTimes finds the break of invariant 10 in the moments the lab's rows
// and jobs hold: each was recorded on the lab clock, so none is before the
// clock began (start) nor ahead of it (now), by more than offClock, and a
// moment the call just taken recorded (one not in before) is not behind
// the clock when the call's step began (stepBegan; zero when the action
// was no actor's call). Code that took a moment from the host's clock,
// whose date is far from the seed's, records it where no step of the lab
// could have; code that took it from a clock that stood still (the seed's
// start) records it behind. The first such moment is told.
func checkTimes(before, after []RecordedTime, start, now, stepBegan time.Time) []Break {
	was := make(map[string]time.Time, len(before))
	for _, t := range before {
		was[t.Where] = t.At
	}
	for _, t := range after {
		at, kept := was[t.Where]
		switch {
		case t.At.After(now.Add(offClock)):
			return []Break{newBreak(10, "OFF_CLOCK", lang.P("%s is %s, %s ahead of the lab clock (%s): it was not taken from the lab clock",
				t.Where, formatMoment(t.At), formatDistance(t.At.Sub(now)), formatMoment(now)))}
		case t.At.Before(start.Add(-offClock)):
			return []Break{newBreak(10, "OFF_CLOCK", lang.P("%s is %s, %s before the lab clock began (%s): it was not taken from the lab clock",
				t.Where, formatMoment(t.At), formatDistance(start.Sub(t.At)), formatMoment(start)))}
		case !stepBegan.IsZero() && !(kept && at.Equal(t.At)) && t.At.Before(stepBegan):
			return []Break{newBreak(10, "OFF_CLOCK", lang.P("%s was recorded just now as %s, %s behind the lab clock (%s): it was not taken from the lab clock",
				t.Where, formatMoment(t.At), formatDistance(stepBegan.Sub(t.At)), formatMoment(stepBegan)))}
		}
	}
	return nil
}

// moments are the times the lab's rows and jobs hold.
func moments(ledger Rows, jobs JobsState) []RecordedTime {
	all := slices.Clone(ledger.Times)
	for _, j := range jobs.Jobs {
		// A hash without a createdAt (a progress report that made the
		// hash again after it ran out) holds no moment.
		if !j.CreatedAt.IsZero() {
			all = append(all, RecordedTime{Where: "job " + j.Target + "/" + j.ID + " createdAt", At: j.CreatedAt})
		}
		if !j.Heartbeat.IsZero() {
			all = append(all, RecordedTime{Where: "job " + j.Target + "/" + j.ID + " heartbeat", At: j.Heartbeat})
		}
	}
	return all
}

func formatMoment(t time.Time) string { return t.UTC().Format("2006-01-02 15:04:05 UTC") }

// formatDistance says a long way in days, a short one as a duration.
func formatDistance(d time.Duration) any {
	if d >= 48*time.Hour {
		return lang.P("%d days", int(d/(24*time.Hour)))
	}
	return d.Round(time.Second).String()
}

// checkNeighbour finds the break of invariant 3 in the neighbour's row:
// another job's resource (Seed.Neighbour), which no step of the scenario
// is for, holds what it was seeded with. A write whose UPDATE lost its
// conflict key changes it too, with no execution of its own.
func checkNeighbour(s Rows, seed Seed) []Break {
	breaks := checkNeighbourTenant(s, seed)
	if seed.Neighbour == "" {
		return breaks
	}
	r, ok := s.Resource(seed.Neighbour)
	switch {
	case !ok:
		return append(breaks, newBreak(3, "WRONG_ROW", lang.P("%s's row is gone: no step of this scenario is for it", seed.Neighbour)))
	case r.SummaryValue != seed.NeighbourValue || r.LastAcceptedFence != 0:
		// Its namespace epoch may move: a bump is the namespace's, and may
		// take every resource of it along.
		return append(breaks, newBreak(3, "WRONG_ROW", lang.P("%s's row changed (summary %d → %d, fence %s → %s), and no step of this scenario is for it: a write changed a row it was not for",
			seed.Neighbour, seed.NeighbourValue, r.SummaryValue, FormatFence(0), FormatFence(r.LastAcceptedFence))))
	}
	return breaks
}

// checkNeighbourTenant finds the break of invariant 3 in the neighbour
// tenant's assignment (Seed.NeighbourTenant), which no step of the
// scenario is for: it holds what it was seeded with.
func checkNeighbourTenant(s Rows, seed Seed) []Break {
	if seed.NeighbourTenant == "" {
		return nil
	}
	for _, t := range s.Tenants {
		if t.TenantID != seed.NeighbourTenant {
			continue
		}
		if !t.Active || t.MembershipRevision != seed.MembershipRevision || t.RegionID != seed.RegionID || t.RegionEpoch != seed.RegionEpoch {
			return []Break{newBreak(3, "WRONG_ROW", lang.P("%s's assignment changed (%s), and no step of this scenario is for it: a statement changed a row it was not for",
				seed.NeighbourTenant, describeTenant(t, true)))}
		}
		return nil
	}
	return []Break{newBreak(3, "WRONG_ROW", lang.P("%s's assignment is gone: no step of this scenario is for it", seed.NeighbourTenant))}
}

// checkLeaseLifetimes finds the breaks of invariant 9 in the lab's keys:
// a lease (a resource's or a job's leader's) granted for ttl with more
// than ttl left, or with no TTL at all — a renewal that gave EXPIRE
// milliseconds, a SET without PX — outlives what its holder was promised,
// so another worker waits on a lease nobody can be sure is held.
func checkLeaseLifetimes(keys []RedisKey, ttl time.Duration) []Break {
	var breaks []Break
	for _, k := range keys {
		if (k.Role == RoleCounter || k.Role == RoleEpoch) && k.TTL >= 0 {
			// The fencing history: a counter or epoch that expires hands
			// out its tokens again (a PEXPIRE meant for the lease, given
			// the key beside it).
			breaks = append(breaks, newBreak(9, "HISTORY_EXPIRES", lang.P("%s (the fencing %s) has a TTL: the history it keeps would expire, and its tokens be handed out again", k.Key, k.Role)))
			continue
		}
		if k.Role != RoleLease && k.Role != RoleLeader {
			continue
		}
		switch {
		case k.TTL < 0:
			breaks = append(breaks, newBreak(9, anomalies[9], lang.P("lease %s has no TTL: it lives until someone deletes it", k.Key)))
		case k.TTL > ttl:
			// Said the same at every step it lasts, so it is told once.
			breaks = append(breaks, newBreak(9, anomalies[9], lang.P("lease %s has more time left than the %s it was granted for", k.Key, ttl)))
		}
	}
	return breaks
}

// leaseOf reads who holds a lease key, and its token (0 for a leader's).
func leaseOf(k RedisKey) (owner string, token int64) {
	if k.Role == RoleLeader {
		return k.Value, 0
	}
	i := strings.LastIndex(k.Value, "|")
	if i < 0 {
		return k.Value, 0
	}
	token, _ = strconv.ParseInt(k.Value[i+1:], 10, 64)
	return k.Value[:i], token
}

// checkLeases finds the breaks of invariant 8 in what one call did to the
// lab's leases: before and after are the keys around it. Only the clock
// (a TTL) and a restart (the environment) may end a lease that is not the
// caller's own; only its holder may extend it.
func checkLeases(before, after []RedisKey, c cause) []Break {
	if c.clock || c.restart || c.actor == nil {
		return nil
	}
	now := make(map[string]RedisKey, len(after))
	for _, k := range after {
		now[k.Key] = k
	}
	var breaks []Break
	for _, k := range before {
		if k.Role != RoleLease && k.Role != RoleLeader {
			continue
		}
		holder, token := leaseOf(k)
		k2, still := now[k.Key]
		if holder == c.actor.Owner {
			// Its own owner's lease; but two runs may share an owner (a
			// retry on the same worker), and a release ends only the
			// token it was for.
			if released, ok := releasedOther(c.answers, holder, token); ok && k.Role == RoleLease && (!still || k2.Value != k.Value) {
				breaks = append(breaks, newBreak(8, anomalies[8], lang.P("%s's lease of token %d was ended by %s's release of token %d, another run's: the release asked whose lease it was, not which token's",
					holder, token, c.actor.Name, released)))
			}
			continue
		}
		which := lang.P("leader lease")
		if k.Role == RoleLease {
			which = lang.P("token %d", token)
		}
		switch {
		case !still || k2.Value != k.Value:
			breaks = append(breaks, newBreak(8, anomalies[8], lang.P("%s's lease (%s) was ended by a step of %s, which does not hold it: neither its holder's release nor its TTL",
				holder, which, c.actor.Name)))
		case still && k2.Value == k.Value && k.TTL > 0 && k2.TTL > k.TTL:
			breaks = append(breaks, newBreak(8, anomalies[8], lang.P("%s's lease (%s) was extended by a step of %s, which does not hold it",
				holder, which, c.actor.Name)))
		}
	}
	return breaks
}

// cause is who or what made the changes a check sees.
type cause struct {
	actor   *Actor // the actor whose call it was; nil for the clock or a pause
	clock   bool   // the lab clock moved: keys may have expired on their TTL
	restart bool   // a step restarted Redis: the environment lost its keys
	// answers are the leases the call told its actor it holds, and the
	// tokens it released (answers.go).
	answers []answer
}

// releasedOther says whether the call released, as holder, a token other
// than token and not token itself: the token it released, and true.
func releasedOther(answers []answer, holder string, token int64) (int64, bool) {
	other := int64(0)
	for _, a := range answers {
		if a.call != "release" || a.holder != holder {
			continue
		}
		if a.token == token {
			return 0, false
		}
		other = a.token
	}
	return other, other != 0
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
