package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
)

var _ world.LeaseStore = (*Leases)(nil)

// Leases is one actor's client for the lease scripts. It depends on
// redis.Scripter only, so a test can wrap it to inject faults.
type Leases struct {
	rdb  redis.Scripter
	keys keyspace
	// clock, on a real server a lab keeps on the lab clock, learns the lab
	// TTLs each call leaves (labclock.go); nil otherwise.
	clock *labClock
}

func (l *Leases) Bootstrap(ctx context.Context, conflictKey string, namespaceEpoch, counterStart int64) error {
	k := l.keys.conflict(conflictKey)
	err := l.clock.around(ctx, []string{k.counter, k.epoch}, nil, func() error {
		return bootstrapScript.Run(ctx, l.rdb, []string{k.counter, k.epoch}, namespaceEpoch, counterStart).Err()
	})
	if err != nil {
		return fmt.Errorf("redisstore: bootstrap %s: %w", conflictKey, err)
	}
	return nil
}

func (l *Leases) AcquireLease(ctx context.Context, conflictKey, owner string, ttl time.Duration, namespaceEpoch int64, without engine.GuardSet) (world.LeaseGrant, error) {
	k := l.keys.conflict(conflictKey)
	var reply []any
	err := l.clock.around(ctx, []string{k.lease, k.counter, k.epoch}, []time.Duration{ttl}, func() (err error) {
		reply, err = acquireScript.Run(ctx, l.rdb, []string{k.lease, k.counter, k.epoch},
			owner, ttl.Milliseconds(), namespaceEpoch, removed(without, world.GuardHistory, world.GuardNamespace)).Slice()
		return err
	})
	if err != nil {
		return world.LeaseGrant{}, fmt.Errorf("redisstore: acquire %s: %w", conflictKey, scriptError(err))
	}
	return parseGrant(reply)
}

func (l *Leases) AcquireLeaseNaive(ctx context.Context, conflictKey, owner string, ttl time.Duration) (world.LeaseGrant, error) {
	k := l.keys.conflict(conflictKey)
	var reply []any
	err := l.clock.around(ctx, []string{k.lease, k.counter}, []time.Duration{ttl}, func() (err error) {
		reply, err = acquireNaiveScript.Run(ctx, l.rdb, []string{k.lease, k.counter}, owner, ttl.Milliseconds()).Slice()
		return err
	})
	if err != nil {
		return world.LeaseGrant{}, fmt.Errorf("redisstore: naive acquire %s: %w", conflictKey, err)
	}
	return parseGrant(reply)
}

func (l *Leases) RenewLease(ctx context.Context, conflictKey, owner string, token int64, ttl time.Duration, namespaceEpoch int64, without engine.GuardSet) (world.LeaseStatus, error) {
	k := l.keys.conflict(conflictKey)
	var n int
	err := l.clock.around(ctx, []string{k.lease, k.epoch}, []time.Duration{ttl}, func() (err error) {
		n, err = renewScript.Run(ctx, l.rdb, []string{k.lease, k.epoch}, owner, token, ttl.Milliseconds(), namespaceEpoch,
			removed(without, world.GuardOwner, world.GuardNamespace)).Int()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("redisstore: renew %s: %w", conflictKey, err)
	}
	return world.LeaseStatus(n), nil
}

func (l *Leases) ReleaseLease(ctx context.Context, conflictKey, owner string, token, namespaceEpoch int64, without engine.GuardSet) (world.LeaseStatus, error) {
	k := l.keys.conflict(conflictKey)
	var n int
	err := l.clock.around(ctx, []string{k.lease, k.epoch}, nil, func() (err error) {
		n, err = releaseScript.Run(ctx, l.rdb, []string{k.lease, k.epoch}, owner, token, namespaceEpoch,
			removed(without, world.GuardOwner, world.GuardNamespace)).Int()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("redisstore: release %s: %w", conflictKey, err)
	}
	return world.LeaseStatus(n), nil
}

func (l *Leases) AcquireLeader(ctx context.Context, job, owner string, ttl time.Duration) (world.LeaseGrant, error) {
	var reply []any
	key := l.keys.leader(job)
	err := l.clock.around(ctx, []string{key}, []time.Duration{ttl}, func() (err error) {
		reply, err = leaderAcquireScript.Run(ctx, l.rdb, []string{key}, owner, ttl.Milliseconds()).Slice()
		return err
	})
	if err != nil {
		return world.LeaseGrant{}, fmt.Errorf("redisstore: leader %s: %w", job, err)
	}
	return parseGrant(reply)
}

func (l *Leases) ReleaseLeader(ctx context.Context, job, owner string) (world.LeaseStatus, error) {
	var n int
	key := l.keys.leader(job)
	err := l.clock.around(ctx, []string{key}, nil, func() (err error) {
		n, err = leaderReleaseScript.Run(ctx, l.rdb, []string{key}, owner).Int()
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("redisstore: release leader %s: %w", job, err)
	}
	return world.LeaseStatus(n), nil
}

// removed is the argument a script takes for the guards removed among the
// ones it checks: their names, space-separated ("" for none).
func removed(without engine.GuardSet, checks ...engine.Guard) string {
	var names []string
	for _, g := range checks {
		if without.Has(g) {
			names = append(names, g.String())
		}
	}
	return strings.Join(names, " ")
}

// parseGrant reads {'ACQUIRED'|'EXTENDED', token?} or {'CONTENDED', owner, token?}.
func parseGrant(reply []any) (world.LeaseGrant, error) {
	if len(reply) == 0 {
		return world.LeaseGrant{}, errors.New("redisstore: empty script reply")
	}
	outcome, _ := reply[0].(string)
	grant := world.LeaseGrant{Outcome: world.LeaseOutcome(outcome)}
	switch grant.Outcome {
	case world.LeaseAcquired, world.LeaseExtended:
		if len(reply) > 1 {
			grant.Token, _ = reply[1].(int64)
		}
	case world.LeaseContended:
		if len(reply) > 1 {
			grant.Holder, _ = reply[1].(string)
		}
		if len(reply) > 2 {
			grant.HolderToken, _ = reply[2].(int64)
		}
	default:
		return world.LeaseGrant{}, fmt.Errorf("redisstore: unexpected script reply %v", reply)
	}
	return grant, nil
}

// scriptError maps the acquire script's error replies to the engine's
// sentinels, keeping the script's words.
func scriptError(err error) error {
	msg := strings.TrimPrefix(err.Error(), "ERR ")
	if current, ok := strings.CutPrefix(msg, "FENCE_EPOCH "); ok {
		epoch, perr := strconv.ParseInt(strings.TrimSpace(current), 10, 64)
		if perr == nil {
			return &world.EpochMismatchError{Current: epoch}
		}
		return fmt.Errorf("%w: %s", world.ErrEpochMismatch, current)
	}
	for prefix, sentinel := range map[string]error{
		"FENCE_HISTORY_LOST ": world.ErrHistoryLost,
		"FENCE_CORRUPT ":      world.ErrLeaseCorrupt,
	} {
		if strings.HasPrefix(msg, prefix) {
			return fmt.Errorf("%w: %s", sentinel, strings.TrimPrefix(msg, prefix))
		}
	}
	return err
}
