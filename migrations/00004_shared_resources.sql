-- Resources that stress runs on many machines share (stress --shared) keep
-- their rows in the lab's tables, which a run that seeds them (run, check,
-- an unshared stress, the explorer) empties whole. Such a run holds the
-- database alone, so it first moves the shared resources' rows to
-- parked_rows, and the next shared run puts them back.

-- +goose Up
CREATE TABLE fencelab.shared_resources (
    conflict_key text PRIMARY KEY,
    tenant_id    text NOT NULL
);

CREATE TABLE fencelab.parked_rows (
    parked_id  bigserial PRIMARY KEY,
    table_name text  NOT NULL,
    data       jsonb NOT NULL
);

-- The resources shared before this table: stress names them stress:NAME,
-- and their tenant stress-NAME.
INSERT INTO fencelab.shared_resources (conflict_key, tenant_id)
SELECT conflict_key, 'stress-' || substr(conflict_key, length('stress:') + 1)
  FROM fencelab.resources WHERE conflict_key LIKE 'stress:%';

-- +goose Down
DROP TABLE fencelab.parked_rows;
DROP TABLE fencelab.shared_resources;
