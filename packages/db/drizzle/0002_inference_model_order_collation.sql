DROP INDEX "inference_models_name_id_idx";--> statement-breakpoint
DROP INDEX "inference_models_category_id_idx";--> statement-breakpoint
DROP INDEX "inference_models_developer_id_idx";--> statement-breakpoint
CREATE INDEX "inference_models_name_id_idx" ON "inference_models" USING btree ("name" collate "C","id");--> statement-breakpoint
CREATE INDEX "inference_models_category_id_idx" ON "inference_models" USING btree ("category" collate "C","id");--> statement-breakpoint
CREATE INDEX "inference_models_developer_id_idx" ON "inference_models" USING btree ("developer" collate "C","id");