CREATE TABLE "log_drains" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment_id" integer NOT NULL,
	"handle" text NOT NULL,
	"service_type" text NOT NULL,
	"drain_type" text NOT NULL,
	"drain_host" text DEFAULT '' NOT NULL,
	"drain_port" integer,
	"url_sealed" text,
	"logging_token_sealed" text,
	"database_id" integer,
	"drain_apps" boolean DEFAULT true NOT NULL,
	"drain_databases" boolean DEFAULT true NOT NULL,
	"drain_ephemeral_sessions" boolean DEFAULT true NOT NULL,
	"drain_proxies" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"shipped_until" timestamp (3) with time zone,
	"lines_sent" bigint DEFAULT 0 NOT NULL,
	"lines_dropped" bigint DEFAULT 0 NOT NULL,
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
ALTER TABLE "log_drains" ADD CONSTRAINT "log_drains_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "log_drains" ADD CONSTRAINT "log_drains_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "log_drains_env_idx" ON "log_drains" USING btree ("environment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "log_drains_env_handle_idx" ON "log_drains" USING btree ("environment_id",lower("handle"));--> statement-breakpoint
CREATE INDEX "log_drains_status_idx" ON "log_drains" USING btree ("status");