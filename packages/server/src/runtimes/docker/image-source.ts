import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { httpGitRemote } from '@berth/core';
import type Docker from 'dockerode';
import type { AppTarget, BuiltImage, CodeScan, RegistryAuth, RuntimeContext } from '../runtime.ts';
import { REGISTRY_PASSWORD_VARIABLE, REGISTRY_USERNAME_VARIABLE, RuntimeError } from '../runtime.ts';
import { appKey, exposedPorts, LABELS } from './engine.ts';
import {
  appRepository,
  archiveToFile,
  commitInfo,
  fileAt,
  parseProcfile,
  resolveCommit,
} from './git-source.ts';

// What the runtimes that build on a Docker engine share (docker, and swarm on its manager): an
// operation's log lines, and an app's image from its git repository's Dockerfile or from a registry.

export const interrupted = () => new RuntimeError('Operation interrupted');

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(interrupted());
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(interrupted());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A Docker name from handles: `[a-zA-Z0-9][a-zA-Z0-9_.-]*`. */
export const nameOf = (...parts: string[]) =>
  parts
    .join('-')
    .replace(/[^a-zA-Z0-9_.-]+/g, '-')
    .slice(0, 120);

/** An image repository name: lower case, path parts of `[a-z0-9._-]`. */
export const repositoryOf = (...parts: string[]) =>
  parts.map((part) => part.toLowerCase().replace(/[^a-z0-9._-]+/g, '-')).join('/');

/** `registry/name:tag` or `name@sha256:…` without its tag or digest. */
export function repositoryOfImage(reference: string): string {
  const withoutDigest = reference.split('@')[0] ?? reference;
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  return colon > lastSlash ? withoutDigest.slice(0, colon) : withoutDigest;
}

/** The registry an image reference names (its first part when that looks like a host), else Docker Hub. */
export function registryOf(reference: string): string {
  const slash = reference.indexOf('/');
  const first = slash > 0 ? reference.slice(0, slash) : '';
  return first && (first.includes('.') || first.includes(':') || first === 'localhost')
    ? first
    : 'https://index.docker.io/v1/';
}

/**
 * Why an app's image could not be pulled, and the two ways on: the registry account of the app's
 * configuration, or the image put on this machine's engine, which a deploy then uses without pulling.
 */
export function pullFailure(reference: string, auth: RegistryAuth | undefined, reason: string): string {
  const onTheEngine = `if this machine cannot reach the registry, put the image on its Docker engine (docker load, or docker build -t ${reference}) and deploy again: an image the engine has is used without pulling`;
  return auth
    ? `Unable to pull ${reference} as ${auth.username}: ${reason}. Check the app's ${REGISTRY_USERNAME_VARIABLE} and ${REGISTRY_PASSWORD_VARIABLE}; ${onTheEngine}`
    : `Unable to pull ${reference}: ${reason}. If the registry is private, set ${REGISTRY_USERNAME_VARIABLE} and ${REGISTRY_PASSWORD_VARIABLE} in the app's configuration; ${onTheEngine}`;
}

/** Follows an engine's progress stream (pull, build), one callback per event, until it ends. */
export function followProgress(
  docker: Docker,
  stream: NodeJS.ReadableStream,
  onEvent: (event: { stream?: string; status?: string; error?: string; aux?: { ID?: string } }) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (error: Error | null) => (error ? reject(error) : resolve()),
      onEvent,
    );
  });
}

export type OperationLog = (
  ctx: RuntimeContext,
  text: string,
  level?: 'INFO' | 'WARN' | 'ERROR',
) => Promise<void>;

export async function log(ctx: RuntimeContext, text: string, level?: 'INFO' | 'WARN' | 'ERROR') {
  // One line per log entry, never an unbounded one.
  for (const line of text.split('\n')) {
    const trimmed = line.trimEnd();
    if (trimmed) await ctx.log(trimmed.slice(0, 2000), level);
  }
}

/**
 * Log lines from an engine's progress events, written in order as they come; `done` settles once all
 * are written, and fails as the first failed write did (a lost lease), so no write is left unawaited.
 */
export function streamedLog(ctx: RuntimeContext) {
  let written: Promise<void> = Promise.resolve();
  return {
    write(text: string) {
      written = written.then(() => log(ctx, text));
    },
    done: () => written,
  };
}

export async function fail(ctx: RuntimeContext, message: string): Promise<never> {
  await log(ctx, message, 'ERROR');
  throw new RuntimeError(message);
}

export interface ImageSourceOptions {
  docker: Docker;
  /** Where the apps' bare repositories live (`<gitDir>/<app id>.git`). */
  gitDir: string;
  /** The console's public origin: the apps' git remotes hang off it. */
  publicUrl: string;
  installation: string;
}

