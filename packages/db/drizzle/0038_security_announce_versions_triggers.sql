-- security_announce_versions is kept by the database: after every statement that changes what an account's
-- BGP announces answer, each account the statement touched gets a new random version. The announces
-- answer from the live profiles' networks (made from their addresses), sites and bgp options, and from the
-- toggles: an insert or delete of either table, an update of a toggle, and an update of a profile that moves
-- one of those (or deletes or restores the profile) give a new version; an update of anything else of a
-- profile (its status, its protocols) does not. Statement-level triggers with transition tables (one per
-- event, as PostgreSQL requires), so a statement of 100,000 rows writes each account's version once. A
-- truncate of either table empties the versions: an account without a version is never kept by a server.
--
-- Locks: the version row is locked by the statement that changes it until its transaction ends, and
-- accounts are taken in order, so concurrent statements over several accounts never wait on each other
-- in a circle.
CREATE FUNCTION security_announce_versions_bump() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  changed integer[];
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM security_announce_versions;
    RETURN NULL;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(DISTINCT account_id ORDER BY account_id) INTO changed FROM old_rows;
  ELSIF TG_OP = 'UPDATE' AND TG_TABLE_NAME = 'security_profiles' THEN
    SELECT array_agg(DISTINCT new_row.account_id ORDER BY new_row.account_id) INTO changed
      FROM new_rows new_row JOIN old_rows old_row ON old_row.id = new_row.id
      WHERE (new_row.account_id, new_row.network, new_row.site, new_row.bgp, new_row.deleted IS NULL)
        IS DISTINCT FROM (old_row.account_id, old_row.network, old_row.site, old_row.bgp, old_row.deleted IS NULL);
  ELSE
    -- An insert into either table, an update of a toggle.
    SELECT array_agg(DISTINCT account_id ORDER BY account_id) INTO changed FROM new_rows;
  END IF;
  -- In the accounts' order (none when no row changed).
  INSERT INTO security_announce_versions (account_id, version)
    SELECT account_id, gen_random_uuid() FROM unnest(changed) AS account_id
    ON CONFLICT (account_id) DO UPDATE SET version = excluded.version;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER security_profiles_announces_insert AFTER INSERT ON security_profiles
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION security_announce_versions_bump();
--> statement-breakpoint
CREATE TRIGGER security_profiles_announces_update AFTER UPDATE ON security_profiles
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION security_announce_versions_bump();
--> statement-breakpoint
CREATE TRIGGER security_profiles_announces_delete AFTER DELETE ON security_profiles
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION security_announce_versions_bump();
--> statement-breakpoint
CREATE TRIGGER security_profiles_announces_truncate AFTER TRUNCATE ON security_profiles
  FOR EACH STATEMENT EXECUTE FUNCTION security_announce_versions_bump();
--> statement-breakpoint
CREATE TRIGGER security_bgp_announces_versions_insert AFTER INSERT ON security_bgp_announces
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION security_announce_versions_bump();
--> statement-breakpoint
CREATE TRIGGER security_bgp_announces_versions_update AFTER UPDATE ON security_bgp_announces
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION security_announce_versions_bump();
--> statement-breakpoint
CREATE TRIGGER security_bgp_announces_versions_delete AFTER DELETE ON security_bgp_announces
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION security_announce_versions_bump();
--> statement-breakpoint
CREATE TRIGGER security_bgp_announces_versions_truncate AFTER TRUNCATE ON security_bgp_announces
  FOR EACH STATEMENT EXECUTE FUNCTION security_announce_versions_bump();
--> statement-breakpoint
-- The accounts that already have announces get their first version.
INSERT INTO security_announce_versions (account_id, version)
  SELECT account_id, gen_random_uuid()
  FROM (SELECT account_id FROM security_profiles UNION SELECT account_id FROM security_bgp_announces ORDER BY account_id) existing;
