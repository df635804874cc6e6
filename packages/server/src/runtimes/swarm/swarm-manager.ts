import type Docker from 'dockerode';
import { RuntimeError } from '../runtime.ts';

/** How long a manager has to answer before it counts as unreachable. */
const MANAGER_ANSWER_MS = 10_000;

export interface SwarmIdentity {
  /** The Swarm's own id (the same from every manager of it). */
  clusterId: string;
  /** How many nodes it has, managers and workers. */
  nodes: number;
}

/**
 * Which Swarm the engine manages: its id and size. Throws a RuntimeError saying why when the engine
 * does not answer, or answers as a lone engine or a worker (neither takes services).
 */
export async function swarmIdentity(engine: Docker, host: string): Promise<SwarmIdentity> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new RuntimeError(`no answer within ${MANAGER_ANSWER_MS / 1000} s`)),
      MANAGER_ANSWER_MS,
    );
  });
  let info: {
    Swarm?: {
      LocalNodeState?: string;
      ControlAvailable?: boolean;
      Cluster?: { ID?: string };
      Nodes?: number;
    };
  };
  try {
    info = await Promise.race([engine.info(), timeout]);
  } catch (error) {
    const reason = String((error as { code?: unknown }).code ?? (error as Error).message ?? error);
    throw new RuntimeError(`No Docker engine answers at ${host.slice(0, 200)}: ${reason.slice(0, 300)}`);
  } finally {
    clearTimeout(timer);
  }
  const swarm = info.Swarm;
  const clusterId = swarm?.Cluster?.ID;
  if (swarm?.LocalNodeState !== 'active' || !swarm.ControlAvailable || !clusterId)
    throw new RuntimeError(
      `The engine at ${host.slice(0, 200)} is not a Swarm manager (${swarm?.LocalNodeState === 'active' ? 'a worker node' : 'no swarm'}): run \`docker swarm init\` there, or name a manager's address`,
    );
  return { clusterId, nodes: swarm.Nodes ?? 0 };
}
