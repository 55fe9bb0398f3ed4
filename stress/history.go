package stress

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/anishathalye/porcupine"

	"github.com/fencelab/fencelab/lang"
)

// The history the workers record is checked against a fenced register:
// the resource's summary and the biggest token it accepted. A read returns
// the summary. A write with a token above the register's is accepted, and
// sets the summary — to what it found plus one, for SAFE's write that adds
// under the row lock; to its value, for UNSAFE's — and the token; a write
// with a token at or below it is refused and changes nothing. A history is
// linearizable when some order of its operations, each at a moment between
// its call and its return, is one the register allows.

// register is the fenced register's state.
type register struct{ Value, Fence int64 }

type opKind uint8

const (
	// opStart sets the state a segment of the history starts from.
	opStart opKind = iota
	opRead
	opWrite
)

// input is what an operation asked.
type input struct {
	Kind    opKind
	Worker  int
	Token   int64
	Adds    bool  // the write adds one to what it finds under the lock
	Value   int64 // a blind write's value; opStart's state
	Fence   int64 // opStart's state
	Segment int   // the segment of the history it belongs to
}

// output is what it was answered.
type output struct {
	Value     int64 // a read's summary; the value a write set
	Prev      int64 // what an adding write found under the lock
	Accepted  bool
	Rejection string
}

// fencedRegister is the model Porcupine checks histories against. Its
// partitions are the segments of a history, each starting with an opStart.
var fencedRegister = porcupine.Model{
	Partition: func(history []porcupine.Operation) [][]porcupine.Operation {
		var parts [][]porcupine.Operation
		index := map[int]int{}
		for _, op := range history {
			seg := op.Input.(input).Segment
			i, ok := index[seg]
			if !ok {
				i = len(parts)
				index[seg] = i
				parts = append(parts, nil)
			}
			parts[i] = append(parts[i], op)
		}
		return parts
	},
	Init: func() any { return register{} },
	Step: func(state, in, out any) (bool, any) {
		s, i, o := state.(register), in.(input), out.(output)
		switch i.Kind {
		case opStart:
			return true, register{Value: i.Value, Fence: i.Fence}
		case opRead:
			return o.Value == s.Value, s
		}
		if !o.Accepted {
			return i.Token <= s.Fence, s
		}
		if i.Token <= s.Fence || i.Adds && (o.Prev != s.Value || o.Value != s.Value+1) {
			return false, s
		}
		return true, register{Value: o.Value, Fence: i.Token}
	},
	DescribeOperation: func(in, out any) string {
		i, o := in.(input), out.(output)
		switch {
		case i.Kind == opStart:
			return fmt.Sprintf("segment %d starts: summary %d, fence %d", i.Segment, i.Value, i.Fence)
		case i.Kind == opRead:
			return fmt.Sprintf("%s reads → %d", Owner(i.Worker), o.Value)
		case !o.Accepted:
			return fmt.Sprintf("%s writes with token %d → refused %s", Owner(i.Worker), i.Token, o.Rejection)
		case i.Adds:
			return fmt.Sprintf("%s writes with token %d: %d + 1 → %d", Owner(i.Worker), i.Token, o.Prev, o.Value)
		}
		return fmt.Sprintf("%s writes %d with token %d → accepted", Owner(i.Worker), o.Value, i.Token)
	},
	DescribeState: func(state any) string {
		s := state.(register)
		return fmt.Sprintf("summary %d · fence %d", s.Value, s.Fence)
	},
}

// partialRegister is the model of a run's own history of a resource that
// other runs share (stress --shared): their writes are not in it, so a
// read or an accepted write may find any value, and a write may be
// refused after any write this run saw. What it can still tell: a write
// accepted with a token not above one this run saw accepted — a stale
// write, whoever made the other.
var partialRegister = porcupine.Model{
	Partition: fencedRegister.Partition,
	Init:      fencedRegister.Init,
	Step: func(state, in, out any) (bool, any) {
		s, i, o := state.(register), in.(input), out.(output)
		switch {
		case i.Kind == opStart:
			return true, register{Value: i.Value, Fence: i.Fence}
		case i.Kind == opRead:
			return true, register{Value: o.Value, Fence: s.Fence}
		case !o.Accepted:
			return true, s
		case i.Token <= s.Fence:
			return false, s
		}
		return true, register{Value: o.Value, Fence: i.Token}
	},
	DescribeOperation: fencedRegister.DescribeOperation,
	DescribeState:     fencedRegister.DescribeState,
}

// segmentTimeout bounds Porcupine's search of one segment; a segment it
// cannot decide in time counts as unknown.
const segmentTimeout = 10 * time.Second

