package race_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/race"
	"github.com/fencelab/fencelab/store/redisstore"
	"github.com/fencelab/fencelab/store/storetest"
)

var now = time.Date(2026, 6, 18, 9, 0, 0, 0, time.UTC)

// N = 100 prints exactly the seed's six lines; N = 7 scales every figure.
func TestForced(t *testing.T) {
	storetest.Redises(t, func(t *testing.T, rdb *redisstore.Coordination) {
		for _, tc := range []struct {
			n    int
			want string
		}{
			{100, `100 forced interleaving scenarios
GET -> SET: job hashes=200, unreferenced jobs=100
Lua acquire: acquired=100, reused=100, job hashes=100
Terminal transition: late SUCCESS before=100, after=0
Pointer ownership: late SUCCESS rejected=100, current pointers preserved=100
All invariants passed
`},
			{7, `7 forced interleaving scenarios
GET -> SET: job hashes=14, unreferenced jobs=7
Lua acquire: acquired=7, reused=7, job hashes=7
Terminal transition: late SUCCESS before=7, after=0
Pointer ownership: late SUCCESS rejected=7, current pointers preserved=7
All invariants passed
`},
		} {
			report, err := race.Forced(context.Background(), rdb, tc.n, now, nil)
			require.NoError(t, err)
			var out bytes.Buffer
			report.Print(&out)
			require.Equal(t, tc.want, out.String())
		}
	})
}

// The figures come from Redis: keys left by an earlier run do not count,
// and keys changed behind the race's back change the figures.
func TestForcedCountsRedis(t *testing.T) {
	ctx := context.Background()
	rdb := storetest.Embedded(t)
	_, err := race.Forced(ctx, rdb, 5, now, nil)
	require.NoError(t, err)
	report, err := race.Forced(ctx, rdb, 3, now, nil)
	require.NoError(t, err)
	require.Equal(t, 6, report.NaiveJobHashes, "the earlier run's keys are gone")
	require.Empty(t, report.Failures)
}

// Truly concurrent requests: the Lua acquire never makes a duplicate.
func TestFree(t *testing.T) {
	storetest.Redises(t, func(t *testing.T, rdb *redisstore.Coordination) {
		report, err := race.Free(context.Background(), rdb, 50, now, nil)
		require.NoError(t, err)
		require.Equal(t, 50, report.K)
		require.Zero(t, report.LuaDuplicates)
	})
}
