package engine

import (
	"context"
	"testing"
	"time"
)

// A call given up while its goroutine runs its own code between two round
// trips (the first trip's reply handed back, the second not yet asked)
// ends: abandon waits for the goroutine's next park and turns it away. It
// once took the call for one waiting for the baton and sent it a resume
// nobody took, while the goroutine waited to say it had parked — a
// check --all whose Redis froze stopped there for good.
func TestACallGivenUpBetweenTwoRoundTripsEnds(t *testing.T) {
	g := &gate{events: make(chan wireEvent), resume: make(chan bool)}
	a := &Actor{Name: "A", live: &liveCall{g: g, state: wireRunning}}
	l := &Lab{}
	release := make(chan struct{})
	go func() { // the call: a GET, its own code until released, a SET
		defer func() {
			g.inTrip = false
			g.events <- wireEvent{kind: wireExited}
		}()
		back, err := g.send(RoundTrip{Backend: BackendRedis, Text: "GET x"})
		if err != nil {
			return
		}
		back("nil")
		<-release
		g.send(RoundTrip{Backend: BackendRedis, Text: "SET x 1"})
	}()
	ctx, cancel := context.WithCancel(context.Background())
	if ev, err := l.await(ctx, a, false); err != nil || ev.kind != wireParked {
		t.Fatalf("the call did not park at its GET: %v %v", ev.kind, err)
	}
	a.live.state = wireInFlight
	g.resume <- true // the GET goes out
	time.AfterFunc(20*time.Millisecond, cancel)
	time.AfterFunc(100*time.Millisecond, func() { close(release) })
	done := make(chan error, 1)
	go func() { _, _, err := l.afterSend(ctx, a); done <- err }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("a cancelled call was not given up")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("giving up a call between two round trips never ended")
	}
	if a.live != nil {
		t.Fatal("the call given up is still the actor's")
	}
}
