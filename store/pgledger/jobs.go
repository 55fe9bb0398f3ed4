package pgledger

import (
	"context"
	"fmt"
	"time"
)

// ApplyJobResults publishes a job's results. The caller (the apply API)
// has checked that the job ended in SUCCESS; applying twice is a no-op.
func (l *Ledger) ApplyJobResults(ctx context.Context, jobID, target, results string, now time.Time) error {
	_, err := l.exec(ctx, `
		INSERT INTO fencelab.job_results (job_id, target, results, applied_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (target, job_id) DO NOTHING`, jobID, target, results, now)
	if err != nil {
		return fmt.Errorf("pgledger: apply results of %s: %w", jobID, err)
	}
	return nil
}
