CREATE TABLE "activity_report_files" (
	"report_id" integer PRIMARY KEY NOT NULL,
	"csv" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "activity_reports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"environment_id" integer NOT NULL,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone NOT NULL,
	"filename" text NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by_id" uuid,
	"operation_count" integer DEFAULT 0 NOT NULL,
	"ready_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "privileged_activities" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"environment_id" integer,
	"kind" text NOT NULL,
	"actor_id" uuid,
	"actor_name" text DEFAULT '' NOT NULL,
	"actor_email" text DEFAULT '' NOT NULL,
	"subject_id" uuid,
	"subject_name" text DEFAULT '' NOT NULL,
	"subject_email" text DEFAULT '' NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity_report_files" ADD CONSTRAINT "activity_report_files_report_id_activity_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."activity_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_reports" ADD CONSTRAINT "activity_reports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_reports" ADD CONSTRAINT "activity_reports_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "activity_reports" ADD CONSTRAINT "activity_reports_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privileged_activities" ADD CONSTRAINT "privileged_activities_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privileged_activities" ADD CONSTRAINT "privileged_activities_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privileged_activities" ADD CONSTRAINT "privileged_activities_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privileged_activities" ADD CONSTRAINT "privileged_activities_subject_id_users_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "activity_reports_env_window_unique" ON "activity_reports" USING btree ("environment_id","starts_at","ends_at");--> statement-breakpoint
CREATE UNIQUE INDEX "activity_reports_env_on_demand_pending_unique" ON "activity_reports" USING btree ("environment_id") WHERE kind = 'on_demand' and status = 'pending';--> statement-breakpoint
CREATE INDEX "activity_reports_env_idx" ON "activity_reports" USING btree ("environment_id","ends_at","id");--> statement-breakpoint
CREATE INDEX "activity_reports_pending_idx" ON "activity_reports" USING btree ("organization_id","id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "privileged_activities_org_idx" ON "privileged_activities" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "operations_env_created_idx" ON "operations" USING btree ("environment_id","created_at","id");