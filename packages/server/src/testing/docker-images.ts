import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import Docker from 'dockerode';

// Images for the docker suites, made on the machine: this network reaches no image registry. The base is
// a root filesystem holding Debian's static busybox (`apt-get install busybox-static`), imported with
// `docker import`; the others are built FROM it with small Dockerfiles.

export const BASE_IMAGE = 'berth-test/busybox:1';

/**
 * The engine of a docker suite's file: null (and a warning) when none answers locally; in CI (CI=true)
 * a missing engine fails the file, since CI runs the docker suite.
 */
export async function suiteEngine(): Promise<Docker | null> {
  const docker = await dockerEngine();
  if (!docker && process.env.CI) throw new Error('CI runs the docker suite: no Docker engine answers');
  if (!docker)
    console.warn('No Docker engine answers (DOCKER_HOST or the local socket): the docker suite is skipped');
  return docker;
}

/** The text an app's container answers at / (the test images' httpd serves one line). */
export async function pageText(host: string, port: number): Promise<string> {
  const response = await fetch(`http://${host}:${port}/`, { signal: AbortSignal.timeout(3000) });
  return (await response.text()).trim();
}

/** The engine when one answers (DOCKER_HOST, else the local socket), else null. */
export async function dockerEngine(): Promise<Docker | null> {
  const docker = new Docker();
  try {
    await Promise.race([
      docker.ping(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 3000)),
    ]);
    return docker;
  } catch {
    return null;
  }
}

/** A folder as a tar stream (what the engine takes for an import or a build context). */
export function tarOf(folder: string): Readable {
  return spawn('tar', ['-C', folder, '-c', '.'], { stdio: ['ignore', 'pipe', 'inherit'] }).stdout;
}

function follow(docker: Docker, stream: NodeJS.ReadableStream): Promise<{ error?: string }[]> {
  return new Promise((resolve, reject) => {
    docker.modem.followProgress(stream, (error: Error | null, output: { error?: string }[]) => {
      if (error) return reject(error);
      const failed = output.find((event) => event.error);
      return failed ? reject(new Error(failed.error)) : resolve(output);
    });
  });
}

async function hasImage(docker: Docker, name: string): Promise<boolean> {
  try {
    await docker.getImage(name).inspect();
    return true;
  } catch {
    return false;
  }
}

function staticBusybox(): string {
  for (const candidate of ['/bin/busybox', '/usr/bin/busybox'])
    if (fs.existsSync(candidate)) return candidate;
  throw new Error('busybox is missing: apt-get install busybox-static');
}

/** The base image: busybox and its applets, nothing else. */
export async function baseImage(docker: Docker): Promise<string> {
  if (await hasImage(docker, BASE_IMAGE)) return BASE_IMAGE;
  const root = fs.mkdtempSync(path.join(tmpdir(), 'berth-rootfs-'));
  try {
    fs.mkdirSync(path.join(root, 'bin'));
    fs.mkdirSync(path.join(root, 'tmp'));
    fs.copyFileSync(staticBusybox(), path.join(root, 'bin', 'busybox'));
    fs.chmodSync(path.join(root, 'bin', 'busybox'), 0o755);
    for (const applet of ['sh', 'httpd', 'sleep', 'echo', 'cat', 'mkdir', 'env', 'wc', 'ls'])
      fs.symlinkSync('busybox', path.join(root, 'bin', applet));
    const [repo, tag] = BASE_IMAGE.split(':');
    await follow(docker, await docker.importImage(tarOf(root) as never, { repo, tag }));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
  return BASE_IMAGE;
}

/** Builds an image from files (a Dockerfile among them) under a name, once. */
export async function builtImage(
  docker: Docker,
  name: string,
  files: Record<string, string>,
): Promise<string> {
  if (await hasImage(docker, name)) return name;
  const context = fs.mkdtempSync(path.join(tmpdir(), 'berth-context-'));
  try {
    for (const [file, content] of Object.entries(files)) fs.writeFileSync(path.join(context, file), content);
    await follow(docker, await docker.buildImage(tarOf(context) as never, { t: name, forcerm: true }));
  } finally {
    fs.rmSync(context, { recursive: true, force: true });
  }
  return name;
}

/** A web app: busybox's httpd answering `text` on $PORT. */
export function webImage(docker: Docker, name: string, text: string): Promise<string> {
  return builtImage(docker, name, {
    Dockerfile: [
      `FROM ${BASE_IMAGE}`,
      'ENV PATH=/bin',
      `RUN mkdir -p /www && echo ${text} > /www/index.html`,
      'CMD ["/bin/sh", "-c", "exec httpd -f -p $PORT -h /www"]',
      '',
    ].join('\n'),
  });
}
