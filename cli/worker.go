package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/charmbracelet/x/term"

	"github.com/fencelab/fencelab/scenarios/world"
	"github.com/fencelab/fencelab/store/pgcluster"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/stress"
)

// runWorker is the hidden worker command: one worker process of
// `fencelab stress --procs`, which starts it, tells it on its standard
// input what to do and where, and reads its records from its standard
// output.
func runWorker(ctx context.Context, stdin io.Reader, stdout io.Writer) error {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(f.Fd()) {
		return usageError("worker is a process of fencelab stress --procs, which starts it; run fencelab stress --procs")
	}
	err := stress.ServeWorker(ctx, stdin, stdout, connectWorker)
	if errors.Is(err, stress.ErrNotAWorker) {
		return usageError("worker is a process of fencelab stress --procs, which starts it; run fencelab stress --procs")
	}
	return err
}

// connectWorker opens a worker process's own connections to its run's
// backends.
func connectWorker(ctx context.Context, spec stress.WorkerSpec) (*stress.Worker, func(), error) {
	var join workerJoin
	if err := json.Unmarshal(spec.Join, &join); err != nil || join.PG == "" || join.Redis.URL == "" {
		return nil, nil, fmt.Errorf("%w: its spec says nowhere to connect", stress.ErrNotAWorker)
	}
	owner := stress.Owner(spec.Worker.ID)
	redis, err := redisstore.Join(ctx, join.Redis)
	if err != nil {
		return nil, nil, err
	}
	opts := pgledger.Options{Joining: true}
	if join.ServerUID != nil {
		opts.Dial = pgcluster.DialServedBy(*join.ServerUID)
	}
	database, err := pgledger.Open(ctx, join.PG, opts)
	if err != nil {
		redis.Close()
		return nil, nil, err
	}
	ledger, err := database.Connect(ctx, owner)
	if err != nil {
		redis.Close()
		return nil, nil, err
	}
	closeAll := func() {
		ledger.Close(context.WithoutCancel(ctx))
		redis.Close()
	}
	return &stress.Worker{Config: spec.Worker, Leases: redis.Client(owner).(world.RedisClient), Ledger: ledger.(world.Ledger), Gone: isUnreachable, RedisGone: redisstore.Unreachable}, closeAll, nil
}
