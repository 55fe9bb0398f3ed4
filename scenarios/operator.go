package scenarios

import (
	"context"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios/world"
)

// The operator changes the environment under the workers: a tenant
// removal, a partition, a deploy, a Redis restart, a namespace bump. Each
// change is a step of its own, so it can land between any two worker steps.

// removeTenant takes the tenant away from this deployment: its membership
// revision moves to revision and it is no longer active.
func removeTenant(revision int64) engine.Step {
	return engine.Step{Name: "remove tenant-a", Touches: stampDB, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		if err := world.LedgerOf(t).RemoveTenant(ctx, TenantID, revision, t.Now()); err != nil {
			return 0, err
		}
		t.Emitf(engine.LayerAPI, "REMOVE_TENANT", "REMOVED", "%s removed: membership revision %d → %d, inactive",
			TenantID, world.SeedIn(t).MembershipRevision, revision)
		t.Narrate("The operator moves %s away while a job for it is under way; the job still carries revision %d.",
			TenantID, world.SeedIn(t).MembershipRevision)
		return engine.Advance, nil
	}}
}

// regionBTokens is the conflict key of region-b's own token source, which a
// partition leaves it with (a worker of region-b acquires from it).
const regionBTokens = ConflictKey + "@region-b"

// partitionRegion cuts region-b off. Region-b keeps its own token source,
// which has reached 99, while region-a epoch 3 stays authoritative.
func partitionRegion() engine.Step {
	return engine.Step{Name: "partition region-b", Touches: leases, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		if err := world.Leases(t).Bootstrap(ctx, regionBTokens, world.SeedIn(t).NamespaceEpoch, 99); err != nil {
			return 0, err
		}
		t.Emitf(engine.LayerCoordination, "PARTITION", "PARTITIONED",
			"region-b is cut off with a token source of its own at 99; region-a epoch 3 stays authoritative")
		t.Narrate("A partition: region-b goes on alone and hands out its own, bigger tokens — a big token from the wrong region is still wrong.")
		return engine.Advance, nil
	}}
}

// rollout deploys a new checkpoint schema and raises the minimum writer.
func rollout(minimumWriter, checkpointSchema int) engine.Step {
	return engine.Step{Name: "deploy (rollout)", Touches: database, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		if err := world.LedgerOf(t).Rollout(ctx, minimumWriter, checkpointSchema); err != nil {
			return 0, err
		}
		t.Emitf(engine.LayerDatabase, "ROLLOUT", "DEPLOYED", "rollout marker: checkpoint schema %d → %d, minimum writer version %d → %d",
			world.SeedIn(t).CheckpointSchemaVersion, checkpointSchema, world.SeedIn(t).MinimumWriterVersion, minimumWriter)
		t.Narrate("The deploy changes the checkpoint format; a writer still running the old version does not know.")
		return engine.Advance, nil
	}}
}

// restartRedis loses Redis's data as a restart without persistence does.
func restartRedis() engine.Step {
	return engine.Step{Name: "restart Redis (no persistence)", Touches: redisWhole, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		restarted, err := t.RestartRedis(ctx)
		if err != nil {
			return 0, err
		}
		if restarted {
			t.Emitf(engine.LayerCoordination, "REDIS_RESTART", "RESTARTED",
				"the embedded Redis restarted without persistence: counter, epoch and lease are gone")
		} else {
			t.Emitf(engine.LayerCoordination, "REDIS_RESTART", "WIPED",
				"the lab's keys were deleted, standing in for a restart: fencelab does not restart a Redis it does not own")
		}
		t.Narrate("Redis comes back empty: the counter that made every token bigger than the last is gone.")
		return engine.Advance, nil
	}}
}

// bumpNamespaceRedis starts namespace epoch `to` in Redis: a new token space
// whose counter starts at 0.
func bumpNamespaceRedis(to int64) engine.Step {
	return engine.Step{Name: "bump namespace epoch in Redis", Touches: leases, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		if err := world.Leases(t).Bootstrap(ctx, ConflictKey, to, 0); err != nil {
			return 0, err
		}
		t.Emitf(engine.LayerCoordination, "EPOCH_REDIS", "BUMPED", "Redis: namespace epoch → %d, counter starts at 0", to)
		t.Narrate("Rather than guess the lost counter, the operator opens namespace epoch %d: tokens start over, and (epoch, token) is what is compared.", to)
		return engine.Advance, nil
	}}
}

// bumpNamespaceDatabase starts namespace epoch `to` in PostgreSQL.
func bumpNamespaceDatabase(to int64) engine.Step {
	return engine.Step{Name: "bump namespace epoch in PostgreSQL", Touches: stampDB, Run: func(ctx context.Context, t *engine.Turn) (engine.StepOutcome, error) {
		if err := world.LedgerOf(t).BumpNamespace(ctx, ConflictKey, to, t.Now()); err != nil {
			return 0, err
		}
		t.Emitf(engine.LayerDatabase, "EPOCH_DATABASE", "BUMPED",
			"PostgreSQL: rollout marker and resource → namespace epoch %d, fence restarts at none", to)
		t.Narrate("PostgreSQL follows: from now on a write must carry epoch %d, whatever its token.", to)
		return engine.Advance, nil
	}}
}