// keepOps bounds the operations a history kept for its visualization
// holds: a long run keeps its first illegal segment and its latest ones.
const keepOps = 4_000

// checker takes the records as they come and checks the history in
// segments: a segment ends at a moment when no operation was in flight,
// so its end state is the next one's start, and what was checked is let
// go — memory stays flat however long the run. A worker's records come in
// the order it made them; mark is, per worker, how far its history is
// complete. The segments are checked on a goroutine of their own, in
// order, so a long search never holds up the records; the fields below
// pending are that goroutine's until finish.
type checker struct {
	start   int64 // the run's start on the monotonic clock
	adds    bool  // writes add one under the row lock (SAFE), or write blind
	model   porcupine.Model
	mark    []int64
	pending []porcupine.Operation
	next    int // cut again once pending holds this many
	work    chan []porcupine.Operation
	checked sync.WaitGroup

	state register

	Segments, Illegal, Unknown int
	Reads, Writes              int
	// First describes the first illegal segment's violation.
	First lang.Phrase

	keep        bool
	kept        [][]porcupine.Operation
	keptOps     int
	keptIllegal int // the kept segment that is the first illegal one, -1: none
	pauses      []porcupine.Annotation
}

func newChecker(workers int, start int64, initial register, adds, shared, keep bool) *checker {
	c := &checker{start: start, adds: adds, model: fencedRegister, mark: make([]int64, workers), state: initial, keep: keep, keptIllegal: -1}
	if shared {
		c.model = partialRegister
	}
	c.next = cutEvery
	c.work = make(chan []porcupine.Operation, 4)
	c.checked.Go(func() {
		for segment := range c.work {
			c.checkSegment(segment)
		}
	})
	for i := range c.mark {
		c.mark[i] = start
	}
	return c
}

// add takes a record.
func (c *checker) add(r Record) {
	if r.Worker < 0 || r.Worker >= len(c.mark) {
		return
	}
	c.mark[r.Worker] = max(c.mark[r.Worker], r.Return)
	switch r.Kind {
	case Read:
		c.Reads++
		c.pending = append(c.pending, porcupine.Operation{ClientId: r.Worker, Call: r.Call, Return: r.Return,
			Input: input{Kind: opRead, Worker: r.Worker}, Output: output{Value: r.Value}})
	case Write:
		c.Writes++
		c.pending = append(c.pending, porcupine.Operation{ClientId: r.Worker, Call: r.Call, Return: r.Return,
			Input:  input{Kind: opWrite, Worker: r.Worker, Token: r.Token, Adds: c.adds, Value: r.Value},
			Output: output{Value: r.Value, Prev: r.Prev, Accepted: r.Accepted, Rejection: r.Rejection}})
	case Paused:
		if c.keep {
			c.pauses = append(c.pauses, porcupine.Annotation{ClientId: r.Worker, Start: r.Call, End: r.Return,
				Description: "paused", Details: fmt.Sprintf("%s frozen for %s", Owner(r.Worker), time.Duration(r.Return-r.Call).Round(time.Millisecond)),
				BackgroundColor: "#f6d8a8"})
		}
	}
	if len(c.pending) >= c.next {
		c.cut(false)
		// A worker frozen mid-operation holds the cut back: try again once
		// as many more have come, not at every one.
		c.next = len(c.pending) + cutEvery
	}
}

// cutEvery is how many operations the checker lets wait before it cuts a
// segment off.
const cutEvery = 2000

// finish checks what is left and waits for every segment's verdict.
func (c *checker) finish() {
	c.cut(true)
	c.abandon()
}

// abandon waits for the segments sent so far, and checks no more.
func (c *checker) abandon() {
	close(c.work)
	c.checked.Wait()
}

// cut sends the history up to the latest moment nothing was in flight to
// be checked; all: the run is over, all of it.
func (c *checker) cut(all bool) {
	cut := int64(math.MaxInt64)
	if !all {
		cut = slices.Min(c.mark)
		for moved := true; moved; {
			moved = false
			for _, op := range c.pending {
				if op.Call < cut && op.Return >= cut {
					cut, moved = op.Call, true
				}
			}
		}
	}
	var segment, rest []porcupine.Operation
	for _, op := range c.pending {
		if op.Return < cut {
			segment = append(segment, op)
		} else {
			rest = append(rest, op)
		}
	}
	c.pending = rest
	if len(segment) > 0 {
		c.work <- segment
	}
}

