package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/fencelab/fencelab/lang"
	"github.com/fencelab/fencelab/untrusted"
)

// TraceFormat names the version of the trace document this fencelab writes
// and reads. A new version is for a change an older reader would misread.
const TraceFormat = "fencelab-trace/1"

// A Trace is a schedule of one scenario in one mode, with what happened when
// it ran: `run --save-trace`, the explorer and `check` write one; `replay`
// runs it again and compares, and `fencelab --trace` steps through it.
type Trace struct {
	Format   string `json:"format"`
	Scenario string `json:"scenario"`
	Mode     string `json:"mode"` // "safe" or "unsafe"
	// Without names the guards removed from SAFE for this run (--without).
	Without []string `json:"without,omitempty"`
	// HoldTTL is the lab's (Backends.HoldTTL). Its field in the file is
	// the catalog's word for it, leaseTTL: traces on disk carry it.
	HoldTTL  TraceDuration `json:"leaseTTL"`
	Schedule []TraceAction `json:"schedule"`
	Events   []TraceEvent  `json:"events"`
	Result   TraceResult   `json:"result"`
	// ScenarioFile is the scenario file the run's scenario was compiled
	// from, when it is not the catalog's: the trace replays where the
	// file is not.
	ScenarioFile string `json:"scenarioFile,omitempty"`
}

// Carry puts the scenario's file in the trace when the scenario is not
// the catalog's own.
func (t *Trace) Carry(s *Scenario) {
	if s.File != "" {
		t.ScenarioFile = string(s.Source)
	}
}

// TraceAction is one action of a schedule, as JSON.
type TraceAction struct {
	// Action is step (an actor's step, whole), call (one round trip of
	// it), pause, resume, advance (by By), advance-to-expiry or overlap
	// (the actor's write, With's statement sent before its commit).
	Action string `json:"action"`
	Actor  string `json:"actor,omitempty"`
	// With is an overlap's other actor, whose statement goes before the
	// actor's write commits.
	With string `json:"with,omitempty"`
	By   string `json:"by,omitempty"`
	// Note is why an actor pauses ("GC pause").
	Note string `json:"note,omitempty"`
	// Caption is what a speaker says at this action; the explorer shows it.
	Caption string `json:"caption,omitempty"`
	// Sent are the round trips the action sent, as sent ("redis: evalsha
	// …", "postgres: UPDATE …"): what a replay does not need, and a reader
	// of a counterexample does.
	Sent []string `json:"sent,omitempty"`
}

// TraceEvent is an event as a trace records it: what a replay must see again.
type TraceEvent struct {
	Sequence int    `json:"sequence"`
	At       string `json:"at"`
	Actor    string `json:"actor"`
	Code     string `json:"code"`
	State    string `json:"state"`
	Detail   string `json:"detail"`
	Guard    string `json:"guard,omitempty"`
}

// TraceResult is the result strip a trace recorded.
type TraceResult struct {
	Expected int64 `json:"expected"`
	Final    int64 `json:"final"`
	// Mark is Result.Mark. Its field in the file is the catalog's name
	// for it, lastAcceptedFence: traces on disk carry it.
	Mark    int64        `json:"lastAcceptedFence"`
	Verdict string       `json:"verdict"`
	Broken  []TraceBreak `json:"broken"`
}

// TraceBreak is a broken invariant as a trace records it.
type TraceBreak struct {
	Invariant int    `json:"invariant"`
	Anomaly   string `json:"anomaly"`
	Sequence  int    `json:"sequence"`
	Detail    string `json:"detail"`
}

// TraceDuration is a duration written as Go writes one ("30s", "1.5s").
type TraceDuration time.Duration

func (d TraceDuration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

func (d *TraceDuration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("a duration is a string like \"30s\"")
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("%q is not a duration like \"30s\"", s)
	}
	*d = TraceDuration(v)
	return nil
}

type traceName struct {
	kind ActionKind
	name string
}

