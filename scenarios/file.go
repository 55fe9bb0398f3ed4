package scenarios

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/BurntSushi/toml"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/untrusted"
)

// Format is the first key of every scenario file.
const Format = "fencelab-scenario/1"

// FileLimits bound a scenario file before it is decoded: a scenario is a
// page or two of TOML.
var FileLimits = untrusted.Limits{MaxBytes: 256 << 10, MaxDepth: 8, Syntax: untrusted.TOML}

// MaxGuided is the most entries a guided order may have, and MaxActors the
// most actors a scenario may have: the explorer shows every actor in a
// column of its own, and check explores every order of their steps.
const (
	MaxGuided  = 500
	MaxActors  = 9 // the explorer's keys 1–9 step them
	maxProgram = 50
)

// MinLeaseTTL is the shortest lease a file may give: one a real Redis keeps
// as well as the embedded one (--lease-ttl goes lower on the embedded).
const MinLeaseTTL = 500 * time.Millisecond

// FileError is a mistake in a scenario file, said as one line a person can
// act on: the file, the line, what is wrong.
type FileError struct {
	File string
	Line int // 0: the file as a whole
	What lang.Phrase
}

func (e *FileError) Error() string { return e.In(lang.En) }

// In says the error in a language.
func (e *FileError) In(l lang.Lang) string {
	where := untrusted.Line(e.File)
	if e.Line > 0 {
		where += ":" + strconv.Itoa(e.Line)
	}
	return where + ": " + e.What.In(l)
}

// Load reads and compiles a scenario file.
func Load(path string) (*engine.Scenario, error) {
	src, err := untrusted.ReadFile(path, FileLimits)
	if err != nil {
		var deep *untrusted.TooDeep
		switch {
		case errors.As(err, &deep):
			return nil, &FileError{File: path, Line: deep.Line, What: lang.P("nested more than %d deep", deep.Max)}
		case errors.Is(err, fs.ErrNotExist), errors.Is(err, fs.ErrPermission):
			return nil, err
		case errors.Is(err, untrusted.ErrNotText):
			return nil, &FileError{File: path, What: lang.P("not a TOML file: it holds bytes no text holds (binary data?)")}
		}
		return nil, &FileError{File: path, What: lang.P("%s", err.Error())}
	}
	s, err := Parse(path, src)
	if err != nil {
		return nil, err
	}
	s.File = path
	return s, nil
}

// Parse compiles a scenario file's text; name is what its errors call the
// file (its path).
func Parse(name string, src []byte) (*engine.Scenario, error) {
	if int64(len(src)) > FileLimits.MaxBytes {
		return nil, &FileError{File: name, What: lang.P("%s", (&untrusted.TooLarge{Max: FileLimits.MaxBytes}).Error())}
	}
	if !utf8.Valid(src) || bytes.IndexByte(src, 0) >= 0 {
		// Said before the nesting check, which random bytes full of
		// brackets would fail first with a sentence about depth.
		return nil, &FileError{File: name, What: lang.P("not a TOML file: it holds bytes no text holds (binary data?)")}
	}
	if err := untrusted.CheckNesting(src, FileLimits); err != nil {
		var deep *untrusted.TooDeep
		if errors.As(err, &deep) {
			return nil, &FileError{File: name, Line: deep.Line, What: lang.P("nested more than %d deep", deep.Max)}
		}
		return nil, &FileError{File: name, What: lang.P("%s", err.Error())}
	}
	var doc map[string]any
	if _, err := toml.Decode(string(src), &doc); err != nil {
		line, what := 0, untrusted.WithoutContent(err.Error())
		var perr toml.ParseError
		if errors.As(err, &perr) {
			line, what = perr.Position.Line, untrusted.WithoutContent(perr.Message)
		}
		return nil, &FileError{File: name, Line: line, What: lang.P("not TOML: %s", what)}
	}
	f := &file{name: name, at: locate(src), guidedAt: map[engine.Mode][]string{}, lines: strings.Split(string(src), "\n")}
	s, err := f.scenario(doc)
	if err != nil {
		return nil, err
	}
	s.Source = src
	s.Warnings = f.warnings
	return s, nil
}

