import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { timestamps } from './common.ts';
import { stacks } from './environments.ts';

/**
 * The Swarm clusters registered as stacks (`npm run admin -- add-stack NAME --runtime swarm --host …`),
 * beside the one BERTH_SWARM_HOST names. The stack's `runtime` is `swarm:<stack name>`, the key every
 * process runs the cluster under. The TLS client certificates of a tcp:// manager are sealed with the
 * server secret (security/secret-box.ts), so a copy of the database alone does not reach the cluster.
 */
export const swarmClusters = pgTable('swarm_clusters', {
  stackId: integer('stack_id')
    .primaryKey()
    .references(() => stacks.id, { onDelete: 'cascade' }),
  /** The manager's Engine API: unix:///path or tcp://host:port. */
  host: text('host').notNull(),
  /** The Swarm's own id: one cluster is never registered twice (two runtimes would fight over it). */
  clusterId: text('cluster_id').notNull().unique(),
  /** The registry every node pulls the apps' images from (host:port). */
  registry: text('registry').notNull(),
  /** `{ca, cert, key}` PEM as sealed JSON, for a tcp:// manager; null for a unix socket. */
  tlsSealed: text('tls_sealed'),
  ...timestamps,
});
