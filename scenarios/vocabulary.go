package scenarios

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/untrusted"
)

// The step vocabulary of scenario files: every step the catalog's actors
// take, by the name a file gives it, with the kind of actor that can take
// it and its parameters. The steps themselves are Go (steps.go, jobs.go,
// outbox.go, operator.go); a file only puts them in order.

// Actor kinds.
const (
	kindWorker    = "worker"
	kindOperator  = "operator"
	kindOutbox    = "outbox"
	kindRequest   = "request"
	kindJobWorker = "job-worker"
	kindPoller    = "poller"
	kindApplyAPI  = "apply-api"
	kindCrash     = "crash"
)

// Kinds are the actor kinds in the order docs/scenarios.md lists them.
var Kinds = []string{kindWorker, kindOperator, kindOutbox, kindRequest, kindJobWorker, kindPoller, kindApplyAPI, kindCrash, kindCode}

// param is one parameter of a step. The first parameter of a step may be
// written after its name ("add 10"); any may be a key of the step's table
// ({ step = "rollout", minimum-writer = 2 }).
type param struct {
	name string
	// actor: the value names an actor; otherwise it is a whole number.
	actor bool
	// required: no default.
	required bool
}

// StepDef is one step of the vocabulary.
type StepDef struct {
	Name string
	Kind string // the actor kind that takes it
	// What says what the step does, for docs/scenarios.md's table, scenario
	// steps and errors.
	What string
	// Waits: the step can leave its actor on it, to take it again (a
	// contended lease, nothing to claim yet). An actor whose program has
	// no such step takes each step once, so the guided order can be
	// checked against its length before anything runs.
	Waits  bool
	params []param
	build  func(c *stepContext) (engine.Step, error)
}

// Params names the step's parameters, for docs/scenarios.md's table.
func (d StepDef) Params() []string {
	var out []string
	for _, p := range d.params {
		out = append(out, p.name)
	}
	return out
}

// Vocabulary is every step a file can name, by kind, in a stable order.
func Vocabulary() []StepDef {
	out := slices.Clone(vocabulary)
	sort.SliceStable(out, func(i, j int) bool {
		return slices.Index(Kinds, out[i].Kind) < slices.Index(Kinds, out[j].Kind)
	})
	return out
}

func stepNamed(name string) (StepDef, bool) {
	for _, d := range vocabulary {
		if d.Name == name {
			return d, true
		}
	}
	return StepDef{}, false
}

func stepNames() []string {
	var out []string
	for _, d := range vocabulary {
		out = append(out, d.Name)
	}
	return out
}

// stepContext is what a step's builder has: its actor and its parameters.
type stepContext struct {
	f     *file
	path  string
	actor *fileActor
	seed  world.Seed
	args  map[string]any
	// lastWrite is the actor's last write step so far (retry-write sends
	// it again).
	lastWrite *worker
}

// number is a whole-number parameter, or def when the step has none.
func (c *stepContext) number(name string, def int64) (int64, error) {
	v, ok := c.args[name]
	if !ok {
		return def, nil
	}
	n, ok := v.(int64)
	if !ok || n < 0 || n > 1<<40 {
		return 0, c.f.wrong(c.path, "%s: want a whole number from 0 to %d", name, int64(1)<<40)
	}
	return n, nil
}

func (c *stepContext) actorArg(name string) string {
	s, _ := c.args[name].(string)
	return s
}

