package engine

import "time"

// HostClock is the one way fencelab's labs, stores and checker read the
// host's clock: to time how long something took (a check's elapsed time,
// how long a call to a real Redis ran), never as a date. What a lab does
// and finds follows the lab clock alone (Lab.Now), so a machine whose
// date is far from the seed's gets the same results; a test sets this far
// in the past and far in the future to show it, and another refuses
// time.Now in the lab's code.
var HostClock = time.Now

// HostSince is the time elapsed since t on the host's clock.
func HostSince(t time.Time) time.Duration { return HostClock().Sub(t) }
