CREATE INDEX "cdn_resources_account_id_proxy_ssl_data_id_idx" ON "cdn_resources" USING btree ("account_id","proxy_ssl_data_id");--> statement-breakpoint
CREATE INDEX "cdn_resources_account_id_proxy_ssl_ca_id_idx" ON "cdn_resources" USING btree ("account_id","proxy_ssl_ca_id");--> statement-breakpoint
CREATE INDEX "certificates_account_id_kind_id_idx" ON "certificates" USING btree ("account_id","kind","id");--> statement-breakpoint
CREATE INDEX "security_profiles_account_id_ip_address_idx" ON "security_profiles" USING btree ("account_id","ip_address");--> statement-breakpoint
CREATE INDEX "storages_account_id_type_id_live_idx" ON "storages" USING btree ("account_id","type","id") WHERE "storages"."deleted" is null;