-- cdn_feature_periods is kept by the database: when a CDN resource's shielding POP is set or cleared, or
-- the logs uploader configs that name a resource change, the resource's open period of that paid feature
-- is closed or a new one opened, in the writing statement's transaction. `active` says whether the feature
-- is on now; nothing is written when it already was (or was not).
CREATE FUNCTION cdn_feature_period_sync(p_account integer, p_resource integer, p_feature text, p_active boolean) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_active THEN
    INSERT INTO cdn_feature_periods (account_id, resource_id, feature, active_from)
      VALUES (p_account, p_resource, p_feature, now())
      ON CONFLICT (resource_id, feature) WHERE active_to IS NULL DO NOTHING;
  ELSE
    UPDATE cdn_feature_periods SET active_to = now()
      WHERE resource_id = p_resource AND feature = p_feature AND active_to IS NULL;
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION cdn_shield_period_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM cdn_feature_period_sync(OLD.account_id, OLD.id, 'shield', false);
    PERFORM cdn_feature_period_sync(OLD.account_id, OLD.id, 'raw_logs', false);
    RETURN NULL;
  END IF;
  PERFORM cdn_feature_period_sync(NEW.account_id, NEW.id, 'shield', NEW.shielding_pop_id IS NOT NULL AND NOT NEW.deleted);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER cdn_resources_shield_period AFTER INSERT OR DELETE OR UPDATE OF shielding_pop_id, deleted ON cdn_resources
  FOR EACH ROW EXECUTE FUNCTION cdn_shield_period_apply();
--> statement-breakpoint
-- Raw logs are on for a resource while an enabled config names it, or covers all of the account's resources.
CREATE FUNCTION cdn_raw_logs_periods_sync(p_account integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  resource record;
BEGIN
  FOR resource IN
    SELECT r.id, EXISTS (
        SELECT 1 FROM logs_uploader_configs c
          WHERE c.account_id = p_account AND c.enabled
            AND (c.for_all_resources OR EXISTS (
              SELECT 1 FROM logs_uploader_config_resources cr WHERE cr.config_id = c.id AND cr.resource_id = r.id))
      ) AS active
      FROM cdn_resources r WHERE r.account_id = p_account ORDER BY r.id
  LOOP
    PERFORM cdn_feature_period_sync(p_account, resource.id, 'raw_logs', resource.active);
  END LOOP;
END $$;
--> statement-breakpoint
CREATE FUNCTION cdn_raw_logs_period_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM cdn_raw_logs_periods_sync(CASE WHEN TG_OP = 'DELETE' THEN OLD.account_id ELSE NEW.account_id END);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER logs_uploader_configs_raw_logs_period AFTER INSERT OR DELETE OR UPDATE OF enabled, for_all_resources ON logs_uploader_configs
  FOR EACH ROW EXECUTE FUNCTION cdn_raw_logs_period_apply();
--> statement-breakpoint
CREATE TRIGGER logs_uploader_config_resources_raw_logs_period AFTER INSERT OR DELETE ON logs_uploader_config_resources
  FOR EACH ROW EXECUTE FUNCTION cdn_raw_logs_period_apply();
