DROP INDEX "apps_handle_prefix_idx";--> statement-breakpoint
DROP INDEX "apps_search_trgm_idx";--> statement-breakpoint
DROP INDEX "deployments_search_trgm_idx";--> statement-breakpoint
DROP INDEX "services_handle_prefix_idx";--> statement-breakpoint
DROP INDEX "services_search_trgm_idx";--> statement-breakpoint
DROP INDEX "sources_search_trgm_idx";--> statement-breakpoint
DROP INDEX "databases_handle_prefix_idx";--> statement-breakpoint
DROP INDEX "databases_search_trgm_idx";--> statement-breakpoint
DROP INDEX "vhosts_search_trgm_idx";--> statement-breakpoint
-- A deployment keeps its app's environment (apps never move), so that search can lead its index by it:
-- added empty, filled from the apps, then required.
ALTER TABLE "deployments" ADD COLUMN "environment_id" integer;--> statement-breakpoint
UPDATE "deployments" SET "environment_id" = "apps"."environment_id" FROM "apps" WHERE "apps"."id" = "deployments"."app_id";--> statement-breakpoint
ALTER TABLE "deployments" ALTER COLUMN "environment_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "apps_env_handle_prefix_idx" ON "apps" USING btree ("environment_id",lower("handle") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "apps_env_search_trgm_idx" ON "apps" USING gin ("environment_id",lower(coalesce("handle", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "deployments_env_search_trgm_idx" ON "deployments" USING gin ("environment_id",lower(coalesce("git_ref", '') || ' ' || coalesce("git_commit_sha", '') || ' ' || coalesce("docker_image", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "services_env_handle_prefix_idx" ON "services" USING btree ("environment_id",lower("handle") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "services_env_search_trgm_idx" ON "services" USING gin ("environment_id",lower(coalesce("handle", '') || ' ' || coalesce("docker_repo", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sources_org_search_trgm_idx" ON "sources" USING gin ("organization_id",lower(coalesce("display_name", '') || ' ' || coalesce("url", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "databases_env_handle_prefix_idx" ON "databases" USING btree ("environment_id",lower("handle") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "databases_env_search_trgm_idx" ON "databases" USING gin ("environment_id",lower(coalesce("handle", '') || ' ' || coalesce("type", '') || ' ' || coalesce("docker_repo", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "vhosts_env_search_trgm_idx" ON "vhosts" USING gin ("environment_id",lower(coalesce("user_domain", '') || ' ' || coalesce("virtual_domain", '') || ' ' || coalesce("external_host", '') || ' ' || coalesce("default_name", '')) gin_trgm_ops);