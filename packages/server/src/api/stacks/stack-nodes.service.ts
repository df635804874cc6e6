import { isOwner, permissionMessages } from '@berth/core';
import { and, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { apps, containers, databases, environments, releases, services } from '../../db/schema.ts';
import { ApiError, forbidden, notFound } from '../../http/errors.ts';
import {
  type Runtime,
  RuntimeError,
  type RuntimeNode,
  type RuntimeNodeContainer,
  runtimeKind,
} from '../../runtimes/runtime.ts';
import { createAccess } from '../access/access.ts';
import type { StackRow } from './stacks.hal.ts';
import type { StacksService } from './stacks.service.ts';

/** A running container Berth records on the stack, with the service and resource it belongs to. */
export interface NodeContainer {
  dockerName: string;
  state: string;
  layer: 'app' | 'database';
  resourceHandle: string;
  serviceId: number;
  serviceHandle: string;
  environmentId: number;
  environmentHandle: string;
  appId: number | null;
  databaseId: number | null;
}

/** A node with the containers the caller may read named, the others counted. */
export interface StackNode extends Omit<RuntimeNode, 'containers'> {
  containers: NodeContainer[];
  otherContainerCount: number;
}

/** How many names one lookup asks for (a cluster can run thousands of containers). */
const LOOKUP_CHUNK = 1000;

/**
 * Issue 39: the machines a stack runs on, as its runtime reports them, with the containers each runs.
 * Who sees the stack sees its machines; a container is named only to a caller who may read its app or
 * database, and counted otherwise.
 */
export function createStackNodesService(deps: {
  db: Db;
  stacks: StacksService;
  runtimes: Record<string, Runtime>;
  /** Where an engine's failure to answer goes (the server's log). */
  onEngineError?: (stack: StackRow, error: unknown) => void;
}) {
  const { db, stacks, runtimes, onEngineError = () => {} } = deps;
  const access = createAccess(db);

  const recordedOn = (stack: StackRow) =>
    db
      .select({ dockerName: containers.dockerName, host: containers.host })
      .from(containers)
      .innerJoin(releases, eq(containers.releaseId, releases.id))
      .innerJoin(services, eq(releases.serviceId, services.id))
      .innerJoin(environments, eq(services.environmentId, environments.id))
      .where(and(eq(environments.stackId, stack.id), isNull(containers.deletedAt)));

  /** The recorded running containers on the stack among these names, by name. */
  async function lookUp(stack: StackRow, names: string[]) {
    const found = new Map<string, Omit<NodeContainer, 'state'>>();
    for (let start = 0; start < names.length; start += LOOKUP_CHUNK) {
      const rows = await db
        .select({
          dockerName: containers.dockerName,
          layer: containers.layer,
          serviceId: services.id,
          serviceHandle: services.handle,
          environmentId: environments.id,
          environmentHandle: environments.handle,
          appId: services.appId,
          databaseId: services.databaseId,
          appHandle: apps.handle,
          databaseHandle: databases.handle,
        })
        .from(containers)
        .innerJoin(releases, eq(containers.releaseId, releases.id))
        .innerJoin(services, eq(releases.serviceId, services.id))
        .innerJoin(environments, eq(services.environmentId, environments.id))
        .leftJoin(apps, eq(services.appId, apps.id))
        .leftJoin(databases, eq(services.databaseId, databases.id))
        .where(
          and(
            eq(environments.stackId, stack.id),
            isNull(containers.deletedAt),
            inArray(containers.dockerName, names.slice(start, start + LOOKUP_CHUNK)),
          ),
        );
      for (const row of rows) {
        const layer = row.databaseId !== null && row.appId === null ? 'database' : 'app';
        found.set(row.dockerName, {
          dockerName: row.dockerName,
          layer,
          resourceHandle: (layer === 'app' ? row.appHandle : row.databaseHandle) ?? '',
          serviceId: row.serviceId,
          serviceHandle: row.serviceHandle,
          environmentId: row.environmentId,
          environmentHandle: row.environmentHandle,
          appId: row.appId,
          databaseId: row.databaseId,
        });
      }
    }
    return found;
  }

  /**
   * Why the caller may not change the stack's nodes, or null when they may: a platform owner (or owner)
   * of the organization the stack is dedicated to; of a shared stack, only while no other organization has
   * an environment on it (a self-hosted Berth's shared stack is its operators' own machines, but draining a
   * node moves every tenant's containers: with tenants there, the operator does it, `npm run admin`).
   */
  async function whyNotManaged(ref: CallerRef, stack: StackRow): Promise<string | null> {
    const caller = await access.caller(ref);
    const owned = [...caller.actors].filter(([, actor]) => isOwner(actor)).map(([id]) => id);
    if (stack.organizationId !== null)
      return owned.includes(stack.organizationId) ? null : permissionMessages.ownerOnly;
    if (owned.length === 0) return permissionMessages.ownerOnly;
    const hosted = (organizations: 'mine' | 'others') =>
      db
        .select({ id: environments.id })
        .from(environments)
        .where(
          and(
            eq(environments.stackId, stack.id),
            organizations === 'mine'
              ? inArray(environments.organizationId, owned)
              : notInArray(environments.organizationId, owned),
          ),
        )
        .limit(1);
    const [[mine], [others]] = await Promise.all([hosted('mine'), hosted('others')]);
    if (!mine) return permissionMessages.ownerOnly;
    return others
      ? `Other organizations run on the shared stack ${stack.name}: its nodes are drained by Berth's operator (npm run admin -- drain-node)`
      : null;
  }

  const service = {
    async list(ref: CallerRef, id: number | null): Promise<{ stack: StackRow; nodes: StackNode[] }> {
      const stack = await stacks.get(ref, id);
      const runtime = runtimes[stack.runtime];
      if (!runtime?.listNodes) {
        throw new ApiError(
          503,
          'unavailable',
          runtime
            ? `The ${runtimeKind(stack.runtime)} runtime of stack ${stack.name} does not list its nodes`
            : `The nodes of stack ${stack.name} cannot be listed here: its runtime (${runtimeKind(stack.runtime)}) does not run in this server process`,
        );
      }
      const caller = await access.caller(ref);
      const listed = runtime.listNodes({ stackName: stack.name, recorded: () => recordedOn(stack) });
      const [machines, readableApps, readableDatabases] = await Promise.all([
        listed.catch((error: unknown) => {
          // The engine's own words name sockets and addresses: the server's log has them, not the caller.
          onEngineError(stack, error);
          throw new ApiError(
            503,
            'unavailable',
            `The nodes of stack ${stack.name} cannot be read now: its ${runtimeKind(stack.runtime)} engine does not answer`,
          );
        }),
        access.readableEnvironmentIds(caller, 'app.read'),
        access.readableEnvironmentIds(caller, 'database.read'),
      ]);
      const namesOf = (container: RuntimeNodeContainer) => [container.name, ...(container.recordedAs ?? [])];
      const found = await lookUp(
        stack,
        machines.flatMap((node) => node.containers.flatMap(namesOf)),
      );
      const apps = new Set(readableApps);
      const databases = new Set(readableDatabases);
      const readable = (container: Omit<NodeContainer, 'state'>) =>
        (container.layer === 'app' ? apps : databases).has(container.environmentId);
      const nodes = machines.map(({ containers: running, ...node }) => {
        const named: NodeContainer[] = [];
        for (const container of running) {
          const recorded = namesOf(container)
            .map((name) => found.get(name))
            .find((match) => match !== undefined);
          if (recorded && readable(recorded)) named.push({ ...recorded, state: container.state });
        }
        return { ...node, containers: named, otherContainerCount: running.length - named.length };
      });
      return { stack, nodes };
    },

    /**
     * Drains a node (its containers move to the others first), pauses or activates it, and answers the node
     * as the list shows it then. Platform owners only; where the runtime cannot (one engine), 409.
     */
    async setAvailability(
      ref: CallerRef,
      id: number | null,
      nodeId: string,
      availability: RuntimeNode['availability'],
    ): Promise<{ stack: StackRow; node: StackNode }> {
      const stack = await stacks.get(ref, id);
      const refused = await whyNotManaged(ref, stack);
      if (refused) throw forbidden(refused);
      const runtime = runtimes[stack.runtime];
      if (runtime && !runtime.setNodeAvailability) {
        throw new ApiError(
          409,
          'conflict',
          `The ${runtimeKind(stack.runtime)} runtime of stack ${stack.name} runs on one engine: it has no other node to move containers to`,
        );
      }
      // The list says 503 where the runtime does not run here or its engine does not answer.
      const before = await service.list(ref, id);
      if (!before.nodes.some((node) => node.id === nodeId)) throw notFound('Node');
      const target = { stackName: stack.name, recorded: () => recordedOn(stack) };
      await runtime?.setNodeAvailability?.(target, nodeId, availability).catch((error: unknown) => {
        // The runtime's own refusal (a node holding a database's data) is said as it is.
        if (error instanceof RuntimeError) throw new ApiError(409, 'conflict', error.message);
        onEngineError(stack, error);
        throw new ApiError(
          503,
          'unavailable',
          `Node ${nodeId} of stack ${stack.name} could not be set to ${availability}: its ${runtimeKind(stack.runtime)} engine refused or did not answer`,
        );
      });
      const after = await service.list(ref, id);
      const node = after.nodes.find((candidate) => candidate.id === nodeId);
      if (!node) throw notFound('Node');
      return { stack, node };
    },
  };
  return service;
}
export type StackNodesService = ReturnType<typeof createStackNodesService>;
