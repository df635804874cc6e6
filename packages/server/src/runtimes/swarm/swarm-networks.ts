import type Docker from 'dockerode';
import { LABELS } from '../docker/engine.ts';
import { RuntimeError } from '../runtime.ts';

// Each environment has an overlay network of its own across the cluster, where its apps' and databases'
// tasks reach each other by service name (DNS round robin: this machine's kernel has no IPVS for VIPs),
// and no other environment's. Attachable, so a one-off container (a test's, an operator's) can join it.

/** What labels an environment's network, as on the docker runtime. */
export interface SwarmEnvironment {
  environmentId: number | string;
  environmentHandle?: string;
  stackName?: string;
}

/** `berth-<installation's first 8 characters>-env-<environment id>`, as the docker runtime's prefix does. */
export function environmentNetworkName(installation: string, environmentId: number | string): string {
  return `berth-${installation.slice(0, 8)}-env-${environmentId}`;
}

/** Networks being made by this process, by name: concurrent callers wait for the same one. */
const making = new Map<string, Promise<string>>();

async function exists(manager: Docker, name: string): Promise<boolean> {
  const found = await manager.listNetworks({ filters: { name: [name] } });
  return found.some((network) => network.Name === name);
}

/**
 * The environment's overlay network, made when missing; its name. Made once: callers of this process
 * share one attempt, and one another process made in between is taken (the engine refuses a second of a
 * name since API 1.44; CheckDuplicate asks older ones to).
 */
export function environmentNetwork(
  manager: Docker,
  installation: string,
  environment: SwarmEnvironment | number | string,
): Promise<string> {
  const described = typeof environment === 'object' ? environment : { environmentId: environment };
  const name = environmentNetworkName(installation, described.environmentId);
  const pending = making.get(name);
  if (pending) return pending;
  const attempt = (async () => {
    if (await exists(manager, name)) return name;
    try {
      await manager.createNetwork({
        Name: name,
        Driver: 'overlay',
        Attachable: true,
        CheckDuplicate: true,
        Labels: {
          [LABELS.managed]: 'true',
          [LABELS.installation]: installation,
          [LABELS.environmentId]: String(described.environmentId),
          ...(described.stackName ? { [LABELS.stack]: described.stackName } : {}),
          ...(described.environmentHandle ? { [LABELS.environment]: described.environmentHandle } : {}),
        },
      });
    } catch (error) {
      if (await exists(manager, name)) return name;
      throw new RuntimeError(`Unable to create network ${name}: ${(error as Error).message}`);
    }
    return name;
  })();
  making.set(name, attempt);
  return attempt.finally(() => making.delete(name));
}

/**
 * Removes the environment's network (its services gone). Their tasks leave it a moment after a service is
 * removed: a network still in use is tried again for up to `waitMs`.
 */
export async function removeEnvironmentNetwork(
  manager: Docker,
  installation: string,
  environmentId: number | string,
  waitMs = 30_000,
): Promise<void> {
  const name = environmentNetworkName(installation, environmentId);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const found = (await manager.listNetworks({ filters: { name: [name] } })).filter(
      (network) => network.Name === name,
    );
    if (found.length === 0) return;
    try {
      for (const network of found) await manager.getNetwork(network.Id).remove();
      return;
    } catch (error) {
      const { statusCode, message } = error as { statusCode?: number; message: string };
      if (statusCode === 404) continue;
      if (Date.now() > deadline)
        throw new RuntimeError(`Unable to remove network ${name}: ${message.slice(0, 500)}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}
