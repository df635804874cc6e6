import type { Runtime } from './runtime.ts';

/** A registered cluster, as far as looking for it goes: its runtime key and where its manager is. */
export interface LookedCluster {
  name: string;
  host: string;
}

/**
 * Takes up clusters registered while a process runs (`add-stack`): each look reads the registered ones
 * and starts a runtime for each it does not run yet. Looks run one after the other, so no cluster is
 * started twice; a caller that asks while one runs gets a fresh look after it (the stack it wants may
 * have been committed after that look read the list), and callers asking meanwhile share that one. A
 * cluster that cannot be started is looked at again the next time. After `close` nothing is started:
 * a runtime a look was starting then is closed at once.
 */
export function createClusterLooker<C extends LookedCluster>(options: {
  load(): Promise<C[]>;
  has(name: string): boolean;
  start(cluster: C): Promise<Runtime & { close(): void }>;
  add(name: string, runtime: Runtime & { close(): void }): void;
  warn(message: string): void;
}) {
  let closed = false;
  let running: Promise<void> = Promise.resolve();
  let queued: Promise<void> | null = null;

  async function once() {
    if (closed) return;
    let clusters: C[];
    try {
      clusters = await options.load();
    } catch (error) {
      options.warn(`Reading the registered Swarm clusters: ${(error as Error).message}`);
      return;
    }
    for (const cluster of clusters) {
      if (closed) return;
      if (options.has(cluster.name)) continue;
      try {
        const runtime = await options.start(cluster);
        if (closed) {
          runtime.close();
          return;
        }
        options.add(cluster.name, runtime);
      } catch (error) {
        options.warn(
          `The Swarm cluster of stack ${cluster.name.slice('swarm:'.length)} at ${cluster.host} is not run yet: ${(error as Error).message}`,
        );
      }
    }
  }

  return {
    look(): Promise<void> {
      if (queued) return queued;
      const next = running.then(() => {
        queued = null;
        return once();
      });
      queued = next;
      running = next;
      return next;
    },
    /** Starts nothing more, and waits for a look under way. */
    async close() {
      closed = true;
      await running;
    },
  };
}
