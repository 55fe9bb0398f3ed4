package stress

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

// history is a run's records as a fenced register would make them:
// operations one after another on the register, each taking effect at its
// own moment, their intervals around it wide enough to overlap their
// neighbours'. Each worker's operations stay apart, as one worker's are.
func history(t *rapid.T, adds bool) []Record {
	const workers, spacing = 6, 100
	n := rapid.IntRange(1, 600).Draw(t, "operations")
	var s register
	token := int64(0)
	var records []Record
	for i := range n {
		at := int64(1000 + i*spacing)
		r := Record{Worker: i % workers, Call: at - rapid.Int64Range(1, 2*spacing).Draw(t, "before"),
			Return: at + rapid.Int64Range(1, 2*spacing).Draw(t, "after")}
		switch {
		case !adds && rapid.Bool().Draw(t, "read"):
			r.Kind, r.Value = Read, s.Value
		case rapid.IntRange(0, 9).Draw(t, "stale") == 0 && s.Fence > 0:
			// A worker that was paused comes back with an old token.
			r.Kind, r.Token, r.Rejection = Write, rapid.Int64Range(1, s.Fence).Draw(t, "old token"), "STALE_FENCE"
		default:
			token += rapid.Int64Range(1, 3).Draw(t, "token step")
			r.Kind, r.Token, r.Accepted = Write, token, true
			if adds {
				r.Prev, r.Value = s.Value, s.Value+1
			} else {
				r.Value = rapid.Int64Range(0, 1000).Draw(t, "value")
			}
			s = register{Value: r.Value, Fence: token}
		}
		records = append(records, r)
	}
	// The collector hears them as they return.
	slices.SortStableFunc(records, func(a, b Record) int { return int(a.Return - b.Return) })
	return records
}

func check(records []Record, adds bool, cutEvery int) *checker {
	c := newChecker(6, 0, register{}, adds, false, false)
	c.next = cutEvery
	for _, r := range records {
		c.add(r)
		if len(c.pending) >= cutEvery {
			c.cut(false)
			c.next = len(c.pending) + cutEvery
		}
	}
	c.finish()
	return c
}

// A history a fenced register made is linearizable, whole or cut into
// segments anywhere nothing was in flight.
func TestARegistersHistoryIsLinearizable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		adds := rapid.Bool().Draw(t, "adds")
		records := history(t, adds)
		c := check(records, adds, rapid.IntRange(5, 700).Draw(t, "cut every"))
		require.Zero(t, c.Illegal, "segments %d", c.Segments)
		require.Zero(t, c.Unknown)
		require.Positive(t, c.Segments)
	})
}

// Accept a write whose token is not above one accepted before it, and no
// order of the history is one a fenced register allows: the checker says
// so, and names the write.
func TestAStaleAcceptedWriteIsNotLinearizable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		adds := rapid.Bool().Draw(t, "adds")
		records := history(t, adds)
		var accepted []int
		for i, r := range records {
			if r.Kind == Write && r.Accepted {
				accepted = append(accepted, i)
			}
		}
		if len(accepted) < 2 {
			t.Skip("too few accepted writes")
		}
		// A later accepted write, entirely after an earlier one, takes
		// that one's token: a stale overwrite.
		k := rapid.IntRange(1, len(accepted)-1).Draw(t, "stale write")
		earlier := records[accepted[0]]
		stale := &records[accepted[k]]
		if stale.Call <= earlier.Return {
			t.Skip("the two overlap")
		}
		stale.Token = earlier.Token
		stale.Worker = 5 - earlier.Worker%6 // any worker; the history stays well formed
		c := check(records, adds, rapid.IntRange(5, 700).Draw(t, "cut every"))
		require.Positive(t, c.Illegal)
		require.Contains(t, c.First.String(), "was accepted at")
	})
}

// A worker frozen in the middle of an operation holds the cut back: the
// segment ends before its call, and its operation lands in the next.
func TestAFrozenWorkerHoldsTheCutBack(t *testing.T) {
	c := newChecker(2, 0, register{}, true, false, false)
	c.add(Record{Worker: 0, Kind: Write, Call: 10, Return: 20, Token: 1, Accepted: true, Value: 1})
	c.add(Record{Worker: 0, Kind: Idle, Return: 1000})
	// Worker 1 called at 15 and was frozen; nothing of it is known yet.
	c.cut(false)
	require.Len(t, c.pending, 1, "worker 1's history ends at 0: nothing can be cut")
	c.add(Record{Worker: 1, Kind: Write, Call: 15, Return: 900, Token: 2, Accepted: true, Prev: 1, Value: 2})
	c.add(Record{Worker: 1, Kind: Idle, Return: 1000})
	c.cut(false)
	require.Empty(t, c.pending)
	c.finish()
	require.Equal(t, 1, c.Segments, "the two overlap: one segment")
	require.Zero(t, c.Illegal)
	require.Equal(t, register{Value: 2, Fence: 2}, c.state)
}
