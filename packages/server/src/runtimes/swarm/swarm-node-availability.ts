import type Docker from 'dockerode';
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
  const previous = node.Spec?.Availability ?? 'unknown';
  const id = node.ID ?? nodeRef;
  if (previous !== 'drain' && previous !== 'pause') await setNodeAvailability(manager, id, 'pause');
  // Read again: the pause moved the node's version on, and the update must name the current one.
  const drained = await setNodeAvailability(manager, id, 'drain');
  return { ...drained, previous };
}
