package pgcluster

// ReleaseSlotOnly drops the slot lock but leaves the server running, as a
// fencelab killed with SIGKILL would (minus the kernel's parent-death signal).
func (c *Cluster) ReleaseSlotOnly() { c.releaseSlot() }