var vocabulary = []StepDef{
	// Workers of the first seed.
	{Name: "acquire-leader", Waits: true, Kind: kindWorker, What: "take the job's leader lease (wait while another worker holds it)",
		build: func(c *stepContext) (engine.Step, error) { return c.actor.worker.acquireLeader(), nil }},
	{Name: "release-leader", Kind: kindWorker, What: "give the leader lease back",
		build: func(c *stepContext) (engine.Step, error) { return c.actor.worker.releaseLeader(), nil }},
	{Name: "acquire-lease", Waits: true, Kind: kindWorker, What: "take the resource lease and a fencing token (wait while contended)",
		build: func(c *stepContext) (engine.Step, error) { return c.actor.worker.acquireLease(), nil }},
	{Name: "renew", Kind: kindWorker, What: "renew the resource lease; a lease no longer its own stops the worker",
		build: func(c *stepContext) (engine.Step, error) { return c.actor.worker.renewLease(), nil }},
	{Name: "release", Kind: kindWorker, What: "release the resource lease if it is still its own",
		build: func(c *stepContext) (engine.Step, error) { return c.actor.worker.releaseLease(), nil }},
	{Name: "read-summary", Kind: kindWorker, What: "read the summary a later add builds on",
		build: func(c *stepContext) (engine.Step, error) { return c.actor.worker.readSummary(), nil }},
	{Name: "write-summary", Kind: kindWorker, What: "write the worker's value: the fenced write in SAFE, the plain UPDATE in UNSAFE",
		build: func(c *stepContext) (engine.Step, error) {
			w := c.actor.worker
			c.lastWrite = &w
			return w.writeSummary(), nil
		}},
	{Name: "add", Kind: kindWorker, What: "write the summary plus N: read-modify-write (SAFE reads under the row lock; UNSAFE writes what its read-summary read plus N, 0 plus N with none before it)",
		params: []param{{name: "by", required: true}},
		build: func(c *stepContext) (engine.Step, error) {
			by, err := c.number("by", 0)
			if err != nil {
				return engine.Step{}, err
			}
			w := c.actor.worker
			w.adds = by
			w.value = func(m *world.Memory) int64 { return m.Read + by }
			c.lastWrite = &w
			return w.writeSummary(), nil
		}},
	{Name: "retry-write", Kind: kindWorker, What: "send the worker's last write again, same token (after a lost reply)",
		build: func(c *stepContext) (engine.Step, error) {
			if c.lastWrite == nil {
				return engine.Step{}, c.f.wrong(c.path, "retry-write sends the actor's last write again: write-summary or add must come before it")
			}
			return c.lastWrite.retryWrite(), nil
		}},

	// The operator.
	{Name: "remove-tenant", Kind: kindOperator, What: "remove tenant-a: its membership revision moves on, it is inactive",
		params: []param{{name: "revision"}},
		build: func(c *stepContext) (engine.Step, error) {
			rev, err := c.number("revision", c.seed.MembershipRevision+1)
			return removeTenant(rev), err
		}},
	{Name: "partition-region", Kind: kindOperator, What: "cut region-b off with a token source of its own at 99",
		build: func(c *stepContext) (engine.Step, error) { return partitionRegion(), nil }},
	{Name: "rollout", Kind: kindOperator, What: "deploy: raise the minimum writer version and the checkpoint schema",
		params: []param{{name: "minimum-writer"}, {name: "checkpoint-schema"}},
		build: func(c *stepContext) (engine.Step, error) {
			writer, err := c.number("minimum-writer", int64(c.seed.MinimumWriterVersion)+1)
			if err != nil {
				return engine.Step{}, err
			}
			schema, err := c.number("checkpoint-schema", int64(c.seed.CheckpointSchemaVersion)+1)
			return rollout(int(writer), int(schema)), err
		}},
	{Name: "restart-redis", Kind: kindOperator, What: "restart Redis without persistence: counter, epoch and leases are gone",
		build: func(c *stepContext) (engine.Step, error) { return restartRedis(), nil }},
	{Name: "bump-namespace-redis", Kind: kindOperator, What: "start namespace epoch N in Redis, its counter at 0",
		params: []param{{name: "epoch"}},
		build: func(c *stepContext) (engine.Step, error) {
			to, err := c.number("epoch", c.seed.NamespaceEpoch+1)
			return bumpNamespaceRedis(to), err
		}},
	{Name: "bump-namespace-postgresql", Kind: kindOperator, What: "start namespace epoch N in PostgreSQL",
		params: []param{{name: "epoch"}},
		build: func(c *stepContext) (engine.Step, error) {
			to, err := c.number("epoch", c.seed.NamespaceEpoch+1)
			return bumpNamespaceDatabase(to), err
		}},

	// The outbox worker.
	{Name: "claim", Waits: true, Kind: kindOutbox, What: "claim the oldest due outbox row and commit the claim",
		build: func(c *stepContext) (engine.Step, error) { return claimOutbox(), nil }},
	{Name: "call-provider", Kind: kindOutbox, What: "send the claimed effect to the provider under its OperationId",
		build: func(c *stepContext) (engine.Step, error) { return callProvider(), nil }},
	{Name: "record-outcome", Kind: kindOutbox, What: "record the provider's answer on the outbox row",
		build: func(c *stepContext) (engine.Step, error) { return recordOutcome(), nil }},
	{Name: "find-unknown", Kind: kindOutbox, What: "claim the oldest row whose outcome is unknown",
		build: func(c *stepContext) (engine.Step, error) { return findUnknown(), nil }},
	{Name: "query-provider", Kind: kindOutbox, What: "ask the provider what became of the original OperationId",
		build: func(c *stepContext) (engine.Step, error) { return queryProvider(), nil }},
	{Name: "retry-with-new-id", Kind: kindOutbox, What: "send the effect again under a new OperationId (the naive reaction)",
		build: func(c *stepContext) (engine.Step, error) { return retryWithNewID(), nil }},

	// The second seed: requests, their workers, the poller, the apply API.
	{Name: "acquire-job", Kind: kindRequest, What: "find or create the job with its running key, in one Lua script",
		build: func(c *stepContext) (engine.Step, error) {
			r := c.actor.request
			return engine.Step{Name: "acquire job", Calls: []engine.Call{r.acquireJob(), r.readRunning(), r.createJobHash(), r.setRunning()}}, nil
		}},
	{Name: "get-running", Kind: kindRequest, What: "GET the running key and read the job it names (a RUNNING one is reused)",
		build: func(c *stepContext) (engine.Step, error) {
			r := c.actor.request
			return engine.Step{Name: "GET running key", Calls: []engine.Call{r.getRunning(), r.readRunning()}}, nil
		}},
	{Name: "create-job", Kind: kindRequest, What: "HSET the job hash as RUNNING",
		build: func(c *stepContext) (engine.Step, error) {
			call := c.actor.request.createJobHash()
			return engine.Step{Name: "HSET job hash", Run: call.Run, Touches: call.Touches}, nil
		}},
	{Name: "set-running", Kind: kindRequest, What: "SET the running key to the job",
		build: func(c *stepContext) (engine.Step, error) {
			call := c.actor.request.setRunning()
			return engine.Step{Name: "SET running key", Run: call.Run, Touches: call.Touches}, nil
		}},
	{Name: "process-items", Waits: true, Kind: kindJobWorker, What: "process the request's job and leave its results in Redis",
		build: func(c *stepContext) (engine.Step, error) { return c.actor.jobWorker.process(), nil }},
	{Name: "mark-success", Kind: kindJobWorker, What: "mark the job SUCCESS with the Lua transition",
		build: func(c *stepContext) (engine.Step, error) { return c.actor.jobWorker.markSuccess(), nil }},
	{Name: "release-running", Kind: kindJobWorker, What: "DEL the running key, whatever it names",
		build: func(c *stepContext) (engine.Step, error) {
			return deleteRunningNaive("release the running key", ""), nil
		}},
	{Name: "set-success", Kind: kindJobWorker, What: "HSET status SUCCESS, whatever the status was",
		build: func(c *stepContext) (engine.Step, error) { return c.actor.jobWorker.setSuccessNaive(), nil }},
	{Name: "poll-deadline", Waits: true, Kind: kindPoller, What: "read the job; fail it with the Lua transition past its absolute deadline",
		build: func(c *stepContext) (engine.Step, error) {
			p := c.actor.poller
			return engine.Step{Name: "poll status (deadline)", Calls: []engine.Call{p.pollDeadline(), p.failAtDeadline()}}, nil
		}},
	{Name: "poll-heartbeat", Waits: true, Kind: kindPoller, What: "read the job; HSET FAILED after 10 minutes without a heartbeat",
		build: func(c *stepContext) (engine.Step, error) {
			p := c.actor.poller
			return engine.Step{Name: "poll status (heartbeat)", Calls: []engine.Call{p.pollHeartbeat(), p.failNaive()}}, nil
		}},
	{Name: "del-running", Kind: kindPoller, What: "DEL the running key of the watched job, whatever it names",
		build: func(c *stepContext) (engine.Step, error) {
			return deleteRunningNaive("DEL running key", c.actor.poller.watch), nil
		}},
	{Name: "apply-results", Kind: kindApplyAPI, What: "publish the watched job's results to PostgreSQL if it is SUCCESS",
		build: func(c *stepContext) (engine.Step, error) { return applyResults(c.actor.watch), nil }},
	{Name: "crash", Kind: kindCrash, What: "the process dies: the named actor never runs",
		params: []param{{name: "halts", actor: true, required: true}},
		build:  func(c *stepContext) (engine.Step, error) { return crash(c.actorArg("halts")), nil }},
}

