import type Docker from 'dockerode';
import { RuntimeError } from '../runtime.ts';
import { NODE_LABEL } from './swarm-databases.ts';
import {
  findNode,
  type NodeAvailability,
  type NodeAvailabilityResult,
  setNodeAvailability,
} from './swarm-node-admin.ts';

/**
 * What the swarm runtime's setNodeAvailability does (the stack page's Drain / Activate). A drain first
 * pauses the node, so nothing new lands on it while its tasks are moved, then drains it: Swarm reschedules
 * its tasks on the other nodes. A node already drained is left as it is (pausing it would let it keep tasks).
 */
export async function setSwarmNodeAvailability(
  manager: Docker,
  nodeRef: string,
  availability: NodeAvailability,
): Promise<NodeAvailabilityResult> {
  if (availability !== 'drain') return setNodeAvailability(manager, nodeRef, availability);
  const node = await findNode(manager, nodeRef);
  // A database is pinned to the node holding its volume: drained, it would stop, with nowhere to go.
  const pinned = await manager.listServices({ filters: { label: [`${NODE_LABEL}=${node.ID ?? ''}`] } });
  if (pinned.length > 0)
    throw new RuntimeError(
      `Node ${node.Description?.Hostname ?? node.ID} holds the data of ${pinned.length} database(s) (${pinned
        .slice(0, 5)
        .map((service) => service.Spec?.Name ?? service.ID)
        .join(
          ', ',
        )}): drained, they would stop, since their data cannot move. Restore each from a backup onto another node first`,
    );
  const previous = node.Spec?.Availability ?? 'unknown';
  const id = node.ID ?? nodeRef;
  if (previous !== 'drain' && previous !== 'pause') await setNodeAvailability(manager, id, 'pause');
  // Read again: the pause moved the node's version on, and the update must name the current one.
  const drained = await setNodeAvailability(manager, id, 'drain');
  return { ...drained, previous };
}
