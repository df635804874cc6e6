import { createHash, randomBytes } from 'node:crypto';
import { defaultEndpointDomain, trimChar } from '@berth/core';
import type {
  AppTarget,
  BuiltImage,
  CodeScan,
  ContainerSpec,
  DatabasePlan,
  DatabaseTarget,
  EndpointPlan,
  EndpointTarget,
  ProvisionedEndpoint,
  Runtime,
  RuntimeContext,
  ServicePlan,
} from '../runtime.ts';
import { RuntimeError } from '../runtime.ts';
import { simContainerLogs, simEndpointLogs } from './sim-logs.ts';
import { simContainerMetrics } from './sim-metrics.ts';
import { SIM_NODE_COUNT, type SimAvailabilities, simNodeHost, simNodeId, simNodes } from './sim-nodes.ts';

/** Any git ref, image or handle containing this word makes the simulated step fail (for tests and demos). */
export const SIM_FAILURE_MARKER = 'simfail';

/** The port each engine listens on (credential URLs name it). */
export const DATABASE_PORTS: Record<string, number> = {
  postgresql: 5432,
  mysql: 3306,
  redis: 6379,
  mongodb: 27017,
  elasticsearch: 9200,
  rabbitmq: 5671,
  influxdb: 8086,
  couchdb: 5984,
};

const sha1 = (value: string) => createHash('sha1').update(value).digest('hex');
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/**
 * The `sim` runtime: a faithful simulation of a stack. Steps take time (`stepMs`, scaled down in
 * tests), write the log lines a real platform writes, and produce containers with realistic names,
 * hosts and ports. Nothing leaves the process.
 */