// fileActor is one [[actor]] of a file, compiled.
type fileActor struct {
	name, kind string
	path       string
	// What its steps are built from, by kind.
	worker    worker
	request   request
	jobWorker jobWorker
	poller    poller
	watch     string
	// spec and steps are its program per mode, and the steps' names.
	spec  map[engine.Mode]engine.ActorSpec
	steps map[engine.Mode][]string
	// waits: some step of its program in the mode can wait.
	waits map[engine.Mode]bool
}

// The keys of an actor, beside name, kind, program, safe and unsafe.
var actorKeys = map[string][]string{
	kindWorker: {"job", "value", "membership-revision", "region", "region-epoch", "contract-version", "checkpoint-schema",
		"unsafe-write", "unsafe-acquire", "unsafe-leases", "loses-reply", "owner"},
	kindRequest:   {"job-id", "running-key-ttl"},
	kindJobWorker: {"request"},
	kindPoller:    {"watch"},
	kindApplyAPI:  {"watch"},
}

func (f *file) actors(top *table, s *engine.Scenario) ([]*fileActor, error) {
	l, ok, err := top.list("actor")
	if err != nil {
		return nil, err
	}
	if !ok || len(l) == 0 {
		return nil, f.wrong("", "no actor: a scenario has at least one [[actor]]")
	}
	if len(l) > MaxActors {
		return nil, f.wrong("actor", "%d actors: at most %d", len(l), MaxActors)
	}
	// Names and kinds first: an actor may name another (a job's worker
	// names its request).
	var actors []*fileActor
	tables := make([]*table, len(l))
	for i, v := range l {
		t, err := f.table("actor."+strconv.Itoa(i), v)
		if err != nil {
			return nil, err
		}
		tables[i] = t
		a := &fileActor{path: t.path, spec: map[engine.Mode]engine.ActorSpec{}, steps: map[engine.Mode][]string{}, waits: map[engine.Mode]bool{}}
		if a.name, err = t.str("name", true); err != nil {
			return nil, err
		}
		if !namePattern.MatchString(a.name) {
			return nil, f.wrong(t.key("name"), "actor name %q: a letter, then letters, digits, - or _, at most 8 in all", a.name)
		}
		if slices.Contains([]string{"pause", "resume", "expire", "advance", "call"}, a.name) {
			return nil, f.wrong(t.key("name"), "actor name %q is a word of the guided order", a.name)
		}
		if slices.ContainsFunc(actors, func(b *fileActor) bool { return b.name == a.name }) {
			return nil, f.wrong(t.key("name"), "two actors are named %q", a.name)
		}
		kinds := Kinds
		if f.code != nil {
			// A file with steps of its own: its actors run them.
			kinds = append([]string{kindCode}, Kinds[:len(Kinds)-1]...)
		}
		if a.kind, err = t.choice("kind", kinds...); err != nil {
			if k, _ := t.m["kind"].(string); k != "" {
				if near := nearest(k, Kinds); near != "" {
					return nil, f.wrong(t.key("kind"), "unknown actor kind %q (did you mean %s?)", untrusted.Line(k), near)
				}
			}
			return nil, err
		}
		actors = append(actors, a)
	}
	for i, a := range actors {
		if err := f.actor(tables[i], a, actors, s); err != nil {
			return nil, err
		}
	}
	return actors, nil
}

