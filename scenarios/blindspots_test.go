package scenarios_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
)

// The proof's blind spots (issue 41): each test puts a realistic bug in
// by hand — a wrapper around fencelab's own store, as roundtrip_test.go
// does — and the check of a scenario that holds on the clean code must
// now break.

// renewInSeconds renews the lease with its TTL's milliseconds given as
// seconds: EXPIRE where PEXPIRE was meant, a lease a thousand times too
// long.
type renewInSeconds struct{ engine.RedisClient }

func (c renewInSeconds) RenewLease(ctx context.Context, conflictKey, owner string, token int64, ttl time.Duration, namespaceEpoch int64, without engine.GuardSet) (engine.LeaseStatus, error) {
	return c.RedisClient.RenewLease(ctx, conflictKey, owner, token, time.Duration(ttl.Milliseconds())*time.Second, namespaceEpoch, without)
}

type renewInSecondsRedis struct{ engine.Coordination }

func (c renewInSecondsRedis) Client(actor string) engine.RedisClient {
	return renewInSeconds{c.Coordination.Client(actor)}
}

func TestALeaseRenewedForTooLongIsCaught(t *testing.T) {
	if r := checkWith(t, "stale-release", nil); !r.Holds() {
		t.Fatalf("stale-release SAFE does not hold on fencelab's own store: %+v", r.Anomalies)
	}
	r := checkWith(t, "stale-release", func(b *engine.Backends) { b.Coordination = renewInSecondsRedis{b.Coordination} })
	requireBreak(t, r, "LEASE_TOO_LONG", " 30000000 ") // the renew script sent with 30,000 s
}

// The clock may move between any two round trips of a call, not only
// between calls: inside a transaction begun after a lock was taken, the
// lock's expiry is a move the check takes.
func TestAnExpiryMayComeBetweenTwoRoundTripsOfACall(t *testing.T) {
	ctx := context.Background()
	s, err := scenarios.Parse("mine.toml", []byte(`format = "fencelab-scenario/1"
id = "expiry-inside"
title = "t"
story = "s"
expected = { value = 1, sql = "SELECT count(*) FROM done" }
guided = ["A", "A"]

[setup]
sql = ["CREATE TABLE done (actor text NOT NULL)"]

[[step]]
name = "lock"
redis = ["SET", "lock", "$actor", "NX", "PX", "$ttl_ms"]

[[step]]
name = "work"
sql = ["BEGIN", "INSERT INTO done VALUES ($actor)", "COMMIT"]

[[actor]]
name = "A"
program = ["lock", "work"]
`))
	require.NoError(t, err)
	lab := checkLabs(t, s, engine.Safe, 1)[0]
	require.NoError(t, lab.Do(ctx, engine.Do("A")))     // the lock, with its TTL
	require.NoError(t, lab.Do(ctx, engine.DoCall("A"))) // BEGIN: inside the call
	_, in := lab.Actors()[0].InCall()
	require.True(t, in)
	moves, err := lab.Moves(ctx)
	require.NoError(t, err)
	require.Contains(t, moves, engine.AdvanceToNextExpiry())
	require.NoError(t, lab.Do(ctx, engine.AdvanceToNextExpiry()))
	require.NoError(t, lab.Do(ctx, engine.Do("A")))
}
