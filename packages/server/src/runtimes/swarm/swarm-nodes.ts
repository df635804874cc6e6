import type Docker from 'dockerode';
import { LABELS } from '../docker/engine.ts';
import type { RuntimeNode, RuntimeNodeContainer } from '../runtime.ts';

// The Engine API's node, service and task objects, as far as the nodes list reads them.
export interface SwarmNodeInfo {
  ID: string;
  Spec?: { Role?: string; Availability?: string };
  Description?: {
    Hostname?: string;
    Resources?: { NanoCPUs?: number; MemoryBytes?: number };
    Engine?: { EngineVersion?: string };
  };
  Status?: { State?: string; Addr?: string };
  ManagerStatus?: { Leader?: boolean; Addr?: string };
}
export interface SwarmServiceInfo {
  ID: string;
  Spec?: { Name?: string; Labels?: Record<string, string> };
}
export interface SwarmTaskInfo {
  ID: string;
  ServiceID?: string;
  NodeID?: string;
  Slot?: number;
  DesiredState?: string;
  Status?: { State?: string };
}

const NODE_STATES = ['ready', 'down', 'disconnected', 'unknown'] as const;
const AVAILABILITIES = ['active', 'pause', 'drain'] as const;

const oneOf = <T extends string>(values: readonly T[], value: string | undefined, fallback: T): T =>
  (values as readonly string[]).includes(value ?? '') ? (value as T) : fallback;

/**
 * The name Docker gives a task's container: `<service>.<slot>.<task id>` (a global service's tasks have no
 * slot and use their node's id). The swarm runtime records its containers by it.
 */
export function taskContainerName(serviceName: string, task: Pick<SwarmTaskInfo, 'ID' | 'Slot' | 'NodeID'>) {
  return `${serviceName}.${task.Slot ?? task.NodeID ?? ''}.${task.ID}`;
}

/**
 * Where other nodes reach a node: its status address, except on managers of engines that report 0.0.0.0
 * there, whose manager address (host:port) says it.
 */
function nodeAddress(node: SwarmNodeInfo): string {
  const status = node.Status?.Addr ?? '';
  if (status && status !== '0.0.0.0') return status;
  const manager = node.ManagerStatus?.Addr ?? '';
  const colon = manager.lastIndexOf(':');
  return colon > 0 ? manager.slice(0, colon) : manager;
}

/**
 * A cluster's nodes, in hostname order, with the containers of this Berth's services (labelled with its
 * installation) whose tasks are meant to run there: a task on its way up shows its state.
 */
export function swarmNodesOf(
  nodes: readonly SwarmNodeInfo[],
  services: readonly SwarmServiceInfo[],
  tasks: readonly SwarmTaskInfo[],
  installation: string,
): RuntimeNode[] {
  const names = new Map(
    services
      .filter((service) => service.Spec?.Labels?.[LABELS.installation] === installation)
      .map((service) => [service.ID, service.Spec?.Name ?? service.ID]),
  );
  const byNode = new Map<string, RuntimeNodeContainer[]>();
  for (const task of tasks) {
    const service = task.ServiceID ? names.get(task.ServiceID) : undefined;
    if (service === undefined || !task.NodeID || task.DesiredState !== 'running') continue;
    const list = byNode.get(task.NodeID) ?? [];
    list.push({
      name: taskContainerName(service, task),
      state: task.Status?.State ?? 'unknown',
      // The swarm runtime records an app's containers by slot, which outlives the slot's tasks.
      ...(task.Slot ? { recordedAs: [`${service}.${task.Slot}`] } : {}),
    });
    byNode.set(task.NodeID, list);
  }
  return nodes
    .map((node) => ({
      id: node.ID,
      hostname: node.Description?.Hostname ?? node.ID,
      address: nodeAddress(node),
      role: node.Spec?.Role === 'manager' ? ('manager' as const) : ('worker' as const),
      leader: node.ManagerStatus?.Leader === true,
      state: oneOf(NODE_STATES, node.Status?.State, 'unknown'),
      availability: oneOf(AVAILABILITIES, node.Spec?.Availability, 'active'),
      memoryBytes: node.Description?.Resources?.MemoryBytes ?? 0,
      cpus: (node.Description?.Resources?.NanoCPUs ?? 0) / 1e9,
      engineVersion: node.Description?.Engine?.EngineVersion ?? null,
      containers: (byNode.get(node.ID) ?? []).sort((a, b) => a.name.localeCompare(b.name)),
    }))
    .sort((a, b) => a.hostname.localeCompare(b.hostname));
}

/** The nodes of the cluster `manager` runs, with this Berth's task containers on each (swarmNodesOf). */
export async function listSwarmNodes(manager: Docker, installation: string): Promise<RuntimeNode[]> {
  const [nodes, services, tasks] = await Promise.all([
    manager.listNodes() as Promise<SwarmNodeInfo[]>,
    manager.listServices({
      filters: { label: [`${LABELS.installation}=${installation}`] },
    }) as Promise<SwarmServiceInfo[]>,
    manager.listTasks({ filters: { 'desired-state': ['running'] } }) as Promise<SwarmTaskInfo[]>,
  ]);
  return swarmNodesOf(nodes, services, tasks, installation);
}