/** Builds an app's image from its repository, or takes one from a registry, on one engine. */
export function createImageSource(options: ImageSourceOptions) {
  const { docker } = options;

  async function imageFromRegistry(
    ctx: RuntimeContext,
    reference: string,
    auth: RegistryAuth | undefined,
  ): Promise<BuiltImage> {
    let image: Docker.ImageInspectInfo;
    try {
      image = await docker.getImage(reference).inspect();
      await log(ctx, `Using Docker image ${reference} found on the engine`);
    } catch {
      const registry = registryOf(reference);
      await log(
        ctx,
        auth
          ? `Pulling Docker image ${reference} as ${auth.username} on ${registry}`
          : `Pulling Docker image ${reference}`,
      );
      try {
        const stream = await docker.pull(
          reference,
          auth
            ? { authconfig: { username: auth.username, password: auth.password, serveraddress: registry } }
            : {},
        );
        const seen = new Set<string>();
        const lines = streamedLog(ctx);
        await followProgress(docker, stream, (event) => {
          const status = event.status ?? '';
          // Download percentages repeat endlessly: keep each distinct status once.
          if (status && !event.status?.startsWith('Downloading') && !seen.has(status)) {
            seen.add(status);
            lines.write(status.slice(0, 500));
          }
        });
        await lines.done();
        image = await docker.getImage(reference).inspect();
      } catch (error) {
        return fail(ctx, pullFailure(reference, auth, (error as Error).message));
      }
    }
    await log(ctx, `Image ${reference} is ${image.Id.slice(7, 19)}`);
    return {
      dockerRepo: repositoryOfImage(reference),
      dockerRef: image.Id,
      gitRepo: null,
      gitRef: null,
      exposedPorts: exposedPorts(image),
      commit: null,
      processes: [{ processType: 'cmd', command: null }],
    };
  }

  async function imageFromGit(ctx: RuntimeContext, target: AppTarget, gitRef: string): Promise<BuiltImage> {
    // The remote a push really reaches here (the caller's name for it is the simulated stacks' kind).
    const remote = httpGitRemote(options.publicUrl, target.environmentHandle, target.appHandle);
    const repository = appRepository(options.gitDir, target);
    await log(ctx, `Fetching ${remote} at ${gitRef}`);
    const sha = await resolveCommit(repository, gitRef);
    if (!sha) return fail(ctx, `fatal: couldn't find remote ref ${gitRef}`);
    const commit = await commitInfo(repository, sha);
    await log(ctx, `Checked out ${sha.slice(0, 7)} (${gitRef})`);
    if ((await fileAt(repository, sha, 'Dockerfile')) === null)
      return fail(ctx, `No Dockerfile at the root of ${gitRef}: add one to build this app`);
    // Named after the app's id (handles repeat across organizations), then its handles for people.
    const tag = `${repositoryOf('berth', appKey(target), `${target.environmentHandle}-${target.appHandle}`)}:${sha.slice(0, 12)}`;
    await log(ctx, 'Building image from Dockerfile');
    let context: Awaited<ReturnType<typeof archiveToFile>>;
    try {
      context = await archiveToFile(repository, sha);
    } catch (error) {
      return fail(ctx, (error as Error).message);
    }
    let builtId: string | undefined;
    let buildError: string | undefined;
    const lines = streamedLog(ctx);
    try {
      const stream = (await docker.buildImage(fs.createReadStream(context.file), {
        t: tag,
        labels: {
          [LABELS.managed]: 'true',
          [LABELS.installation]: options.installation,
          [LABELS.stack]: target.stackName,
          [LABELS.environment]: target.environmentHandle,
          [LABELS.environmentId]: String(target.environmentId),
          [LABELS.app]: appKey(target),
        },
        forcerm: true,
      })) as Readable;
      const stop = () => stream.destroy(interrupted());
      ctx.signal.addEventListener('abort', stop, { once: true });
      try {
        await followProgress(docker, stream, (event) => {
          if (event.stream) lines.write(event.stream);
          if (event.error) buildError = event.error;
          if (event.aux?.ID) builtId = event.aux.ID;
        });
      } finally {
        ctx.signal.removeEventListener('abort', stop);
      }
      await lines.done();
    } catch (error) {
      if (ctx.signal.aborted) throw interrupted();
      buildError ??= (error as Error).message;
    } finally {
      await context.remove();
    }
    if (buildError) return fail(ctx, buildError.trim());
    const image = await docker.getImage(builtId ?? tag).inspect();
    await log(ctx, `Image ${image.Id.slice(7, 19)} built from ${sha.slice(0, 7)}`);
    const procfile = await fileAt(repository, sha, 'Procfile');
    const entries = procfile ? parseProcfile(procfile) : [];
    return {
      dockerRepo: repositoryOfImage(tag),
      dockerRef: image.Id,
      gitRepo: remote,
      gitRef,
      exposedPorts: exposedPorts(image),
      commit,
      processes: entries.length
        ? entries.map((entry) => ({ processType: entry.processType, command: entry.command }))
        : [{ processType: 'cmd', command: null }],
    };
  }

  async function scanCode(ctx: RuntimeContext, target: AppTarget, gitRef: string): Promise<CodeScan> {
    const repository = appRepository(options.gitDir, target);
    await log(ctx, `Scanning ${target.appHandle} at ${gitRef}`);
    const sha = await resolveCommit(repository, gitRef);
    if (!sha) return fail(ctx, `fatal: couldn't find remote ref ${gitRef}`);
    const [dockerfile, procfile, berthYml] = await Promise.all([
      fileAt(repository, sha, 'Dockerfile'),
      fileAt(repository, sha, 'Procfile'),
      fileAt(repository, sha, '.berth.yml'),
    ]);
    const markers: [string, string][] = [
      ['package.json', 'JavaScript'],
      ['requirements.txt', 'Python'],
      ['pyproject.toml', 'Python'],
      ['Gemfile', 'Ruby'],
      ['go.mod', 'Go'],
      ['pom.xml', 'Java'],
      ['composer.json', 'PHP'],
      ['Cargo.toml', 'Rust'],
    ];
    const languages: string[] = [];
    for (const [file, language] of markers) {
      if (!languages.includes(language) && (await fileAt(repository, sha, file)) !== null)
        languages.push(language);
    }
    const found = ['Dockerfile', 'Procfile', '.berth.yml'].filter(
      (_, index) => [dockerfile, procfile, berthYml][index] !== null,
    );
    await log(
      ctx,
      found.length ? `Found ${found.join(', ')}` : 'Found no Dockerfile, Procfile or .berth.yml',
    );
    return { dockerfile, procfile, berthYml, languages };
  }

  return { imageFromRegistry, imageFromGit, scanCode };
}