// traceNames are the action names of a trace, one per kind, in the order
// an error lists them.
var traceNames = []traceName{
	{StepActor, "step"}, {PauseActor, "pause"}, {ResumeActor, "resume"},
	{AdvanceClock, "advance"}, {AdvanceToExpiry, "advance-to-expiry"}, {CallActor, "call"},
	{OverlapWrite, "overlap"}, {CrashActor, "crash"},
}

// TraceActionOf writes an action as a trace does.
func TraceActionOf(a Action) TraceAction {
	t := TraceAction{Actor: a.Actor, With: a.With, Note: a.Note, Caption: a.Caption}
	for _, n := range traceNames {
		if n.kind == a.Kind {
			t.Action = n.name
		}
	}
	if a.Kind == AdvanceClock {
		t.By = a.By.String()
	}
	return t
}

// ToAction reads an action of a trace.
func (t TraceAction) ToAction() (Action, error) {
	a := Action{Actor: t.Actor, With: t.With, Note: t.Note, Caption: t.Caption}
	i := slices.IndexFunc(traceNames, func(n traceName) bool { return n.name == t.Action })
	if i < 0 {
		var names []string
		for _, n := range traceNames {
			names = append(names, n.name)
		}
		return a, lang.Error("unknown action %q (want %s)", t.Action, strings.Join(names, ", "))
	}
	a.Kind = traceNames[i].kind
	if a.Kind == AdvanceClock {
		by, err := time.ParseDuration(t.By)
		if err != nil || by <= 0 {
			return a, lang.Error("advance needs a positive \"by\" like \"30s\", got %q", t.By)
		}
		if by > MaxAdvance {
			return a, lang.Error("advance by %q: at most %s at a time", t.By, MaxAdvance)
		}
		a.By = by
	}
	needsActor := a.Kind == StepActor || a.Kind == CallActor || a.Kind == PauseActor || a.Kind == ResumeActor || a.Kind == OverlapWrite ||
		a.Kind == CrashActor
	if (a.Kind == OverlapWrite) != (t.With != "") {
		if t.With == "" {
			return a, lang.Error("overlap needs the other actor (with)")
		}
		return a, lang.Error("%s takes no other actor, got %q", t.Action, t.With)
	}
	if needsActor && t.Actor == "" {
		return a, lang.Error("%s needs an actor", t.Action)
	}
	if !needsActor && t.Actor != "" {
		return a, lang.Error("%s takes no actor, got %q", t.Action, t.Actor)
	}
	return a, nil
}

// ErrTrace is a trace that cannot be read: malformed, truncated, of another
// format version, or naming what its scenario does not have.
var ErrTrace = errors.New("not a usable trace")

// TraceError is ErrTrace with what is wrong, said in any language.
type TraceError struct{ What lang.Phrase }

func (e *TraceError) Error() string        { return ErrTrace.Error() + ": " + e.What.In(lang.En) }
func (e *TraceError) Is(target error) bool { return target == ErrTrace }

// In says the error in a language.
func (e *TraceError) In(l lang.Lang) string { return lang.P("not a usable trace: %s", e.What).In(l) }

func traceError(format string, args ...any) error { return &TraceError{lang.P(format, args...)} }

// MaxTraceActions bounds a trace's schedule: the catalog's longest is a few
// dozen actions, and what runs or exports a trace keeps a screen per
// action (a cast of 5,000 takes about 200 MB).
const MaxTraceActions = 5000

