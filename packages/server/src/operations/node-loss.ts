import type { RECORDED_OPERATION_TYPES } from '@berth/core';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  apps,
  containers,
  environments,
  operationLogs,
  operations,
  releases,
  services,
  stacks,
} from '../db/schema.ts';

/**
 * The operation type that records a node lost under an app (README "Resources Berth adds to the
 * contract"): written already succeeded, by the platform, never queued, run or re-run (it is in no
 * type catalog, so `POST …/operations` refuses it).
 */
export const NODE_LOST_OPERATION_TYPE: (typeof RECORDED_OPERATION_TYPES)[number] = 'node_lost';

/** A machine of a cluster that stopped answering, and the containers (`<service>.<slot>`) it ran. */
export type NodeLoss = {
  runtime: string;
  hostname: string;
  address: string | null;
  /** The recorded names of the tasks that ran there when it was lost. */
  containers: string[];
};

/** At most this many names are looked up: a node runs far fewer of one Berth's containers. */
const MAX_CONTAINERS = 5000;

/** "Node n3 (10.0.0.3) stopped answering: Swarm moves web's 1 container to the other nodes". */
export function nodeLossMessage(
  node: Pick<NodeLoss, 'hostname' | 'address'>,
  perService: { handle: string; count: number }[],
): string {
  const name =
    node.address && node.address !== node.hostname ? `${node.hostname} (${node.address})` : node.hostname;
  const moved = perService
    .map(({ handle, count }) => `${handle}'s ${count} container${count === 1 ? '' : 's'}`)
    .join(', ');
  return `Node ${name} stopped answering: Swarm moves ${moved} to the other nodes`;
}

/**
 * Records a lost node on each app that ran containers on it: one succeeded, automated `node_lost`
 * operation per app, its note and log line saying which of the app's containers move, so the app's
 * Activity (and the organization's) shows it. What the containers were comes from the runtime (the
 * tasks the manager placed on the node), matched with the containers this Berth records.
 */
export function createNodeLossRecorder(deps: { db: Db }) {
  const { db } = deps;
  return {
    /** The operations it wrote (none when no recorded app container ran on the node). */
    async record(loss: NodeLoss): Promise<{ appId: number; operationId: number; message: string }[]> {
      const names = [...new Set(loss.containers)].slice(0, MAX_CONTAINERS);
      if (!names.length) return [];
      const rows = await db
        .select({
          appId: apps.id,
          appHandle: apps.handle,
          serviceHandle: services.handle,
          environmentId: environments.id,
          organizationId: environments.organizationId,
          dockerName: containers.dockerName,
        })
        .from(containers)
        .innerJoin(releases, eq(containers.releaseId, releases.id))
        .innerJoin(
          services,
          and(eq(releases.serviceId, services.id), eq(services.currentReleaseId, releases.id)),
        )
        .innerJoin(apps, eq(services.appId, apps.id))
        .innerJoin(environments, eq(services.environmentId, environments.id))
        .innerJoin(stacks, eq(environments.stackId, stacks.id))
        .where(
          and(
            isNull(containers.deletedAt),
            eq(stacks.runtime, loss.runtime),
            inArray(containers.dockerName, names),
          ),
        );
      const byApp = new Map<number, { row: (typeof rows)[number]; perService: Map<string, Set<string>> }>();
      for (const row of rows) {
        const entry = byApp.get(row.appId) ?? { row, perService: new Map() };
        byApp.set(row.appId, entry);
        const moved = entry.perService.get(row.serviceHandle) ?? new Set();
        moved.add(row.dockerName);
        entry.perService.set(row.serviceHandle, moved);
      }
      const written: { appId: number; operationId: number; message: string }[] = [];
      for (const [appId, { row, perService }] of byApp) {
        const message = nodeLossMessage(
          loss,
          [...perService.entries()]
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([handle, moved]) => ({ handle, count: moved.size })),
        );
        const operationId = await db.transaction(async (tx) => {
          const now = new Date();
          const [op] = await tx
            .insert(operations)
            .values({
              organizationId: row.organizationId,
              environmentId: row.environmentId,
              resourceType: 'app',
              resourceId: appId,
              resourceHandle: row.appHandle,
              type: NODE_LOST_OPERATION_TYPE,
              status: 'succeeded',
              automated: true,
              note: message,
              startedAt: now,
              finishedAt: now,
            })
            .returning({ id: operations.id });
          if (!op) throw new Error('Operation insert returned nothing');
          const containerNames = [...perService.values()].flatMap((moved) => [...moved]).sort();
          await tx.insert(operationLogs).values([
            { operationId: op.id, line: message },
            { operationId: op.id, line: `Containers that ran there: ${containerNames.join(', ')}` },
          ]);
          return op.id;
        });
        written.push({ appId, operationId, message });
      }
      return written;
    },
  };
}

export type NodeLossRecorder = ReturnType<typeof createNodeLossRecorder>;