// checkSegment checks one segment from the state the one before left.
func (c *checker) checkSegment(ops []porcupine.Operation) {
	n := c.Segments
	c.Segments++
	first := ops[0].Call
	for i := range ops {
		first = min(first, ops[i].Call)
		in := ops[i].Input.(input)
		in.Segment = n
		ops[i].Input = in
	}
	startOp := porcupine.Operation{ClientId: 0, Call: first - 2, Return: first - 1,
		Input: input{Kind: opStart, Value: c.state.Value, Fence: c.state.Fence, Segment: n}, Output: output{}}
	history := append([]porcupine.Operation{startOp}, ops...)

	result := porcupine.CheckOperationsTimeout(c.model, history, segmentTimeout)
	switch result {
	case porcupine.Illegal:
		c.Illegal++
		if c.First.Format == "" {
			c.First = c.explain(ops)
		}
	case porcupine.Unknown:
		c.Unknown++
	}
	c.keepSegment(history, result == porcupine.Illegal)
	c.state = endState(c.state, ops, result == porcupine.Ok)
}

// endState is the register after a segment: in a linearizable one, the
// accepted write with the biggest token came last; in another, the one
// that returned last is the best guess.
func endState(s register, ops []porcupine.Operation, legal bool) register {
	var last *porcupine.Operation
	for i := range ops {
		op := &ops[i]
		in, out := op.Input.(input), op.Output.(output)
		if in.Kind != opWrite || !out.Accepted {
			continue
		}
		if last == nil || legal && in.Token > last.Input.(input).Token || !legal && op.Return > last.Return {
			last = op
		}
	}
	if last == nil {
		return s
	}
	return register{Value: last.Output.(output).Value, Fence: last.Input.(input).Token}
}

// explain says what in an illegal segment no fenced register allows: the
// first write accepted with a token not above one accepted before it, or
// else that the reads and writes have no order it allows.
func (c *checker) explain(ops []porcupine.Operation) lang.Phrase {
	writes := slices.Clone(ops)
	slices.SortFunc(writes, func(a, b porcupine.Operation) int { return int(a.Return - b.Return) })
	fence, holder, at := c.state.Fence, -1, int64(0)
	for _, op := range writes {
		in, out := op.Input.(input), op.Output.(output)
		if in.Kind != opWrite || !out.Accepted {
			continue
		}
		if in.Token <= fence {
			if holder < 0 {
				return lang.P("%s's write with token %d was accepted at %s, though token %d had been accepted before this stretch",
					Owner(in.Worker), in.Token, c.since(op.Return), fence)
			}
			return lang.P("%s's write with token %d was accepted at %s, after %s's token %d had been accepted at %s",
				Owner(in.Worker), in.Token, c.since(op.Return), Owner(holder), fence, c.since(at))
		}
		fence, holder, at = in.Token, in.Worker, op.Return
	}
	return lang.P("the %d reads and writes between %s and %s have no order a fenced register allows",
		len(ops), c.since(ops[0].Call), c.since(writes[len(writes)-1].Return))
}

// since is a moment of the run, from its start: "2.315s".
func (c *checker) since(t int64) string {
	return fmt.Sprintf("%.3fs", time.Duration(t-c.start).Seconds())
}

// keepSegment keeps a checked segment for the visualization, within
// keepOps: the first illegal segment stays, the oldest others go first.
func (c *checker) keepSegment(history []porcupine.Operation, illegal bool) {
	if !c.keep {
		return
	}
	c.kept = append(c.kept, history)
	c.keptOps += len(history)
	if illegal && c.keptIllegal < 0 {
		c.keptIllegal = len(c.kept) - 1
	}
	for c.keptOps > keepOps && len(c.kept) > 1 {
		drop := 0
		if c.keptIllegal == 0 {
			drop = 1
		}
		if drop >= len(c.kept)-1 {
			break // the first illegal segment and the latest one stay
		}
		c.keptOps -= len(c.kept[drop])
		c.kept = slices.Delete(c.kept, drop, drop+1)
		if c.keptIllegal > drop {
			c.keptIllegal--
		}
	}
}

// visualize writes Porcupine's page of the segments kept, with the pauses
// marked on the workers that froze.
func (c *checker) visualize(w io.Writer) (shown int, err error) {
	var history []porcupine.Operation
	first, last := int64(math.MaxInt64), int64(0)
	for _, seg := range c.kept {
		history = append(history, seg...)
		for _, op := range seg {
			first, last = min(first, op.Call), max(last, op.Return)
		}
	}
	_, info := porcupine.CheckOperationsVerbose(c.model, history, 0)
	var pauses []porcupine.Annotation
	for _, p := range c.pauses {
		if p.End >= first && p.Start <= last {
			pauses = append(pauses, p)
		}
	}
	info.AddAnnotations(pauses)
	return len(c.kept), porcupine.Visualize(c.model, info, w)
}
