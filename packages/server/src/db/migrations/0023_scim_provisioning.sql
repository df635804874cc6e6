CREATE TABLE "scim_configurations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"default_role_id" uuid NOT NULL,
	"unique_identifier" text DEFAULT 'email' NOT NULL,
	"token_id" uuid,
	"token_hash" text,
	"token_created_at" timestamp (3) with time zone,
	"token_created_by" uuid,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "scim_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"external_id" text,
	"given_name" text,
	"family_name" text,
	"active" boolean DEFAULT true NOT NULL,
	"created_by_provisioning" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scim_configurations" ADD CONSTRAINT "scim_configurations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_configurations" ADD CONSTRAINT "scim_configurations_default_role_id_roles_id_fk" FOREIGN KEY ("default_role_id") REFERENCES "public"."roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_configurations" ADD CONSTRAINT "scim_configurations_token_created_by_users_id_fk" FOREIGN KEY ("token_created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scim_users" ADD CONSTRAINT "scim_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "scim_configurations_organization_unique" ON "scim_configurations" USING btree ("organization_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_configurations_token_hash_unique" ON "scim_configurations" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_users_user_unique" ON "scim_users" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "scim_users_organization_user_unique" ON "scim_users" USING btree ("organization_id","user_id");--> statement-breakpoint
CREATE INDEX "scim_users_organization_external_idx" ON "scim_users" USING btree ("organization_id","external_id");--> statement-breakpoint
CREATE UNIQUE INDEX "roles_scim_name_unique" ON "roles" USING btree ("organization_id",lower("name")) WHERE "roles"."scim_created";