-- storages: the account's live storages (not deleted) of each type are counted in listing_counts (listing
-- 'storages', scope the type), so the storage listings without a filter read one row for their count
-- instead of walking every storage of the account. Unlike the tables of 0034_listing_counts_triggers, a
-- storage leaves and rejoins its listings by update (a delete sets `deleted`, a restore clears it), so the
-- update of a row that changes whether and where it counts moves it, one row at a time (soft deletes and
-- restores are one storage each). Inserts and deletes are counted per statement; only live rows count.
CREATE FUNCTION storages_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF OLD.deleted IS NULL THEN
      UPDATE listing_counts SET rows = rows - 1
        WHERE account_id = OLD.account_id AND listing = 'storages' AND scope = OLD.type;
    END IF;
    IF NEW.deleted IS NULL THEN
      INSERT INTO listing_counts AS counts (account_id, listing, scope, rows) VALUES (NEW.account_id, 'storages', NEW.type, 1)
        ON CONFLICT (account_id, listing, scope) DO UPDATE SET rows = counts.rows + 1;
    END IF;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO listing_counts AS counts (account_id, listing, scope, rows)
      SELECT account_id, 'storages', type, count(*) FROM new_rows WHERE deleted IS NULL GROUP BY 1, 3 ORDER BY 1, 3
      ON CONFLICT (account_id, listing, scope) DO UPDATE SET rows = counts.rows + excluded.rows;
  ELSE
    UPDATE listing_counts counts SET rows = counts.rows - gone.rows
      FROM (SELECT account_id, type, count(*) AS rows FROM old_rows WHERE deleted IS NULL GROUP BY 1, 2) gone
      WHERE counts.account_id = gone.account_id AND counts.listing = 'storages' AND counts.scope = gone.type;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER storages_counts_insert AFTER INSERT ON storages
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION storages_counts_apply();
--> statement-breakpoint
CREATE TRIGGER storages_counts_delete AFTER DELETE ON storages
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION storages_counts_apply();
--> statement-breakpoint
CREATE TRIGGER storages_counts_update AFTER UPDATE OF deleted, type, account_id ON storages
  FOR EACH ROW WHEN ((OLD.deleted IS NULL) <> (NEW.deleted IS NULL) OR OLD.type <> NEW.type OR OLD.account_id <> NEW.account_id)
  EXECUTE FUNCTION storages_counts_apply();
--> statement-breakpoint
CREATE TRIGGER storages_counts_truncate AFTER TRUNCATE ON storages
  FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_clear();
--> statement-breakpoint
-- The storages already there, counted once: the triggers above hold their lock on the table until this
-- migration commits, so no write falls between the two.
INSERT INTO listing_counts (account_id, listing, scope, rows)
  SELECT account_id, 'storages', type, count(*) FROM storages WHERE deleted IS NULL GROUP BY 1, 3;
