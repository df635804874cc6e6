CREATE TABLE "code_scan_results" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"operation_id" integer NOT NULL,
	"dockerfile_present" boolean DEFAULT false NOT NULL,
	"procfile_present" boolean DEFAULT false NOT NULL,
	"berth_yml_present" boolean DEFAULT false NOT NULL,
	"dockerfile_data" text,
	"procfile_data" text,
	"berth_yml_data" text,
	"languages_detected" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "configurations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"env" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "containers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"release_id" integer NOT NULL,
	"docker_name" text NOT NULL,
	"host" text NOT NULL,
	"aws_instance_id" text DEFAULT '' NOT NULL,
	"instance_class" text DEFAULT 'm5' NOT NULL,
	"status" text DEFAULT 'starting' NOT NULL,
	"layer" text DEFAULT 'app' NOT NULL,
	"memory_limit" integer NOT NULL,
	"port" integer DEFAULT 0 NOT NULL,
	"port_mapping" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "database_images" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"version" text NOT NULL,
	"description" text NOT NULL,
	"docker_repo" text NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"discoverable" boolean DEFAULT true NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	"eol_at" timestamp (3) with time zone,
	"pitr_supported" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deployments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"operation_id" integer NOT NULL,
	"configuration_id" integer,
	"image_id" integer,
	"source_id" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"docker_image" text,
	"docker_repository_url" text,
	"git_repository_url" text,
	"git_ref" text,
	"git_commit_sha" text,
	"git_commit_url" text,
	"git_commit_message" text,
	"git_commit_timestamp" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "images" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"docker_repo" text,
	"docker_ref" text,
	"git_repo" text,
	"git_ref" text,
	"exposed_ports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operation_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"operation_id" integer NOT NULL,
	"line" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "operations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"environment_id" integer,
	"resource_type" text NOT NULL,
	"resource_id" integer NOT NULL,
	"resource_handle" text DEFAULT '' NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"user_id" uuid,
	"user_name" text DEFAULT '' NOT NULL,
	"user_email" text DEFAULT '' NOT NULL,
	"git_ref" text,
	"docker_ref" text,
	"container_count" integer,
	"container_size" integer,
	"disk_size" integer,
	"instance_profile" text,
	"provisioned_iops" integer DEFAULT 0 NOT NULL,
	"env" jsonb,
	"note" text DEFAULT '' NOT NULL,
	"automated" boolean DEFAULT false NOT NULL,
	"cancelled" boolean DEFAULT false NOT NULL,
	"aborted" boolean DEFAULT false NOT NULL,
	"immediate" boolean DEFAULT false NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp (3) with time zone,
	"started_at" timestamp (3) with time zone,
	"finished_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "releases" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"service_id" integer NOT NULL,
	"docker_repo" text DEFAULT '' NOT NULL,
	"docker_ref" text DEFAULT '' NOT NULL,
	"retired_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_definitions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"process_type" text NOT NULL,
	"command" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "services" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment_id" integer NOT NULL,
	"app_id" integer,
	"database_id" integer,
	"handle" text NOT NULL,
	"process_type" text DEFAULT 'cmd' NOT NULL,
	"command" text,
	"docker_repo" text DEFAULT '' NOT NULL,
	"docker_ref" text DEFAULT '' NOT NULL,
	"container_count" integer DEFAULT 1 NOT NULL,
	"container_memory_limit_mb" integer DEFAULT 512 NOT NULL,
	"instance_class" text DEFAULT 'm5' NOT NULL,
	"force_zero_downtime" boolean DEFAULT false NOT NULL,
	"naive_health_check" boolean DEFAULT false NOT NULL,
	"stop_timeout" integer,
	"current_release_id" integer,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"display_name" text,
	"url" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "deployment_method" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "current_configuration_id" integer;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "current_deployment_id" integer;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "current_image_id" integer;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "current_source_id" integer;--> statement-breakpoint
ALTER TABLE "databases" ADD COLUMN "database_image_id" integer;--> statement-breakpoint
ALTER TABLE "code_scan_results" ADD CONSTRAINT "code_scan_results_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "configurations" ADD CONSTRAINT "configurations_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "containers" ADD CONSTRAINT "containers_release_id_releases_id_fk" FOREIGN KEY ("release_id") REFERENCES "public"."releases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deployments" ADD CONSTRAINT "deployments_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "images" ADD CONSTRAINT "images_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operation_logs" ADD CONSTRAINT "operation_logs_operation_id_operations_id_fk" FOREIGN KEY ("operation_id") REFERENCES "public"."operations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "operations" ADD CONSTRAINT "operations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "releases" ADD CONSTRAINT "releases_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_definitions" ADD CONSTRAINT "service_definitions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sources" ADD CONSTRAINT "sources_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "configurations_app_idx" ON "configurations" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "containers_release_idx" ON "containers" USING btree ("release_id");--> statement-breakpoint
CREATE UNIQUE INDEX "database_images_type_version_unique" ON "database_images" USING btree ("type","version");--> statement-breakpoint
CREATE INDEX "deployments_app_idx" ON "deployments" USING btree ("app_id");--> statement-breakpoint
CREATE INDEX "operation_logs_operation_idx" ON "operation_logs" USING btree ("operation_id","id");--> statement-breakpoint
CREATE INDEX "operations_queue_idx" ON "operations" USING btree ("status","id");--> statement-breakpoint
CREATE INDEX "operations_org_idx" ON "operations" USING btree ("organization_id","updated_at");--> statement-breakpoint
CREATE INDEX "operations_env_idx" ON "operations" USING btree ("environment_id","updated_at");--> statement-breakpoint
CREATE INDEX "operations_resource_idx" ON "operations" USING btree ("resource_type","resource_id");--> statement-breakpoint
CREATE INDEX "releases_service_idx" ON "releases" USING btree ("service_id");--> statement-breakpoint
CREATE INDEX "services_env_idx" ON "services" USING btree ("environment_id");--> statement-breakpoint
CREATE INDEX "services_app_idx" ON "services" USING btree ("app_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sources_org_url_unique" ON "sources" USING btree ("organization_id","url");