ALTER TABLE "activity_report_files" ALTER COLUMN "report_id" SET DATA TYPE bigint;--> statement-breakpoint
ALTER TABLE "activity_reports" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "privileged_activities" ADD COLUMN "role_type" text;--> statement-breakpoint
CREATE UNIQUE INDEX "support_attachments_stored_name_unique" ON "support_attachments" USING btree ("stored_name");--> statement-breakpoint
CREATE INDEX "support_attachments_user_created_idx" ON "support_attachments" USING btree ("user_id","created_at");