// actorNamed finds an actor of the file, of a kind if kind is not empty.
func actorNamed(actors []*fileActor, name, kind string) (*fileActor, bool) {
	for _, a := range actors {
		if a.name == name && (kind == "" || a.kind == kind) {
			return a, true
		}
	}
	return nil, false
}

// reference reads a key that names another actor of a kind.
func (f *file) reference(t *table, key, kind string, actors []*fileActor) (string, error) {
	name, err := t.str(key, true)
	if err != nil {
		return "", err
	}
	if _, ok := actorNamed(actors, name, kind); !ok {
		return "", f.wrong(t.key(key), "%s %q: no %s actor of that name", key, name, kind)
	}
	return name, nil
}

func (f *file) actor(t *table, a *fileActor, actors []*fileActor, s *engine.Scenario) error {
	var err error
	label := lang.P("%s", a.name)
	owner := a.name
	leaseKey := ""
	switch a.kind {
	case kindWorker:
		if err := f.workerOf(t, a, world.SeedOf(s)); err != nil {
			return err
		}
		label, owner, leaseKey = lang.P("worker %s (%s)", a.name, a.worker.job), a.worker.owner(), a.worker.tokenKey
	case kindOperator:
		label, owner = lang.P("operator"), "operator"
	case kindOutbox:
		label, owner = lang.P("outbox worker"), "outbox-worker"
	case kindRequest:
		a.request.name = a.name
		if a.request.jobID, err = t.str("job-id", true); err != nil {
			return err
		}
		ttl, err := t.choice("running-key-ttl", "job", "lease")
		if err != nil {
			return err
		}
		a.request.leasedPointer = ttl == "lease"
		label = lang.P("request %s", a.name)
		if n := strings.TrimPrefix(a.name, "R"); n != a.name && n != "" && strings.Trim(n, "0123456789") == "" {
			label = lang.P("request %s", n)
		}
	case kindJobWorker:
		a.jobWorker.name = a.name
		if a.jobWorker.request, err = f.reference(t, "request", kindRequest, actors); err != nil {
			return err
		}
		label = lang.P("worker of %s", a.jobWorker.request)
	case kindPoller:
		if a.poller.watch, err = f.reference(t, "watch", kindRequest, actors); err != nil {
			return err
		}
		label, owner = lang.P("status poller"), "poller"
	case kindApplyAPI:
		if a.watch, err = f.reference(t, "watch", kindRequest, actors); err != nil {
			return err
		}
		label, owner = lang.P("apply API"), "apply-api"
	case kindCrash:
		label, owner = lang.P("process crash"), "crash"
	case kindCode:
		if f.code == nil {
			return f.wrong(t.key("kind"), "a code actor runs a file's own steps: the file has no [[step]]")
		}
	}
	if err := f.programs(t, a, actors, world.SeedOf(s)); err != nil {
		return err
	}
	for _, mode := range modes {
		spec := a.spec[mode]
		spec.Name, spec.Label, spec.Owner, spec.Setting = a.name, label, owner, world.ActorSetting{LeaseKey: leaseKey}
		a.spec[mode] = spec
	}
	return t.done(append([]string{"name", "kind", "program", "safe", "unsafe"}, actorKeys[a.kind]...)...)
}

