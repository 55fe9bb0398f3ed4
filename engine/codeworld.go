package engine

import (
	"context"
	"time"

	"github.com/fencelab/fencelab/lang"
)

// A scenario file's own code (code.go) is a world of its own, plugged into
// its lab through the same seam as the scenario's world and beside it: it
// seeds the file's keys and makes its schema at each reset, and judges each
// action by the file's invariants. A lab of a file runs the two side by
// side (sideBySide): the scenario's world first, then the file's.

// codeLab is a file's code in one lab.
type codeLab struct{ l *Lab }

func (w codeLab) Reset(ctx context.Context) error {
	if err := w.l.restoreSessions(ctx, nil); err != nil {
		return err
	}
	return w.l.setupCode(ctx)
}

func (w codeLab) Check(ctx context.Context, o Observation) ([]Break, error) {
	return w.l.codeBreaks(ctx, o.After.Ledger, o.After.Keys)
}

// The file's tables and keys are the stores' own, which the lab reads,
// keys and restores itself: the file's world keeps nothing beside them.
func (codeLab) Read([]RedisKey) any                               { return nil }
func (codeLab) Sum(StateHash, time.Time)                          {}
func (codeLab) SumShared(StateHash, time.Time)                    {}
func (codeLab) Rows(LedgerState) any                              { return nil }
func (codeLab) Save() any                                         { return nil }
func (codeLab) Restore(any)                                       {}
func (codeLab) View(context.Context, []*Actor, []ActorView) error { return nil }
func (codeLab) Keys([]RedisKey)                                   {}
func (codeLab) Result(Reading, *Result)                           {}
func (codeLab) Pausing(*Actor, bool, *lang.Phrase, *string)       {}
func (codeLab) Holds(*Actor) bool                                 { return false }

// sideBySide is several worlds' parts of one lab, asked in order. At most
// one of them reads, and keys rows, of its own (Read, Rows): the first
// that does is the lab's.
type sideBySide []LabWorld

func (s sideBySide) Reset(ctx context.Context) error {
	for _, w := range s {
		if err := w.Reset(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (s sideBySide) Check(ctx context.Context, o Observation) ([]Break, error) {
	var found []Break
	for _, w := range s {
		breaks, err := w.Check(ctx, o)
		if err != nil {
			return nil, err
		}
		found = append(found, breaks...)
	}
	return found, nil
}

func (s sideBySide) Read(keys []RedisKey) any {
	for _, w := range s {
		if r := w.Read(keys); r != nil {
			return r
		}
	}
	return nil
}

func (s sideBySide) Sum(h StateHash, now time.Time) {
	for _, w := range s {
		w.Sum(h, now)
		h.Mark()
	}
}

func (s sideBySide) SumShared(h StateHash, now time.Time) {
	for _, w := range s {
		w.SumShared(h, now)
		h.Mark()
	}
}

func (s sideBySide) Rows(state LedgerState) any {
	for _, w := range s {
		if r := w.Rows(state); r != nil {
			return r
		}
	}
	return nil
}

func (s sideBySide) Save() any {
	saved := make([]any, len(s))
	for i, w := range s {
		saved[i] = w.Save()
	}
	return saved
}

func (s sideBySide) Restore(saved any) {
	for i, w := range s {
		w.Restore(saved.([]any)[i])
	}
}

func (s sideBySide) View(ctx context.Context, actors []*Actor, views []ActorView) error {
	for _, w := range s {
		if err := w.View(ctx, actors, views); err != nil {
			return err
		}
	}
	return nil
}

func (s sideBySide) Keys(keys []RedisKey) {
	for _, w := range s {
		w.Keys(keys)
	}
}

func (s sideBySide) Result(r Reading, result *Result) {
	for _, w := range s {
		w.Result(r, result)
	}
}

func (s sideBySide) Pausing(a *Actor, paused bool, detail *lang.Phrase, narration *string) {
	for _, w := range s {
		w.Pausing(a, paused, detail, narration)
	}
}

func (s sideBySide) Holds(a *Actor) bool {
	for _, w := range s {
		if w.Holds(a) {
			return true
		}
	}
	return false
}

// openWorlds opens the lab's worlds: the scenario's, then a file's code.
func (l *Lab) openWorlds() {
	var open sideBySide
	if l.scenario.World != nil {
		open = append(open, l.scenario.World.Open(l))
	}
	if l.scenario.Code != nil {
		open = append(open, codeLab{l})
	}
	switch len(open) {
	case 0:
	case 1:
		l.world = open[0]
	default:
		l.world = open
	}
}

// Worlds are the worlds' parts of the lab, in the order it asks them.
func (l *Lab) Worlds() []LabWorld {
	if s, ok := l.world.(sideBySide); ok {
		return s
	}
	if l.world == nil {
		return nil
	}
	return []LabWorld{l.world}
}
