-- The second seed: a job's results reach PostgreSQL only through the apply
-- API, and only for a job that ended in SUCCESS.

-- +goose Up
CREATE TABLE fencelab.job_results (
    job_id     text        NOT NULL,
    target     text        NOT NULL,
    results    text        NOT NULL,
    applied_at timestamptz NOT NULL,
    PRIMARY KEY (target, job_id)
);

-- +goose Down
DROP TABLE fencelab.job_results;
