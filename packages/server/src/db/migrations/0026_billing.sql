CREATE TABLE "billing_details" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organization_details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"payment_source_id" uuid,
	"customer_provider" text,
	"customer_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payment_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"billing_detail_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"external_id" text NOT NULL,
	"stripe_token_id" text DEFAULT '' NOT NULL,
	"stripe_type" text NOT NULL,
	"description" text NOT NULL,
	"metadata" jsonb,
	"deactivated_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trials" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"billing_detail_id" uuid NOT NULL,
	"range_begin" timestamp (3) with time zone NOT NULL,
	"range_end" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_details" ADD CONSTRAINT "billing_details_id_organizations_id_fk" FOREIGN KEY ("id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "billing_details" ADD CONSTRAINT "billing_details_payment_source_id_payment_sources_id_fk" FOREIGN KEY ("payment_source_id") REFERENCES "public"."payment_sources"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_sources" ADD CONSTRAINT "payment_sources_billing_detail_id_billing_details_id_fk" FOREIGN KEY ("billing_detail_id") REFERENCES "public"."billing_details"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trials" ADD CONSTRAINT "trials_billing_detail_id_billing_details_id_fk" FOREIGN KEY ("billing_detail_id") REFERENCES "public"."billing_details"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payment_sources_billing_detail_idx" ON "payment_sources" USING btree ("billing_detail_id");--> statement-breakpoint
CREATE UNIQUE INDEX "payment_sources_provider_external_unique" ON "payment_sources" USING btree ("provider","external_id");--> statement-breakpoint
CREATE INDEX "trials_billing_detail_idx" ON "trials" USING btree ("billing_detail_id");