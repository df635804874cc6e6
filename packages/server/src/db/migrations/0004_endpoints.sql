CREATE TABLE "certificates" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment_id" integer NOT NULL,
	"common_name" text DEFAULT '' NOT NULL,
	"certificate_body" text NOT NULL,
	"leaf_certificate" text NOT NULL,
	"certificate_chain" text DEFAULT '' NOT NULL,
	"private_key" text NOT NULL,
	"private_key_algorithm" text DEFAULT '' NOT NULL,
	"not_before" timestamp (3) with time zone NOT NULL,
	"not_after" timestamp (3) with time zone NOT NULL,
	"issuer_organization" text DEFAULT '' NOT NULL,
	"issuer_common_name" text DEFAULT '' NOT NULL,
	"issuer_country" text DEFAULT '' NOT NULL,
	"issuer_website" text DEFAULT '' NOT NULL,
	"subject_country" text DEFAULT '' NOT NULL,
	"subject_state" text DEFAULT '' NOT NULL,
	"subject_locale" text DEFAULT '' NOT NULL,
	"subject_organization" text DEFAULT '' NOT NULL,
	"subject_alternative_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sha256_fingerprint" text NOT NULL,
	"acme" boolean DEFAULT false NOT NULL,
	"trusted" boolean DEFAULT false NOT NULL,
	"self_signed" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vhosts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment_id" integer NOT NULL,
	"service_id" integer NOT NULL,
	"certificate_id" integer,
	"type" text DEFAULT 'http' NOT NULL,
	"platform" text DEFAULT 'elb' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"acme" boolean DEFAULT false NOT NULL,
	"acme_status" text DEFAULT '' NOT NULL,
	"acme_configuration" jsonb,
	"acme_dns_challenge_host" text DEFAULT '' NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"internal" boolean DEFAULT false NOT NULL,
	"shared" boolean DEFAULT false NOT NULL,
	"ip_whitelist" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"container_port" integer,
	"container_ports" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"token_header" text,
	"load_balancing_algorithm" text DEFAULT 'round_robin' NOT NULL,
	"user_domain" text DEFAULT '' NOT NULL,
	"virtual_domain" text DEFAULT '' NOT NULL,
	"external_host" text,
	"internal_host" text,
	"docker_name" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "certificates" ADD CONSTRAINT "certificates_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vhosts" ADD CONSTRAINT "vhosts_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vhosts" ADD CONSTRAINT "vhosts_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vhosts" ADD CONSTRAINT "vhosts_certificate_id_certificates_id_fk" FOREIGN KEY ("certificate_id") REFERENCES "public"."certificates"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "certificates_env_idx" ON "certificates" USING btree ("environment_id");--> statement-breakpoint
CREATE INDEX "vhosts_env_idx" ON "vhosts" USING btree ("environment_id");--> statement-breakpoint
CREATE INDEX "vhosts_service_idx" ON "vhosts" USING btree ("service_id");--> statement-breakpoint
CREATE INDEX "vhosts_certificate_idx" ON "vhosts" USING btree ("certificate_id");