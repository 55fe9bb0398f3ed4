-- Invariant 7 (no lost update) needs to know, for every committed write,
-- what the writer computed its value from and what the row held when the
-- write landed. Both are recorded by the write itself, in its transaction.

-- +goose Up
ALTER TABLE fencelab.executions
    -- The summary the writer read and built its value on; NULL for a value
    -- computed without reading (a token, a fixed number).
    ADD COLUMN read_value     bigint,
    -- The summary the resource row held just before this write, read under
    -- the row lock; NULL for a rejected write.
    ADD COLUMN previous_value bigint;

-- +goose Down
ALTER TABLE fencelab.executions DROP COLUMN previous_value, DROP COLUMN read_value;
