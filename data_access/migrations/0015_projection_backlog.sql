-- Issue 25: projection follows every write. A write (an import, the demo seed, a restore) records
-- what it changed here in its own transaction; the graph is behind PostgreSQL while a row has
-- no projected_at. The command that wrote ends by projecting the pending scopes; a failed
-- projection leaves the row pending (attempts, last_error) for the next run or
-- `python -m data_access.projection --retry-lagging`. Not a reader table (bookkeeping).
CREATE TABLE projection_backlog (
    backlog_id    bigserial PRIMARY KEY,
    origin        text NOT NULL,          -- import | seed | refresh | restore | manual
    import_run_id bigint REFERENCES import_runs(run_id) ON DELETE SET NULL,
    scope         jsonb NOT NULL,         -- data_access.projection.scope.ProjectionScope
    created_at    timestamptz NOT NULL DEFAULT now(),
    attempts      int NOT NULL DEFAULT 0,
    last_error    text,
    last_batch_id text,
    projected_at  timestamptz             -- NULL: not yet in the graph
);
CREATE INDEX projection_backlog_pending ON projection_backlog (backlog_id) WHERE projected_at IS NULL;
