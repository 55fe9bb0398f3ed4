package cli

import (
	"fmt"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// defaultMaxMemory bounds a check's memory unless --max-memory says
// otherwise: the states a search keeps grow with it, and a file of many
// workers would otherwise grow until the machine gives out.
const defaultMaxMemory = 2 << 30

// parseSize reads a size as --max-memory takes it: a number of bytes with
// an optional unit, 512MiB, 2GiB, 1.5G (K, M, G, T in powers of 1024).
func parseSize(s string) (uint64, error) {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.ToUpper(strings.TrimSpace(s)), "B"), "I")
	scale := uint64(1)
	if n := len(t); n > 0 {
		if i := strings.IndexByte("KMGT", t[n-1]); i >= 0 {
			scale, t = 1<<(10*(i+1)), t[:n-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || v <= 0 || v*float64(scale) < 1<<20 || v*float64(scale) > 1<<50 {
		return 0, fmt.Errorf("not a size from 1MiB up (512MiB, 2GiB)")
	}
	return uint64(v * float64(scale)), nil
}

// formatSize is a size as --max-memory takes it.
func formatSize(n uint64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n >= 1<<30:
		return fmt.Sprintf("%.1fGiB", float64(n)/(1<<30))
	default:
		return fmt.Sprintf("%dMiB", n>>20)
	}
}

// memoryBound stops a search whose live heap passed three quarters of the
// limit, or half of it while the process holds nine tenths; both are read
// at most every 50 ms (runtime/metrics, which stops nothing). While a
// check runs the limit also caps the runtime's soft memory limit (searchGC), so
// the collector works harder as it nears it rather than let garbage carry
// the process past it. But a search that keeps less than three quarters
// can still hold the process at the limit, the collector running without
// end and the search slowing to a crawl, never stopped (a 200MiB bound
// held 190 MiB, 140 of them live, for a minute). A process near the limit
// with little live is only the collector's headroom (searchGC), and goes
// on.
type memoryBound struct {
	limit uint64
	mu    sync.Mutex
	read  time.Time
	over  bool
	// live and held read the memory (liveHeap, heldMemory; a test's own).
	live, held func() uint64
}

// readMetric is one of runtime/metrics' uint64 values; 0 if there is none.
func readMetric(name string) uint64 {
	sample := []metrics.Sample{{Name: name}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return sample[0].Value.Uint64()
}

// liveHeap is what the heap held after the last collection: what the
// search keeps, without the garbage made since.
func liveHeap() uint64 { return readMetric("/gc/heap/live:bytes") }

// heldMemory is the memory the Go runtime holds of the system now (what a
// process monitor shows, near enough).
func heldMemory() uint64 {
	return readMetric("/memory/classes/total:bytes") - readMetric("/memory/classes/heap/released:bytes")
}

// exceeded reports whether the limit was passed; once passed, it stays.
func (b *memoryBound) exceeded() bool {
	if b == nil || b.limit == 0 {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.over && time.Since(b.read) >= 50*time.Millisecond {
		b.read = time.Now()
		live, held := liveHeap, heldMemory
		if b.live != nil {
			live, held = b.live, b.held
		}
		l := live()
		b.over = l > b.limit/4*3 || (held() > b.limit/10*9 && l > b.limit/2)
	}
	return b.over
}

// ceiling is the limit, for searchGC; 0 when there is none.
func (b *memoryBound) ceiling() uint64 {
	if b == nil {
		return 0
	}
	return b.limit
}

// hit reports whether the bound stopped a search.
func (b *memoryBound) hit() bool {
	if b == nil {
		return false
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.over
}

// reset starts the bound over, for the next scenario × mode: what the
// search before it kept is garbage now.
func (b *memoryBound) reset() {
	if b == nil {
		return
	}
	b.mu.Lock()
	b.over, b.read = false, time.Time{}
	b.mu.Unlock()
}

// searchGC paces the collector while a search runs, until the returned
// function puts the settings before it back. A search makes garbage at
// every state (dumps decoded, keys read) and keeps its states: at Go's
// default GOGC of 100, collecting took a fifth of check's CPU, so a
// search runs at GOGC 300 — the collector runs a third as often, and
// lets the heap grow to four times what is live. Left at that, a matrix
// held 2.5 GB to keep half a gigabyte, so a soft memory limit caps the
// growth (searchLimit): generous while what is live is small, twice what
// is live once it is larger (GOGC 100's growth), and never above
// ceiling, --max-memory (0: none), which the bound reads too. The limit
// follows what is live every pace.
//
// A GOGC or GOMEMLIMIT the user set is theirs: the collector is then left
// to it, but for the ceiling.
func searchGC(ceiling uint64) (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		if ceiling == 0 {
			return func() {}
		}
		before := debug.SetMemoryLimit(-1)
		debug.SetMemoryLimit(min(before, int64(ceiling)))
		return func() { debug.SetMemoryLimit(before) }
	}
	beforePercent := debug.SetGCPercent(300)
	beforeLimit := debug.SetMemoryLimit(int64(searchLimit(liveHeap(), ceiling)))
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		tick := time.NewTicker(pace)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				debug.SetMemoryLimit(int64(searchLimit(liveHeap(), ceiling)))
			}
		}
	}()
	return func() {
		close(stop)
		<-stopped
		debug.SetMemoryLimit(beforeLimit)
		debug.SetGCPercent(beforePercent)
	}
}

// pace is how often searchGC moves the soft limit after what is live.
const pace = 100 * time.Millisecond

// searchRoom is the soft memory limit of a search that keeps little: it
// keeps a matrix, or check --all, under half a gigabyte. The catalog's
// largest searches keep up to about 200 MB live, where the collector
// runs somewhat more often than GOGC 300 alone would have it.
const searchRoom = 448 << 20

// searchLimit is the soft memory limit of a search that keeps live:
// searchRoom, or twice live once that is more, never above ceiling
// (0: none).
func searchLimit(live, ceiling uint64) uint64 {
	limit := max(searchRoom, 2*live)
	if ceiling > 0 {
		limit = min(limit, ceiling)
	}
	return limit
}
