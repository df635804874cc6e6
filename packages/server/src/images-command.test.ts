import type Docker from 'dockerode';
import { describe, expect, it } from 'vitest';
import { afterImageMade, IMAGES_USAGE, ImagesUsageError, runImagesCommand } from './images-command.ts';
import {
  installedVersions,
  LOCAL_IMAGE_LABEL,
  LocalImageError,
  localImageTag,
  versionProblem,
} from './runtimes/docker/local-images.ts';

// Issue 35: `npm run images -- <engine> <version>` makes a database image from this machine's Debian
// packages. What it refuses, and what it says, need no engine; making one runs in the docker suite
// (local-images.docker.test.ts, and every database of databases.docker.test.ts runs on one).

/** An engine stand-in: whether it answers, and what it has under a name (its labels). */
function engine(options: { answers: boolean; image?: Record<string, string> }) {
  const calls: string[] = [];
  const docker = {
    ping: async () => {
      calls.push('ping');
      if (!options.answers) throw new Error('connect ENOENT /var/run/docker.sock');
    },
    getImage: (name: string) => ({
      inspect: async () => {
        calls.push(`inspect ${name}`);
        if (!options.image) throw new Error('No such image');
        return { Config: { Labels: options.image } };
      },
    }),
    importImage: async () => {
      throw new Error('a refused command imports nothing');
    },
  } as unknown as Docker;
  return { docker, calls };
}

const run = (docker: Docker, ...argv: string[]) => runImagesCommand(docker, argv, () => undefined);

describe('npm run images', () => {
  it('says how it is used when the engine or version is missing or wrong, before asking the engine', async () => {
    const { docker, calls } = engine({ answers: true });
    await expect(run(docker)).rejects.toThrow(new ImagesUsageError(IMAGES_USAGE));
    await expect(run(docker, 'postgresql')).rejects.toThrow(new ImagesUsageError(IMAGES_USAGE));
    await expect(run(docker, 'postgresql', '15', 'extra')).rejects.toThrow(
      new ImagesUsageError(IMAGES_USAGE),
    );
    await expect(run(docker, 'mongodb', '7.0')).rejects.toThrow(
      new ImagesUsageError(
        `No image is made here for mongodb: the engines are postgresql, mysql, redis\n\n${IMAGES_USAGE}`,
      ),
    );
    for (const version of ['15; rm -rf /', 'latest', '1.2.3', `1${'0'.repeat(5_000)}`])
      await expect(run(docker, 'postgresql', version)).rejects.toThrow(
        new ImagesUsageError(
          `The version must be a number such as 15 or 10.11, got "${version.slice(0, 20)}"\n\n${IMAGES_USAGE}`,
        ),
      );
    expect(calls).toEqual([]);
  });

  it('makes only the version Debian packages, and says which and why', () => {
    expect(versionProblem('postgresql', '15', ['15'])).toBeNull();
    expect(versionProblem('postgresql', '16', ['15'])).toBe(
      "PostgreSQL 16 cannot be made here: the image is made from Debian's package, and this machine's postgresql package holds PostgreSQL 15 (npm run images -- postgresql 15)",
    );
    expect(versionProblem('redis', '7.2', ['7.0'])).toBe(
      "Redis 7.2 cannot be made here: the image is made from Debian's package, and this machine's redis-server package holds Redis 7.0 (npm run images -- redis 7.0)",
    );
    expect(versionProblem('mysql', '8.4', ['10.11'])).toBe(
      "Debian ships MariaDB, not MySQL, and this machine's mariadb-server package holds MariaDB 10.11: that is the one version made here (npm run images -- mysql 10.11, which makes mariadb:10.11 at the official MySQL image's contract), not MySQL 8.4",
    );
    expect(versionProblem('mysql', '10.11', ['10.11'])).toBeNull();
    expect(versionProblem('redis', '7.0', [])).toBe(
      "Redis is not installed on this machine: the image is made from Debian's package, so install it first (apt-get install redis-server), then run this again",
    );
  });

  it('names each image as the runtime looks for it, and says what runs on it', () => {
    expect(localImageTag('postgresql', '15')).toBe('postgres:15');
    expect(localImageTag('mysql', '10.11')).toBe('mariadb:10.11');
    expect(localImageTag('redis', '7.0')).toBe('redis:7.0');
    expect(afterImageMade('postgresql', '15', 'postgres:15')).toBe(
      'PostgreSQL 15 databases on the docker runtime run it: no BERTH_DATABASE_IMAGES needed',
    );
    expect(afterImageMade('mysql', '10.11', 'mariadb:10.11')).toBe(
      'Berth offers MySQL 8.4, 8.0, 5.7: to run them on this image, start Berth with BERTH_DATABASE_IMAGES=mysql=mariadb:10.11 (or mysql:<version>=mariadb:10.11 for one version)',
    );
    expect(afterImageMade('redis', '7.0', 'redis:7.0')).toBe(
      // Redis 3.0 is in the catalog but not on the docker runtime (no accounts before 6.2): not offered here.
      'Berth offers Redis 7.4, 7.2, 6.2: to run them on this image, start Berth with BERTH_DATABASE_IMAGES=redis=redis:7.0 (or redis:<version>=redis:7.0 for one version)',
    );
  });

  // The server tests run where PostgreSQL's server binaries are installed (README: prerequisites).
  const [postgres = ''] = installedVersions('postgresql');

  it('refuses a version the machine does not hold without asking the engine', async () => {
    expect(postgres).not.toBe('');
    const { docker, calls } = engine({ answers: true });
    await expect(run(docker, 'postgresql', '9')).rejects.toThrow(
      new LocalImageError(versionProblem('postgresql', '9', installedVersions('postgresql')) ?? ''),
    );
    expect(calls).toEqual([]);
  });

  it('says when no engine answers', async () => {
    await expect(run(engine({ answers: false }).docker, 'postgresql', postgres)).rejects.toThrow(
      new LocalImageError(
        'No Docker engine answers (DOCKER_HOST, else /var/run/docker.sock): start dockerd, then run this again',
      ),
    );
  });

  it('never replaces an image of that name it did not make, and leaves its own as it is', async () => {
    const tag = `postgres:${postgres}`;
    await expect(run(engine({ answers: true, image: {} }).docker, 'postgresql', postgres)).rejects.toThrow(
      new LocalImageError(
        `${tag} is already on the engine and was not made by this command (pulled from a registry?): it is left as it is. Remove it first (docker image rm ${tag}) to make it here`,
      ),
    );
    const made = engine({ answers: true, image: { [LOCAL_IMAGE_LABEL]: '1' } });
    expect(await run(made.docker, 'postgresql', postgres)).toBe(
      `${tag} was already made. ${afterImageMade('postgresql', postgres, tag)}`,
    );
    expect(made.calls).toEqual(['ping', `inspect ${tag}`]);
  });
});
