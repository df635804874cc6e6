CREATE INDEX "apps_handle_prefix_idx" ON "apps" USING btree (lower("handle") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "apps_search_trgm_idx" ON "apps" USING gin (lower(coalesce("handle", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "deployments_search_trgm_idx" ON "deployments" USING gin (lower(coalesce("git_ref", '') || ' ' || coalesce("git_commit_sha", '') || ' ' || coalesce("docker_image", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "services_handle_prefix_idx" ON "services" USING btree (lower("handle") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "services_search_trgm_idx" ON "services" USING gin (lower(coalesce("handle", '') || ' ' || coalesce("docker_repo", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sources_search_trgm_idx" ON "sources" USING gin (lower(coalesce("display_name", '') || ' ' || coalesce("url", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "databases_handle_prefix_idx" ON "databases" USING btree (lower("handle") text_pattern_ops);--> statement-breakpoint
CREATE INDEX "databases_search_trgm_idx" ON "databases" USING gin (lower(coalesce("handle", '') || ' ' || coalesce("type", '') || ' ' || coalesce("docker_repo", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "vhosts_search_trgm_idx" ON "vhosts" USING gin (lower(coalesce("user_domain", '') || ' ' || coalesce("virtual_domain", '') || ' ' || coalesce("external_host", '') || ' ' || coalesce("default_name", '')) gin_trgm_ops);