// workerOf reads a worker's configuration: its job, what it writes, the
// configuration it believes current, and what its UNSAFE code does.
func (f *file) workerOf(t *table, a *fileActor, seed world.Seed) error {
	job, err := t.str("job", true)
	if err != nil {
		return err
	}
	w := newWorker(a.name, job, func(m *world.Memory) int64 { return m.Token })
	w.revision, w.region, w.regionEp = seed.MembershipRevision, seed.RegionID, seed.RegionEpoch
	w.contract, w.schema = seed.MinimumWriterVersion, seed.CheckpointSchemaVersion
	if v, ok := t.get("value"); ok {
		switch v := v.(type) {
		case string:
			if v != "token" {
				return f.wrong(t.key("value"), "value %q: want \"token\" (the run's fencing token) or a whole number", untrusted.Line(v))
			}
		case int64:
			w.value = func(*world.Memory) int64 { return v }
		default:
			return f.wrong(t.key("value"), "value: want \"token\" (the run's fencing token) or a whole number")
		}
	}
	if w.revision, err = t.integer("membership-revision", w.revision, 1, 1<<40); err != nil {
		return err
	}
	if region, err := t.str("region", false); err != nil {
		return err
	} else if region != "" {
		w.region = region
		if region != seed.RegionID {
			// A region of its own hands out tokens of its own.
			w.tokenKey = seed.ConflictKey + "@" + region
		}
	}
	if w.regionEp, err = t.integer("region-epoch", w.regionEp, 1, 1<<40); err != nil {
		return err
	}
	var n int64
	if n, err = t.integer("contract-version", int64(w.contract), 1, 1000); err != nil {
		return err
	}
	w.contract = int(n)
	if n, err = t.integer("checkpoint-schema", int64(w.schema), 1, 1000); err != nil {
		return err
	}
	w.schema = int(n)
	write, err := t.choice("unsafe-write", "unfenced", "fenced", "add-in-place")
	if err != nil {
		return err
	}
	w.alwaysFenced, w.addsInPlace = write == "fenced", write == "add-in-place"
	acquire, err := t.choice("unsafe-acquire", "scripted", "naive")
	if err != nil {
		return err
	}
	w.naiveAcquire = acquire == "naive"
	leases, err := t.choice("unsafe-leases", "checked", "naive")
	if err != nil {
		return err
	}
	w.naiveLeases = leases == "naive"
	if w.losesReply, err = t.boolean("loses-reply"); err != nil {
		return err
	}
	if w.ownerID, err = t.str("owner", false); err != nil {
		return err
	}
	if w.ownerID != "" && !ownerPattern.MatchString(w.ownerID) {
		return f.wrong(t.key("owner"), "owner %q: letters, digits, '-' and '_', at most 40, like worker-a", untrusted.Line(w.ownerID))
	}
	a.worker = w
	return nil
}