// ParseTrace reads a trace document and checks its form: version, mode,
// lease TTL, actions. The scenario and its actors are checked by Bind.
func ParseTrace(data []byte) (Trace, error) {
	var head struct {
		Format *string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return Trace{}, traceError("%s", describeJSONError(data, err))
	}
	switch {
	case head.Format == nil:
		return Trace{}, traceError("no \"format\" field: want %q", TraceFormat)
	case *head.Format != TraceFormat:
		if version, ok := strings.CutPrefix(*head.Format, "fencelab-trace/"); ok {
			if n, err := strconv.Atoi(version); err == nil && n > 1 {
				return Trace{}, traceError("format %q is newer than this fencelab reads (%s): update fencelab", *head.Format, TraceFormat)
			}
		}
		return Trace{}, traceError("format %q, want %q", *head.Format, TraceFormat)
	}
	var t Trace
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&t); err != nil {
		return Trace{}, traceError("%s", describeJSONError(data, err))
	}
	if _, err := ParseMode(t.Mode); err != nil {
		return Trace{}, traceError("mode %q: want safe or unsafe", t.Mode)
	}
	if t.HoldTTL <= 0 || time.Duration(t.HoldTTL) > MaxHoldTTL {
		// Said by the file's field's name (leaseTTL), as the file has it.
		return Trace{}, traceError("leaseTTL must be positive and at most %s, got %s", MaxHoldTTL, time.Duration(t.HoldTTL))
	}
	if t.ScenarioFile != "" {
		// A file's trace may take out guards of the file's own, whose
		// names the process learns here (the sentence, when the file's
		// source is read).
		for _, name := range t.Without {
			if _, err := ParseGuard(name); err != nil && ownGuardNameOK(name) {
				if _, err := OwnGuard(strings.TrimSpace(name), ""); err != nil {
					return Trace{}, traceError("without: %v", err)
				}
			}
		}
	}
	without, err := ParseGuards(strings.Join(t.Without, ","))
	if err != nil {
		return Trace{}, traceError("without: %v", err)
	}
	if without != 0 && t.ModeOf() == Unsafe {
		return Trace{}, traceError("without names guards, but UNSAFE has none to remove")
	}
	if len(t.Schedule) == 0 {
		return Trace{}, traceError("its schedule is empty")
	}
	if len(t.Schedule) > MaxTraceActions {
		return Trace{}, traceError("its schedule has %d actions, more than the %d a trace may have", len(t.Schedule), MaxTraceActions)
	}
	var clock time.Duration // the most the schedule can move the lab clock
	for i, a := range t.Schedule {
		action, err := a.ToAction()
		if err != nil {
			return Trace{}, traceError("schedule entry %d: %v", i+1, err)
		}
		switch action.Kind {
		case AdvanceClock:
			clock += action.By
		case AdvanceToExpiry:
			clock += time.Duration(t.HoldTTL) // at most a hold's TTL away
		}
		if clock > MaxLabClock {
			return Trace{}, traceError("schedule entry %d: the schedule would take the lab clock past %s", i+1, FormatClock(MaxLabClock))
		}
		for _, text := range []string{a.Caption, a.Note} {
			if n := utf8.RuneCountInString(text); n > untrusted.MaxText {
				return Trace{}, traceError("schedule entry %d: a text of %d characters, more than the %d a caption or note may have", i+1, n, untrusted.MaxText)
			}
		}
	}
	t.makeShowable()
	return t, nil
}

// makeShowable turns the control characters of every text a trace file
// gave into visible ones: a caption, a note or a name read from a file is
// shown on terminals, and an escape sequence in it must not act there.
func (t *Trace) makeShowable() {
	line := func(s *string) { *s = untrusted.Line(*s) }
	text := func(s *string) { *s = untrusted.Text(*s) }
	line(&t.Scenario)
	line(&t.Mode)
	for i := range t.Without {
		line(&t.Without[i])
	}
	for i := range t.Schedule {
		a := &t.Schedule[i]
		line(&a.Action)
		line(&a.Actor)
		line(&a.With)
		line(&a.By)
		text(&a.Note)
		text(&a.Caption)
	}
	for i := range t.Events {
		e := &t.Events[i]
		for _, s := range []*string{&e.At, &e.Actor, &e.Code, &e.State, &e.Detail, &e.Guard} {
			line(s)
		}
	}
	line(&t.Result.Verdict)
	for i := range t.Result.Broken {
		line(&t.Result.Broken[i].Anomaly)
		line(&t.Result.Broken[i].Detail)
	}
}

