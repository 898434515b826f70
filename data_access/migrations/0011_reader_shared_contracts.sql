-- The reader role (0007) sees the clauses of shared contracts only: standard contracts and the
-- bundled samples (user 'shared'). Uploads are each user's own (0008), so agent or console SQL
-- must not read another user's contract through contract_articles.
--
-- Row-level security binds only roles that are not the table owner: the workbench's own user
-- (which owns the table) reads every row as before; atlas_reader and its members read the rows
-- this policy lets through, and nothing else. The policy reads two columns of `contracts`, which
-- the reader may select (only those; the guard does not let agent SQL name the table at all).
ALTER TABLE contract_articles ENABLE ROW LEVEL SECURITY;
DO $migration$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'atlas_reader') THEN
        RETURN;  -- 0007 could not create the role; DATABASE_READER_URL users get no rows here
    END IF;
    GRANT SELECT (contract_id, is_standard, user_id) ON contracts TO atlas_reader;
    DROP POLICY IF EXISTS reader_shared_contracts ON contract_articles;
    CREATE POLICY reader_shared_contracts ON contract_articles FOR SELECT TO atlas_reader
        USING (contract_id IN (
            SELECT c.contract_id FROM contracts c WHERE c.is_standard OR c.user_id = 'shared'
        ));
END
$migration$;
