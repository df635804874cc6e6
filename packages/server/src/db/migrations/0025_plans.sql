CREATE TABLE "active_plans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"plan_id" bigint NOT NULL,
	"available_plans" text[] NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "plans" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"cost_cents" integer NOT NULL,
	"container_memory_limit" integer NOT NULL,
	"included_container_mb" integer NOT NULL,
	"disk_limit" integer NOT NULL,
	"included_disk_gb" integer NOT NULL,
	"vhost_limit" integer NOT NULL,
	"included_vhosts" integer NOT NULL,
	"environment_limit" integer,
	"ephemeral_session_limit" integer NOT NULL,
	"manual_backup_limit_per_db" integer NOT NULL,
	"automated_backup_limit_per_db" integer NOT NULL,
	"cpu_allowed_profiles" integer NOT NULL,
	"horizontal_autoscaling" boolean NOT NULL,
	"vertical_autoscaling" boolean NOT NULL,
	"compliance_dashboard_access" boolean NOT NULL,
	"discount_percent" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plans_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "active_plans" ADD CONSTRAINT "active_plans_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "active_plans" ADD CONSTRAINT "active_plans_plan_id_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."plans"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "active_plans_organization_unique" ON "active_plans" USING btree ("organization_id");
--> statement-breakpoint
-- The plans of spec 1 §9 (core PLAN_CATALOG; plans.test.ts holds these rows to it). The operator changes
-- them with `npm run admin -- plans set`. Organizations made before this migration get no active plan:
-- they are on the legacy plan (enterprise figures) until the operator assigns one.
INSERT INTO "plans" ("name", "cost_cents", "container_memory_limit", "included_container_mb", "disk_limit", "included_disk_gb", "vhost_limit", "included_vhosts", "environment_limit", "ephemeral_session_limit", "manual_backup_limit_per_db", "automated_backup_limit_per_db", "cpu_allowed_profiles", "horizontal_autoscaling", "vertical_autoscaling", "compliance_dashboard_access", "discount_percent") VALUES
  ('none', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, false, false, false, 0),
  ('starter', 0, 3072, 3072, 20, 20, 1, 1, 2, 1, 5, 7, 1, false, false, false, 0),
  ('development', 0, 3072, 3072, 20, 20, 1, 1, 3, 1, 5, 7, 1, false, false, false, 0),
  ('growth', 18500, 11264, 3072, 60, 10, 3, 1, 10, 2, 10, 30, 1, false, false, false, 15),
  ('scale', 59900, 40960, 10240, 200, 100, 20, 4, 25, 3, 20, 90, 7, true, true, false, 20),
  ('production', 49900, 262144, 0, 2000, 0, 100, 0, NULL, 10, 50, 365, 7, true, true, true, 0),
  ('enterprise', 0, 1048576, 0, 16000, 0, 1000, 0, NULL, 50, 200, 1000, 7, true, true, true, 0);
