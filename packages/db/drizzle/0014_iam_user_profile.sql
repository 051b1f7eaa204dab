ALTER TABLE "users" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "company" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "lang" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "auth_types" text[] DEFAULT '{password}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "activated" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_lang_check" CHECK ("users"."lang" in ('de', 'en', 'ru', 'zh', 'az'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_auth_types_check" CHECK ("users"."auth_types" <@ array['password', 'sso', 'github', 'google-oauth2']::text[] and cardinality("users"."auth_types") > 0);