// file is one scenario file being compiled.
type file struct {
	name string
	at   lines
	// lines are the file's text, line by line (a script's first line is
	// told from its key's: codeStep.luaLine).
	lines []string
	// guidedAt is where each guided entry is, per mode.
	guidedAt map[engine.Mode][]string
	// code is what the file brings of its own (code.go); nil: none.
	code *codeFile
	// warnings are what the file says that is no mistake but likely not
	// what its author meant, each at its line.
	warnings []lang.Phrase
}

// wrong is a mistake at path (a key or an element of the file).
func (f *file) wrong(path string, format string, args ...any) error {
	return &FileError{File: f.name, Line: f.at.lineOf(path), What: lang.P(format, args...)}
}

// table is one TOML table of the file and its path, read key by key; keys
// read are marked, and what is left over is a mistake.
type table struct {
	f    *file
	path string
	m    map[string]any
	used map[string]bool
}

func (f *file) table(path string, v any) (*table, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, f.wrong(path, "%s must be a table", lastKey(path))
	}
	return &table{f: f, path: path, m: m, used: map[string]bool{}}, nil
}

func lastKey(path string) string {
	return path[strings.LastIndexByte(path, '.')+1:]
}

func (t *table) key(k string) string { return join(t.path, k) }

func (t *table) get(k string) (any, bool) {
	t.used[k] = true
	v, ok := t.m[k]
	return v, ok
}

// done refuses any key nobody read: an unknown key, with the nearest known
// one.
func (t *table) done(known ...string) error {
	var left []string
	for k := range t.m {
		if !t.used[k] {
			left = append(left, k)
		}
	}
	if len(left) == 0 {
		return nil
	}
	sort.Slice(left, func(i, j int) bool { return t.f.at.lineOf(t.key(left[i])) < t.f.at.lineOf(t.key(left[j])) })
	k := left[0]
	if near := nearest(k, known); near != "" {
		return t.f.wrong(t.key(k), "unknown key %q (did you mean %s?)", untrusted.Line(k), near)
	}
	return t.f.wrong(t.key(k), "unknown key %q (known here: %s)", untrusted.Line(k), strings.Join(known, ", "))
}

// missing is a required key that is not there: a key of the table that is
// a misspelling of it is named at its line, else the table.
func (t *table) missing(k string) error {
	for other := range t.m {
		if !t.used[other] && other != k && nearest(other, []string{k}) == k {
			return t.f.wrong(t.key(other), "unknown key %q (did you mean %s?)", untrusted.Line(other), k)
		}
	}
	return t.f.wrong(t.path, "%s is missing", k)
}

func (t *table) str(k string, required bool) (string, error) {
	v, ok := t.get(k)
	if !ok {
		if required {
			return "", t.missing(k)
		}
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", t.f.wrong(t.key(k), "%s must be a string", k)
	}
	return t.f.text(t.key(k), s)
}

// text is a text of the file as it may be shown: no longer than
// untrusted.MaxText, its control characters made visible.
func (f *file) text(path, s string) (string, error) {
	if n := len([]rune(s)); n > untrusted.MaxText {
		return "", f.wrong(path, "%s has %d characters: at most %d", lastKey(path), n, untrusted.MaxText)
	}
	return untrusted.Text(s), nil
}

func (t *table) integer(k string, def int64, lo, hi int64) (int64, error) {
	v, ok := t.get(k)
	if !ok {
		return def, nil
	}
	n, ok := v.(int64)
	if !ok {
		return 0, t.f.wrong(t.key(k), "%s must be a whole number", k)
	}
	if n < lo || n > hi {
		return 0, t.f.wrong(t.key(k), "%s must be from %d to %d, not %d", k, lo, hi, n)
	}
	return n, nil
}

func (t *table) boolean(k string) (bool, error) {
	v, ok := t.get(k)
	if !ok {
		return false, nil
	}
	b, ok := v.(bool)
	if !ok {
		return false, t.f.wrong(t.key(k), "%s must be true or false", k)
	}
	return b, nil
}

