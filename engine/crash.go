package engine

import (
	"context"
	"strings"

	"github.com/fencelab/fencelab/lang"
)

// A crash is where a pause is not enough. An actor not scheduled is
// paused, and the search schedules every actor at every round trip, so a
// process that stops at a round trip and never comes back is explored
// already; and the world a crash leaves — its open transaction rolled
// back — is the world of the pause just before that transaction began.
// But a crash ends the process's connection, and with it the session:
// PostgreSQL lets go of the session's advisory locks, with no unlock, and
// the others go on past a lock its holder never gave back. No pause
// reaches that world. So `check` takes a crash of an actor whose own
// session holds an advisory lock, at every state where it does, as an
// action of its own. (A connection the file names is a pooler's: a
// client's crash leaves it, and its locks, where they are.)

// crashes are the crash actions enabled at the lab's state: one for each
// actor that has not finished and whose own session holds a lock.
func (l *Lab) crashes() []Action {
	var out []Action
	for _, a := range l.actors {
		if !a.Done() && len(l.sessionLocks(a.Name)) > 0 {
			out = append(out, Crash(a.Name))
		}
	}
	return out
}

// sessionLocks are the locks the actor's own session holds, as the last
// check read them ("42 ×2, 7"; none: empty).
func (l *Lab) sessionLocks(actor string) []string {
	var held []string
	for _, s := range l.reading.Sessions {
		if s.Connection == actor && len(s.Locks) > 0 {
			held = append(held, s.Says())
		}
	}
	return held
}

// crash ends the actor's process where it stands: the call in progress is
// given up (its open transaction rolls back), its session lets go of its
// advisory locks, and its program is over.
func (l *Lab) crash(ctx context.Context, name string) error {
	a, err := l.Actor(name)
	if err != nil {
		return err
	}
	if a.Done() {
		return lang.Error("%s %w", a.Name, ErrProgramDone)
	}
	held := l.sessionLocks(a.Name)
	l.abandon(ctx, a)
	if keeper, ok := unwrapLedger(a.ledger).(SessionKeeper); ok {
		if _, err := keeper.ReleaseSession(Housekeeping(ctx), nil); err != nil {
			return err
		}
	}
	a.Halt("crashed")
	a.Paused, a.Pause = false, ""
	detail := lang.P("%s's process crashed: PostgreSQL ended its session, rolling back any open transaction", a.Name)
	if len(held) > 0 {
		detail = lang.P("%s's process crashed: PostgreSQL ended its session, rolling back any open transaction and letting go of its advisory locks (%s), which it never unlocked",
			a.Name, strings.Join(held, ", "))
	}
	l.emit(Event{Actor: a.Name, Layer: LayerDatabase, Code: strings.ToUpper(a.Name) + "_CRASH", State: "CRASHED",
		Detail: detail.In(lang.En), Told: detail.In(l.lang)})
	return nil
}
