#!/usr/bin/env bash
# The accepted fenced commits a second of `fencelab stress` at 1, 8 and 32
# workers, beside pgbench running the same fenced transaction
# (bench/fenced-transaction.sql) with as many clients on the same ephemeral
# PostgreSQL, with a real redis-server for the leases; then a one-minute run
# to show that memory stays flat. Both sides run in one process, one after
# the other, so the ratio is what to read, not the absolute numbers.
#
#   bench/stress-vs-pgbench.sh            10 s a side (FENCELAB_BENCH_SECONDS to change)
#
# Needs Go, the PostgreSQL server binaries, redis-server and pgbench
# (Debian: postgresql, redis-server, postgresql-client).
set -euo pipefail
cd "$(dirname "$0")/.."
for bin in redis-server pgbench; do
  command -v "$bin" >/dev/null || { echo "bench: $bin is not installed" >&2; exit 2; }
done
go test ./stress -run '^$' -bench 'StressBesidePgbench|StressMemory' -benchtime 1x -timeout 30m -v "$@" |
  grep -E '^\s+bench_test.go|^Benchmark|^ok|^FAIL|^---' || true