// choice is a string key with a few allowed values; the first is the
// default.
func (t *table) choice(k string, allowed ...string) (string, error) {
	s, err := t.str(k, false)
	if err != nil || s == "" {
		return allowed[0], err
	}
	if !slices.Contains(allowed, s) {
		return "", t.f.wrong(t.key(k), "%s %q: want %s", k, s, strings.Join(allowed, ", "))
	}
	return s, nil
}

func (t *table) sub(k string) (*table, bool, error) {
	v, ok := t.get(k)
	if !ok {
		return nil, false, nil
	}
	sub, err := t.f.table(t.key(k), v)
	return sub, true, err
}

// list is an array of strings or tables (a program, a guided order).
func (t *table) list(k string) ([]any, bool, error) {
	v, ok := t.get(k)
	if !ok {
		return nil, false, nil
	}
	switch l := v.(type) {
	case []any:
		return l, true, nil
	case []map[string]any:
		out := make([]any, len(l))
		for i, m := range l {
			out[i] = m
		}
		return out, true, nil
	}
	return nil, false, t.f.wrong(t.key(k), "%s must be a list", k)
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)
var namePattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,7}$`)

// ownerPattern is a worker's owner in its lease values, owner|token: no
// '|' to cut the token off at.
var ownerPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,39}$`)

// The keys of a scenario file's top level.
var topKeys = []string{"format", "id", "title", "story", "expected", "lease-ttl", "job-deadline", "measure", "shortfall", "guards",
	"seed", "provider", "actor", "guided", "narration", "safe", "unsafe", "predict", "setup", "step", "invariant"}

func (f *file) scenario(doc map[string]any) (*engine.Scenario, error) {
	top := &table{f: f, m: doc, used: map[string]bool{}}
	format, err := top.str("format", false)
	if err != nil {
		return nil, err
	}
	if format != Format {
		if format == "" {
			return nil, f.wrong("", "format is missing: a scenario file starts with format = %q", Format)
		}
		return nil, f.wrong("format", "format %q: want %q", format, Format)
	}
	// A file that promises no job deadline of its own (job-deadline) is
	// held to the poller's.
	set := &world.Setting{Seed: sharedSeed(), JobDeadline: jobDeadline}
	s := &engine.Scenario{World: set, Predicted: map[engine.Mode]engine.Prediction{}}
	if s.ID, err = top.str("id", true); err != nil {
		return nil, err
	}
	if !idPattern.MatchString(s.ID) {
		return nil, f.wrong("id", "id %q: lower-case letters, digits and dashes, at most 40", s.ID)
	}
	if s.Title, err = top.str("title", true); err != nil {
		return nil, err
	}
	if s.Story, err = top.str("story", true); err != nil {
		return nil, err
	}
	if _, ok := top.m["expected"]; !ok {
		// expected may be left out; a key spelt nearly so is a typo.
		if err := top.missing("expected"); !strings.HasSuffix(err.Error(), "is missing") {
			return nil, err
		}
	}
	if f.hasCode(doc) {
		if f.code, err = f.codeOf(top, s); err != nil {
			return nil, err
		}
	}
	if _, given := top.m["expected"]; !given {
		// No business value (a lock service has none): progress is every
		// actor finishing its program.
		s.NoValue = true
		top.used["expected"] = true
	} else if readsItself(top.m["expected"]) {
		if _, both := top.m["measure"]; both {
			return nil, f.wrong("measure", "measure and expected as a table both say what to count: keep one")
		}
		if err := f.expectedCode(top, s, f.code); err != nil {
			return nil, err
		}
	} else if s.Expected, err = top.integer("expected", 0, -1<<53, 1<<53); err != nil {
		return nil, err
	}
	if ttl, err := top.str("lease-ttl", false); err != nil {
		return nil, err
	} else if ttl != "" {
		d, perr := time.ParseDuration(ttl)
		if perr != nil || d < MinLeaseTTL || d > engine.MaxHoldTTL {
			return nil, f.wrong("lease-ttl", "lease-ttl %q: want a duration from %s to %s, like 30s", ttl, MinLeaseTTL, engine.MaxHoldTTL)
		}
		s.HoldTTL = d
	}
	if d, err := top.str("job-deadline", false); err != nil {
		return nil, err
	} else if d != "" {
		// The deadline the design promises a job, held against the
		// poller's code, which keeps its own (jobDeadline): a constant
		// written in the wrong unit fails jobs sooner than promised.
		promised, perr := time.ParseDuration(d)
		if perr != nil || promised < time.Second || promised > jobTTL {
			return nil, f.wrong("job-deadline", "job-deadline %q: want a duration from 1s to 1h (a job's hash lives an hour), like 10m", d)
		}
		set.JobDeadline = promised
	}
	if err := f.measure(top, s); err != nil {
		return nil, err
	}
	if s.Shortfall, err = top.str("shortfall", false); err != nil {
		return nil, err
	}
	if s.Shortfall != "" && !slices.Contains(knownVerdicts(), s.Shortfall) {
		return nil, f.unknownVerdict("shortfall", s.Shortfall)
	}
	if err := f.guards(top, s); err != nil {
		return nil, err
	}
	if err := f.seed(top, s); err != nil {
		return nil, err
	}
	if err := f.provider(top, s); err != nil {
		return nil, err
	}
	if err := f.hoistGuided(doc); err != nil {
		return nil, err
	}
	actors, err := f.actors(top, s)
	if err != nil {
		return nil, err
	}
	if f.code != nil {
		s.Code = f.code.code
		s.OwnCodeOnly = !slices.ContainsFunc(actors, func(a *fileActor) bool { return a.kind != kindCode })
		if err := f.allStepsUsed(actors); err != nil {
			return nil, err
		}
	}
	specs := map[engine.Mode][]engine.ActorSpec{}
	for _, mode := range modes {
		for _, a := range actors {
			specs[mode] = append(specs[mode], a.spec[mode])
		}
	}
	s.Actors = func(mode engine.Mode) []engine.ActorSpec { return slices.Clone(specs[mode]) }
	guided, err := f.guidedOrders(top, actors)
	if err != nil {
		return nil, err
	}
	s.Guided = func(mode engine.Mode) []engine.Action { return slices.Clone(guided[mode]) }
	s.GuidedAt = f.guidedAt
	if err := f.predictions(top, s); err != nil {
		return nil, err
	}
	return s, top.done(topKeys...)
}

