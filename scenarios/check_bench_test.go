package scenarios_test

import (
	"context"
	"testing"
	"time"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/scenarios"
	"github.com/fencelab/fencelab/store/storetest"
)

// checkLabs are n labs of one scenario and mode, each on a miniredis and a
// database of its own.
func checkLabs(tb testing.TB, s *engine.Scenario, mode engine.Mode, n int) []*engine.Lab {
	return checkLabsWithout(tb, s, mode, n, 0)
}

// checkLabsWithout is checkLabs of SAFE without some guards.
func checkLabsWithout(tb testing.TB, s *engine.Scenario, mode engine.Mode, n int, without engine.GuardSet) []*engine.Lab {
	tb.Helper()
	var labs []*engine.Lab
	for i := 0; i < n; i++ {
		backends := backendsFor(tb)
		backends.Without = without
		lab, err := engine.NewLab(context.Background(), backends, s, mode)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { lab.Close(context.Background()) })
		labs = append(labs, lab)
	}
	return labs
}

// backendsFor is a lab's backends of its own: the embedded Redis, a
// database of the package's cluster.
func backendsFor(tb testing.TB) engine.Backends {
	return engine.Backends{Coordination: storetest.Embedded(tb), Database: storetest.Database(tb),
		HoldTTL: 30 * time.Second}
}

// BenchmarkCheck reports the checker's schedules per second on
// lease-overrun SAFE, on one lab and on four; BenchmarkBareSchedule is the
// baseline: the same backend calls a schedule makes (a reset and the guided
// order's steps) with no checks, fingerprints or bookkeeping.
func BenchmarkCheck(b *testing.B) {
	s, _ := scenarios.ByID("lease-overrun")
	for _, n := range []int{1, 4} {
		b.Run(map[int]string{1: "labs=1", 4: "labs=4"}[n], func(b *testing.B) {
			labs := checkLabs(b, s, engine.Safe, n)
			schedules := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				report, err := engine.Check(context.Background(), labs, engine.CheckOptions{})
				if err != nil {
					b.Fatal(err)
				}
				schedules += report.Schedules
			}
			b.ReportMetric(float64(schedules)/b.Elapsed().Seconds(), "schedules/s")
		})
	}
}

func BenchmarkBareSchedule(b *testing.B) {
	s, _ := scenarios.ByID("lease-overrun")
	lab := checkLabs(b, s, engine.Safe, 1)[0]
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := lab.Reset(ctx); err != nil {
			b.Fatal(err)
		}
		if err := lab.RunGuided(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "schedules/s")
}

// BenchmarkCheckRedis compares the checker on the embedded Redis (the
// baseline) and on a real redis-server kept on the lab clock, two labs
// each, on a job scenario: a real server's reads are round trips, the
// embedded one's are its memory. The ratio of their ns/op is the cost of
// a real server.
func BenchmarkCheckRedis(b *testing.B) {
	s, _ := scenarios.ByID("pointer-ownership")
	for _, server := range []string{"embedded", "redis-server"} {
		b.Run("redis="+server, func(b *testing.B) {
			var labs []*engine.Lab
			for range 2 {
				redis := storetest.Embedded(b)
				if server == "redis-server" {
					redis = storetest.RealRedis(b)
					redis.FollowLabClock()
				}
				lab, err := engine.NewLab(context.Background(), engine.Backends{Coordination: redis, Database: storetest.Database(b),
					HoldTTL: 30 * time.Second}, s, engine.Unsafe)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { lab.Close(context.Background()) })
				labs = append(labs, lab)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := engine.Check(context.Background(), labs, engine.CheckOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