// describeJSONError says where a document stops being JSON a trace can be.
func describeJSONError(data []byte, err error) lang.Phrase {
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || strings.Contains(err.Error(), "unexpected end of JSON input"):
		return lang.P("truncated: the JSON ends after %d bytes", len(data))
	case errors.As(err, &syntax):
		return lang.P("not JSON at byte %d: %v", syntax.Offset, untrusted.WithoutContent(err.Error()))
	case errors.As(err, &typeErr) && typeErr.Field == "":
		return lang.P("the document is a JSON %s, where a trace is a JSON object", typeErr.Value)
	case errors.As(err, &typeErr):
		// Go's type names mean nothing to the reader; JSON's kinds do.
		want := lang.P("a JSON value of another kind")
		switch typeErr.Type.Kind() {
		case reflect.String:
			want = lang.P("a string")
		case reflect.Int, reflect.Int64, reflect.Float64:
			want = lang.P("a number")
		case reflect.Bool:
			want = lang.P("true or false")
		case reflect.Slice:
			want = lang.P("a list")
		case reflect.Struct, reflect.Map:
			want = lang.P("an object")
		}
		return lang.P("field %q holds a JSON %s, where the format wants %s", typeErr.Field, typeErr.Value, want)
	}
	return lang.P("%v", err)
}

// Recorded reports whether the trace holds a run to compare with (a
// schedule written by hand may not).
func (t Trace) Recorded() bool { return len(t.Events) > 0 || t.Result.Verdict != "" }

// ModeOf is the trace's mode; ParseTrace checked it.
func (t Trace) ModeOf() Mode {
	m, _ := ParseMode(t.Mode)
	return m
}

// WithoutOf is the set of guards the trace's run removed; ParseTrace
// checked the names.
func (t Trace) WithoutOf() GuardSet {
	s, _ := ParseGuards(strings.Join(t.Without, ","))
	return s
}

// Bind checks the trace against its scenario (every actor it names exists
// in that mode) and returns the schedule as actions.
func (t Trace) Bind(s *Scenario) ([]Action, error) {
	mode := t.ModeOf()
	actors := map[string]bool{}
	var names []string
	for _, spec := range s.Actors(mode) {
		actors[spec.Name] = true
		names = append(names, spec.Name)
	}
	schedule := make([]Action, 0, len(t.Schedule))
	for i, ta := range t.Schedule {
		a, err := ta.ToAction()
		if err != nil {
			return nil, traceError("schedule entry %d: %v", i+1, err)
		}
		for _, name := range []string{a.Actor, a.With} {
			if name != "" && !actors[name] {
				return nil, traceError("schedule entry %d names actor %q, which %s %s does not have (it has %s)",
					i+1, name, s.ID, mode, strings.Join(names, ", "))
			}
		}
		schedule = append(schedule, a)
	}
	return schedule, nil
}

// WithSchedule is the scenario with a schedule as its guided order, and the
// trace's recorded result as what to compare a run with.
func (s *Scenario) WithSchedule(mode Mode, schedule []Action, recorded *TraceResult) *Scenario {
	c := *s
	guided := s.Guided
	c.Guided = func(m Mode) []Action {
		if m == mode {
			return append([]Action(nil), schedule...)
		}
		return guided(m)
	}
	if recorded != nil {
		c.Predicted = map[Mode]Prediction{}
		for m, p := range s.Predicted {
			c.Predicted[m] = p
		}
		c.Predicted[mode] = Prediction{Final: recorded.Final, Mark: recorded.Mark, Verdict: recorded.Verdict}
	}
	return &c
}

// Schedule is the actions the lab has taken since its last reset. A call
// that made a whole step is written as the step.
func (l *Lab) Schedule() []Action {
	out := make([]Action, len(l.log))
	for i, entry := range l.log {
		out[i] = entry.Action
		if entry.whole {
			out[i].Kind = StepActor
		}
	}
	return out
}

// Trace is the lab's run so far as a trace document.
func (l *Lab) Trace(ctx context.Context) (Trace, error) {
	result, err := l.Result(ctx)
	if err != nil {
		return Trace{}, err
	}
	t := NewTrace(l.backends.HoldTTL, l.Schedule(), result)
	for i, entry := range l.log {
		for _, trip := range entry.sent {
			t.Schedule[i].Sent = append(t.Schedule[i].Sent, trip.String())
		}
	}
	t.Carry(l.scenario)
	return t, nil
}

