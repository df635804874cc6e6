import type Docker from 'dockerode';
import { DATABASE_IMAGE_CATALOG, ENGINE_NAMES } from './api/database-images/database-images.catalog.ts';
import { officialDatabaseImage, runsOnDocker } from './runtimes/docker/docker-databases.ts';
import {
  buildLocalImage,
  installedVersions,
  isLocalImageEngine,
  LOCAL_IMAGE_ENGINES,
  LocalImageError,
  versionProblem,
} from './runtimes/docker/local-images.ts';

export const IMAGES_USAGE = `Usage: npm run images -- <engine> <version>

Makes a database image on this machine from its Debian packages, for a Docker engine that cannot pull
from a registry: postgresql (apt-get install postgresql), mysql (MariaDB: apt-get install mariadb-server)
or redis (apt-get install redis-server), at the version the package holds.

  npm run images -- postgresql 15    makes postgres:15`;

// A version is a number or two (`15`, `10.11`); its length is checked before the pattern.
const VERSION_MAX_LENGTH = 20;
const VERSION = /^\d{1,4}(?:\.\d{1,4})?$/;

export class ImagesUsageError extends Error {}

/** The versions of an engine Berth's catalog offers, newest first as the catalog lists them. */
/** The versions Berth offers of an engine that the docker runtime runs. */
function catalogVersions(engine: string): string[] {
  return DATABASE_IMAGE_CATALOG.filter(
    (image) => image.type === engine && runsOnDocker(engine, image.version),
  ).map((image) => image.version);
}

/** What the new image serves: databases of its version at once, or those BERTH_DATABASE_IMAGES points at it. */
export function afterImageMade(engine: string, version: string, tag: string): string {
  const name = ENGINE_NAMES[engine] ?? engine;
  if (catalogVersions(engine).includes(version) && officialDatabaseImage(engine, version) === tag)
    return `${name} ${version} databases on the docker runtime run it: no BERTH_DATABASE_IMAGES needed`;
  return `Berth offers ${name} ${catalogVersions(engine).join(', ')}: to run them on this image, start Berth with BERTH_DATABASE_IMAGES=${engine}=${tag} (or ${engine}:<version>=${tag} for one version)`;
}

/**
 * `npm run images -- <engine> <version>`: makes the image on the engine (local-images.ts), printing
 * each step through `log`. Answers the last line to print; bad arguments throw ImagesUsageError, and
 * what the machine cannot do (another version, a package missing, a foreign image of that name) throws
 * LocalImageError with what to do.
 */
export async function runImagesCommand(
  docker: Docker,
  argv: readonly string[],
  log: (line: string) => void,
): Promise<string> {
  const [engine = '', version = '', ...rest] = argv;
  if (!engine || !version || rest.length > 0) throw new ImagesUsageError(IMAGES_USAGE);
  if (!isLocalImageEngine(engine))
    throw new ImagesUsageError(
      `No image is made here for ${engine.slice(0, 40)}: the engines are ${LOCAL_IMAGE_ENGINES.join(', ')}\n\n${IMAGES_USAGE}`,
    );
  if (version.length > VERSION_MAX_LENGTH || !VERSION.test(version))
    throw new ImagesUsageError(
      `The version must be a number such as 15 or 10.11, got "${version.slice(0, VERSION_MAX_LENGTH)}"\n\n${IMAGES_USAGE}`,
    );
  const problem = versionProblem(engine, version, installedVersions(engine));
  if (problem) throw new LocalImageError(problem);
  try {
    await docker.ping();
  } catch {
    throw new LocalImageError(
      'No Docker engine answers (DOCKER_HOST, else /var/run/docker.sock): start dockerd, then run this again',
    );
  }
  const { tag, built } = await buildLocalImage(docker, engine, version, { log });
  return `${built ? `Made ${tag}` : `${tag} was already made`}. ${afterImageMade(engine, version, tag)}`;
}
