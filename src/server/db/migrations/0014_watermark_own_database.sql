-- Added by hand (drizzle-kit writes no functions). pg_locks is the whole cluster's: catalogue_watermark()
-- (migration 0002) counted the revision locks of other databases on the same PostgreSQL too, so
-- another database's changes in flight lowered this one's watermark (seen as flaky catalogue tests
-- while other test runs shared the server). Only this database's locks count now.
CREATE OR REPLACE FUNCTION catalogue_watermark() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE last bigint; held bigint;
BEGIN
  SELECT CASE WHEN is_called THEN last_value ELSE last_value - 1 END INTO last FROM product_revision_seq;
  SELECT min(objid::bigint) INTO held FROM pg_locks
    WHERE locktype = 'advisory' AND classid = 1651270010 AND objsubid = 2
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database());
  RETURN least(last, held);
END $$;
