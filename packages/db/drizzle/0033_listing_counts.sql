CREATE TABLE "listing_counts" (
	"account_id" integer NOT NULL,
	"listing" text NOT NULL,
	"scope" text DEFAULT '' NOT NULL,
	"rows" bigint NOT NULL,
	CONSTRAINT "listing_counts_account_id_listing_scope_pk" PRIMARY KEY("account_id","listing","scope")
);
--> statement-breakpoint
ALTER TABLE "origin_groups" ADD COLUMN "related_resources" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "listing_counts" ADD CONSTRAINT "listing_counts_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "origin_groups_account_id_related_id_idx" ON "origin_groups" USING btree ("account_id",("related_resources" > 0),"id");