// Package world is the catalog's world, as the engine plugs it in
// (engine.World): the seed every run starts from, what a worker
// remembers, the answers its stores give and what each promises, and the
// ten invariants of DESIGN §7 that judge every state. The engine schedules
// the round trips; this package says what they are for.
package world

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/store/provider"
)

// Setting is the catalog's world as one scenario sets it: its seed, what
// the provider is scripted to answer, and when its jobs are due. It is the
// scenario's engine.World (Scenario.World): the catalog's scenarios', and
// a file's that uses the catalog's steps.
type Setting struct {
	Seed Seed
	// ProviderScript scripts the provider per OperationId.
	ProviderScript map[string]string
	// JobDeadline is how long after its createdAt a RUNNING job may be
	// failed (a poller's deadline); 0: its jobs have none (invariant 10).
	JobDeadline time.Duration
}

// New is the catalog's world seeded with seed.
func New(seed Seed) *Setting { return &Setting{Seed: seed} }

var _ engine.World = (*Setting)(nil)

// SettingOf is the catalog's world of a scenario; a zero one when the
// scenario has none.
func SettingOf(s *engine.Scenario) *Setting {
	if set, ok := s.World.(*Setting); ok {
		return set
	}
	return &Setting{}
}

// SeedOf is a scenario's seed (DESIGN §6).
func SeedOf(s *engine.Scenario) Seed { return SettingOf(s).Seed }

// SeedIn is the seed of the scenario a turn is taken in.
func SeedIn(t *engine.Turn) Seed { return SeedOf(t.Lab().Scenario()) }

// Start is the seed's moment: the lab clock's first.
func (s *Setting) Start() time.Time { return s.Seed.Now }

func (*Setting) Invariants() []engine.Invariant {
	out := make([]engine.Invariant, 0, len(Invariants))
	for _, n := range slices.Sorted(maps.Keys(Invariants)) {
		out = append(out, engine.Invariant{Number: n, Anomaly: anomalies[n], Says: Invariants[n]})
	}
	return out
}

func (*Setting) Verdicts() []string { return append(slices.Clone(alsoAnomalies), refusals...) }
func (*Setting) Refusals() []string { return slices.Clone(refusals) }

// refusals are the verdicts of the catalog's guards that refuse a step.
var refusals = []string{StaleMembership, WrongRegion, IncompatibleVersion, StaleNamespace, StaleFence, IllegalTransition, NotOwner}

// Open makes the world's part of a lab. An actor that names no conflict
// key for its lease takes the seed's.
func (s *Setting) Open(l *engine.Lab) engine.LabWorld {
	for _, a := range l.Actors() {
		if LeaseKeyOf(a) == "" {
			a.Setting = ActorSetting{LeaseKey: s.Seed.ConflictKey}
		}
	}
	return &labWorld{lab: l, set: s, jobs: newJobWatch(), provider: provider.New()}
}

// labWorld is the catalog's world in one lab: what its invariants
// remember from one action to the next.
type labWorld struct {
	lab  *engine.Lab
	set  *Setting
	jobs *jobWatch
	// provider is the lab's own external provider.
	provider Provider
	// seenExecs are the executions already checked against invariant 2.
	seenExecs int
	// answers are what the calls of the action being taken told their
	// actors they hold (answers.go), until the check after it.
	answers []answer
}

// Reading is what the catalog's world reads beside the keys and rows:
// the jobs the keys hold, and what the provider applied.
type Reading struct {
	Jobs         JobsState
	Applications []Application
	// Provider names the provider for a pane: "payments".
	Provider string
}

// ReadingOf is the catalog's world's part of a reading of the stores
// (the zero Reading when the lab has no catalog world).
func ReadingOf(r engine.Reading) Reading { return readingIn(r.World) }

// SnapshotReading is the catalog's world's part of a snapshot.
func SnapshotReading(s engine.Snapshot) Reading { return readingIn(s.World) }

func readingIn(v any) Reading {
	r, _ := v.(Reading)
	return r
}

// MeasureEffects counts the provider's applications.
var MeasureEffects = engine.Measure{Label: "effects applied", Count: func(r engine.Reading) int64 { return int64(len(ReadingOf(r).Applications)) }}

func (w *labWorld) Read(keys []RedisKey) any {
	p := w.provider
	return Reading{Jobs: coordinationOf(w.lab).JobsIn(keys), Applications: p.Applications(), Provider: p.Name()}
}

