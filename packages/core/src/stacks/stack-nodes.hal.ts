import { z } from 'zod';
import { halCollection, halId, halLinks } from '../hal/hal.ts';

// Issue 39: the stack page's Nodes tab. A Berth resource, not in the contract: the machines a stack runs
// on (a Swarm cluster's nodes, the docker runtime's engine, the simulator's three) and the containers each
// runs. A container of a resource the caller may not read is counted, never named. Nodes have no page of
// their own, so no `self` link.

export const STACK_NODE_ROLES = ['manager', 'worker'] as const;
export const STACK_NODE_STATES = ['ready', 'down', 'disconnected', 'unknown'] as const;
export const STACK_NODE_AVAILABILITIES = ['active', 'pause', 'drain'] as const;

/** A container on a node that belongs to an app's or a database's service the caller may read. */
export const stackNodeContainer = z.strictObject({
  docker_name: z.string(),
  /** The engine's state of it (`running`, or a Swarm task's `starting`, `preparing`, …). */
  state: z.string(),
  layer: z.enum(['app', 'database']),
  /** The app's or database's handle, its service's process type and its environment's handle. */
  resource_handle: z.string(),
  service_handle: z.string(),
  environment_handle: z.string(),
  _links: halLinks(['service', 'account'], ['app', 'database']),
});
export type StackNodeContainer = z.infer<typeof stackNodeContainer>;

export const stackNodeResource = z
  .strictObject({
    id: halId,
    _type: z.literal('stack_node'),
    hostname: z.string(),
    address: z.string(),
    role: z.enum(STACK_NODE_ROLES),
    /** The cluster's leading manager. */
    leader: z.boolean(),
    state: z.enum(STACK_NODE_STATES),
    availability: z.enum(STACK_NODE_AVAILABILITIES),
    memory_bytes: z.number().int(),
    cpus: z.number(),
    engine_version: z.string().nullable(),
    containers: z.array(stackNodeContainer),
    /** This Berth's other containers on the node: of resources the caller may not read, or recorded nowhere. */
    other_container_count: z.number().int(),
    _links: halLinks(['stack']),
  })
  .meta({ id: 'StackNode' });
export type StackNodeResource = z.infer<typeof stackNodeResource>;
export const stackNodeCollection = halCollection('nodes', stackNodeResource).meta({
  id: 'StackNodeCollection',
});

/** The longest node id the API takes (Swarm's are 25 characters; room for other engines' ids). */
export const STACK_NODE_ID_MAX_LENGTH = 128;

/** PUT /stacks/:id/nodes/:node_id: a platform owner drains a node (its containers move first) or activates it. */
export const updateStackNodeSchema = z.object({ availability: z.enum(STACK_NODE_AVAILABILITIES) });
export type UpdateStackNodeInput = z.infer<typeof updateStackNodeSchema>;
