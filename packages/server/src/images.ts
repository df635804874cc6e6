/**
 * `npm run images -- <engine> <version>`: makes a database image on this machine from its Debian
 * packages (images-command.ts), for a Docker engine that cannot pull from a registry (DOCKER_HOST, else
 * the local socket, as the docker runtime).
 */
import Docker from 'dockerode';
import { ImagesUsageError, runImagesCommand } from './images-command.ts';
import { LocalImageError } from './runtimes/docker/local-images.ts';

try {
  console.log(await runImagesCommand(new Docker(), process.argv.slice(2), (line) => console.log(line)));
} catch (error) {
  const known = error instanceof ImagesUsageError || error instanceof LocalImageError;
  console.error(known ? error.message : error);
  process.exitCode = 1;
}
