-- Each user's own work (issue 21): the signed-in user's id on the run store's rows and on
-- uploaded contracts. 'local' is the one user of a workbench without sign-in, and the owner of
-- every row written before sign-in existed. Messages belong to their conversation.
ALTER TABLE conversations ADD COLUMN IF NOT EXISTS user_id text NOT NULL DEFAULT 'local';
ALTER TABLE agent_runs ADD COLUMN IF NOT EXISTS user_id text NOT NULL DEFAULT 'local';
ALTER TABLE artifacts ADD COLUMN IF NOT EXISTS user_id text NOT NULL DEFAULT 'local';
ALTER TABLE contracts ADD COLUMN IF NOT EXISTS user_id text NOT NULL DEFAULT 'local';

CREATE INDEX IF NOT EXISTS conversations_user ON conversations (user_id, screen, updated_at DESC);
CREATE INDEX IF NOT EXISTS agent_runs_user ON agent_runs (user_id, screen, created_at DESC);
CREATE INDEX IF NOT EXISTS artifacts_user ON artifacts (user_id, created_at DESC);

-- Bundled standard and sample contracts (ids from agents/contract/samples/catalog.json; uploads
-- are 'u-…') are everyone's: a database from before this migration had them as 'local'.
UPDATE contracts SET user_id = 'shared' WHERE contract_id NOT LIKE 'u-%';
