package stress_test

import (
	"context"
	"fmt"
	"github.com/fencelab/fencelab/scenarios/world"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/fencelab/fencelab/engine"
	"github.com/fencelab/fencelab/store/pgledger"
	"github.com/fencelab/fencelab/store/storetest"
	"github.com/fencelab/fencelab/stress"
)

// benchSeconds is how long each side of a comparison runs:
// FENCELAB_BENCH_SECONDS, default 10.
func benchSeconds(b *testing.B) time.Duration {
	if s := os.Getenv("FENCELAB_BENCH_SECONDS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("FENCELAB_BENCH_SECONDS=%q: want a number of seconds", s)
		}
		return time.Duration(n) * time.Second
	}
	return 10 * time.Second
}

var tps = regexp.MustCompile(`tps = ([0-9.]+) \(without initial connection time\)`)

// The accepted fenced commits a second of stress — each a lease from a
// real redis-server, a read and DESIGN §4's transaction — beside pgbench
// running the same transaction (bench/fenced-transaction.sql) with as many
// clients on the same server, which is the database's floor: no Redis, no
// lease, no read. Run by bench/stress-vs-pgbench.sh.
func BenchmarkStressBesidePgbench(b *testing.B) {
	pgbench, err := exec.LookPath("pgbench")
	if err != nil {
		b.Skip("pgbench not installed (Debian: postgresql-client)")
	}
	script, err := filepath.Abs("../bench/fenced-transaction.sql")
	if err != nil {
		b.Fatal(err)
	}
	d := benchSeconds(b)
	for _, workers := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for range b.N {
				ctx := context.Background()
				dsn := storetest.NewDatabaseDSN(b, true)
				db, err := pgledger.Open(ctx, dsn, pgledger.Options{Describe: "postgres (bench)", Dial: storetest.Dial})
				if err != nil {
					b.Fatal(err)
				}
				redis := storetest.RealRedis(b)
				report, err := stress.Run(ctx, stress.Config{Workers: workers, Duration: d, Mode: engine.Safe, LeaseTTL: 500 * time.Millisecond},
					stress.Backends{Coordination: redis, Database: db}, stress.Goroutines())
				db.Close()
				if err != nil {
					b.Fatal(err)
				}
				if !report.Held() {
					b.Fatalf("SAFE did not hold: %+v", report.Checks())
				}

				// pgbench on the same database, seeded afresh.
				conn, err := pgx.Connect(ctx, dsn)
				if err != nil {
					b.Fatal(err)
				}
				ledger, err := db.Connect(ctx, "bench")
				if err != nil {
					b.Fatal(err)
				}
				if err := ledger.(world.Ledger).Seed(ctx, stress.Resource("")); err != nil {
					b.Fatal(err)
				}
				ledger.Close(ctx)
				if _, err := conn.Exec(ctx, `CREATE SEQUENCE IF NOT EXISTS public.pgbench_fence`); err != nil {
					b.Fatal(err)
				}
				conn.Close(ctx)
				cmd := exec.Command(pgbench, "-n", "-M", "prepared", "-c", strconv.Itoa(workers), "-j", strconv.Itoa(min(workers, runtime.NumCPU())),
					"-T", strconv.Itoa(int(d/time.Second)), "-f", script, dsn)
				out, err := cmd.CombinedOutput()
				if err != nil {
					b.Fatalf("pgbench: %v\n%s", err, out)
				}
				m := tps.FindSubmatch(out)
				if m == nil {
					b.Fatalf("pgbench said no tps:\n%s", out)
				}
				floor, _ := strconv.ParseFloat(string(m[1]), 64)
				b.ReportMetric(report.CommitsPerSecond, "stress-commits/s")
				b.ReportMetric(floor, "pgbench-tps")
				b.ReportMetric(report.CommitsPerSecond/floor, "ratio")
				b.ReportMetric(float64(report.P50.Microseconds()), "p50-µs")
				b.ReportMetric(float64(report.P99.Microseconds()), "p99-µs")
				b.Logf("%2d workers: stress %.0f commits/s (p50 %s, p99 %s), pgbench %.0f tps: %.2f×",
					workers, report.CommitsPerSecond, report.P50, report.P99, floor, report.CommitsPerSecond/floor)
			}
		})
	}
}

// A one-minute run keeps its memory flat: the history is checked in
// segments and let go, the latencies are counted in fixed buckets. The
// heap in use is sampled every five seconds; growth is the last sample
// over the one at ten seconds.
func BenchmarkStressMemory(b *testing.B) {
	d := 6 * benchSeconds(b)
	for range b.N {
		ctx := context.Background()
		redis := storetest.RealRedis(b)
		db := storetest.Database(b)
		var samples []uint64
		done := make(chan struct{})
		go func() {
			tick := time.NewTicker(5 * time.Second)
			defer tick.Stop()
			for {
				select {
				case <-done:
					return
				case <-tick.C:
					runtime.GC()
					var m runtime.MemStats
					runtime.ReadMemStats(&m)
					samples = append(samples, m.HeapInuse)
				}
			}
		}()
		report, err := stress.Run(ctx, stress.Config{Workers: 8, Duration: d, Mode: engine.Safe, LeaseTTL: 500 * time.Millisecond,
			PauseEvery: 2 * time.Second, Pause: time.Second}, stress.Backends{Coordination: redis, Database: db}, stress.Goroutines())
		close(done)
		if err != nil {
			b.Fatal(err)
		}
		if len(samples) < 3 {
			b.Fatalf("only %d samples", len(samples))
		}
		first, last := samples[1], samples[len(samples)-1]
		b.ReportMetric(float64(first)/(1<<20), "heap-MiB@10s")
		b.ReportMetric(float64(last)/(1<<20), "heap-MiB@end")
		b.ReportMetric(float64(last)/float64(first), "growth")
		b.ReportMetric(float64(report.Writes), "writes")
		b.Logf("%s, %d writes: heap in use %.1f MiB at 10s, %.1f MiB at the end (%.2f×); samples %v",
			d, report.Writes, float64(first)/(1<<20), float64(last)/(1<<20), float64(last)/float64(first), samples)
	}
}
