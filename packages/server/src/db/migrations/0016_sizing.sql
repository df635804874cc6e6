CREATE TABLE "service_sizing_policies" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"service_id" integer NOT NULL,
	"environment_id" integer NOT NULL,
	"scaling_enabled" boolean DEFAULT false NOT NULL,
	"autoscaling" text DEFAULT 'vertical' NOT NULL,
	"default_policy" boolean DEFAULT false NOT NULL,
	"use_horizontal_scale" boolean DEFAULT false NOT NULL,
	"metric_lookback_seconds" integer NOT NULL,
	"percentile" double precision NOT NULL,
	"post_scale_up_cooldown_seconds" integer NOT NULL,
	"post_scale_down_cooldown_seconds" integer NOT NULL,
	"post_release_cooldown_seconds" integer NOT NULL,
	"mem_cpu_ratio_r_threshold" double precision NOT NULL,
	"mem_cpu_ratio_c_threshold" double precision NOT NULL,
	"mem_scale_up_threshold" double precision NOT NULL,
	"mem_scale_down_threshold" double precision NOT NULL,
	"minimum_memory" integer NOT NULL,
	"maximum_memory" integer,
	"min_containers" integer,
	"max_containers" integer,
	"min_cpu_threshold" double precision,
	"max_cpu_threshold" double precision,
	"scale_up_step" integer NOT NULL,
	"scale_down_step" integer NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sizing_recommendations" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"service_id" integer NOT NULL,
	"environment_id" integer NOT NULL,
	"cpu_usage" double precision NOT NULL,
	"ram_usage" double precision NOT NULL,
	"ram_target" double precision NOT NULL,
	"recommended_instance_class" text NOT NULL,
	"recommended_container_memory_limit_mb" integer NOT NULL,
	"instance_class_at_time" text NOT NULL,
	"container_memory_limit_mb_at_time" integer NOT NULL,
	"cost_savings" double precision NOT NULL,
	"metric_percentile" double precision NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "sizing_policy_id" integer;--> statement-breakpoint
ALTER TABLE "service_sizing_policies" ADD CONSTRAINT "service_sizing_policies_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_sizing_policies" ADD CONSTRAINT "service_sizing_policies_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sizing_recommendations" ADD CONSTRAINT "sizing_recommendations_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sizing_recommendations" ADD CONSTRAINT "sizing_recommendations_environment_id_environments_id_fk" FOREIGN KEY ("environment_id") REFERENCES "public"."environments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "service_sizing_policies_service_unique" ON "service_sizing_policies" USING btree ("service_id");--> statement-breakpoint
CREATE INDEX "service_sizing_policies_env_idx" ON "service_sizing_policies" USING btree ("environment_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sizing_recommendations_service_unique" ON "sizing_recommendations" USING btree ("service_id");--> statement-breakpoint
CREATE INDEX "sizing_recommendations_env_idx" ON "sizing_recommendations" USING btree ("environment_id");--> statement-breakpoint
CREATE INDEX "sizing_recommendations_created_idx" ON "sizing_recommendations" USING btree ("created_at");