// hoistGuided takes a guided order written after the last [[actor]] as the
// scenario's: TOML puts a key below a table header into that table, but a
// person who writes the actors and then the story means the story.
func (f *file) hoistGuided(doc map[string]any) error {
	actors, ok := doc["actor"].([]map[string]any)
	if !ok || len(actors) == 0 {
		return nil
	}
	for i, a := range actors[:len(actors)-1] {
		for _, k := range []string{"guided", "narration"} {
			if _, ok := a[k]; ok {
				return f.wrong("actor."+strconv.Itoa(i)+"."+k, "%s is read here as a key of the [[actor]] above it: write it above the first [[actor]]", k)
			}
		}
	}
	last := actors[len(actors)-1]
	from := "actor." + strconv.Itoa(len(actors)-1)
	for _, k := range []string{"guided", "narration"} {
		v, ok := last[k]
		if !ok {
			continue
		}
		if _, twice := doc[k]; twice {
			return f.wrong(from+"."+k, "%s is given twice: once at the top and once after the last [[actor]]", k)
		}
		doc[k] = v
		delete(last, k)
		for path, line := range f.at {
			if rest, ok := strings.CutPrefix(path, from+"."+k); ok && (rest == "" || rest[0] == '.') {
				f.at[k+rest] = line
			}
		}
	}
	return nil
}

var modes = []engine.Mode{engine.Safe, engine.Unsafe}

func modeKey(m engine.Mode) string { return strings.ToLower(m.String()) }

func (f *file) unknownVerdict(path, v string) error {
	if near := nearest(v, f.verdicts()); near != "" {
		return f.wrong(path, "verdict %q is none fencelab knows (did you mean %s?)", v, near)
	}
	return f.wrong(path, "verdict %q is none fencelab knows (one of: %s)", v, strings.Join(f.verdicts(), ", "))
}

