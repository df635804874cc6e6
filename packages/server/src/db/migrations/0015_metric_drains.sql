CREATE TABLE "metric_drains" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment_id" integer NOT NULL,
	"handle" text NOT NULL,
	"drain_type" text NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"configuration_sealed" text,
	"database_id" integer,
	"status" text DEFAULT 'pending' NOT NULL,
	"points_sent" bigint DEFAULT 0 NOT NULL,
	"last_error" text DEFAULT '' NOT NULL,
	"last_shipped_at" timestamp (3) with time zone,
	"retry_at" timestamp (3) with time zone,
	"failures" integer DEFAULT 0 NOT NULL,
	"shipper_id" text,
	"shipper_lease_until" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "metric_drains" ADD CONSTRAINT "metric_drains_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "metric_drains" ADD CONSTRAINT "metric_drains_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "metric_drains_env_idx" ON "metric_drains" USING btree ("environment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "metric_drains_env_handle_idx" ON "metric_drains" USING btree ("environment_id",lower("handle"));--> statement-breakpoint
CREATE INDEX "metric_drains_status_idx" ON "metric_drains" USING btree ("status");