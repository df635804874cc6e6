CREATE TABLE "saml_configurations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"entity_id" text NOT NULL,
	"sign_in_url" text NOT NULL,
	"sign_out_url" text,
	"name_format" text,
	"certificate" text NOT NULL,
	"metadata_url" text,
	"handle" text,
	"jit_enabled" boolean DEFAULT false NOT NULL,
	"default_role_id" uuid,
	"sp_certificate" text NOT NULL,
	"sp_private_key_sealed" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saml_identities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name_id" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saml_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"value" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"landing_page" text,
	"duration_seconds" text,
	"browser_binding_hash" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saml_used_messages" (
	"organization_id" uuid NOT NULL,
	"message_id" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "saml_used_messages_organization_id_message_id_pk" PRIMARY KEY("organization_id","message_id")
);
--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "sso_organization_id" uuid;--> statement-breakpoint
ALTER TABLE "saml_configurations" ADD CONSTRAINT "saml_configurations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_configurations" ADD CONSTRAINT "saml_configurations_default_role_id_roles_id_fk" FOREIGN KEY ("default_role_id") REFERENCES "public"."roles"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_identities" ADD CONSTRAINT "saml_identities_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_identities" ADD CONSTRAINT "saml_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_requests" ADD CONSTRAINT "saml_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saml_used_messages" ADD CONSTRAINT "saml_used_messages_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saml_configurations_organization_unique" ON "saml_configurations" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "saml_configurations_handle_unique" ON "saml_configurations" USING btree (lower("handle"));--> statement-breakpoint
CREATE UNIQUE INDEX "saml_identities_organization_name_id_unique" ON "saml_identities" USING btree ("organization_id","name_id");--> statement-breakpoint
CREATE INDEX "saml_identities_user_idx" ON "saml_identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "saml_requests_expires_idx" ON "saml_requests" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "saml_used_messages_expires_idx" ON "saml_used_messages" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_sso_organization_id_organizations_id_fk" FOREIGN KEY ("sso_organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;