// readsItself says whether expected reads its value itself: a table (a
// query or a key), or a list of them (several values).
func readsItself(expected any) bool {
	switch expected.(type) {
	case map[string]any, []any, []map[string]any:
		return true
	}
	return false
}

// verdicts are the verdicts a run of the file can end with: fencelab's,
// and its own code's (its invariants' anomalies, a refused step's).
func (f *file) verdicts() []string {
	out := knownVerdicts()
	if f.code != nil {
		out = append(append(out, Rejected), f.code.verdicts...)
	}
	return out
}

// knownVerdicts are the verdicts a run can end with: MATCH, the anomalies
// of the invariants, the guards' refusals and the shortfalls.
func knownVerdicts() []string {
	return append(engine.KnownVerdicts(&world.Setting{}), LeaseLost, DeadlineExceeded)
}

// The measures a file can name: what expected and final count.
var measures = []string{"summary", "effects", "job-hashes", "results-applied", "running-key"}

func (f *file) measure(top *table, s *engine.Scenario) error {
	m, err := top.str("measure", false)
	if err != nil || m == "" {
		return err
	}
	name, arg, _ := strings.Cut(m, " ")
	switch name {
	case "summary":
	case "effects":
		s.Measure = world.MeasureEffects
	case "job-hashes":
		s.Measure = measureJobHashes
	case "results-applied":
		s.Measure = measureApplied
	case "running-key":
		job := strings.TrimSpace(arg)
		if job == "" {
			return f.wrong("measure", "measure \"running-key\" needs the job it counts: \"running-key job-2\"")
		}
		s.Measure = measureRunningKey(job)
		return nil
	default:
		if near := nearest(name, measures); near != "" {
			return f.wrong("measure", "unknown measure %q (did you mean %s?)", name, near)
		}
		return f.wrong("measure", "unknown measure %q (one of: %s)", name, strings.Join(measures, ", "))
	}
	if arg != "" {
		return f.wrong("measure", "measure %q takes nothing after its name", name)
	}
	return nil
}

// guards are the guards SAFE keeps: a design that leaves some out lists
// the rest; every other guard is removed from its SAFE, as --without would.
func (f *file) guards(top *table, s *engine.Scenario) error {
	l, ok, err := top.list("guards")
	if err != nil || !ok {
		return err
	}
	kept := engine.GuardSet(0)
	for i, v := range l {
		path := "guards." + strconv.Itoa(i)
		name, ok := v.(string)
		if !ok {
			return f.wrong(path, "a guard is named by a string")
		}
		g, err := engine.ParseGuard(name)
		if err != nil {
			var names []string
			for _, g := range engine.AllGuards() {
				names = append(names, g.String())
			}
			if near := nearest(name, names); near != "" {
				return f.wrong(path, "unknown guard %q (did you mean %s?)", untrusted.Line(name), near)
			}
			return f.wrong(path, "unknown guard %q (one of: %s)", untrusted.Line(name), strings.Join(names, ", "))
		}
		kept |= engine.Guards(g)
	}
	s.Removed = engine.Guards(engine.AllGuards()...) &^ kept
	return nil
}

// seed reads the [seed] table: what the backends hold before the first
// step, where it differs from the shared seed.
func (f *file) seed(top *table, s *engine.Scenario) error {
	t, ok, err := top.sub("seed")
	if err != nil || !ok {
		return err
	}
	const most = 1 << 40
	seed := &world.SettingOf(s).Seed
	if seed.CounterStart, err = t.integer("counter-start", seed.CounterStart, 0, most); err != nil {
		return err
	}
	if seed.InitialValue, err = t.integer("initial-value", seed.InitialValue, -most, most); err != nil {
		return err
	}
	if seed.MembershipRevision, err = t.integer("membership-revision", seed.MembershipRevision, 1, most); err != nil {
		return err
	}
	if seed.RegionEpoch, err = t.integer("region-epoch", seed.RegionEpoch, 1, most); err != nil {
		return err
	}
	if seed.NamespaceEpoch, err = t.integer("namespace-epoch", seed.NamespaceEpoch, 1, most); err != nil {
		return err
	}
	var n int64
	if n, err = t.integer("minimum-writer-version", int64(seed.MinimumWriterVersion), 1, 1000); err != nil {
		return err
	}
	seed.MinimumWriterVersion = int(n)
	if n, err = t.integer("checkpoint-schema", int64(seed.CheckpointSchemaVersion), 1, 1000); err != nil {
		return err
	}
	seed.CheckpointSchemaVersion = int(n)
	return t.done("counter-start", "initial-value", "membership-revision", "region-epoch", "namespace-epoch",
		"minimum-writer-version", "checkpoint-schema")
}

