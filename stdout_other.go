//go:build !unix

package main

// stdoutWasClosed cannot be told here; writes to a closed stdout fail on
// their own.
func stdoutWasClosed() bool { return false }