// programs reads an actor's program: program for both modes, or
// safe.program and unsafe.program where they differ.
func (f *file) programs(t *table, a *fileActor, actors []*fileActor, seed world.Seed) error {
	both, hasBoth, err := t.list("program")
	if err != nil {
		return err
	}
	for _, mode := range modes {
		list, path := both, t.key("program")
		given := hasBoth
		mt, ok, err := t.sub(modeKey(mode))
		if err != nil {
			return err
		}
		if ok {
			l, has, err := mt.list("program")
			if err != nil {
				return err
			}
			if has {
				list, path, given = l, mt.key("program"), true
			}
			if err := mt.done("program"); err != nil {
				return err
			}
		}
		if !given {
			return f.wrong(a.path, "actor %s has no program for %s: program = [...], or %s.program", a.name, mode, modeKey(mode))
		}
		if len(list) > maxProgram {
			return f.wrong(path, "%d steps: at most %d", len(list), maxProgram)
		}
		c := &stepContext{f: f, actor: a, seed: seed}
		var program []engine.Step
		saved := map[string]bool{}
		read := false // the program read the summary before (an UNSAFE add builds on it)
		for i, entry := range list {
			c.path = path + "." + strconv.Itoa(i)
			// A code actor takes the file's steps; every other kind
			// fencelab's own.
			if name, ok := entry.(string); ok && a.kind == kindCode {
				if own, ok := f.code.stepFor(strings.TrimSpace(name), mode); ok {
					step, err := f.build(c.path, a.name, own, saved)
					if err != nil {
						return err
					}
					for _, name := range own.saves() {
						saved[name] = true
					}
					f.code.used[own.name] = true
					program = append(program, step)
					a.steps[mode] = append(a.steps[mode], own.name)
					a.waits[mode] = a.waits[mode] || own.reply.waitIf != nil || slices.ContainsFunc(own.sql, func(s codeStatement) bool { return s.rules.waitIf != nil })
					continue
				}
			}
			if a.kind == kindCode {
				return f.unknownOwnStep(c.path, entry, mode)
			}
			def, args, err := f.stepEntry(c.path, entry, a, actors)
			if err != nil {
				return err
			}
			c.args = args
			step, err := def.build(c)
			if err != nil {
				return err
			}
			switch {
			case def.Name == "read-summary":
				read = true
			case def.Name == "add" && mode == engine.Unsafe && !read && !a.worker.addsInPlace:
				f.warnings = append(f.warnings, lang.P("%s: warning: %s's UNSAFE add has no read-summary before it: it writes 0 plus N, whatever the summary holds (put read-summary before it, unless that lost update is the point)",
					f.where(c.path), a.name))
			}
			program = append(program, step)
			a.steps[mode] = append(a.steps[mode], def.Name)
			a.waits[mode] = a.waits[mode] || def.Waits
		}
		a.spec[mode] = engine.ActorSpec{Program: program}
	}
	return nil
}

