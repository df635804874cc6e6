CREATE TABLE "home_feedback_dismissals" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"dismissed_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "home_feedback_dismissals" ADD CONSTRAINT "home_feedback_dismissals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "apps_env_source_idx" ON "apps" USING btree ("environment_id","current_source_id","current_deployment_id");