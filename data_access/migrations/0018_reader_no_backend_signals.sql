-- Least privilege, second wall (issue 16): PostgreSQL lets any role signal the backends of its
-- own role, so SQL run as atlas_reader could end its own and every other reader session
-- (`SELECT pg_terminate_backend(pid) FROM pg_stat_activity`: another user's console query, an
-- agent's query). The guard refuses such SQL before it runs; this takes the functions from
-- PUBLIC in this database, so the reader role is refused by the server too. The workbench's
-- own connections never call them (a turn is stopped by the protocol's cancel request).
-- A migrating user that does not own pg_catalog's functions (not a superuser) cannot revoke:
-- the migration then says so (NOTICE) and the guard stays the only wall for these two.
DO $migration$
BEGIN
    REVOKE EXECUTE ON FUNCTION pg_catalog.pg_terminate_backend(integer, bigint) FROM PUBLIC;
    REVOKE EXECUTE ON FUNCTION pg_catalog.pg_cancel_backend(integer) FROM PUBLIC;
EXCEPTION WHEN insufficient_privilege OR undefined_function THEN
    RAISE NOTICE 'backend signal functions not revoked from PUBLIC (% may not): the guard refuses them',
        current_user;
END
$migration$;