// saved is what a saved state keeps of the world: the provider's memory
// and the invariants'.
type saved struct {
	provider  ProviderSnapshot
	jobs      *jobWatch
	seenExecs int
}

// Of is the catalog's world in the lab of a turn.
func of(t *engine.Turn) *labWorld {
	w := in(t.Lab())
	if w == nil {
		panic("world: a step of the catalog's in a lab without the catalog's world")
	}
	return w
}

// in is the catalog's world in a lab; nil when the lab has none.
func in(l *engine.Lab) *labWorld {
	for _, w := range l.Worlds() {
		if w, ok := w.(*labWorld); ok {
			return w
		}
	}
	return nil
}

func (w *labWorld) Reset(ctx context.Context) error {
	l := w.lab
	seed := w.set.Seed
	if l.Scenario().OwnCodeOnly {
		// The file's keys are the lab's: no lease of fencelab's is taken.
	} else if err := coordinationOf(l).Client("lab").(RedisClient).Bootstrap(ctx, seed.ConflictKey, seed.NamespaceEpoch, seed.CounterStart); err != nil {
		return err
	}
	if err := (ready{l.Ledger()}).Seed(ctx, seed); err != nil {
		return err
	}
	w.provider.Reset(w.set.ProviderScript)
	for _, a := range l.Actors() {
		a.Memory.World = &Memory{Epoch: seed.NamespaceEpoch}
	}
	w.jobs, w.seenExecs, w.answers = newJobWatch(), 0, nil
	return nil
}

func (w *labWorld) Check(ctx context.Context, o engine.Observation) ([]engine.Break, error) {
	l := w.lab
	state, jobs, keys := o.After.Ledger, ReadingOf(o.After).Jobs, o.After.Keys
	rows := RowsOf(state)
	found := append(CheckLedger(rows, w.seenExecs), CheckEffects(ReadingOf(o.After).Applications)...)
	found = append(found, checkNeighbour(rows, w.set.Seed)...)
	found = append(found, w.jobs.check(jobs, o.Clock || o.Restart, o.Now, w.set.JobDeadline)...)
	// Only a call records a moment: rows and jobs as they were hold none
	// out of bounds (the clock only moves on, and a restore puts back a
	// state checked before), and a clock move or a pause writes none.
	if o.Actor != nil && o.Sent {
		found = append(found, checkTimes(moments(RowsOf(o.Before.Ledger), ReadingOf(o.Before).Jobs), moments(rows, jobs), w.set.Seed.Now, o.Now, o.StepBegan)...)
	}
	found = append(found, checkLeases(o.KeysBefore, keys, cause{actor: o.Actor, clock: o.Clock, restart: o.Restart, answers: w.answers})...)
	if o.Actor != nil {
		found = append(found, checkAnswers(w.answers, keys, jobs, coordinationOf(l).ConflictKeyNames, o.Actor.Name)...)
	}
	found = append(found, w.jobs.claim(w.answers, o.Now)...)
	found = append(found, checkLeaseLifetimes(keys, l.Backends().HoldTTL)...)
	w.answers = nil
	w.seenExecs = len(rows.Executions)
	return found, nil
}

func (w *labWorld) Sum(h engine.StateHash, now time.Time) {
	for _, m := range []map[string]string{w.jobs.terminal, w.jobs.pointers} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			h.Str(k, m[k])
		}
		h.Mark()
	}
	for _, k := range slices.Sorted(maps.Keys(w.jobs.orphaned)) {
		h.Str(k)
		h.Bool(w.jobs.orphaned[k])
	}
	h.Mark()
	for _, k := range slices.Sorted(maps.Keys(w.jobs.born)) {
		h.Str(k)
		h.Int(int64(now.Sub(w.jobs.born[k]))) // relative to the lab clock, as every moment of the key
	}
	h.Mark()
	// A claim that ran out holds nothing: only live ones are the state's.
	for _, op := range slices.Sorted(maps.Keys(w.jobs.claims)) {
		if c := w.jobs.claims[op]; c.until.After(now) {
			h.Str(op, c.holder)
			h.Int(int64(c.until.Sub(now)))
		}
	}
}

