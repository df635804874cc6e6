ALTER TABLE "vhosts" ADD COLUMN "default_name" text;--> statement-breakpoint
-- Default endpoints made before names were readable keep the hostname they have (app-<id>).
UPDATE "vhosts" SET "default_name" = 'app-' || "id" WHERE "is_default";--> statement-breakpoint
CREATE UNIQUE INDEX "vhosts_default_name_unique" ON "vhosts" USING btree ("default_name");
