//go:build !unix

package stress

import "time"

var began = time.Now()

// Now is this process's monotonic clock in nanoseconds (no worker
// processes here to share it with).
func Now() int64 { return int64(time.Since(began)) }
