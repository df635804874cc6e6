CREATE TABLE "swarm_clusters" (
	"stack_id" integer PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"cluster_id" text NOT NULL,
	"registry" text NOT NULL,
	"tls_sealed" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "swarm_clusters_cluster_id_unique" UNIQUE("cluster_id")
);
--> statement-breakpoint
ALTER TABLE "swarm_clusters" ADD CONSTRAINT "swarm_clusters_stack_id_stacks_id_fk" FOREIGN KEY ("stack_id") REFERENCES "public"."stacks"("id") ON DELETE cascade ON UPDATE no action;