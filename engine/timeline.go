package engine

import "sync/atomic"

// A lab's timeline — its events, breaks, log — only grows between resets,
// and every state the checker saves keeps it as it was (save). Copying it
// at each save, or at the first append after one, cost a check a copy of
// the whole timeline per state: a fifth of what a search kept live. The
// states of one schedule share one array instead, each reading its own
// prefix of it, and an array is appended to in place only by the first
// to append past the end of what is used of it; anyone else copies it.

// usedArrays are the used lengths of the arrays under a lab's timeline
// slices; nil: unknown, so the next append copies.
type usedArrays struct {
	events, breaks, log, eventsAfter *atomic.Int64
}

// appendShared appends vs to *s: in place when *s ends where its array's
// used part ends (used), so that no saved state reads the places written;
// otherwise into a new array of *s's elements, of which *s is then the
// first user.
func appendShared[T any](s *[]T, used **atomic.Int64, vs ...T) {
	n := len(*s)
	if u := *used; u != nil && cap(*s)-n >= len(vs) && u.CompareAndSwap(int64(n), int64(n+len(vs))) {
		*s = append(*s, vs...)
		return
	}
	grown := make([]T, n, max(2*n, n+len(vs), 8))
	copy(grown, *s)
	*s = append(grown, vs...)
	u := new(atomic.Int64)
	u.Store(int64(len(*s)))
	*used = u
}
