CREATE TABLE "cloud_secrets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"region_id" integer NOT NULL,
	"name" text NOT NULL,
	"secret_type" text NOT NULL,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"algorithm" text,
	"bit_length" integer,
	"mode" text,
	"content_types" jsonb,
	"payload_encrypted" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"expiration" timestamp with time zone
);
--> statement-breakpoint
DROP INDEX "gpu_images_account_id_project_id_region_id_idx";--> statement-breakpoint
ALTER TABLE "cloud_regions" ADD COLUMN "country" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "cloud_regions" ADD COLUMN "zone" text;--> statement-breakpoint
ALTER TABLE "cloud_regions" ADD COLUMN "access_level" text DEFAULT 'core' NOT NULL;--> statement-breakpoint
ALTER TABLE "cloud_regions" ADD COLUMN "state" text DEFAULT 'ACTIVE' NOT NULL;--> statement-breakpoint
ALTER TABLE "cloud_regions" ADD COLUMN "latitude" double precision;--> statement-breakpoint
ALTER TABLE "cloud_regions" ADD COLUMN "longitude" double precision;--> statement-breakpoint
ALTER TABLE "cloud_regions" ADD COLUMN "capabilities" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "cloud_regions" ADD COLUMN "volume_types" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "cloud_regions" ADD COLUMN "file_share_types" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "cloud_regions" ADD COLUMN "keystone_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "cloud_regions" ADD COLUMN "created" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "gpu_images" ADD COLUMN "cluster_type" text DEFAULT 'virtual' NOT NULL;--> statement-breakpoint
ALTER TABLE "cloud_tasks" ADD COLUMN "error" text;--> statement-breakpoint
ALTER TABLE "cloud_tasks" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "cloud_tasks" ADD COLUMN "acknowledged_by" integer;--> statement-breakpoint
ALTER TABLE "usage_lines" ADD COLUMN "project_id" integer;--> statement-breakpoint
ALTER TABLE "usage_lines" ADD COLUMN "resource_id" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_lines" ADD COLUMN "resource_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_lines" ADD COLUMN "first_seen" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "usage_lines" ADD COLUMN "last_seen" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "usage_lines" ADD COLUMN "details" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "cloud_secrets" ADD CONSTRAINT "cloud_secrets_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_secrets" ADD CONSTRAINT "cloud_secrets_region_id_cloud_regions_id_fk" FOREIGN KEY ("region_id") REFERENCES "public"."cloud_regions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cloud_secrets" ADD CONSTRAINT "cloud_secrets_project_fk" FOREIGN KEY ("account_id","project_id") REFERENCES "public"."cloud_projects"("account_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cloud_secrets_account_id_project_id_region_id_idx" ON "cloud_secrets" USING btree ("account_id","project_id","region_id","name");--> statement-breakpoint
CREATE INDEX "gpu_images_account_id_project_id_region_id_idx" ON "gpu_images" USING btree ("account_id","project_id","region_id","cluster_type","name");--> statement-breakpoint
ALTER TABLE "cloud_projects" ADD CONSTRAINT "cloud_projects_account_id_name_unique" UNIQUE("account_id","name");