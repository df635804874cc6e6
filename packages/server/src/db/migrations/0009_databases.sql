CREATE TABLE "backup_retention_policies" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment_id" integer NOT NULL,
	"daily" integer NOT NULL,
	"monthly" integer NOT NULL,
	"yearly" integer NOT NULL,
	"pitr_days" integer DEFAULT 0 NOT NULL,
	"make_copy" boolean DEFAULT true NOT NULL,
	"keep_final" boolean DEFAULT true NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "backups" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"environment_id" integer NOT NULL,
	"database_id" integer,
	"database_handle" text NOT NULL,
	"database_type" text NOT NULL,
	"database_image_id" integer,
	"kind" text NOT NULL,
	"size_gb" double precision DEFAULT 0 NOT NULL,
	"disk_size_gb" integer DEFAULT 10 NOT NULL,
	"aws_region" text DEFAULT '' NOT NULL,
	"created_by_email" text DEFAULT '' NOT NULL,
	"created_from_operation_id" integer,
	"copied_from_id" integer,
	"storage_ref" text DEFAULT '' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "database_credentials" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"database_id" integer NOT NULL,
	"type" text NOT NULL,
	"is_default" boolean DEFAULT true NOT NULL,
	"connection_url_sealed" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "disks" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"database_id" integer NOT NULL,
	"environment_id" integer NOT NULL,
	"size" integer DEFAULT 10 NOT NULL,
	"provisioned_iops" integer DEFAULT 3000 NOT NULL,
	"baseline_iops" integer DEFAULT 3000 NOT NULL,
	"handle" text NOT NULL,
	"device" text DEFAULT '' NOT NULL,
	"filesystem" text DEFAULT 'ext4' NOT NULL,
	"host" text DEFAULT '' NOT NULL,
	"availability_zone" text DEFAULT '' NOT NULL,
	"ebs_volume_id" text DEFAULT '' NOT NULL,
	"ebs_volume_type" text DEFAULT 'gp3' NOT NULL,
	"instance_id" text DEFAULT '' NOT NULL,
	"current_kms_arn" text DEFAULT '' NOT NULL,
	"attached" boolean DEFAULT false NOT NULL,
	"key_bytes" integer DEFAULT 32 NOT NULL,
	"resized_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "databases" ADD COLUMN "provisioned" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "databases" ADD COLUMN "enable_backups" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "databases" ADD COLUMN "enable_pitr" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "databases" ADD COLUMN "docker_repo" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "databases" ADD COLUMN "current_kms_arn" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "databases" ADD COLUMN "port_mapping" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "databases" ADD COLUMN "service_id" integer;--> statement-breakpoint
ALTER TABLE "databases" ADD COLUMN "initialize_from_id" integer;--> statement-breakpoint
ALTER TABLE "operations" ADD COLUMN "parameters" jsonb;--> statement-breakpoint
ALTER TABLE "backup_retention_policies" ADD CONSTRAINT "backup_retention_policies_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backups" ADD CONSTRAINT "backups_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "backups" ADD CONSTRAINT "backups_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "database_credentials" ADD CONSTRAINT "database_credentials_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disks" ADD CONSTRAINT "disks_database_id_databases_id_fk" FOREIGN KEY ("database_id") REFERENCES "public"."databases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "disks" ADD CONSTRAINT "disks_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "backup_retention_policies_environment_idx" ON "backup_retention_policies" USING btree ("environment_id","id");--> statement-breakpoint
CREATE INDEX "backups_database_idx" ON "backups" USING btree ("database_id","created_at");--> statement-breakpoint
CREATE INDEX "backups_environment_idx" ON "backups" USING btree ("environment_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "database_credentials_database_type_unique" ON "database_credentials" USING btree ("database_id","type");--> statement-breakpoint
CREATE UNIQUE INDEX "disks_database_unique" ON "disks" USING btree ("database_id");--> statement-breakpoint
ALTER TABLE "databases" ADD CONSTRAINT "databases_initialize_from_id_databases_id_fk" FOREIGN KEY ("initialize_from_id") REFERENCES "public"."databases"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "services_database_idx" ON "services" USING btree ("database_id");--> statement-breakpoint
CREATE INDEX "databases_initialize_from_idx" ON "databases" USING btree ("initialize_from_id");--> statement-breakpoint
CREATE UNIQUE INDEX "operations_automated_unfinished_unique" ON "operations" USING btree ("resource_type","resource_id","type") WHERE automated and status in ('queued', 'running');--> statement-breakpoint
-- Every environment has a retention policy in force: the defaults of spec 2 §9 for the existing ones.
INSERT INTO "backup_retention_policies" ("environment_id", "daily", "monthly", "yearly", "pitr_days", "make_copy", "keep_final") SELECT "id", 30, 12, 6, 0, true, true FROM "environments";
