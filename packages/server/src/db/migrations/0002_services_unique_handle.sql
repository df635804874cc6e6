-- Older deploys could leave two services with one handle on an app. Keep the oldest under its handle
-- (the one deploys already updated) and rename the others, so the index applies without losing data.
UPDATE "services" AS s SET "handle" = s."handle" || '-' || s."id"
WHERE s."app_id" IS NOT NULL
  AND EXISTS (
    SELECT 1 FROM "services" AS older
    WHERE older."app_id" = s."app_id" AND older."handle" = s."handle" AND older."id" < s."id"
  );--> statement-breakpoint
CREATE UNIQUE INDEX "services_app_handle_unique" ON "services" USING btree ("app_id","handle") WHERE "services"."app_id" is not null;
