-- usage_month_totals is kept by the database: after every statement that writes usage_lines, what it
-- changed is summed per account, month and group and added to the totals (removed lines count negative),
-- and a group whose last line is gone is deleted. Statement-level triggers with transition tables, so a
-- statement of a million lines writes each of its groups once. PostgreSQL takes transition tables only
-- on a trigger of one event: one trigger per event, all running the same function. They are ordinary
-- triggers: with session_replication_role = replica (a restore of both tables) they do not fire.
CREATE FUNCTION usage_month_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  emptied integer := 0;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO usage_month_totals AS totals (account_id, month, type, region_id, flavor, instance_type, volume_type,
        billing_metric_name, billing_feature_name, billing_value_unit, currency, billing_value, cost, unpriced_lines, lines)
      SELECT account_id, month, type, region_id, flavor, instance_type, volume_type,
          billing_metric_name, billing_feature_name, billing_value_unit, currency,
          sum(billing_value), coalesce(sum(cost), 0), count(*) FILTER (WHERE cost IS NULL), count(*)
        FROM new_lines
        GROUP BY account_id, month, type, region_id, flavor, instance_type, volume_type,
          billing_metric_name, billing_feature_name, billing_value_unit, currency
        -- Groups are written in one order by every statement, so that concurrent writers lock them alike.
        ORDER BY account_id, month, type, region_id, flavor, instance_type, volume_type,
          billing_metric_name, billing_feature_name, billing_value_unit, currency
      ON CONFLICT (account_id, month, type, region_id, flavor, instance_type, volume_type,
          billing_metric_name, billing_feature_name, billing_value_unit, currency) DO UPDATE SET
        billing_value = totals.billing_value + excluded.billing_value,
        cost = totals.cost + excluded.cost,
        unpriced_lines = totals.unpriced_lines + excluded.unpriced_lines,
        lines = totals.lines + excluded.lines;
    RETURN NULL;
  END IF;

  IF TG_OP = 'UPDATE' THEN
    -- The new rows count in and the old ones out; a group whose sums come out unchanged (a change of
    -- tags, say) is not written.
    WITH changes AS (
      SELECT account_id, month, type, region_id, flavor, instance_type, volume_type,
          billing_metric_name, billing_feature_name, billing_value_unit, currency,
          billing_value, coalesce(cost, 0) AS cost, CASE WHEN cost IS NULL THEN 1 ELSE 0 END AS unpriced_lines, 1 AS lines
        FROM new_lines
      UNION ALL
      SELECT account_id, month, type, region_id, flavor, instance_type, volume_type,
          billing_metric_name, billing_feature_name, billing_value_unit, currency,
          -billing_value, -coalesce(cost, 0), CASE WHEN cost IS NULL THEN -1 ELSE 0 END, -1
        FROM old_lines
    ), deltas AS (
      SELECT account_id, month, type, region_id, flavor, instance_type, volume_type,
          billing_metric_name, billing_feature_name, billing_value_unit, currency,
          sum(billing_value) AS billing_value, sum(cost) AS cost, sum(unpriced_lines) AS unpriced_lines, sum(lines) AS lines
        FROM changes
        GROUP BY account_id, month, type, region_id, flavor, instance_type, volume_type,
          billing_metric_name, billing_feature_name, billing_value_unit, currency
    ), written AS (
      INSERT INTO usage_month_totals AS totals (account_id, month, type, region_id, flavor, instance_type, volume_type,
          billing_metric_name, billing_feature_name, billing_value_unit, currency, billing_value, cost, unpriced_lines, lines)
        SELECT * FROM deltas
          WHERE billing_value <> 0 OR cost <> 0 OR unpriced_lines <> 0 OR lines <> 0
          ORDER BY account_id, month, type, region_id, flavor, instance_type, volume_type,
            billing_metric_name, billing_feature_name, billing_value_unit, currency
        ON CONFLICT (account_id, month, type, region_id, flavor, instance_type, volume_type,
            billing_metric_name, billing_feature_name, billing_value_unit, currency) DO UPDATE SET
          billing_value = totals.billing_value + excluded.billing_value,
          cost = totals.cost + excluded.cost,
          unpriced_lines = totals.unpriced_lines + excluded.unpriced_lines,
          lines = totals.lines + excluded.lines
        RETURNING totals.lines
    )
    SELECT count(*) FILTER (WHERE written.lines = 0) INTO emptied FROM written;
  ELSE
    WITH written AS (
      INSERT INTO usage_month_totals AS totals (account_id, month, type, region_id, flavor, instance_type, volume_type,
          billing_metric_name, billing_feature_name, billing_value_unit, currency, billing_value, cost, unpriced_lines, lines)
        SELECT account_id, month, type, region_id, flavor, instance_type, volume_type,
            billing_metric_name, billing_feature_name, billing_value_unit, currency,
            -sum(billing_value), -coalesce(sum(cost), 0), -count(*) FILTER (WHERE cost IS NULL), -count(*)
          FROM old_lines
          GROUP BY account_id, month, type, region_id, flavor, instance_type, volume_type,
            billing_metric_name, billing_feature_name, billing_value_unit, currency
          ORDER BY account_id, month, type, region_id, flavor, instance_type, volume_type,
            billing_metric_name, billing_feature_name, billing_value_unit, currency
        ON CONFLICT (account_id, month, type, region_id, flavor, instance_type, volume_type,
            billing_metric_name, billing_feature_name, billing_value_unit, currency) DO UPDATE SET
          billing_value = totals.billing_value + excluded.billing_value,
          cost = totals.cost + excluded.cost,
          unpriced_lines = totals.unpriced_lines + excluded.unpriced_lines,
          lines = totals.lines + excluded.lines
        RETURNING totals.lines
    )
    SELECT count(*) FILTER (WHERE written.lines = 0) INTO emptied FROM written;
  END IF;

  -- Groups left without lines go (a separate statement: the one above cannot delete what it wrote).
  -- Only groups the old rows were in can have been emptied.
  IF emptied > 0 THEN
    DELETE FROM usage_month_totals totals
      USING (SELECT DISTINCT account_id, month, type, region_id FROM old_lines) gone
      WHERE totals.lines = 0 AND totals.account_id = gone.account_id AND totals.month = gone.month
        AND totals.type = gone.type AND totals.region_id = gone.region_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION usage_month_totals_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM usage_month_totals;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER usage_month_totals_insert AFTER INSERT ON usage_lines
  REFERENCING NEW TABLE AS new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION usage_month_totals_apply();
