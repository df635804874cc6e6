import type Docker from 'dockerode';
import { LABELS } from '../docker/engine.ts';
import type { SwarmChange } from './swarm-events.ts';
import { nodeAddress, type SwarmNode, type SwarmTask, slotName } from './swarm-spec.ts';

/** A node that stopped answering and this Berth's containers (`<service>.<slot>`) it ran then. */
export type LostNode = { nodeId: string; hostname: string; address: string | null; containers: string[] };

/**
 * Says once per loss that a node is lost: the first `down` of a node, not the repeats a stream may send
 * (a reconnection asks again for the events of its last second). The node counts as lost until it is
 * ready again or removed; the next `down` after that is a new loss.
 */
export function createNodeLossTracker() {
  const down = new Set<string>();
  return {
    /** True for the change that starts a node's loss. */
    startsLoss(change: SwarmChange): boolean {
      if (change.kind !== 'node') return false;
      if (change.action === 'remove' || change.state?.to === 'ready') {
        down.delete(change.nodeId);
        return false;
      }
      if (change.state?.to !== 'down' || down.has(change.nodeId)) return false;
      down.add(change.nodeId);
      return true;
    },
  };
}

/**
 * The containers a lost node ran: its tasks last reported running, by their recorded name. Swarm has
 * already set them to shut down when it moves them, so their desired state is not asked.
 */
export function containersOnNode(
  tasks: readonly (SwarmTask & { ServiceID?: string })[],
  serviceNames: Map<string, string>,
) {
  const names: string[] = [];
  for (const task of tasks) {
    const service = serviceNames.get(task.ServiceID ?? '');
    if (!service || !task.Slot || task.Status?.State !== 'running') continue;
    names.push(slotName(service, task.Slot));
  }
  return [...new Set(names)].sort();
}

/** What the manager knows of a lost node: its address and the tasks of this Berth's apps it ran. */
export async function describeLostNode(
  manager: Docker,
  installation: string,
  nodeId: string,
  hostname: string | null,
): Promise<LostNode> {
  const mine = [`${LABELS.installation}=${installation}`];
  const [node, tasks, services] = await Promise.all([
    (manager.getNode(nodeId).inspect() as Promise<SwarmNode>).catch(() => null),
    manager.listTasks({ filters: { node: [nodeId], label: mine } }) as Promise<
      (SwarmTask & { ServiceID?: string })[]
    >,
    manager.listServices({ filters: { label: [...mine, `${LABELS.layer}=app`] } }),
  ]);
  const names = new Map(services.map((service) => [service.ID, service.Spec?.Name ?? '']));
  return {
    nodeId,
    hostname: node?.Description?.Hostname ?? hostname ?? nodeId.slice(0, 12),
    address: node ? nodeAddress(node) || null : null,
    containers: containersOnNode(tasks, names),
  };
}

/** Task states on the way to running: Swarm is placing, pulling or starting the task. */
const COMING_UP = new Set([
  'new',
  'pending',
  'assigned',
  'accepted',
  'preparing',
  'ready',
  'starting',
  'running',
]);

/**
 * The slots (`<service>.<slot>` → when its task was made) Swarm keeps running: a task it wants running
 * that runs or is on its way. A slot whose task moves off a lost node keeps its name and is on its way
 * until the new task runs, so the reconciler does not queue a restart of it (that would fight Swarm,
 * and restart every task of the service) nor count it missing.
 */
export function slotsSwarmKeeps(
  tasks: readonly (SwarmTask & { ServiceID?: string })[],
  serviceNames: Map<string, string>,
): Map<string, Date> {
  const kept = new Map<string, Date>();
  for (const task of tasks) {
    const service = serviceNames.get(task.ServiceID ?? '');
    if (!service || !task.Slot || task.DesiredState !== 'running') continue;
    if (!COMING_UP.has(task.Status?.State ?? '')) continue;
    const name = slotName(service, task.Slot);
    const created = new Date(task.CreatedAt ?? Date.now());
    const known = kept.get(name);
    // Two tasks of a slot (the old one not yet shut down): the slot is as old as its oldest.
    if (!known || created < known) kept.set(name, created);
  }
  return kept;
}
