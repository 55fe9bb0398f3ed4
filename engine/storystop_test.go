package engine

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/fencelab/fencelab/lang"
)

// A story that could not go on is the lab's own; a backend that failed or
// stopped answering is not, though its error may be said in a language
// too — check, diff and why must fail on it, not record the story as
// stopped.
func TestStoryStoppedTellsTheLabsOwnFromABackends(t *testing.T) {
	for _, err := range []error{
		lang.Error("%s %w (%s): resume it first", "A", ErrPaused, "GC"),
		lang.Error("%s %w", "B", ErrProgramDone),
		lang.Error("%q: %w", "C", ErrUnknownActor),
		lang.Error("%w at %d/%d", ErrOffPath, 3, 9),
		fmt.Errorf("advance: %w", ErrNoExpiry),
		fmt.Errorf("%w: %s", ErrKeysLost, "lease:x"),
		ErrClockBound,
	} {
		require.True(t, StoryStopped(err), "%v", err)
	}
	noAnswer := lang.Error("%w within %s (stopped, frozen or overloaded?)", lang.Error("Redis did not answer"), "3s")
	for _, err := range []error{
		fmt.Errorf("A acquire: redisstore: acquire %s: %w", "k", noAnswer),
		lang.Error("%w within %s (stopped, frozen or overloaded?)", lang.Error("PostgreSQL did not answer"), "5s"),
		errors.New("pgledger: fenced write: conn closed"),
		context.DeadlineExceeded,
	} {
		require.False(t, StoryStopped(err), "%v", err)
	}
}