--> statement-breakpoint
CREATE TRIGGER usage_month_totals_update AFTER UPDATE ON usage_lines
  REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION usage_month_totals_apply();
--> statement-breakpoint
CREATE TRIGGER usage_month_totals_delete AFTER DELETE ON usage_lines
  REFERENCING OLD TABLE AS old_lines
  FOR EACH STATEMENT EXECUTE FUNCTION usage_month_totals_apply();
--> statement-breakpoint
CREATE TRIGGER usage_month_totals_truncate AFTER TRUNCATE ON usage_lines
  FOR EACH STATEMENT EXECUTE FUNCTION usage_month_totals_clear();
--> statement-breakpoint
-- The lines already there, summed once. The triggers above exist already and hold their lock on
-- usage_lines until this migration commits: no write can fall between the two.
INSERT INTO usage_month_totals (account_id, month, type, region_id, flavor, instance_type, volume_type,
    billing_metric_name, billing_feature_name, billing_value_unit, currency, billing_value, cost, unpriced_lines, lines)
  SELECT account_id, month, type, region_id, flavor, instance_type, volume_type,
      billing_metric_name, billing_feature_name, billing_value_unit, currency,
      sum(billing_value), coalesce(sum(cost), 0), count(*) FILTER (WHERE cost IS NULL), count(*)
    FROM usage_lines
    GROUP BY account_id, month, type, region_id, flavor, instance_type, volume_type,
      billing_metric_name, billing_feature_name, billing_value_unit, currency;
