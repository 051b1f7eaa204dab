CREATE TABLE "broadcast_streams" (
	"account_id" integer NOT NULL,
	"broadcast_id" integer NOT NULL,
	"position" integer NOT NULL,
	"stream_id" integer NOT NULL,
	CONSTRAINT "broadcast_streams_broadcast_id_position_pk" PRIMARY KEY("broadcast_id","position"),
	CONSTRAINT "broadcast_streams_broadcast_id_stream_id_unique" UNIQUE("broadcast_id","stream_id")
);
--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_account_id_id_unique" UNIQUE("account_id","id");--> statement-breakpoint
ALTER TABLE "broadcast_streams" ADD CONSTRAINT "broadcast_streams_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_streams" ADD CONSTRAINT "broadcast_streams_broadcast_fk" FOREIGN KEY ("account_id","broadcast_id") REFERENCES "public"."broadcasts"("account_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_streams" ADD CONSTRAINT "broadcast_streams_stream_fk" FOREIGN KEY ("account_id","stream_id") REFERENCES "public"."streams"("account_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broadcast_streams_account_id_stream_id_idx" ON "broadcast_streams" USING btree ("account_id","stream_id","broadcast_id");--> statement-breakpoint
-- Each broadcast's one stream becomes its first (and only) stream.
INSERT INTO "broadcast_streams" ("account_id", "broadcast_id", "position", "stream_id") SELECT "account_id", "id", 0, "stream_id" FROM "broadcasts";--> statement-breakpoint
ALTER TABLE "broadcasts" DROP CONSTRAINT "broadcasts_stream_fk";--> statement-breakpoint
DROP INDEX "broadcasts_account_id_stream_id_idx";--> statement-breakpoint
ALTER TABLE "broadcasts" DROP COLUMN "stream_id";
