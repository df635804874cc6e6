DROP INDEX "operations_resource_idx";--> statement-breakpoint
CREATE INDEX "operations_env_failed_idx" ON "operations" USING btree ("environment_id","updated_at","id") WHERE status = 'failed';--> statement-breakpoint
CREATE INDEX "operations_resource_idx" ON "operations" USING btree ("resource_type","resource_id","id");