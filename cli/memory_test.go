package cli

import "testing"

// The bound stops a search that keeps three quarters of the limit, and one
// that keeps half but holds the process at the limit (the collector then
// runs without end); below both, or near the limit with little live (the
// collector's headroom at GOGC 300), it lets the search go on.
func TestTheMemoryBoundStopsASearchHeldAtTheLimit(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live, held uint64
		over       bool
	}{
		{100 * mib, 150 * mib, false},
		{160 * mib, 170 * mib, true},
		{140 * mib, 190 * mib, true},
		{60 * mib, 190 * mib, false}, // the collector's headroom, no more
	} {
		b := &memoryBound{limit: 200 * mib, live: func() uint64 { return c.live }, held: func() uint64 { return c.held }}
		if got := b.exceeded(); got != c.over {
			t.Errorf("live %d MiB, held %d MiB of 200: exceeded %v, want %v", c.live/mib, c.held/mib, got, c.over)
		}
	}
}

// A search's soft memory limit: room to spare while it keeps little,
// twice what it keeps once that is more, never above --max-memory.
func TestASearchsSoftLimitFollowsWhatItKeeps(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct{ live, ceiling, want uint64 }{
		{10 * mib, 0, searchRoom},
		{150 * mib, 2048 * mib, searchRoom},
		{200 * mib, 0, searchRoom},
		{300 * mib, 2048 * mib, 600 * mib},
		{1500 * mib, 2048 * mib, 2048 * mib},
		{10 * mib, 200 * mib, 200 * mib},
	} {
		if got := searchLimit(c.live, c.ceiling); got != c.want {
			t.Errorf("live %d MiB, ceiling %d MiB: limit %d MiB, want %d MiB", c.live/mib, c.ceiling/mib, got/mib, c.want/mib)
		}
	}
}
