package pgledger

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/lang"
)

// A session's advisory locks, read and put back (engine's session.go).
// pg_locks says which advisory locks a session holds but not how many
// times it took each; the only way to learn that is to unlock until the
// lock is gone and count, then take it back as many times. The function
// below does it in one round trip, on the session itself. Nothing can
// slip in between: a file may not wait for an advisory lock (scenarios
// refuse pg_advisory_lock and its waiting kin), so no other session is
// queued to take a lock in the moment it is free, and the lab runs one
// actor at a time.

// sessionLocksFunction is the probe, made in a file's schema by SetupCode.
// It answers one line per lock: "high low pair shared count;".
//
// It counts a lock up to maxSessionCount times: past that it puts the lock
// back as it found it and says "over", and the lab stops (a session that
// took one lock that often is no design a lab can keep: restoring it
// would take as many calls).
const sessionLocksFunction = `
CREATE FUNCTION %[1]s.fencelab_session_locks() RETURNS text LANGUAGE plpgsql SET search_path = pg_catalog AS $fencelab_session$
DECLARE
  r record;
  n int;
  key bigint;
  k1 int;
  k2 int;
  held text := '';
BEGIN
  FOR r IN SELECT DISTINCT classid::text::bigint AS hi, objid::text::bigint AS lo, objsubid = 2 AS pair, mode = 'ShareLock' AS shared
             FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted ORDER BY 1, 2, 3, 4
  LOOP
    key := (r.hi << 32) | r.lo;
    k1 := (r.hi - CASE WHEN r.hi >= 2147483648 THEN 4294967296 ELSE 0 END)::int;
    k2 := (r.lo - CASE WHEN r.lo >= 2147483648 THEN 4294967296 ELSE 0 END)::int;
    n := 0;
    LOOP
      -- A lock the transaction holds (pg_advisory_xact_lock) stays: it is
      -- no session's, and unlock says false for it.
      EXIT WHEN NOT EXISTS (SELECT FROM pg_locks l WHERE l.locktype = 'advisory' AND l.pid = pg_backend_pid() AND l.granted
                              AND l.classid::text::bigint = r.hi AND l.objid::text::bigint = r.lo
                              AND (l.objsubid = 2) = r.pair AND (l.mode = 'ShareLock') = r.shared);
      EXIT WHEN NOT CASE WHEN r.pair AND r.shared THEN pg_advisory_unlock_shared(k1, k2)
                         WHEN r.pair THEN pg_advisory_unlock(k1, k2)
                         WHEN r.shared THEN pg_advisory_unlock_shared(key)
                         ELSE pg_advisory_unlock(key) END;
      n := n + 1;
      EXIT WHEN n > ` + maxSessionCountText + `;
    END LOOP;
    FOR i IN 1..n LOOP
      PERFORM CASE WHEN r.pair AND r.shared THEN pg_try_advisory_lock_shared(k1, k2)
                   WHEN r.pair THEN pg_try_advisory_lock(k1, k2)
                   WHEN r.shared THEN pg_try_advisory_lock_shared(key)
                   ELSE pg_try_advisory_lock(key) END;
    END LOOP;
    IF n > ` + maxSessionCountText + ` THEN
      RETURN 'over ' || key;
    END IF;
    IF n > 0 THEN
      held := held || format('%%s %%s %%s %%s %%s;', r.hi, r.lo, r.pair, r.shared, n);
    END IF;
  END LOOP;
  RETURN held;
END $fencelab_session$`

// maxSessionCount is how many times a session may hold one advisory lock,
// as far as the lab keeps it.
const (
	maxSessionCount     = 1000
	maxSessionCountText = "1000"
)

// ErrSessionOver is a session that holds an advisory lock more than
// maxSessionCount times.
var ErrSessionOver = lang.Error("a session of the file's holds an advisory lock taken more than %d times, more than a lab keeps", maxSessionCount)

