package engine

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Nothing a lab runs reads the host's clock but through HostClock, which
// only times: no time.Now, time.Since or time.Until in the code of the
// engine, the scenarios and the stores a lab runs, and no SQL that reads
// the server's clock in what fencelab sends PostgreSQL.
func TestNothingALabRunsReadsTheHostsClock(t *testing.T) {
	goCall := regexp.MustCompile(`\btime\.(Now|Since|Until)\(`)
	sqlClock := regexp.MustCompile(`(?i)\b(now\(\)|current_timestamp|clock_timestamp|localtimestamp|transaction_timestamp|statement_timestamp|current_date|timeofday)\b`)
	var files []string
	for _, dir := range []string{".", "../scenarios", "../store/redisstore", "../store/pgledger", "../store/provider", "../migrations"} {
		for _, pattern := range []string{"*.go", "*.sql", "*.lua"} {
			found, err := filepath.Glob(filepath.Join(dir, pattern))
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, found...)
		}
		scripts, _ := filepath.Glob(filepath.Join(dir, "scripts", "*.lua"))
		files = append(files, scripts...)
	}
	if len(files) < 20 {
		t.Fatalf("found only %d files to read", len(files))
	}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") || filepath.Base(path) == "hostclock.go" {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			code := line
			if strings.HasSuffix(path, ".go") {
				if c := strings.Index(code, "//"); c >= 0 {
					code = code[:c]
				}
				if goCall.MatchString(code) {
					t.Errorf("%s:%d reads the host's clock: use the lab's (Turn.Now, Lab.Now), or HostClock to time: %s", path, i+1, strings.TrimSpace(line))
				}
			}
			// SQL is in scripts and migrations, and in the Go of the store
			// that sends it (scenarios names these words to refuse them).
			sends := !strings.HasSuffix(path, ".go") || strings.Contains(path, "pgledger")
			if sends && sqlClock.MatchString(code) {
				t.Errorf("%s:%d reads the server's clock: pass the lab clock: %s", path, i+1, strings.TrimSpace(line))
			}
		}
	}
}
