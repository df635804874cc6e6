ALTER TABLE "organizations" ADD COLUMN "queue_turn_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "tokens" ADD COLUMN "parent_id" uuid;--> statement-breakpoint
ALTER TABLE "tokens" ADD CONSTRAINT "tokens_parent_id_tokens_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "operations_org_queued_idx" ON "operations" USING btree ("organization_id") WHERE status = 'queued';--> statement-breakpoint
CREATE INDEX "operations_user_created_idx" ON "operations" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "tokens_parent_idx" ON "tokens" USING btree ("parent_id");