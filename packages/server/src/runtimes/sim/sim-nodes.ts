import { createHash } from 'node:crypto';
import type { NodesTarget, RuntimeNode } from '../runtime.ts';

/** A simulated stack runs on three machines, as a small Swarm cluster would: one manager, two workers. */
export const SIM_NODE_COUNT = 3;

/** What each simulated machine has (an m5.large's). */
const SIM_NODE_MEMORY_BYTES = 8 * 1024 ** 3;
const SIM_NODE_CPUS = 2;

const sha1 = (value: string) => createHash('sha1').update(value).digest('hex');

/** The address of a stack's simulated machine `index` (0-based): the same at every call. */
function nodeAddress(index: number): string {
  return `10.0.${index + 1}.${index + 11}`;
}

/** The host name of a stack's simulated machine `index` (0-based), the one its containers name. */
export function simNodeHost(stackName: string, index: number): string {
  return `ip-${nodeAddress(index % SIM_NODE_COUNT).replaceAll('.', '-')}.${stackName}.sim`;
}

/** Where a container Berth recorded runs: on the machine its host names, else one its name picks. */
function nodeIndexOf(stackName: string, container: { dockerName: string; host: string }): number {
  for (let index = 0; index < SIM_NODE_COUNT; index++)
    if (container.host === simNodeHost(stackName, index)) return index;
  // Containers made before the simulator had machines name hosts of their own.
  return Number.parseInt(sha1(container.dockerName).slice(0, 8), 16) % SIM_NODE_COUNT;
}

/** Each simulated machine's availability, by index (all `active` until an owner changes one). */
export type SimAvailabilities = readonly RuntimeNode['availability'][];

/**
 * Where a container on machine `index` runs given the availabilities: a drained machine's containers move
 * to the next machine that takes tasks (`active`), as Swarm reschedules a drained node's tasks; with none
 * to take them they stay (Swarm would leave them pending, the simulator keeps them listed).
 */
function placedOn(index: number, availabilities: SimAvailabilities): number {
  if (availabilities[index] !== 'drain') return index;
  for (let step = 1; step < SIM_NODE_COUNT; step++) {
    const other = (index + step) % SIM_NODE_COUNT;
    if ((availabilities[other] ?? 'active') === 'active') return other;
  }
  return index;
}

/** The id of a stack's simulated machine `index` (0-based): the same at every call. */
export function simNodeId(stackName: string, index: number): string {
  return sha1(`${stackName}/node-${index + 1}`).slice(0, 25);
}

/** The simulated stack's machines with the running containers Berth records on it. */
export function simNodes(
  stackName: string,
  recorded: Awaited<ReturnType<NodesTarget['recorded']>>,
  availabilities: SimAvailabilities = [],
): RuntimeNode[] {
  const nodes: RuntimeNode[] = Array.from({ length: SIM_NODE_COUNT }, (_, index) => ({
    id: simNodeId(stackName, index),
    hostname: simNodeHost(stackName, index),
    address: nodeAddress(index),
    role: index === 0 ? 'manager' : 'worker',
    leader: index === 0,
    state: 'ready',
    availability: availabilities[index] ?? 'active',
    memoryBytes: SIM_NODE_MEMORY_BYTES,
    cpus: SIM_NODE_CPUS,
    engineVersion: null,
    containers: [],
  }));
  for (const container of recorded)
    nodes[placedOn(nodeIndexOf(stackName, container), availabilities)]?.containers.push({
      name: container.dockerName,
      state: 'running',
    });
  for (const node of nodes) node.containers.sort((a, b) => a.name.localeCompare(b.name));
  return nodes;
}
