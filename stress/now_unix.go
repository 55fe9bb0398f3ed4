//go:build unix

package stress

import (
	"time"

	"golang.org/x/sys/unix"
)

// Now is the system's monotonic clock in nanoseconds: the same clock in
// every process of the machine (CLOCK_MONOTONIC), so the records of worker
// processes order with each other and with the parent's.
func Now() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return time.Now().UnixNano()
	}
	return ts.Nano()
}