// The provider's scripted answers a file can give an OperationId.
var providerAnswers = map[string]string{
	"applied-but-timeout": world.ProviderAppliedButTimeout,
	"declined":            world.ProviderDeclined,
}

func (f *file) provider(top *table, s *engine.Scenario) error {
	t, ok, err := top.sub("provider")
	if err != nil || !ok {
		return err
	}
	script := map[string]string{}
	world.SettingOf(s).ProviderScript = script
	for id := range t.m {
		v, err := t.str(id, true)
		if err != nil {
			return err
		}
		answer, ok := providerAnswers[v]
		if !ok {
			return f.wrong(t.key(id), "provider answer %q: want applied-but-timeout or declined", v)
		}
		script[untrusted.Line(id)] = answer
	}
	return nil
}

func (f *file) predictions(top *table, s *engine.Scenario) error {
	t, ok, err := top.sub("predict")
	if err != nil || !ok {
		return err
	}
	for _, mode := range modes {
		p, ok, err := t.sub(modeKey(mode))
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		_, hasFinal := p.m["final"]
		several := s.Code != nil && len(s.Code.Values) > 1
		switch {
		case !hasFinal && !s.NoValue && !several:
			return f.wrong(p.path, "final is missing: the value the run ends with")
		case hasFinal && s.NoValue:
			return f.wrong(p.key("final"), "the file names no expected value, so a run has no final one to predict: leave final out, or give expected")
		case hasFinal && several:
			return f.wrong(p.key("final"), "the file names several expected values, each with what it should be: a prediction names its verdict, not a final")
		}
		var pred engine.Prediction
		pred.AnyFinal = !hasFinal
		if pred.Final, err = p.integer("final", 0, -1<<53, 1<<53); err != nil {
			return err
		}
		// A key left out is not predicted: any fence matches.
		_, pred.AnyMark = p.m["fence"]
		pred.AnyMark = !pred.AnyMark
		if pred.Mark, err = p.integer("fence", 0, 0, 1<<53); err != nil {
			return err
		}
		if pred.Verdict, err = p.str("verdict", true); err != nil {
			return err
		}
		if !slices.Contains(f.verdicts(), pred.Verdict) {
			return f.unknownVerdict(p.key("verdict"), pred.Verdict)
		}
		if err := p.done("final", "fence", "verdict"); err != nil {
			return err
		}
		s.Predicted[mode] = pred
	}
	return t.done("safe", "unsafe")
}

// Nearest is the known word closest to a misspelt one, if one is close
// enough to be what was meant (a scenario id, a flag): nearest.
// Two letters swapped (--mdoe) are taken first: two edits apart, they
// would otherwise tie with a shorter word (--md).
func Nearest(word string, known []string) string {
	sorted := func(w string) string {
		r := []rune(strings.ToLower(w))
		slices.Sort(r)
		return string(r)
	}
	for _, k := range known {
		if len(k) > 2 && sorted(k) == sorted(word) && editDistance(strings.ToLower(word), strings.ToLower(k)) <= 2 {
			return k
		}
	}
	return nearest(word, known)
}

// nearest is the known word closest to a misspelt one, if one is close:
// at most two edits, fewer for a short word (none for one letter: any
// other letter is as near).
func nearest(word string, known []string) string {
	best, bestDist := "", min(2, len(word)-1)+1
	for _, k := range known {
		if d := editDistance(strings.ToLower(word), strings.ToLower(k)); d < bestDist {
			best, bestDist = k, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// quoteList is names as a file writes them: "A", "B".
func quoteList(names []string) string {
	var q []string
	for _, n := range names {
		q = append(q, fmt.Sprintf("%q", n))
	}
	return strings.Join(q, ", ")
}
