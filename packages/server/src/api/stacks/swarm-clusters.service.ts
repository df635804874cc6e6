import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { stacks, swarmClusters } from '../../db/schema.ts';
import { swarmStackRuntime } from '../../runtimes/runtime.ts';
import type { SwarmClusterSettings } from '../../runtimes/runtimes.ts';
import type { EngineTls } from '../../runtimes/swarm/swarm-databases.ts';
import { createSecretBox, type SecretBox } from '../../security/secret-box.ts';
import type { StackRow } from './stacks.hal.ts';

// The Swarm clusters registered as stacks (`npm run admin -- add-stack`): each runs under its stack's
// own runtime key (`swarm:<name>`) in every process, with its manager's TLS client certificates sealed.

/** The box a registered cluster's TLS certificates are sealed in: the server and its workers open the same. */
export function swarmClusterTlsBox(serverSecret: Uint8Array): SecretBox {
  return createSecretBox(serverSecret, 'swarm cluster tls');
}

const toPem = (value: string | Buffer) => (typeof value === 'string' ? value : value.toString('utf8'));

function sealTls(box: SecretBox, tls: EngineTls): string {
  return box.seal(JSON.stringify({ ca: toPem(tls.ca), cert: toPem(tls.cert), key: toPem(tls.key) }));
}

function openTls(box: SecretBox, sealed: string): EngineTls {
  const { ca, cert, key } = JSON.parse(box.open(sealed)) as Record<string, unknown>;
  if (typeof ca !== 'string' || typeof cert !== 'string' || typeof key !== 'string')
    throw new Error('The sealed TLS certificates are not whole');
  return { ca, cert, key };
}

type ClusterRow = typeof swarmClusters.$inferSelect;

function settingsOf(box: SecretBox, stackName: string, row: ClusterRow): SwarmClusterSettings {
  return {
    name: swarmStackRuntime(stackName),
    host: row.host,
    registry: row.registry,
    tls: row.tlsSealed ? openTls(box, row.tlsSealed) : null,
  };
}

/** Every registered cluster, as the runtimes run it (a handful per installation: one query, no paging). */
export async function registeredSwarmClusters(db: Db, box: SecretBox): Promise<SwarmClusterSettings[]> {
  const rows = await db
    .select({ name: stacks.name, cluster: swarmClusters })
    .from(swarmClusters)
    .innerJoin(stacks, eq(swarmClusters.stackId, stacks.id))
    .orderBy(asc(swarmClusters.stackId));
  const settings: SwarmClusterSettings[] = [];
  for (const row of rows) {
    try {
      settings.push(settingsOf(box, row.name, row.cluster));
    } catch (error) {
      // Sealed under another server secret (BERTH_JWT_SECRET changed): that cluster alone is left out.
      console.warn(
        `The TLS certificates of stack ${row.name}'s Swarm cluster cannot be opened: ${(error as Error).message}`,
      );
    }
  }
  return settings;
}

/** The cluster a registered stack runs on, or null (a stack of another runtime, or BERTH_SWARM_HOST's). */
export async function swarmClusterOfStack(
  db: Db,
  box: SecretBox,
  stack: Pick<StackRow, 'id' | 'name'>,
): Promise<SwarmClusterSettings | null> {
  const [row] = await db.select().from(swarmClusters).where(eq(swarmClusters.stackId, stack.id));
  return row ? settingsOf(box, stack.name, row) : null;
}

/** The registered stack whose cluster has this Swarm id, if any. */
export async function stackOfSwarmCluster(db: Db, clusterId: string): Promise<string | null> {
  const [row] = await db
    .select({ name: stacks.name })
    .from(swarmClusters)
    .innerJoin(stacks, eq(swarmClusters.stackId, stacks.id))
    .where(eq(swarmClusters.clusterId, clusterId));
  return row?.name ?? null;
}

export interface NewSwarmStack {
  name: string;
  region: string;
  /** Set: a dedicated stack of that organization; null: a shared stack every organization may use. */
  organizationId: string | null;
  defaultDomain: string;
  autoscaling: { horizontal: boolean; vertical: boolean };
  host: string;
  clusterId: string;
  registry: string;
  tls: EngineTls | null;
}

/** Makes the stack and its cluster together: a stack on the `swarm:<name>` runtime never lacks its cluster. */
export async function registerSwarmStack(db: Db, box: SecretBox, input: NewSwarmStack): Promise<StackRow> {
  return db.transaction(async (tx) => {
    const [stack] = await tx
      .insert(stacks)
      .values({
        name: input.name,
        region: input.region,
        runtime: swarmStackRuntime(input.name),
        organizationId: input.organizationId,
        public: input.organizationId === null,
        defaultDomain: input.defaultDomain,
        horizontalAutoscaling: input.autoscaling.horizontal,
        verticalAutoscaling: input.autoscaling.vertical,
      })
      .returning();
    if (!stack) throw new Error('The stack was not made');
    await tx.insert(swarmClusters).values({
      stackId: stack.id,
      host: input.host,
      clusterId: input.clusterId,
      registry: input.registry,
      tlsSealed: input.tls ? sealTls(box, input.tls) : null,
    });
    return stack;
  });
}
