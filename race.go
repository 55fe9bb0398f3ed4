package main

import (
	"context"
	"io"
	"time"

	"github.com/fencelab/fencelab/race"
)

// runRace runs `fencelab race`: Redis only, no PostgreSQL.
func runRace(ctx context.Context, c config, n, free int, stdout io.Writer) error {
	if n < 1 {
		return usageError("--n must be at least 1, got %d", n)
	}
	if free < 0 {
		return usageError("--free must not be negative, got %d", free)
	}
	redis, err := startRedis(ctx, c)
	if err != nil {
		return err
	}
	defer redis.Close()
	now := time.Now().UTC()

	report, err := race.Forced(ctx, redis, n, now)
	if err != nil {
		return backendFailure(ctx, err)
	}
	report.Print(stdout)
	if free > 0 {
		freeReport, err := race.Free(ctx, redis, free, now)
		if err != nil {
			return backendFailure(ctx, err)
		}
		freeReport.Print(stdout)
		if freeReport.LuaDuplicates > 0 {
			report.Failures = append(report.Failures, "Lua acquire made duplicates")
		}
	}
	if len(report.Failures) > 0 {
		return &exitError{code: exitUnexpected}
	}
	return nil
}
