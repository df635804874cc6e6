CREATE TABLE "usage_hours" (
	"organization_id" uuid NOT NULL,
	"hour" timestamp (3) with time zone NOT NULL,
	"m_class_mb" bigint DEFAULT 0 NOT NULL,
	"c_class_mb" bigint DEFAULT 0 NOT NULL,
	"r_class_mb" bigint DEFAULT 0 NOT NULL,
	"endpoints" integer DEFAULT 0 NOT NULL,
	"shared_endpoints" integer DEFAULT 0 NOT NULL,
	"disk_gb" bigint DEFAULT 0 NOT NULL,
	"extra_iops" bigint DEFAULT 0 NOT NULL,
	"backup_mb" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_hours_organization_id_hour_pk" PRIMARY KEY("organization_id","hour")
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"period_start" timestamp (3) with time zone NOT NULL,
	"period_end" timestamp (3) with time zone NOT NULL,
	"plan_name" text NOT NULL,
	"discount_percent" integer DEFAULT 0 NOT NULL,
	"lines" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"plan_cents" bigint NOT NULL,
	"usage_cents" bigint NOT NULL,
	"included_cents" bigint NOT NULL,
	"discount_cents" bigint NOT NULL,
	"total_cents" bigint NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "usage_hours" ADD CONSTRAINT "usage_hours_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_organization_period_unique" ON "invoices" USING btree ("organization_id","period_start");--> statement-breakpoint
CREATE INDEX "invoices_organization_end_idx" ON "invoices" USING btree ("organization_id","period_end");
