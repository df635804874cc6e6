import { createHash, randomBytes } from 'node:crypto';
import type {
  AppTarget,
  BuiltImage,
  CodeScan,
  ContainerSpec,
  Runtime,
  RuntimeContext,
  ServicePlan,
} from '../runtime.ts';
import { RuntimeError } from '../runtime.ts';

/** Any git ref, image or handle containing this word makes the simulated step fail (for tests and demos). */
export const SIM_FAILURE_MARKER = 'simfail';

const sha1 = (value: string) => createHash('sha1').update(value).digest('hex');
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The `sim` runtime: a faithful simulation of a stack. Steps take time (`stepMs`, scaled down in
 * tests), write the log lines a real platform writes, and produce containers with realistic names,
 * hosts and ports. Nothing leaves the process.
 */
export function createSimRuntime(options: { stepMs: number }): Runtime {
  async function step(ctx: RuntimeContext, factor = 1) {
    const ms = Math.round(options.stepMs * factor);
    if (ms <= 0) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, ms);
      ctx.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(new RuntimeError('Operation interrupted'));
        },
        { once: true },
      );
    });
    if (ctx.signal.aborted) throw new RuntimeError('Operation interrupted');
  }

  async function failIf(ctx: RuntimeContext, subject: string | undefined, message: string) {
    if (subject?.includes(SIM_FAILURE_MARKER)) {
      await ctx.log(message, 'ERROR');
      throw new RuntimeError(message);
    }
  }

  function containersFor(target: AppTarget, service: ServicePlan, image: string): ContainerSpec[] {
    return Array.from({ length: service.containerCount }, (_, index) => {
      const suffix = randomBytes(4).toString('hex');
      return {
        dockerName: `${target.appHandle}-${service.handle}-${index + 1}-${suffix}`,
        host: `ip-10-${(index % 250) + 1}-${suffix.charCodeAt(0) % 250}-${suffix.charCodeAt(1) % 250}.${target.stackName}.sim`,
        awsInstanceId: `i-${sha1(`${image}${suffix}`).slice(0, 17)}`,
        instanceClass: service.instanceClass,
        memoryLimit: service.memoryLimitMb,
        port: service.processType === 'cmd' || service.handle === 'web' ? 5000 : 0,
        layer: 'app',
        status: 'running',
      };
    });
  }

  return {
    name: 'sim',

    async buildImage(ctx, target, source) {
      if (source.dockerImage) {
        await ctx.log(`Pulling Docker image ${source.dockerImage}`);
        await step(ctx);
        await failIf(ctx, source.dockerImage, `Unable to pull ${source.dockerImage}: manifest unknown`);
        const digest = `sha256:${sha256(source.dockerImage)}`;
        await ctx.log(`Pulled ${source.dockerImage} (${digest.slice(0, 19)})`);
        const [repo = source.dockerImage] = source.dockerImage.split(':');
        return {
          dockerRepo: repo,
          dockerRef: digest,
          gitRepo: null,
          gitRef: null,
          exposedPorts: [5000],
          commit: null,
          processes: [{ processType: 'cmd', command: null }],
        } satisfies BuiltImage;
      }
      const gitRef = source.gitRef ?? 'main';
      const commitSha = sha1(`${target.environmentHandle}/${target.appHandle}@${gitRef}`);
      await ctx.log(`Fetching ${source.gitRepo} at ${gitRef}`);
      await step(ctx);
      await failIf(ctx, gitRef, `fatal: couldn't find remote ref ${gitRef}`);
      await ctx.log(`Checked out ${commitSha.slice(0, 7)} (${gitRef})`);
      await ctx.log('Building image from Dockerfile');
      for (const [index, instruction] of [
        'FROM node:20-slim',
        'COPY . /app',
        'RUN npm ci --omit=dev',
      ].entries()) {
        await ctx.log(`Step ${index + 1}/4 : ${instruction}`);
        await step(ctx, 0.5);
      }
      await ctx.log('Step 4/4 : CMD ["npm", "start"]');
      await failIf(
        ctx,
        target.appHandle,
        `The command '/bin/sh -c npm ci --omit=dev' returned a non-zero code: 1`,
      );
      const dockerRepo = `registry.${target.stackName}.sim/${target.environmentHandle}/${target.appHandle}`;
      const dockerRef = `sha256:${sha256(`${dockerRepo}@${commitSha}`)}`;
      await ctx.log(`Successfully built ${dockerRef.slice(7, 19)}`);
      await ctx.log(`Pushing image to ${dockerRepo}`);
      await step(ctx);
      return {
        dockerRepo,
        dockerRef,
        gitRepo: source.gitRepo,
        gitRef,
        exposedPorts: [5000],
        commit: { sha: commitSha, message: `Deploy ${gitRef}`, timestamp: new Date() },
        processes: [{ processType: 'cmd', command: null }],
      };
    },

    async rollOut(ctx, target, service, image) {
      await ctx.log(
        `Starting ${service.containerCount} container(s) of service ${service.handle} (${service.memoryLimitMb} MB, ${service.instanceClass})`,
      );
      const containers = containersFor(target, service, image.dockerRef);
      for (const container of containers) {
        await step(ctx, 0.5);
        await ctx.log(`Container ${container.dockerName} started on ${container.host}`);
      }
      if (containers.some((c) => c.port > 0)) {
        await ctx.log(`Waiting for service ${service.handle} to respond on port 5000`);
        await step(ctx, 0.5);
        await ctx.log(`Service ${service.handle} is healthy`);
      }
      await ctx.log(`Stopping previous containers of service ${service.handle}`);
      return containers;
    },

    async restart(ctx, target, service, recreate) {
      await ctx.log(
        recreate
          ? `Recreating containers of service ${service.handle} on new hosts`
          : `Restarting containers of service ${service.handle}`,
      );
      await step(ctx);
      const containers = containersFor(target, service, `${target.appHandle}:${Date.now()}`);
      for (const container of containers)
        await ctx.log(`Container ${container.dockerName} started on ${container.host}`);
      return containers;
    },

    async removeApp(ctx, target) {
      await ctx.log(`Stopping all containers of app ${target.appHandle}`);
      await step(ctx);
      // Only a handle asking for it fails here, so failed deploys can still be cleaned up.
      if (target.appHandle.includes(`${SIM_FAILURE_MARKER}-deprovision`)) {
        await failIf(ctx, target.appHandle, `Unable to stop containers of ${target.appHandle}`);
      }
      await ctx.log(`Removed app ${target.appHandle} from ${target.stackName}`);
    },

    async scanCode(ctx, target, gitRef): Promise<CodeScan> {
      await ctx.log(`Scanning ${target.appHandle} at ${gitRef}`);
      await step(ctx);
      await failIf(ctx, gitRef, `fatal: couldn't find remote ref ${gitRef}`);
      await ctx.log('Found Dockerfile, package.json');
      return {
        dockerfile: 'FROM node:20-slim\nCOPY . /app\nRUN npm ci --omit=dev\nCMD ["npm", "start"]\n',
        procfile: null,
        berthYml: null,
        languages: ['JavaScript'],
      };
    },
  };
}
