ALTER TABLE "buckets" ADD COLUMN "lifecycle_days" integer;--> statement-breakpoint
ALTER TABLE "buckets" ADD COLUMN "public" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "storages" ADD COLUMN "expires" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "storages" ADD COLUMN "server_alias" text;--> statement-breakpoint
ALTER TABLE "storages" ADD CONSTRAINT "storages_server_alias_unique" UNIQUE("server_alias");--> statement-breakpoint
ALTER TABLE "buckets" ADD CONSTRAINT "buckets_lifecycle_days_check" CHECK ("buckets"."lifecycle_days" > 0);--> statement-breakpoint
ALTER TABLE "storages" ADD CONSTRAINT "storages_sftp_settings_check" CHECK ("storages"."type" = 'sftp' or ("storages"."expires" is null and "storages"."server_alias" is null));--> statement-breakpoint
ALTER TABLE "storages" ADD CONSTRAINT "storages_server_alias_lower_check" CHECK ("storages"."server_alias" = lower("storages"."server_alias"));