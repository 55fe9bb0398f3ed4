-- The lab's tables, as DESIGN §4 lists them. Every object lives in schema
-- fencelab, which fencelab creates (and marks) before goose runs.

-- +goose Up
CREATE TABLE fencelab.tenant_assignments (
    tenant_id           text PRIMARY KEY,
    membership_revision bigint  NOT NULL,
    region_id           text    NOT NULL,
    region_epoch        bigint  NOT NULL,
    active              boolean NOT NULL
);

CREATE TABLE fencelab.rollout_markers (
    marker_name               text PRIMARY KEY CHECK (marker_name = 'current'),
    namespace_epoch           bigint NOT NULL,
    minimum_writer_version    int    NOT NULL,
    checkpoint_schema_version int    NOT NULL
);

CREATE TABLE fencelab.resources (
    conflict_key        text PRIMARY KEY,
    namespace_epoch     bigint      NOT NULL,
    -- 0 means no fenced write has been accepted yet.
    last_accepted_fence bigint      NOT NULL DEFAULT 0,
    summary_value       bigint      NOT NULL DEFAULT 0,
    updated_at          timestamptz NOT NULL
);

CREATE TABLE fencelab.executions (
    execution_id     bigserial PRIMARY KEY,
    operation_id     text        NOT NULL UNIQUE,
    job_name         text        NOT NULL,
    tenant_id        text        NOT NULL,
    conflict_key     text        NOT NULL,
    owner            text        NOT NULL,
    -- NULL for a write made without any fencing token (locks by job name).
    fencing_token    bigint,
    namespace_epoch  bigint,
    -- The configuration the writer acted under, for invariant 2.
    membership_revision bigint   NOT NULL,
    region_id        text        NOT NULL,
    region_epoch     bigint      NOT NULL,
    state            text        NOT NULL CHECK (state IN ('COMMITTED', 'REJECTED')),
    rejection        text,
    contract_version int         NOT NULL,
    summary_value    bigint,
    created_at       timestamptz NOT NULL,
    updated_at       timestamptz NOT NULL
);

CREATE TABLE fencelab.checkpoints (
    conflict_key    text PRIMARY KEY,
    fencing_token   bigint,
    schema_version  int         NOT NULL,
    summary_value   bigint      NOT NULL,
    updated_at      timestamptz NOT NULL
);

CREATE TABLE fencelab.outbox (
    outbox_id       bigserial PRIMARY KEY,
    operation_id    text        NOT NULL UNIQUE,
    effect_type     text        NOT NULL,
    status          text        NOT NULL CHECK (status IN
                        ('PENDING', 'CLAIMED', 'CONFIRMED', 'DECLINED', 'RECONCILIATION_REQUIRED')),
    attempt_count   int         NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    created_at      timestamptz NOT NULL,
    updated_at      timestamptz NOT NULL
);

CREATE INDEX outbox_due ON fencelab.outbox (status, next_attempt_at);

CREATE TABLE fencelab.effect_receipts (
    provider     text        NOT NULL,
    operation_id text        NOT NULL,
    status       text        NOT NULL,
    receipt      text        NOT NULL,
    recorded_at  timestamptz NOT NULL,
    PRIMARY KEY (provider, operation_id)
);

-- +goose Down
DROP TABLE fencelab.effect_receipts;
DROP TABLE fencelab.outbox;
DROP TABLE fencelab.checkpoints;
DROP TABLE fencelab.executions;
DROP TABLE fencelab.resources;
DROP TABLE fencelab.rollout_markers;
DROP TABLE fencelab.tenant_assignments;
