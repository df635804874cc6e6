import { describe, expect, it } from 'vitest';
import { createClusterLooker, type LookedCluster } from './cluster-looker.ts';
import type { Runtime } from './runtime.ts';

// The looks for Swarm clusters registered while a process runs (runtimes.ts): one at a time, a fresh one
// for a caller that asks during another, nothing started twice, nothing started after close.

type Started = Runtime & { close(): void; closed: boolean };

function setup(registered: LookedCluster[]) {
  const runtimes = new Map<string, Started>();
  const warnings: string[] = [];
  const starts: string[] = [];
  let loads = 0;
  const gates: (() => void)[] = [];
  let hold = false;
  const looker = createClusterLooker({
    load: async () => {
      loads += 1;
      return [...registered];
    },
    has: (name) => runtimes.has(name),
    start: async (cluster) => {
      starts.push(cluster.name);
      if (hold) await new Promise<void>((resolve) => gates.push(resolve));
      if (cluster.host === 'unix:///down.sock') throw new Error('connect ENOENT /down.sock');
      const runtime = {
        name: cluster.name,
        closed: false,
        close() {
          runtime.closed = true;
        },
      } as unknown as Started;
      return runtime;
    },
    add: (name, runtime) => runtimes.set(name, runtime as Started),
    warn: (message) => warnings.push(message),
  });
  return {
    looker,
    runtimes,
    warnings,
    starts,
    loads: () => loads,
    holdStarts: () => {
      hold = true;
    },
    releaseStarts: () => {
      hold = false;
      for (const open of gates.splice(0)) open();
    },
  };
}

describe('createClusterLooker', () => {
  it('starts each registered cluster once, and one registered later at the next look', async () => {
    const registered = [{ name: 'swarm:eu', host: 'unix:///eu.sock' }];
    const s = setup(registered);
    await s.looker.look();
    await s.looker.look();
    expect(s.starts).toEqual(['swarm:eu']);
    registered.push({ name: 'swarm:us', host: 'unix:///us.sock' });
    await s.looker.look();
    expect([...s.runtimes.keys()]).toEqual(['swarm:eu', 'swarm:us']);
    expect(s.starts).toEqual(['swarm:eu', 'swarm:us']);
  });

  it('runs a fresh look after the one under way for a caller that asks meanwhile; callers then share it', async () => {
    const registered = [{ name: 'swarm:eu', host: 'unix:///eu.sock' }];
    const s = setup(registered);
    s.holdStarts();
    const first = s.looker.look();
    await new Promise((resolve) => setImmediate(resolve));
    // Committed after the first look read the list: only a look after it finds this one.
    registered.push({ name: 'swarm:us', host: 'unix:///us.sock' });
    const second = s.looker.look();
    const third = s.looker.look();
    expect(third).toBe(second);
    s.releaseStarts();
    await first;
    s.releaseStarts();
    await second;
    expect(s.loads()).toBe(2);
    expect(s.starts).toEqual(['swarm:eu', 'swarm:us']);
    expect([...s.runtimes.keys()]).toEqual(['swarm:eu', 'swarm:us']);
  });

  it('says which cluster could not be started, and tries it again at the next look', async () => {
    const s = setup([{ name: 'swarm:far', host: 'unix:///down.sock' }]);
    await s.looker.look();
    await s.looker.look();
    expect(s.warnings).toEqual([
      'The Swarm cluster of stack far at unix:///down.sock is not run yet: connect ENOENT /down.sock',
      'The Swarm cluster of stack far at unix:///down.sock is not run yet: connect ENOENT /down.sock',
    ]);
    expect(s.runtimes.size).toBe(0);
  });

  it('closes a runtime a look was starting when the process closed, and starts nothing after', async () => {
    const registered = [{ name: 'swarm:eu', host: 'unix:///eu.sock' }];
    const s = setup(registered);
    s.holdStarts();
    const look = s.looker.look();
    await new Promise((resolve) => setImmediate(resolve));
    const closing = s.looker.close();
    s.releaseStarts();
    await closing;
    await look;
    expect(s.runtimes.size).toBe(0);
    expect(s.starts).toEqual(['swarm:eu']);
    await s.looker.look();
    expect(s.starts).toEqual(['swarm:eu']);
  });
});
