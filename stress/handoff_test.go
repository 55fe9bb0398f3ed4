package stress

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A release is passed only to a worker waiting for the lease at that
// moment, and wakes it long before its own next try is due.
func TestHandoffWakesAWaitingWorkerOnly(t *testing.T) {
	h := NewHandoff()
	require.False(t, h.pass(), "nobody waits: the lease is not passed")

	woke := make(chan time.Duration)
	go func() {
		began := time.Now()
		(&backoff{first: time.Minute, next: time.Minute, most: time.Minute}).wait(context.Background(), h.released(), nil)
		woke <- time.Since(began)
	}()
	require.Eventually(t, h.pass, 5*time.Second, time.Millisecond, "a waiting worker takes the release")
	select {
	case d := <-woke:
		require.Less(t, d, 10*time.Second)
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting worker was not woken by the release")
	}
	require.False(t, h.pass(), "the worker woken waits no more")

	var none *Handoff // a worker process's: it polls
	require.False(t, none.pass())
	require.Nil(t, none.released())
}

// A worker waiting for the lease stops waiting when the run halts: with
// waits of up to a lease TTL, a run would otherwise end that much after
// its time, and count that time in its rate.
func TestAWaitingWorkerStopsWaitingWhenTheRunHalts(t *testing.T) {
	halt := make(chan struct{})
	done := make(chan struct{})
	go func() {
		(&backoff{first: time.Minute, next: time.Minute, most: time.Minute}).wait(context.Background(), NewHandoff().released(), halt)
		close(done)
	}()
	close(halt)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting worker went on waiting after the run halted")
	}
}
