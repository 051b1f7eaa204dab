CREATE TABLE "security_announce_versions" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"version" uuid NOT NULL
);
--> statement-breakpoint
ALTER TABLE "security_announce_versions" ADD CONSTRAINT "security_announce_versions_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;