CREATE TABLE "custom_resources" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"handle" text NOT NULL,
	"resource_type" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpc_peers" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"stack_id" integer NOT NULL,
	"connection_id" text DEFAULT '' NOT NULL,
	"connection_status" text DEFAULT 'pending' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"peer_account_id" text DEFAULT '' NOT NULL,
	"peer_vpc_id" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vpn_tunnels" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"stack_id" integer NOT NULL,
	"handle" text NOT NULL,
	"phase_1_alg" text DEFAULT '' NOT NULL,
	"phase_1_dh_group" text DEFAULT '' NOT NULL,
	"phase_1_lifetime" text DEFAULT '' NOT NULL,
	"phase_2_alg" text DEFAULT '' NOT NULL,
	"phase_2_dh_group" text DEFAULT '' NOT NULL,
	"phase_2_lifetime" text DEFAULT '' NOT NULL,
	"perfect_forward_secrecy" text DEFAULT '' NOT NULL,
	"auto" text DEFAULT '' NOT NULL,
	"our_gateway" text DEFAULT '' NOT NULL,
	"peer_gateway" text DEFAULT '' NOT NULL,
	"our_networks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"peer_networks" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"state" text DEFAULT 'unknown' NOT NULL,
	"tunnel_attributes" jsonb,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_attachments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"ticket_id" bigint,
	"token" text NOT NULL,
	"file_name" text NOT NULL,
	"media_type" text NOT NULL,
	"size" integer NOT NULL,
	"stored_name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "support_tickets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"subject" text NOT NULL,
	"description" text NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "custom_resources" ADD CONSTRAINT "custom_resources_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpc_peers" ADD CONSTRAINT "vpc_peers_stack_id_stacks_id_fk" FOREIGN KEY ("stack_id") REFERENCES "public"."stacks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vpn_tunnels" ADD CONSTRAINT "vpn_tunnels_stack_id_stacks_id_fk" FOREIGN KEY ("stack_id") REFERENCES "public"."stacks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_attachments" ADD CONSTRAINT "support_attachments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_attachments" ADD CONSTRAINT "support_attachments_ticket_id_support_tickets_id_fk" FOREIGN KEY ("ticket_id") REFERENCES "public"."support_tickets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "support_tickets" ADD CONSTRAINT "support_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custom_resources_organization_idx" ON "custom_resources" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "vpc_peers_stack_idx" ON "vpc_peers" USING btree ("stack_id","id");--> statement-breakpoint
CREATE INDEX "vpn_tunnels_stack_idx" ON "vpn_tunnels" USING btree ("stack_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "support_attachments_token_unique" ON "support_attachments" USING btree ("token");--> statement-breakpoint
CREATE INDEX "support_attachments_ticket_idx" ON "support_attachments" USING btree ("ticket_id");--> statement-breakpoint
CREATE INDEX "support_attachments_pending_idx" ON "support_attachments" USING btree ("user_id","created_at") WHERE ticket_id is null;--> statement-breakpoint
CREATE INDEX "support_tickets_user_idx" ON "support_tickets" USING btree ("user_id","id");