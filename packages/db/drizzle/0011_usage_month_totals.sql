CREATE TABLE "usage_month_totals" (
	"account_id" integer NOT NULL,
	"month" text NOT NULL,
	"type" text NOT NULL,
	"region_id" integer NOT NULL,
	"flavor" text NOT NULL,
	"instance_type" text,
	"volume_type" text,
	"billing_metric_name" text NOT NULL,
	"billing_feature_name" text NOT NULL,
	"billing_value_unit" text NOT NULL,
	"currency" text NOT NULL,
	"billing_value" numeric NOT NULL,
	"cost" numeric NOT NULL,
	"unpriced_lines" integer NOT NULL,
	"lines" integer NOT NULL,
	CONSTRAINT "usage_month_totals_group_unique" UNIQUE NULLS NOT DISTINCT("account_id","month","type","region_id","flavor","instance_type","volume_type","billing_metric_name","billing_feature_name","billing_value_unit","currency")
);