// NewTrace writes a schedule and the result of running it as a trace.
func NewTrace(holdTTL time.Duration, schedule []Action, r Result) Trace {
	t := Trace{
		Format:   TraceFormat,
		Scenario: r.Scenario,
		Mode:     strings.ToLower(r.Mode.String()),
		Without:  r.Without.Names(),
		HoldTTL:  TraceDuration(holdTTL),
		Schedule: make([]TraceAction, 0, len(schedule)),
		Events:   make([]TraceEvent, 0, len(r.Timeline)),
		Result: TraceResult{Expected: r.Expected, Final: r.Final, Mark: r.Mark,
			Verdict: r.Verdict, Broken: make([]TraceBreak, 0, len(r.Breaks))},
	}
	for _, a := range schedule {
		t.Schedule = append(t.Schedule, TraceActionOf(a))
	}
	for _, e := range r.Timeline {
		t.Events = append(t.Events, TraceEvent{Sequence: e.Sequence, At: FormatClock(e.At), Actor: e.Actor,
			Code: e.Code, State: e.State, Detail: e.Detail, Guard: e.Guard})
	}
	for _, b := range r.Breaks {
		t.Result.Broken = append(t.Result.Broken, TraceBreak{Invariant: b.Invariant, Anomaly: b.Anomaly, Sequence: b.Sequence, Detail: b.Detail})
	}
	return t
}

// Differences lists how another run of the same schedule differs from what
// the trace recorded: events (actor, code, state, detail, guard) and the
// result. Lab times and the details of clock events are not compared: on a
// real Redis the lab waits for expiries on the wall clock, by amounts that
// differ from run to run.
func (t Trace) Differences(again Trace) []string {
	var diffs []string
	n := max(len(t.Events), len(again.Events))
	for i := 0; i < n && len(diffs) < 10; i++ {
		switch {
		case i >= len(again.Events):
			diffs = append(diffs, fmt.Sprintf("event %d is missing: recorded %s", i+1, t.Events[i].describe()))
		case i >= len(t.Events):
			diffs = append(diffs, fmt.Sprintf("event %d is new: %s", i+1, again.Events[i].describe()))
		default:
			want, got := t.Events[i], again.Events[i]
			if want.Code == "CLOCK_ADVANCE" && got.Code == "CLOCK_ADVANCE" {
				continue
			}
			if want.Actor != got.Actor || want.Code != got.Code || want.State != got.State || want.Detail != got.Detail || want.Guard != got.Guard {
				diffs = append(diffs, fmt.Sprintf("event %d: recorded %s, now %s", i+1, want.describe(), got.describe()))
			}
		}
	}
	w, g := t.Result, again.Result
	if w.Final != g.Final || w.Mark != g.Mark || w.Verdict != g.Verdict {
		// Said in the catalog's words, as traces have always said it.
		diffs = append(diffs, fmt.Sprintf("result: recorded final %d · fence %s · %s, now final %d · fence %s · %s",
			w.Final, FormatMark(w.Mark), w.Verdict, g.Final, FormatMark(g.Mark), g.Verdict))
	}
	if brokenSet(w.Broken) != brokenSet(g.Broken) {
		diffs = append(diffs, fmt.Sprintf("broken invariants: recorded %s, now %s", brokenSet(w.Broken), brokenSet(g.Broken)))
	}
	return diffs
}

func (e TraceEvent) describe() string {
	return fmt.Sprintf("%s %s %q", e.Code, e.State, e.Detail)
}

func brokenSet(bs []TraceBreak) string {
	if len(bs) == 0 {
		return "none"
	}
	var parts []string
	for _, b := range bs {
		parts = append(parts, fmt.Sprintf("%d (%s)", b.Invariant, b.Anomaly))
	}
	return strings.Join(parts, ", ")
}
