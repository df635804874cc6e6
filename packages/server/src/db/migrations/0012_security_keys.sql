CREATE TABLE "u2f_challenges" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"challenge" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "u2f_devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"version" text DEFAULT 'WEBAUTHN' NOT NULL,
	"credential_id" text NOT NULL,
	"public_key" text NOT NULL,
	"sign_count" bigint DEFAULT 0 NOT NULL,
	"transports" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "u2f_challenges" ADD CONSTRAINT "u2f_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "u2f_devices" ADD CONSTRAINT "u2f_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "u2f_challenges_user_idx" ON "u2f_challenges" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "u2f_challenges_challenge_unique" ON "u2f_challenges" USING btree ("challenge");--> statement-breakpoint
CREATE INDEX "u2f_devices_user_idx" ON "u2f_devices" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "u2f_devices_credential_unique" ON "u2f_devices" USING btree ("credential_id");