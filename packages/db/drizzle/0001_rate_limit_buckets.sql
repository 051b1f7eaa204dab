CREATE TABLE "rate_limit_buckets" (
	"token_id" integer PRIMARY KEY NOT NULL,
	"tokens" double precision NOT NULL,
	"updated" timestamp with time zone NOT NULL,
	"allowed" boolean NOT NULL
);
--> statement-breakpoint
ALTER TABLE "rate_limit_buckets" ADD CONSTRAINT "rate_limit_buckets_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE cascade ON UPDATE no action;