package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/pgcluster"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/provider"
	"github.com/fencelab/fencelab/store/redisstore"
)

// Exit codes of DESIGN §9.
const (
	exitOK          = 0
	exitUnexpected  = 1
	exitUsage       = 2
	exitUnreachable = 3
)

// exitError is an error with the exit code it should end fencelab with.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageError(format string, args ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, args...)}
}

func unreachable(err error) error { return &exitError{code: exitUnreachable, err: err} }

// config is the global flags.
type config struct {
	redisURL    string
	pgDSN       string
	allowUnsafe bool
	leaseTTL    time.Duration
	verbose     bool
}

// Default lease TTLs: on the embedded Redis time only moves when the lab
// clock does, so a long TTL costs nothing; a real server's TTLs run on the
// wall clock, and a headless run waits each one out.
const (
	embeddedLeaseTTL = 30 * time.Second
	realLeaseTTL     = 1500 * time.Millisecond
)

// backends is what a command runs on, with whatever must be stopped.
type backends struct {
	engine.Backends
	cluster *pgcluster.Cluster
	// ephemeral: the database is fencelab's own throw-away cluster.
	ephemeral bool
}

// checkConfig validates the flags before anything is started.
func (c config) check() error {
	if c.leaseTTL < 0 {
		return usageError("--lease-ttl must be positive, got %s", c.leaseTTL)
	}
	if c.leaseTTL > 0 && c.leaseTTL < 10*time.Millisecond {
		return usageError("--lease-ttl %s is shorter than a Redis round trip; use at least 10ms", c.leaseTTL)
	}
	if c.redisURL != "" {
		if err := redisstore.ValidateURL(c.redisURL); err != nil {
			return usageError("--redis %q: %s (want redis://HOST:PORT/DB)", c.redisURL, firstLine(err))
		}
	}
	if c.pgDSN != "" {
		if _, err := pgledger.ParseConfig(c.pgDSN); err != nil {
			return usageError("--pg: malformed DSN: %s", firstLine(err))
		}
	}
	return nil
}

// startBackends brings up Redis and PostgreSQL as the flags say. On error,
// whatever was started is stopped again.
func startBackends(ctx context.Context, c config) (*backends, error) {
	b := &backends{}
	var err error
	coordination, err := startRedis(ctx, c)
	if err != nil {
		return nil, err
	}
	b.Coordination = coordination
	b.Provider = provider.New()
	b.LeaseTTL = c.leaseTTL
	if b.LeaseTTL == 0 {
		b.LeaseTTL = embeddedLeaseTTL
		if !coordination.Virtual() {
			b.LeaseTTL = realLeaseTTL
		}
	}

	if c.pgDSN != "" {
		db, err := pgledger.Open(ctx, c.pgDSN, "")
		if err != nil {
			b.stop()
			return nil, classifyPG(err)
		}
		b.Database = db
		return b, nil
	}

	b.cluster, err = pgcluster.Start(ctx, pgcluster.Options{})
	if errors.Is(err, pgcluster.ErrNoServer) {
		b.stop()
		return nil, noServerError()
	}
	if err != nil {
		b.stop()
		return nil, unreachable(err)
	}
	b.ephemeral = true
	db, err := pgledger.Open(ctx, b.cluster.DSN(pgcluster.Database),
		fmt.Sprintf("postgres %d (ephemeral)", b.cluster.Binaries.Major))
	if err != nil {
		b.stop()
		return nil, unreachable(err)
	}
	b.Database = db
	return b, nil
}

func startRedis(ctx context.Context, c config) (*redisstore.Coordination, error) {
	if c.redisURL == "" {
		coordination, err := redisstore.StartEmbedded()
		if err != nil {
			return nil, unreachable(err)
		}
		return coordination, nil
	}
	coordination, err := redisstore.Connect(ctx, c.redisURL)
	if err != nil {
		return nil, unreachable(err)
	}
	return coordination, nil
}

func noServerError() error {
	return unreachable(fmt.Errorf("no PostgreSQL server binaries found: install them (%s) or pass --pg postgres://USER@HOST/DB",
		pgcluster.InstallHint()))
}

// classifyPG tells a refusal of the user's configuration (exit 2) from a
// server that cannot be reached (exit 3).
func classifyPG(err error) error {
	if errors.Is(err, pgledger.ErrForeignSchema) {
		return usageError("%s; fencelab changed nothing (use another database, or drop or rename that schema)", err)
	}
	return unreachable(err)
}

// stop closes the connections and stops the ephemeral cluster.
func (b *backends) stop() {
	if b.Coordination != nil {
		b.Coordination.Close()
	}
	if b.cluster != nil {
		b.cluster.Stop()
	}
}

// firstLine flattens an error to one line: drivers (pgx) spread theirs
// over several.
func firstLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}