// SessionLocks reads the advisory locks this connection's session holds.
// What it read is kept until a statement of the file's code is sent on
// the connection; one still running (waiting for a lock) has not changed
// the session as far as the lab knows: its trip is in the lab's state.
func (l *Ledger) SessionLocks(ctx context.Context) ([]engine.AdvisoryLock, error) {
	if l.sessionKnown.Load() || l.busy.Load() {
		return l.session, nil
	}
	c := l.db.code.Load()
	conn := l.sessionConn()
	if c == nil || conn == nil {
		return nil, nil // no statement of the file's went out on it: no session of the file's
	}
	var text string
	err := within(ctx, func(ctx context.Context) error {
		return conn.QueryRow(ctx, "SELECT "+pgx.Identifier{c.name}.Sanitize()+".fencelab_session_locks()").Scan(&text)
	})
	if err != nil {
		return nil, err
	}
	locks, err := parseSessionLocks(text)
	if err != nil {
		return nil, err
	}
	l.session = locks
	l.sessionKnown.Store(true)
	return locks, nil
}

func parseSessionLocks(text string) ([]engine.AdvisoryLock, error) {
	if strings.HasPrefix(text, "over ") {
		return nil, &engine.CodeFailure{Err: ErrSessionOver}
	}
	var out []engine.AdvisoryLock
	for line := range strings.SplitSeq(text, ";") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 5 {
			return nil, fmt.Errorf("pgledger: a session's lock read as %q", line)
		}
		hi, err1 := strconv.ParseUint(f[0], 10, 32)
		lo, err2 := strconv.ParseUint(f[1], 10, 32)
		n, err3 := strconv.Atoi(f[4])
		if err1 != nil || err2 != nil || err3 != nil || n < 1 || n > maxSessionCount {
			return nil, fmt.Errorf("pgledger: a session's lock read as %q", line)
		}
		out = append(out, engine.AdvisoryLock{High: uint32(hi), Low: uint32(lo), Pair: f[2] == "true", Shared: f[3] == "true", Count: n})
	}
	return out, nil
}

// ReleaseSession unlocks every advisory lock the session holds, unless it
// is known to hold want already.
func (l *Ledger) ReleaseSession(ctx context.Context, want []engine.AdvisoryLock) (bool, error) {
	if l.sessionKnown.Load() && slices.Equal(l.session, want) {
		return false, nil
	}
	if conn := l.sessionConn(); conn != nil {
		err := within(ctx, func(ctx context.Context) error {
			_, err := conn.Exec(ctx, "SELECT pg_advisory_unlock_all()")
			return err
		})
		if err != nil {
			return false, err
		}
	}
	l.session = nil
	l.sessionKnown.Store(true)
	return len(want) > 0, nil
}

// TakeSession takes want, on a session that holds no advisory lock: each
// lock as many times as want says, in one round trip. None waits: a lock
// another session holds is an error (the lab lets go of every lock before
// it takes any back).
func (l *Ledger) TakeSession(ctx context.Context, want []engine.AdvisoryLock) error {
	var calls []string
	for _, k := range want {
		fn := "pg_try_advisory_lock"
		if k.Shared {
			fn += "_shared"
		}
		args := strconv.FormatInt(int64(uint64(k.High)<<32|uint64(k.Low)), 10)
		if k.Pair {
			args = fmt.Sprintf("%d, %d", int32(k.High), int32(k.Low))
		}
		for range k.Count {
			calls = append(calls, fn+"("+args+")")
		}
	}
	if len(calls) == 0 {
		return nil
	}
	conn, err := l.codeConnection(ctx)
	if err != nil {
		return err
	}
	var taken []bool
	err = within(ctx, func(ctx context.Context) error {
		return conn.QueryRow(ctx, "SELECT ARRAY["+strings.Join(calls, ", ")+"]").Scan(&taken)
	})
	if err != nil {
		return err
	}
	for i, ok := range taken {
		if !ok {
			return fmt.Errorf("pgledger: %s: another session holds the lock", calls[i])
		}
	}
	l.session = want
	l.sessionKnown.Store(true)
	return nil
}

var _ engine.SessionKeeper = (*Ledger)(nil)