// stepEntry reads one step of a program: "name", "name ARG", or a table
// { step = "name", param = value }.
func (f *file) stepEntry(path string, entry any, a *fileActor, actors []*fileActor) (StepDef, map[string]any, error) {
	args := map[string]any{}
	var name string
	switch e := entry.(type) {
	case string:
		n, arg, hasArg := strings.Cut(strings.TrimSpace(e), " ")
		name = n
		if hasArg {
			args[""] = strings.TrimSpace(arg)
		}
	case map[string]any:
		n, ok := e["step"].(string)
		if !ok {
			return StepDef{}, nil, f.wrong(path, "a step table names its step: { step = \"remove-tenant\", revision = 8 }")
		}
		name = n
		for k, v := range e {
			if k != "step" {
				args[k] = v
			}
		}
	default:
		return StepDef{}, nil, f.wrong(path, "a step is a name (\"acquire-lease\") or a table ({ step = \"add\", by = 10 })")
	}
	def, ok := stepNamed(name)
	if !ok {
		if near := nearest(name, stepNames()); near != "" {
			return def, nil, f.wrong(path, "unknown step %q (did you mean %s?)", untrusted.Line(name), near)
		}
		return def, nil, f.wrong(path, "unknown step %q (fencelab scenario steps lists them)", untrusted.Line(name))
	}
	if def.Kind != a.kind {
		return def, nil, f.wrong(path, "%s is a step of the %s kind; %s is of kind %s", def.Name, def.Kind, a.name, a.kind)
	}
	// The argument after the name is the first parameter.
	if arg, ok := args[""]; ok {
		delete(args, "")
		if len(def.params) == 0 {
			return def, nil, f.wrong(path, "%s takes no parameter", def.Name)
		}
		p := def.params[0]
		if p.actor {
			args[p.name] = arg
		} else {
			n, err := strconv.ParseInt(arg.(string), 10, 64)
			if err != nil {
				return def, nil, f.wrong(path, "%s %s: want a whole number", def.Name, untrusted.Line(arg.(string)))
			}
			args[p.name] = n
		}
	}
	for k := range args {
		if !slices.ContainsFunc(def.params, func(p param) bool { return p.name == k }) {
			if len(def.params) == 0 {
				return def, nil, f.wrong(path, "%s takes no parameter, not %q", def.Name, untrusted.Line(k))
			}
			return def, nil, f.wrong(path, "%s has no parameter %q (it takes %s)", def.Name, untrusted.Line(k), strings.Join(def.Params(), ", "))
		}
	}
	for _, p := range def.params {
		v, ok := args[p.name]
		if !ok {
			if p.required {
				return def, nil, f.wrong(path, "%s needs its parameter %s", def.Name, p.name)
			}
			continue
		}
		if p.actor {
			name, _ := v.(string)
			if _, ok := actorNamed(actors, name, ""); !ok {
				return def, nil, f.wrong(path, "%s %s: no actor of that name (actors: %s)", def.Name, untrusted.Line(fmt.Sprint(v)), quoteList(names(actors)))
			}
		}
	}
	return def, args, nil
}

func names(actors []*fileActor) []string {
	var out []string
	for _, a := range actors {
		out = append(out, a.name)
	}
	return out
}