func (w *labWorld) SumShared(h engine.StateHash, now time.Time) {
	r := w.lab.LastReading()
	for _, o := range RowsOf(r.Ledger).Outbox {
		h.Int(int64(o.NextAttemptAt.Sub(now)))
	}
	h.Mark()
	for _, a := range ReadingOf(r).Applications {
		h.Str(a.OperationID, a.Effect)
	}
	h.Mark()
	answers := w.provider.Answers()
	for _, id := range slices.Sorted(maps.Keys(answers)) {
		h.Str(id, answers[id].Status, answers[id].Receipt)
	}
}

// Rows are the rows without the time each resource row was last written,
// which no step reads (the lab clock, the outbox's due times and the jobs'
// timestamps, which steps do read, stay: the due times relative to the
// clock, in SumShared).
func (w *labWorld) Rows(state LedgerState) any {
	rows := RowsOf(state)
	rows.Resources = slices.Clone(rows.Resources)
	for i := range rows.Resources {
		rows.Resources[i].UpdatedAt = time.Time{}
	}
	rows.Outbox = slices.Clone(rows.Outbox)
	for i := range rows.Outbox {
		rows.Outbox[i].NextAttemptAt = time.Time{}
	}
	// Receipts and results come in the order they were recorded, which is
	// when: an hour the fingerprint leaves out. Two states alike but for
	// how long ago a receipt was recorded are one, and the next receipt
	// would sort after the older and before one recorded at the very
	// moment — so the key takes them by their keys, and says the same of
	// the same state whichever schedule reached it.
	rows.Receipts = slices.SortedFunc(slices.Values(rows.Receipts), func(a, b Receipt) int {
		if c := strings.Compare(a.Provider, b.Provider); c != 0 {
			return c
		}
		return strings.Compare(a.OperationID, b.OperationID)
	})
	rows.JobResults = slices.SortedFunc(slices.Values(rows.JobResults), func(a, b JobResult) int {
		if c := strings.Compare(a.Target, b.Target); c != 0 {
			return c
		}
		return strings.Compare(a.JobID, b.JobID)
	})
	return rows
}

func (w *labWorld) Save() any {
	return saved{provider: w.provider.Snapshot(), jobs: w.jobs.clone(), seenExecs: w.seenExecs}
}

func (w *labWorld) Restore(s any) {
	saved := s.(saved)
	w.provider.Restore(saved.provider)
	w.jobs, w.seenExecs, w.answers = saved.jobs.clone(), saved.seenExecs, nil
}

// View says what each actor believes beside the truth: the lease of its
// own conflict key in Redis (a partitioned region's worker takes another
// one than the seed's).
func (w *labWorld) View(ctx context.Context, actors []*engine.Actor, views []engine.ActorView) error {
	l := w.lab
	type lease struct {
		holder string
		token  int64
		held   bool
	}
	leases := map[string]lease{}
	for _, a := range actors {
		if _, read := leases[LeaseKeyOf(a)]; read {
			continue
		}
		var h lease
		var err error
		if h.holder, h.token, h.held, err = coordinationOf(l).LeaseHolder(ctx, LeaseKeyOf(a)); err != nil {
			return err
		}
		leases[LeaseKeyOf(a)] = h
	}
	t := l.Language()
	for i, a := range actors {
		v, m := &views[i], Remembers(a)
		h := leases[LeaseKeyOf(a)]
		v.Truth = t.T("lease free")
		if h.held {
			v.Truth = t.T("lease held by %s, token %d", h.holder, h.token)
		}
		v.World = Truth{Token: m.Token, LeaseHeld: h.held, LeaseHolder: h.holder, LeaseToken: h.token}
		v.HoldsNothing = false
		switch d := m.Delivery; {
		case m.JobReused:
			v.Belief = t.T("reused %s", m.JobID)
		case m.JobID != "":
			v.Belief = t.T("job %s", m.JobID)
		case d.OperationID != "" && d.Answer.Status != "":
			v.Belief = t.T("%s: provider said %s", d.OperationID, d.Answer.Status)
		case d.OperationID != "":
			v.Belief = t.T("working on %s", d.OperationID)
		case m.HoldsLease:
			v.Belief = t.T("holds lease, token %d", m.Token)
			v.Deceived = !h.held || h.holder != a.Owner || h.token != m.Token
		case m.HoldsLeader && m.Token > 0:
			// The truth beside it is the resource lease's: say what the
			// actor believes of that too.
			v.Belief = t.T("released token %d, leads its job", m.Token)
		case m.HoldsLeader:
			v.Belief = t.T("leads its job")
		case m.Token > 0:
			v.Belief = t.T("released token %d", m.Token)
		default:
			v.Belief, v.HoldsNothing = t.T("holds nothing"), true
		}
	}
	return nil
}

