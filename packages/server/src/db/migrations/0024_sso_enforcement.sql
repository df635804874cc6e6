CREATE TABLE "cli_token_pickups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code_hash" text NOT NULL,
	"user_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"duration_seconds" integer NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "whitelist_memberships" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "cli_token_pickups" ADD CONSTRAINT "cli_token_pickups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cli_token_pickups" ADD CONSTRAINT "cli_token_pickups_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whitelist_memberships" ADD CONSTRAINT "whitelist_memberships_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "whitelist_memberships" ADD CONSTRAINT "whitelist_memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cli_token_pickups_code_unique" ON "cli_token_pickups" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "cli_token_pickups_expires_idx" ON "cli_token_pickups" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "whitelist_memberships_organization_user_unique" ON "whitelist_memberships" USING btree ("organization_id","user_id");--> statement-breakpoint
CREATE INDEX "whitelist_memberships_user_idx" ON "whitelist_memberships" USING btree ("user_id");--> statement-breakpoint
-- An SSO exception lasts while its user is a member: when someone's last role in an organization goes
-- (member removal, role deletion, provisioning, whatever removes it), so does their exception there. A
-- statement trigger, so the memberships a role's deletion cascades to count too (by then the role row is
-- gone, which a row trigger's lookup of the organization would miss); the list is short.
CREATE FUNCTION "whitelist_memberships_follow_members"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "whitelist_memberships" w
  WHERE NOT EXISTS (
    SELECT 1 FROM "memberships" m JOIN "roles" r ON r."id" = m."role_id"
    WHERE m."user_id" = w."user_id" AND r."organization_id" = w."organization_id"
  );
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "whitelist_memberships_follow_members" AFTER DELETE ON "memberships"
  FOR EACH STATEMENT EXECUTE FUNCTION "whitelist_memberships_follow_members"();
