import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type Docker from 'dockerode';
import { afterAll, describe, expect, it } from 'vitest';
import { suiteEngine } from '../../testing/docker-images.ts';
import { installedVersions, LOCAL_IMAGE_LABEL } from './local-images.ts';

// Issue 35: `npm run images` makes a database image on a machine that cannot pull, under the name the
// docker runtime looks for. Redis is the quickest to make; every database of databases.docker.test.ts
// runs on images the same recipe made (under the tests' own names).

const docker = await suiteEngine();
const entry = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../images.ts');

/** The command as `npm run images -- …` runs it: its output, and whether it succeeded. */
async function images(...argv: string[]): Promise<{ ok: boolean; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', entry, ...argv],
      { timeout: 300_000 },
    );
    return { ok: true, out: `${stdout}${stderr}` };
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string };
    return { ok: false, out: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

async function labels(engine: Docker, tag: string): Promise<Record<string, string> | null> {
  try {
    return (await engine.getImage(tag).inspect()).Config?.Labels ?? {};
  } catch {
    return null;
  }
}

describe.skipIf(!docker)('npm run images', () => {
  const engine = docker as Docker;
  const [version = ''] = installedVersions('redis');
  const tag = `redis:${version}`;
  let made = false;

  afterAll(async () => {
    // Only what this test made goes.
    if (made) await engine.getImage(tag).remove();
  });

  it("makes redis:<version> from the machine's package, labelled as its own, once", async () => {
    expect(version).toMatch(/^\d+\.\d+$/);
    const before = await labels(engine, tag);
    if (before && !before[LOCAL_IMAGE_LABEL]) {
      // An image of that name from elsewhere (a registry) is never replaced.
      const refused = await images('redis', version);
      expect(refused.ok).toBe(false);
      expect(refused.out).toContain(`${tag} is already on the engine and was not made by this command`);
      return;
    }
    const first = await images('redis', version);
    expect(first.ok, first.out).toBe(true);
    made = before === null;
    expect(first.out).toContain(
      `Berth offers Redis 7.4, 7.2, 6.2: to run them on this image, start Berth with BERTH_DATABASE_IMAGES=redis=${tag}`,
    );
    expect((await labels(engine, tag))?.[LOCAL_IMAGE_LABEL]).toBe('1');
    // The official image's contract: the arguments run as they are given (redis-server's version here).
    const container = await engine.createContainer({
      Image: tag,
      Cmd: ['redis-server', '--version'],
      Labels: { 'io.berth.test': 'local-images' },
    });
    try {
      await container.start();
      await container.wait();
      const output = (await container.logs({ stdout: true, stderr: true })).toString('utf8');
      expect(output).toContain(`v=${version}.`);
    } finally {
      await container.remove({ force: true });
    }
    const again = await images('redis', version);
    expect(again.ok, again.out).toBe(true);
    expect(again.out).toContain(`${tag} was already made.`);
  }, 300_000);

  it('refuses another version, saying which one this machine can make', async () => {
    const refused = await images('redis', '7.2');
    expect(refused.ok).toBe(false);
    expect(refused.out).toContain(
      `Redis 7.2 cannot be made here: the image is made from Debian's package, and this machine's redis-server package holds Redis ${version} (npm run images -- redis ${version})`,
    );
  });
});
