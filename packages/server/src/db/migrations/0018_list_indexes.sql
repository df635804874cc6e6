DROP INDEX "services_env_idx";--> statement-breakpoint
DROP INDEX "operations_org_idx";--> statement-breakpoint
DROP INDEX "operations_env_idx";--> statement-breakpoint
CREATE INDEX "services_env_cost_idx" ON "services" USING btree ("environment_id","instance_class","container_count","container_memory_limit_mb");--> statement-breakpoint
CREATE INDEX "operations_org_idx" ON "operations" USING btree ("organization_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "operations_env_idx" ON "operations" USING btree ("environment_id","updated_at","id");