ALTER TABLE "operations" ADD COLUMN "previous_container_count" integer;--> statement-breakpoint
ALTER TABLE "operations" ADD COLUMN "previous_container_size" integer;--> statement-breakpoint
ALTER TABLE "operations" ADD COLUMN "previous_instance_profile" text;