import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.ts';
import { createRuntimes } from './runtimes.ts';

// The runtimes a process runs: on `sim` (no edge) the Swarm clusters registered as stacks are not run,
// and the operator is told so.

const dataDir = fs.mkdtempSync(path.join(tmpdir(), 'berth-runtimes-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('createRuntimes on sim', () => {
  it('runs no registered Swarm cluster, and says why', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const config = loadConfig({ BERTH_DATA_DIR: dataDir });
      const set = await createRuntimes(config, new Uint8Array(32), {
        superviseEdge: false,
        clusters: async () => [{ name: 'swarm:eu', host: 'unix:///eu.sock', tls: null, registry: 'r:5000' }],
      });
      expect(Object.keys(set.runtimes)).toEqual(['sim']);
      await set.lookForClusters();
      expect(Object.keys(set.runtimes)).toEqual(['sim']);
      expect(warn).toHaveBeenCalledWith(
        'The Swarm clusters of 1 stack(s) are not run: BERTH_RUNTIME=sim runs no edge for their endpoints (set BERTH_RUNTIME=swarm or docker)',
      );
      await set.close();
    } finally {
      warn.mockRestore();
    }
  });
});
