import type Docker from 'dockerode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseImage, suiteEngine } from '../../testing/docker-images.ts';
import { dockerEngineNode } from './docker-nodes.ts';
import { LABELS } from './engine.ts';

// Issue 39: the docker runtime's one machine on the stack page: the engine's facts and this Berth's
// running containers on it, not another Berth's, nor a stopped one.

const docker = await suiteEngine();
const suffix = Date.now().toString(36);
const installation = `nodes${suffix}`;
const made: string[] = [];

async function started(name: string, ofInstallation: string, run = true) {
  const container = await (docker as Docker).createContainer({
    name,
    Image: await baseImage(docker as Docker),
    Cmd: ['/bin/sh', '-c', 'exec sleep 600'],
    Labels: { [LABELS.managed]: 'true', [LABELS.installation]: ofInstallation },
  });
  made.push(name);
  if (run) await container.start();
}

describe.skipIf(!docker)('dockerEngineNode', () => {
  beforeAll(async () => {
    await started(`berth-t-node-a-${suffix}`, installation);
    await started(`berth-t-node-b-${suffix}`, installation);
    await started(`berth-t-node-stopped-${suffix}`, installation, false);
    await started(`berth-t-node-other-${suffix}`, 'someone-else');
  });

  afterAll(async () => {
    for (const name of made)
      await docker
        ?.getContainer(name)
        .remove({ force: true })
        .catch(() => undefined);
  });

  it("lists the engine with its facts and this Berth's running containers", async () => {
    const info = await (docker as Docker).info();
    const node = await dockerEngineNode(docker as Docker, installation);
    expect(node).toMatchObject({
      id: info.ID,
      hostname: info.Name,
      role: 'manager',
      state: 'ready',
      availability: 'active',
      memoryBytes: info.MemTotal,
      cpus: info.NCPU,
      engineVersion: info.ServerVersion,
    });
    expect(node.address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    expect(node.containers).toEqual([
      { name: `berth-t-node-a-${suffix}`, state: 'running' },
      { name: `berth-t-node-b-${suffix}`, state: 'running' },
    ]);
  });
});
