-- listing_counts is kept by the database: after every statement that inserts or deletes rows of a counted
-- table, the rows it added or removed are counted per account (and scope) and added to the counts, so a
-- listing's `count` reads one row instead of walking the account's rows. Statement-level triggers with
-- transition tables (one per event, as PostgreSQL requires), so a statement of 100,000 rows writes each
-- count once. The counted tables' scopes never change on update (an account's resource stays its; an
-- image stays in its project, region and cluster type), so updates are not watched.
--
-- Locks: a count row is locked by the statement that changes it until its transaction ends, so an
-- account's concurrent creates in one listing take turns at it. Triggers that write other tables' rows
-- (the origin groups' related resources, below) run before the count's (triggers fire in name order:
-- `..._counts_...` after `..._a_...`), so every transaction takes rows first and counts last.
--
-- The first argument, when given, is the scope: an SQL expression over the row. Without it the scope
-- is '' and the statement is planned once per session instead of per call.
CREATE FUNCTION listing_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_NARGS = 0 THEN
    IF TG_OP = 'INSERT' THEN
      INSERT INTO listing_counts AS counts (account_id, listing, scope, rows)
        SELECT account_id, TG_TABLE_NAME, '', count(*) FROM new_rows GROUP BY account_id ORDER BY account_id
        ON CONFLICT (account_id, listing, scope) DO UPDATE SET rows = counts.rows + excluded.rows;
    ELSE
      UPDATE listing_counts counts SET rows = counts.rows - gone.rows
        FROM (SELECT account_id, count(*) AS rows FROM old_rows GROUP BY account_id) gone
        WHERE counts.account_id = gone.account_id AND counts.listing = TG_TABLE_NAME AND counts.scope = '';
    END IF;
  ELSIF TG_OP = 'INSERT' THEN
    EXECUTE format(
      'INSERT INTO listing_counts AS counts (account_id, listing, scope, rows)
         SELECT account_id, %L, %s, count(*) FROM new_rows GROUP BY 1, 3 ORDER BY 1, 3
         ON CONFLICT (account_id, listing, scope) DO UPDATE SET rows = counts.rows + excluded.rows',
      TG_TABLE_NAME, TG_ARGV[0]);
  ELSE
    EXECUTE format(
      'UPDATE listing_counts counts SET rows = counts.rows - gone.rows
         FROM (SELECT account_id, %s AS scope, count(*) AS rows FROM old_rows GROUP BY 1, 2) gone
         WHERE counts.account_id = gone.account_id AND counts.listing = %L AND counts.scope = gone.scope',
      TG_ARGV[0], TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION listing_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM listing_counts WHERE listing = TG_TABLE_NAME;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cdn_resources_counts_insert AFTER INSERT ON cdn_resources
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_apply();
--> statement-breakpoint
CREATE TRIGGER cdn_resources_counts_delete AFTER DELETE ON cdn_resources
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_apply();
--> statement-breakpoint
CREATE TRIGGER cdn_resources_counts_truncate AFTER TRUNCATE ON cdn_resources
  FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_clear();
--> statement-breakpoint
CREATE TRIGGER origin_groups_counts_insert AFTER INSERT ON origin_groups
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_apply();
--> statement-breakpoint
CREATE TRIGGER origin_groups_counts_delete AFTER DELETE ON origin_groups
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_apply();
--> statement-breakpoint
CREATE TRIGGER origin_groups_counts_truncate AFTER TRUNCATE ON origin_groups
  FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_clear();
--> statement-breakpoint
CREATE TRIGGER gpu_images_counts_insert AFTER INSERT ON gpu_images
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION listing_counts_apply($$project_id || '/' || region_id || '/' || cluster_type$$);
--> statement-breakpoint
CREATE TRIGGER gpu_images_counts_delete AFTER DELETE ON gpu_images
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION listing_counts_apply($$project_id || '/' || region_id || '/' || cluster_type$$);
--> statement-breakpoint
CREATE TRIGGER gpu_images_counts_truncate AFTER TRUNCATE ON gpu_images
  FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_clear();
--> statement-breakpoint
-- origin_groups.related_resources: how many non-deleted resources use each group. Inserts and deletes
-- of resources are summed per group by statement; an update moves a resource between groups or in and
-- out of `deleted`, one row at a time, and only when one of the two columns changed (a PATCH of a
-- resource's options does not run it).
CREATE FUNCTION origin_groups_related_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE origin_groups groups SET related_resources = groups.related_resources + used.rows
      FROM (SELECT account_id, origin_group_id, count(*) AS rows FROM new_rows WHERE NOT deleted GROUP BY 1, 2) used
      WHERE groups.account_id = used.account_id AND groups.id = used.origin_group_id;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE origin_groups groups SET related_resources = groups.related_resources - used.rows
      FROM (SELECT account_id, origin_group_id, count(*) AS rows FROM old_rows WHERE NOT deleted GROUP BY 1, 2) used
      WHERE groups.account_id = used.account_id AND groups.id = used.origin_group_id;
  ELSIF TG_OP = 'UPDATE' THEN
    UPDATE origin_groups groups
      SET related_resources = groups.related_resources
        + CASE WHEN groups.id = NEW.origin_group_id AND NOT NEW.deleted THEN 1 ELSE 0 END
        - CASE WHEN groups.id = OLD.origin_group_id AND NOT OLD.deleted THEN 1 ELSE 0 END
      WHERE groups.account_id = NEW.account_id AND groups.id IN (OLD.origin_group_id, NEW.origin_group_id);
  ELSE
    UPDATE origin_groups SET related_resources = 0 WHERE related_resources <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cdn_resources_a_related_insert AFTER INSERT ON cdn_resources
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION origin_groups_related_apply();
--> statement-breakpoint
CREATE TRIGGER cdn_resources_a_related_delete AFTER DELETE ON cdn_resources
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION origin_groups_related_apply();
--> statement-breakpoint
CREATE TRIGGER cdn_resources_a_related_update AFTER UPDATE OF origin_group_id, deleted ON cdn_resources
  FOR EACH ROW WHEN (OLD.origin_group_id IS DISTINCT FROM NEW.origin_group_id OR OLD.deleted IS DISTINCT FROM NEW.deleted)
  EXECUTE FUNCTION origin_groups_related_apply();
--> statement-breakpoint
CREATE TRIGGER cdn_resources_a_related_truncate AFTER TRUNCATE ON cdn_resources
  FOR EACH STATEMENT EXECUTE FUNCTION origin_groups_related_apply();
--> statement-breakpoint
-- The rows already there, counted once. The triggers above exist already and hold their lock on the
-- tables until this migration commits: no write can fall between the two.
UPDATE origin_groups groups SET related_resources = used.rows
  FROM (SELECT account_id, origin_group_id, count(*) AS rows FROM cdn_resources WHERE NOT deleted GROUP BY 1, 2) used
  WHERE groups.account_id = used.account_id AND groups.id = used.origin_group_id;
--> statement-breakpoint
INSERT INTO listing_counts (account_id, listing, scope, rows)
  SELECT account_id, 'cdn_resources', '', count(*) FROM cdn_resources GROUP BY account_id
  UNION ALL
  SELECT account_id, 'origin_groups', '', count(*) FROM origin_groups GROUP BY account_id
  UNION ALL
  SELECT account_id, 'gpu_images', project_id || '/' || region_id || '/' || cluster_type, count(*) FROM gpu_images GROUP BY 1, 3;