export function createSimRuntime(options: { stepMs: number }): Runtime {
  // What owners set on the simulated machines, by stack (kept for the process's life, as the rest is).
  const nodeAvailabilities = new Map<string, SimAvailabilities>();

  /** The machines new containers land on: the active ones (all, if an owner left none active). */
  function machinesTakingTasks(stackName: string): number[] {
    const availabilities = nodeAvailabilities.get(stackName) ?? [];
    const all = Array.from({ length: SIM_NODE_COUNT }, (_, index) => index);
    const active = all.filter((index) => (availabilities[index] ?? 'active') === 'active');
    return active.length > 0 ? active : all;
  }

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
    // Spread over the stack's machines as Swarm spreads replicas: one each, from a machine picked at random.
    const first = randomBytes(1)[0] ?? 0;
    const machines = machinesTakingTasks(target.stackName);
    return Array.from({ length: service.containerCount }, (_, index) => {
      const suffix = randomBytes(4).toString('hex');
      return {
        dockerName: `${target.appHandle}-${service.handle}-${index + 1}-${suffix}`,
        host: simNodeHost(target.stackName, machines[(first + index) % machines.length] ?? 0),
        awsInstanceId: `i-${sha1(`${image}${suffix}`).slice(0, 17)}`,
        instanceClass: service.instanceClass,
        memoryLimit: service.memoryLimitMb,
        port: service.processType === 'cmd' || service.handle === 'web' ? 5000 : 0,
        layer: 'app',
        status: 'running',
      };
    });
  }

  function databaseContainer(target: DatabaseTarget, plan: DatabasePlan): ContainerSpec {
    const suffix = randomBytes(4).toString('hex');
    return {
      dockerName: `${label(target.handle)}-${target.type}-${suffix}`,
      host: simNodeHost(target.stackName, target.id),
      awsInstanceId: `i-${sha1(`${target.id}${suffix}`).slice(0, 17)}`,
      instanceClass: plan.instanceClass,
      memoryLimit: plan.containerSizeMb,
      port: DATABASE_PORTS[target.type] ?? 5432,
      layer: 'database',
      status: 'running',
    };
  }

  /**
   * Database steps fail on a handle asking for it: `simfail-<phase>` fails that phase only (`restart`,
   * `backup`, `deprovision`), a bare `simfail` fails provisioning.
   */
  async function failDatabaseIf(
    ctx: RuntimeContext,
    target: DatabaseTarget,
    phase: 'provision' | 'restart' | 'backup' | 'deprovision',
    message: string,
  ) {
    const phases = ['restart', 'backup', 'deprovision'];
    const asked = phases.find((p) => target.handle.includes(`${SIM_FAILURE_MARKER}-${p}`));
    const fails = asked ? asked === phase : phase === 'provision';
    if (fails) await failIf(ctx, target.handle, message);
  }

  /** A DNS label from a handle (handles may hold periods and underscores). */
  const label = (value: string) =>
    trimChar(value.toLowerCase().replace(/[^a-z0-9-]+/g, '-'), '-').slice(0, 40) || 'endpoint';

  /** Endpoint steps fail on a user domain or resource handle asking for it (`simfail-deprovision`: deprovision only). */
  async function failEndpointIf(
    ctx: RuntimeContext,
    target: EndpointTarget,
    plan: EndpointPlan,
    phase: 'provision' | 'deprovision',
    message: string,
  ) {
    const subject = `${target.resourceHandle} ${plan.userDomain}`;
    const deprovisionOnly = subject.includes(`${SIM_FAILURE_MARKER}-deprovision`);
    if (phase === 'deprovision' ? deprovisionOnly : !deprovisionOnly) await failIf(ctx, subject, message);
  }

  return {
    name: 'sim',

    async buildImage(ctx, target, source) {
      // Issue 35: nothing is fetched, built, pulled or pushed, and the lines say so rather than name a
      // remote or a registry that does not exist.
      const simulated = (line: string) => ctx.log(`Simulated: ${line}`);
      if (source.dockerImage) {
        await simulated(
          source.registryAuth
            ? `pulling Docker image ${source.dockerImage} as ${source.registryAuth.username} (nothing is downloaded on a simulated stack)`
            : `pulling Docker image ${source.dockerImage} (nothing is downloaded on a simulated stack)`,
        );
        await step(ctx);
        await failIf(ctx, source.dockerImage, `Unable to pull ${source.dockerImage}: manifest unknown`);
        const digest = `sha256:${sha256(source.dockerImage)}`;
        await simulated(`pulled ${source.dockerImage} (${digest.slice(0, 19)})`);
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
      await simulated(
        `building ${target.environmentHandle}/${target.appHandle} at ${gitRef} (no code is fetched, built or pushed on a simulated stack)`,
      );
      await step(ctx);
      await failIf(ctx, gitRef, `fatal: couldn't find remote ref ${gitRef}`);
      await simulated(`Checked out ${commitSha.slice(0, 7)} (${gitRef})`);
      await simulated('Building image from Dockerfile');
      for (const [index, instruction] of [
        'FROM node:20-slim',
        'COPY . /app',
        'RUN npm ci --omit=dev',
      ].entries()) {
        await simulated(`Step ${index + 1}/4 : ${instruction}`);
        await step(ctx, 0.5);
      }
      await simulated('Step 4/4 : CMD ["npm", "start"]');
      await failIf(
        ctx,
        target.appHandle,
        `The command '/bin/sh -c npm ci --omit=dev' returned a non-zero code: 1`,
      );
      const dockerRepo = `registry.${target.stackName}.sim/${target.environmentHandle}/${target.appHandle}`;
      const dockerRef = `sha256:${sha256(`${dockerRepo}@${commitSha}`)}`;
      await step(ctx);
      await simulated(`Built image ${dockerRef.slice(7, 19)}`);
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
      if (service.containerCount === 0) {
        await ctx.log(`Stopping all containers of service ${service.handle}`);
        await step(ctx, 0.5);
        return [];
      }
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
      await ctx.log(
        `Simulated: scanning ${target.appHandle} at ${gitRef} (no code is read on a simulated stack)`,
      );
      await step(ctx);
      await failIf(ctx, gitRef, `fatal: couldn't find remote ref ${gitRef}`);
      await ctx.log('Simulated: found Dockerfile, package.json');
      return {
        dockerfile: 'FROM node:20-slim\nCOPY . /app\nRUN npm ci --omit=dev\nCMD ["npm", "start"]\n',
        procfile: null,
        berthYml: null,
        languages: ['JavaScript'],
      };
    },

    async provisionEndpoint(ctx, target, plan): Promise<ProvisionedEndpoint> {
      const first = !plan.externalHost;
      const kind = plan.platform === 'alb' ? 'ALB' : 'ELB';
      await ctx.log(
        first
          ? `Creating ${plan.internal ? 'internal' : 'external'} ${kind} for ${target.resourceHandle} (service ${target.serviceHandle})`
          : `Updating ${kind} of endpoint ${target.id}`,
      );
      await step(ctx);
      await failEndpointIf(
        ctx,
        target,
        plan,
        'provision',
        `Unable to create load balancer for ${target.resourceHandle}: LimitExceeded`,
      );
      const suffix = randomBytes(3).toString('hex');
      const domain = plan.internal ? target.internalDomain : target.defaultDomain;
      const externalHost =
        plan.externalHost ??
        `${plan.platform}-${label(target.environmentHandle)}-${target.id}-${suffix}.${target.region}.${domain}`;
      const internalHost =
        plan.internalHost ?? `ip-10-0-${target.id % 250}-${(target.id * 7) % 250}.${target.stackName}.sim`;
      const dockerName =
        plan.dockerName ?? `${label(target.resourceHandle)}-${target.serviceHandle}-vhost-${target.id}`;
      const ports = plan.containerPorts.length
        ? plan.containerPorts.join(', ')
        : String(plan.containerPort ?? 'the image default');
      await ctx.log(`Routing ${plan.type} traffic to container port(s) ${ports}`);
      if (plan.type === 'http' || plan.type === 'http_proxy_protocol') {
        await ctx.log(`Load balancing algorithm: ${plan.loadBalancingAlgorithm}`);
      }
      await ctx.log(
        plan.ipWhitelist.length
          ? `Restricting access to ${plan.ipWhitelist.length} IP address range(s)`
          : 'Access is open to all IP addresses',
      );
      if (plan.shared) await ctx.log('Placing the endpoint on the shared load balancer of the stack');
      await step(ctx, 0.5);
      const virtualDomain =
        plan.default && plan.defaultName
          ? defaultEndpointDomain(plan.defaultName, target.defaultDomain)
          : plan.userDomain || plan.certificateCommonName || externalHost;
      let acme: ProvisionedEndpoint['acme'] = null;
      if (plan.acme) {
        const dnsChallengeHost = `acme-${target.id}-${suffix}.${target.defaultDomain}`;
        const names = [plan.userDomain];
        const status =
          plan.acmeStatus === 'ready' ? 'ready' : plan.certificateCommonName ? 'transitioning' : 'pending';
        acme = {
          status,
          dnsChallengeHost,
          configuration: {
            names,
            challenges: [
              {
                method: 'dns01',
                from: { name: `_acme-challenge.${plan.userDomain.replace(/^\*\./, '')}` },
                to: [{ name: dnsChallengeHost, legacy: false }],
              },
              {
                method: 'http01',
                from: { name: plan.userDomain },
                to: [{ name: externalHost, legacy: false }],
              },
            ],
          },
        };
        if (status !== 'ready') {
          await ctx.log(
            `Managed HTTPS for ${plan.userDomain}: create a CNAME from _acme-challenge.${plan.userDomain} to ${dnsChallengeHost}, then renew the certificate`,
            'WARN',
          );
        }
      }
      await ctx.log(`Endpoint ${target.id} is available at ${virtualDomain} (${externalHost})`);
      return { externalHost, internalHost, dockerName, virtualDomain, acme };
    },

    async renewEndpointCertificate(ctx, target, plan) {
      await ctx.log(`Checking DNS records for ${plan.userDomain}`);
      await step(ctx);
      await failEndpointIf(
        ctx,
        target,
        plan,
        'provision',
        `DNS record _acme-challenge.${plan.userDomain} does not point at the ACME challenge host`,
      );
      await ctx.log(`Requesting a certificate for ${plan.userDomain}`);
      await step(ctx, 0.5);
      await ctx.log(`Certificate for ${plan.userDomain} issued and installed`);
    },

    async deprovisionEndpoint(ctx, target, plan) {
      await ctx.log(`Removing endpoint ${target.id} (${plan.externalHost ?? 'never provisioned'})`);
      await step(ctx);
      await failEndpointIf(
        ctx,
        target,
        plan,
        'deprovision',
        `Unable to delete load balancer of endpoint ${target.id}: ResourceInUse`,
      );
      await ctx.log(`Endpoint ${target.id} removed`);
    },

    async provisionDatabase(ctx, target, plan, account, seed) {
      await ctx.log(
        `Creating ${plan.diskSizeGb} GB disk (${plan.provisionedIops} IOPS, encrypted with AES-256) for ${target.handle}`,
      );
      await step(ctx);
      await failDatabaseIf(
        ctx,
        target,
        'provision',
        `Unable to create volume for ${target.handle}: VolumeLimitExceeded`,
      );
      const container = databaseContainer(target, plan);
      await ctx.log(
        `Starting ${target.type} ${target.version} (${target.dockerRepo}) in ${plan.containerSizeMb} MB (${plan.instanceClass})`,
      );
      await step(ctx);
      switch (seed.kind) {
        case 'backup':
          await ctx.log(`Restoring data from backup ${seed.storageRef}`);
          await step(ctx);
          break;
        case 'point_in_time':
          await ctx.log(
            `Recovering ${seed.source.handle} to ${seed.at ? `${seed.at.toISOString()} (UTC)` : 'the latest point'} from base backup and write-ahead log`,
          );
          await step(ctx);
          break;
        case 'replica':
          await ctx.log(`Replicating from ${seed.primary.handle} at ${seed.primaryHost}`);
          await step(ctx);
          break;
        case 'empty':
          await ctx.log(`Initializing an empty ${target.type} data directory`);
          break;
      }
      await ctx.log(`Creating user ${account.username} and database ${account.name}`);
      await ctx.log(`Container ${container.dockerName} started on ${container.host}`);
      await ctx.log(`Database ${target.handle} is accepting connections on port ${container.port}`);
      const suffix = sha1(`${target.id}:${target.handle}`);
      return {
        containers: [container],
        host: `db-${label(target.environmentHandle)}-${target.id}.${target.internalDomain}`,
        port: container.port,
        disk: {
          device: '/dev/xvdf',
          host: container.host,
          availabilityZone: `${target.region}a`,
          volumeId: `vol-${suffix.slice(0, 17)}`,
          instanceId: container.awsInstanceId,
          keyBytes: 32,
        },
      };
    },

    async restartDatabase(ctx, target, plan, options) {
      if (options.diskGrowsTo !== null) {
        await ctx.log(
          `Resizing disk of ${target.handle} to ${options.diskGrowsTo} GB (${plan.provisionedIops} IOPS)`,
        );
        await step(ctx);
        await ctx.log('Growing the filesystem');
      }
      if (options.recreate) {
        await ctx.log(`Backing up the disk of ${target.handle} to move it to new hardware`);
        await step(ctx);
      }
      await ctx.log(
        `${options.recreate ? 'Recreating' : 'Restarting'} ${target.handle} in ${plan.containerSizeMb} MB (${plan.instanceClass})`,
      );
      await step(ctx);
      await failDatabaseIf(ctx, target, 'restart', `Container of ${target.handle} did not become healthy`);
      const container = databaseContainer(target, plan);
      if (options.recreate) await ctx.log(`Restored the disk on ${container.host}`);
      await ctx.log(`Container ${container.dockerName} started on ${container.host}`);
      return [container];
    },

    async reloadDatabase(ctx, target) {
      await ctx.log(`Reloading the configuration of ${target.handle}`);
      await step(ctx, 0.5);
      await failDatabaseIf(ctx, target, 'restart', `Reload of ${target.handle} was refused by the engine`);
    },

    async backupDatabase(ctx, target) {
      await ctx.log(`Taking a snapshot of the disk of ${target.handle}`);
      await step(ctx);
      await failDatabaseIf(
        ctx,
        target,
        'backup',
        `Snapshot of ${target.handle} failed: SnapshotCreationPerVolumeRateExceeded`,
      );
      const storageRef = `snap-${sha1(`${target.id}:${Date.now()}:${randomBytes(4).toString('hex')}`).slice(0, 17)}`;
      // A small database's data: a size that grows a little with each backup, in GB.
      const sizeGb = Math.round((0.5 + (target.id % 7) * 0.25) * 100) / 100;
      await ctx.log(`Backup ${storageRef} completed (${sizeGb} GB)`);
      return { storageRef, sizeGb };
    },

    async deleteBackup(ctx, storageRef) {
      await ctx.log(`Deleting snapshot ${storageRef}`);
      await step(ctx, 0.5);
    },

    async deprovisionDatabase(ctx, target) {
      await ctx.log(`Stopping ${target.handle}`);
      await step(ctx);
      await failDatabaseIf(ctx, target, 'deprovision', `Unable to detach the disk of ${target.handle}`);
      await ctx.log(`Deleted the container and disk of ${target.handle}`);
    },

    async containerMetrics(container, metric, ticks) {
      return simContainerMetrics(container, metric, ticks);
    },

    async containerLogs(containers, tail, since) {
      return simContainerLogs(containers, tail, new Date(), since ?? null);
    },

    async endpointLogs(endpoints, tail, since) {
      return simEndpointLogs(endpoints, tail, new Date(), since ?? null);
    },

    async listNodes(target) {
      return simNodes(target.stackName, await target.recorded(), nodeAvailabilities.get(target.stackName));
    },

    async setNodeAvailability(target, nodeId, availability) {
      const index = Array.from({ length: SIM_NODE_COUNT }, (_, at) =>
        simNodeId(target.stackName, at),
      ).indexOf(nodeId);
      if (index < 0) throw new RuntimeError(`Stack ${target.stackName} has no node ${nodeId}`);
      const current = nodeAvailabilities.get(target.stackName) ?? [];
      const next = Array.from({ length: SIM_NODE_COUNT }, (_, at) => current[at] ?? 'active');
      next[index] = availability;
      nodeAvailabilities.set(target.stackName, next);
    },
  };
}
