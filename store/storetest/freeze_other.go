//go:build !linux

package storetest

import "testing"

// Freeze needs pidfds (Linux) to signal only the server's own processes.
func Freeze(t testing.TB, postmaster int) (thaw func()) {
	t.Skip("storetest: freezing a server needs Linux")
	return func() {}
}
