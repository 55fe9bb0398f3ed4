package stress

import (
	"math"
	"time"
)

// latencies counts durations in buckets 2% wide, from a microsecond to a
// minute: percentiles within 2%, in a fixed few kilobytes however many
// commits a run makes.
type latencies struct {
	counts [bucketCount]uint64
	n      uint64
}

const (
	bucketGrowth = 1.02
	bucketCount  = 900 // 1µs × 1.02^900 ≈ 55 s
)

func bucketOf(d time.Duration) int {
	us := float64(d) / float64(time.Microsecond)
	if us <= 1 {
		return 0
	}
	return min(bucketCount-1, int(math.Log(us)/math.Log(bucketGrowth)))
}

func (l *latencies) add(d time.Duration) {
	l.counts[bucketOf(d)]++
	l.n++
}

// percentile is the duration below which a fraction p of those counted
// fall (the bucket's upper bound); zero when none were counted.
func (l *latencies) percentile(p float64) time.Duration {
	if l.n == 0 {
		return 0
	}
	rank := uint64(math.Ceil(p * float64(l.n)))
	var seen uint64
	for i, c := range l.counts {
		seen += c
		if seen >= rank {
			return time.Duration(math.Pow(bucketGrowth, float64(i+1)) * float64(time.Microsecond))
		}
	}
	return time.Minute
}
