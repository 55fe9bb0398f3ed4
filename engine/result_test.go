package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestVerdict(t *testing.T) {
	for _, tc := range []struct {
		name            string
		expected, final int64
		refusals        []string
		breaks          []Break
		shortfall       string
		want            string
	}{
		{"nothing refused, right value", 30, 30, nil, nil, "", VerdictMatch},
		{"the guard that fired", 42, 42, []string{"STALE_FENCE"}, nil, "", "STALE_FENCE"},
		{"the last guard that fired", 43, 43, []string{"STALE_FENCE", "STALE_NAMESPACE"}, nil, "", "STALE_NAMESPACE"},
		{"wrong value, nothing broken", 30, 20, nil, nil, "", VerdictWrongValue},
		{"wrong value a guard explains", 30, 20, []string{"STALE_FENCE"}, nil, "", "STALE_FENCE"},
		{"a lost update is invariant 7's", 30, 20, nil, []Break{{Invariant: 7, Anomaly: VerdictLostUpdate}}, "", VerdictLostUpdate},
		{"wrong value: the scenario's shortfall", 43, 42, []string{"STALE_FENCE"}, nil, VerdictStuck, VerdictStuck},
		{"a broken invariant wins", 42, 41, nil, []Break{{Invariant: 1, Anomaly: "STALE_OVERWRITE"}}, VerdictStuck, "STALE_OVERWRITE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, Verdict(tc.expected, tc.final, tc.refusals, tc.breaks, tc.shortfall))
		})
	}
}

func TestOneLine(t *testing.T) {
	got := OneLine(errors.New("ERROR:  bad\n\tthing \x1b[2Jcleared\x07"))
	if got != "ERROR: bad thing [2Jcleared" {
		t.Errorf("OneLine = %q", got)
	}
	// pgx's two alike tries of a refused connection (sslmode=prefer).
	tries := "failed to connect to `user=u database=d`:\n\t127.0.0.1:1 (localhost): dial error: refused\n\t127.0.0.1:1 (localhost): dial error: refused\n\t::1:1 (localhost): dial error: refused"
	if got := OneLine(errors.New(tries)); got != "failed to connect to `user=u database=d`: 127.0.0.1:1 (localhost): dial error: refused ::1:1 (localhost): dial error: refused" {
		t.Errorf("OneLine = %q", got)
	}
}