// ActorSetting is how the catalog's world sets an actor up
// (engine.ActorSpec.Setting): the conflict key of the resource lease it
// takes, whose holder in Redis is its truth; empty: the seed's.
type ActorSetting struct{ LeaseKey string }

// LeaseKeyOf is the conflict key of the lease an actor takes.
func LeaseKeyOf(a *engine.Actor) string {
	set, _ := a.Setting.(ActorSetting)
	return set.LeaseKey
}

// Truth is an actor's row as data: the token it believes it holds, and
// who holds its resource's lease in Redis.
type Truth struct {
	Token       int64
	LeaseHeld   bool
	LeaseHolder string
	LeaseToken  int64
}

// TruthOf is an actor's row of a snapshot as data.
func TruthOf(v engine.ActorView) Truth {
	t, _ := v.World.(Truth)
	return t
}

// Keys says which conflict key each lease, counter and epoch key is of —
// the seed's, or one an actor takes its lease on (a partitioned region's
// own) — so a screen can tell two key spaces apart.
func (w *labWorld) Keys(keys []RedisKey) {
	l := w.lab
	of := map[string]string{}
	name := func(conflictKey string) {
		if conflictKey == "" {
			return
		}
		for _, key := range coordinationOf(l).ConflictKeyNames(conflictKey) {
			of[key] = conflictKey
		}
	}
	name(w.set.Seed.ConflictKey)
	for _, a := range l.Actors() {
		name(LeaseKeyOf(a))
	}
	for i := range keys {
		keys[i].Conflict = of[keys[i].Key]
	}
}

// Result is the business value and fence of the seed's resource, and the
// OperationIds the scenario scripts the provider for that the run never
// sent: their answers were never given, so the run is not as predicted
// whatever it ended with.
func (w *labWorld) Result(reading engine.Reading, r *engine.Result) {
	if res, ok := RowsOf(reading.Ledger).Resource(w.set.Seed.ConflictKey); ok {
		r.Final = res.SummaryValue
		r.Mark = res.LastAcceptedFence
		r.World = Figures{NamespaceEpoch: res.NamespaceEpoch}
	}
	if len(w.set.ProviderScript) > 0 {
		answered := w.provider.Answers()
		for _, id := range slices.Sorted(maps.Keys(w.set.ProviderScript)) {
			if _, sent := answered[id]; !sent {
				r.Unsent = append(r.Unsent, id)
			}
		}
	}
}

// Figures are the catalog's own part of a run's result (its mark, the
// last accepted fence, is Result.Mark).
type Figures struct{ NamespaceEpoch int64 }

// FiguresOf is the catalog's part of a result.
func FiguresOf(r engine.Result) Figures {
	f, _ := r.World.(Figures)
	return f
}

// FormatFence and FenceIn show a last accepted fence (a result's mark);
// 0 is none.
var (
	FormatFence = engine.FormatMark
	FenceIn     = engine.MarkIn
)

// Pausing tells of a worker frozen while it holds a lease, or a delivery
// it is sure of.
func (w *labWorld) Pausing(a *engine.Actor, paused bool, detail *lang.Phrase, narration *string) {
	t, m := w.lab.Language(), Remembers(a)
	switch d := m.Delivery; {
	case paused && m.HoldsLease:
		*narration = t.T("%s is frozen mid-job (%s) while it holds token %d; nothing tells it when its lease runs out.", a.Name, a.Pause, m.Token)
	case paused:
		*narration = t.T("%s is frozen mid-job (%s): it cannot notice time passing or its lease running out.", a.Name, a.Pause)
	case m.HoldsLease:
		*detail = lang.P("%s wakes up still believing it holds token %d", a.Name, m.Token)
		*narration = t.T("%s carries on exactly where it stopped, sure that token %d is still the newest — it has no way to know otherwise.", a.Name, m.Token)
	case d.OperationID != "" && d.Answer.Status != "":
		*narration = t.T("%s carries on exactly where it stopped, sure that its claim on %s is still its own — it has no way to know the claim ran out.", a.Name, d.OperationID)
	}
}

// Holds: a worker that believes it holds a lease, its resource's or its
// job's leader's.
func (w *labWorld) Holds(a *engine.Actor) bool {
	m := Remembers(a)
	return m.HoldsLease || m.HoldsLeader
}
