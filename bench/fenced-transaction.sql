-- The fenced transaction of DESIGN §4, as pgbench runs it: what
-- `fencelab stress` does in PostgreSQL for every accepted write, so the two
-- can be compared on the same server with the same number of clients
-- (bench/stress-vs-pgbench.sh). The token comes from a sequence taken
-- under the row lock, so every transaction is accepted, as a lease
-- holder's write is: pgbench measures the database's floor, with no Redis.
-- The conflict key's colons are chr(58): pgbench reads ":name" as one of
-- its variables, even inside a string.
BEGIN;
SELECT membership_revision, region_id, region_epoch, active
  FROM fencelab.tenant_assignments WHERE tenant_id = 'tenant-a' FOR SHARE;
SELECT namespace_epoch, minimum_writer_version, checkpoint_schema_version
  FROM fencelab.rollout_markers WHERE marker_name = 'current' FOR SHARE;
SELECT last_accepted_fence, summary_value
  FROM fencelab.resources WHERE conflict_key = concat_ws(chr(58), 'summary', 'tenant-a', '2026-07') FOR UPDATE \gset
SELECT nextval('pgbench_fence') AS token \gset
UPDATE fencelab.resources
   SET last_accepted_fence = :token, summary_value = :summary_value + 1, updated_at = now()
 WHERE conflict_key = concat_ws(chr(58), 'summary', 'tenant-a', '2026-07') AND namespace_epoch = 2 AND last_accepted_fence < :token;
INSERT INTO fencelab.checkpoints (conflict_key, fencing_token, schema_version, summary_value, updated_at)
VALUES (concat_ws(chr(58), 'summary', 'tenant-a', '2026-07'), :token, 1, :summary_value + 1, now())
ON CONFLICT (conflict_key) DO UPDATE
   SET fencing_token = EXCLUDED.fencing_token, schema_version = EXCLUDED.schema_version,
       summary_value = EXCLUDED.summary_value, updated_at = EXCLUDED.updated_at;
INSERT INTO fencelab.executions (operation_id, job_name, tenant_id, conflict_key, owner, fencing_token,
       namespace_epoch, state, rejection, contract_version, summary_value, created_at, updated_at,
       membership_revision, region_id, region_epoch, read_value, previous_value)
VALUES ('pgbench/' || :token, 'pgbench', 'tenant-a', concat_ws(chr(58), 'summary', 'tenant-a', '2026-07'), 'pgbench', :token,
       2, 'COMMITTED', NULL, 2, :summary_value + 1, now(), now(), 7, 'region-a', 3, :summary_value, :summary_value);
INSERT INTO fencelab.outbox (operation_id, effect_type, status, attempt_count, next_attempt_at, created_at, updated_at)
VALUES ('pgbench/' || :token, 'publish-summary', 'PENDING', 0, now(), now(), now());
COMMIT;
