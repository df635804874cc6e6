import { connect as tlsConnect } from 'node:tls';
import { defaultEndpointDomain } from '@berth/core';
import type Docker from 'dockerode';
import type {
  ContainerSpec,
  EndpointPlan,
  EndpointTarget,
  ProvisionedEndpoint,
  RecordedEndpoint,
  RuntimeContext,
} from '../runtime.ts';
import { RuntimeError } from '../runtime.ts';
import { type Edge, type EdgeTls, type EdgeUpstream, serviceHash } from './caddy-edge.ts';
import {
  containersLabelled,
  type DockerNetworks,
  isServiceKey,
  LABELS,
  ofService,
  serviceContainers,
  serviceKey,
} from './engine.ts';

export interface DockerEndpointsOptions {
  docker: Docker;
  /** Where the edge reaches a container: at its address on its environment's network. */
  networks: DockerNetworks;
  installation: string;
  edge: Edge | undefined;
  /** The edge's listeners. */
  ports: { http: number; https: number };
  /** The machine users reach Berth (and so the edge) at: custom domains point there. */
  publicHost: string;
  log(ctx: RuntimeContext, text: string, level?: 'INFO' | 'WARN' | 'ERROR'): Promise<void>;
  fail(ctx: RuntimeContext, message: string): Promise<never>;
  /** Where the runtime's services run (none: this engine's containers, dockerUpstreams). */
  upstreams?: UpstreamSource;
  /**
   * The repair adds running containers of the service's release its routes lack (a runtime that starts
   * containers itself, as Swarm reschedules tasks); else it changes only routes to containers gone.
   */
  addNewUpstreams?: boolean;
  /**
   * The upstreams' ports are ports their nodes published for each container's PORT (swarm, mode host):
   * an endpoint's own container port cannot be reached there, and its requests go to PORT.
   */
  publishedPorts?: boolean;
  /** The runtime's name, for what its endpoints cannot do. */
  runtimeName?: string;
}

/** How long a certificate renewal waits for the edge to have the certificate. */
const CERTIFICATE_WAIT_MS = 120_000;

/**
 * The service behind an endpoint: an app's by the same key as its containers' label (engine.ts
 * serviceKey); a database's (whose containers the edge does not route to) by its database's id.
 */
export const endpointServiceKey = (target: EndpointTarget) =>
  target.appId !== null
    ? serviceKey({ appId: target.appId }, target.serviceHandle)
    : `db-${target.databaseId}/${target.serviceHandle}`;

/** The hostname an endpoint answers to on the edge. */
export function endpointHostname(target: EndpointTarget, plan: EndpointPlan): string {
  if (plan.default && plan.defaultName) return defaultEndpointDomain(plan.defaultName, target.defaultDomain);
  return (
    plan.userDomain ||
    plan.certificateCommonName?.replace(/^\*\./, `endpoint-${target.id}.`) ||
    `endpoint-${target.id}.${target.defaultDomain}`
  );
}

/** Where the edge reaches a service: the running containers of its newest release, and all that run. */
export interface ServiceUpstreams {
  /** Where its routes send (the newest release's: a roll-out's new containers once switched). */
  newest: EdgeUpstream[];
  /** Every running one: a route to any of them is live, and a repair leaves it alone. */
  running: EdgeUpstream[];
}

/**
 * How the endpoints find a runtime's running containers: a Docker engine's (this file), or a Swarm's
 * tasks at their nodes' published ports (swarm-upstreams.ts). `recorded` are the names Berth records
 * for the service (engine.ts ofService).
 */
export interface UpstreamSource {
  ofService(key: string, recorded: readonly string[]): Promise<ServiceUpstreams>;
  /** One look at everything that runs, for the repair pass: the services' keys and their upstreams. */
  snapshot(): Promise<{
    keys: string[];
    ofService(key: string, recorded: readonly string[]): Promise<ServiceUpstreams>;
  }>;
}

/** The upstreams of one engine's containers: at their address on their environment's network. */
export function dockerUpstreams(
  docker: Docker,
  networks: DockerNetworks,
  installation: string,
): UpstreamSource & { ofContainers(containers: readonly Docker.ContainerInfo[]): Promise<ServiceUpstreams> } {
  /** The port a container answers on: its label, or PORT in its environment (older containers). */
  async function containerPort(container: Docker.ContainerInfo): Promise<number> {
    const labelled = Number(container.Labels[LABELS.port] ?? 0);
    if (labelled > 0) return labelled;
    const info = await docker.getContainer(container.Id).inspect();
    const entry = (info.Config.Env ?? []).find((variable) => variable.startsWith('PORT='));
    return Number(entry?.slice(5) ?? 0) || 0;
  }

  async function upstreamsOf(containers: readonly Docker.ContainerInfo[]): Promise<ServiceUpstreams> {
    const running = containers.filter((container) => container.State === 'running');
    const newestContainer = running.reduce<Docker.ContainerInfo | null>(
      (best, container) => (!best || container.Created > best.Created ? container : best),
      null,
    );
    const release = newestContainer?.Labels[LABELS.release];
    const all: (EdgeUpstream & { release: string | undefined })[] = [];
    for (const container of running) {
      const address = networks.addressOf(container.NetworkSettings?.Networks);
      // Port 0 (a process without PORT) still counts: an endpoint with its own container port reaches it.
      all.push({ address, port: await containerPort(container), release: container.Labels[LABELS.release] });
    }
    const byAddress = (a: EdgeUpstream, b: EdgeUpstream) => a.address.localeCompare(b.address);
    return {
      newest: all
        .filter((upstream) => upstream.address && upstream.release === release)
        .map(({ address, port }) => ({ address, port }))
        .sort(byAddress),
      running: all.map(({ address, port }) => ({ address, port })),
    };
  }

  return {
    ofContainers: upstreamsOf,
    async ofService(key, recorded) {
      return upstreamsOf(await serviceContainers(docker, installation, key, recorded));
    },
    async snapshot() {
      const mine = await containersLabelled(docker, { [LABELS.installation]: installation });
      const running = mine.filter((container) => container.State === 'running');
      // Keys of this Berth's form only: an older Berth's handle key may name two organizations' services.
      const keys = new Set<string>();
      for (const container of running) {
        const key = container.Labels[LABELS.service] ?? '';
        if (isServiceKey(key)) keys.add(key);
      }
      return {
        keys: [...keys],
        ofService: async (key, recorded) => upstreamsOf(ofService(running, key, recorded)),
      };
    },
  };
}

/**
 * The docker runtime's endpoints: routes on the edge (Caddy) from a hostname to a service's running
 * containers, with the allowlist and header token checked there, and TLS from an uploaded certificate
 * or a managed one. Roll-outs switch a service's endpoints to the new containers (`switchService`).
 */
export function createDockerEndpoints(options: DockerEndpointsOptions) {
  const { docker, networks } = options;

  async function edgeOrFail(ctx: RuntimeContext): Promise<Edge> {
    if (!options.edge) return options.fail(ctx, 'Endpoints need the edge, which this Berth does not run');
    try {
      await options.edge.check();
    } catch (error) {
      return options.fail(ctx, (error as Error).message);
    }
    return options.edge;
  }

  const containers = dockerUpstreams(docker, networks, options.installation);
  const upstreams = options.upstreams ?? containers;

  function tlsOf(plan: EndpointPlan): EdgeTls {
    if (plan.acme) return { kind: 'managed' };
    if (plan.certificate) return { kind: 'certificate', ...plan.certificate };
    return { kind: 'none' };
  }

  /** True once the edge presents a certificate for the name that is not its own stand-in. */
  function edgeHasCertificate(hostname: string): Promise<boolean> {
    return new Promise((resolve) => {
      const socket = tlsConnect({
        host: '127.0.0.1',
        port: options.ports.https,
        servername: hostname,
        rejectUnauthorized: false,
      });
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.setTimeout(3000, () => done(false));
      socket.once('secureConnect', () => {
        const names = socket.getPeerCertificate().subjectaltname ?? '';
        done(names.split(', ').some((name) => name === `DNS:${hostname}`));
      });
      socket.once('error', () => done(false));
    });
  }

  /**
   * Points every endpoint of a service at these containers only; how many routes that changed. The
   * containers it takes out at the `draining` addresses stay counted until the caller's `drain`.
   */
  async function routeService(
    serviceKey: string,
    specs: ContainerSpec[],
    draining: string[] = [],
  ): Promise<number> {
    if (!options.edge) return 0;
    return options.edge.switchService(
      serviceKey,
      specs.map((spec) => ({ address: spec.host, port: spec.port })),
      draining,
    );
  }

  return {
    async provisionEndpoint(
      ctx: RuntimeContext,
      target: EndpointTarget,
      plan: EndpointPlan,
    ): Promise<ProvisionedEndpoint> {
      if (plan.type === 'http_proxy_protocol')
        return options.fail(
          ctx,
          `HTTP endpoints with the PROXY protocol are not available on the ${options.runtimeName ?? 'docker'} runtime: choose HTTP`,
        );
      if (plan.type !== 'http' && plan.type !== 'grpc')
        return options.fail(
          ctx,
          `${plan.type.toUpperCase()} endpoints are not available on the ${options.runtimeName ?? 'docker'} runtime: its edge routes HTTP by hostname`,
        );
      const edge = await edgeOrFail(ctx);
      const hostname = endpointHostname(target, plan);
      const tls = tlsOf(plan);
      const key = endpointServiceKey(target);
      const { newest: routed } = await upstreams.ofService(key, target.recordedContainers);
      await options.log(
        ctx,
        `${plan.externalHost ? 'Updating' : 'Creating'} the edge route for ${hostname} to service ${target.serviceHandle} of ${target.resourceHandle}`,
      );
      await options.log(
        ctx,
        routed.length
          ? `Routing to ${routed.length} container(s) on port ${plan.containerPort ?? routed[0]?.port} (${plan.loadBalancingAlgorithm})`
          : `Service ${target.serviceHandle} has no running containers yet: the endpoint answers 503 until it has`,
        routed.length ? 'INFO' : 'WARN',
      );
      await options.log(
        ctx,
        plan.ipWhitelist.length
          ? `Restricting access to ${plan.ipWhitelist.length} IP address range(s)`
          : 'Access is open to all IP addresses',
      );
      if (plan.tokenHeader) await options.log(ctx, 'Requests must carry the header token');
      if (options.publishedPorts && plan.containerPort !== null)
        await options.log(
          ctx,
          `On the ${options.runtimeName ?? 'docker'} runtime the edge reaches each container at the port its node published for PORT: requests go to PORT, not to container port ${plan.containerPort}`,
          'WARN',
        );
      if (plan.internal)
        await options.log(
          ctx,
          'This runtime has one edge: an internal endpoint answers there like an external one',
          'WARN',
        );
      try {
        await edge.putEndpoint({
          vhostId: target.id,
          serviceKey: key,
          hostname,
          // Published ports (swarm) are where the service's PORT answers: no other port is reachable.
          containerPort: options.publishedPorts ? null : plan.containerPort,
          ipAllowlist: plan.ipWhitelist,
          tokenHeader: plan.tokenHeader,
          loadBalancing: plan.loadBalancingAlgorithm,
          grpc: plan.type === 'grpc',
          tls,
          upstreams: routed,
        });
      } catch (error) {
        return options.fail(ctx, (error as Error).message);
      }
      const secure = tls.kind !== 'none';
      const url = secure
        ? `https://${hostname}${options.ports.https === 443 ? '' : `:${options.ports.https}`}`
        : `http://${hostname}${options.ports.http === 80 ? '' : `:${options.ports.http}`}`;
      await options.log(ctx, `Endpoint ${target.id} answers at ${url}`);
      let acme: ProvisionedEndpoint['acme'] = null;
      if (plan.acme) {
        const ready = plan.acmeStatus === 'ready' && (await edgeHasCertificate(hostname));
        acme = {
          status: ready ? 'ready' : 'pending',
          dnsChallengeHost: options.publicHost,
          configuration: {
            names: [hostname],
            challenges: [
              {
                method: 'http01',
                from: { name: hostname },
                to: [{ name: options.publicHost, legacy: false }],
              },
            ],
          },
        };
      }
      return {
        externalHost: options.publicHost,
        internalHost: options.publicHost,
        dockerName: `edge-${target.id}`,
        virtualDomain: hostname,
        ports: { http: options.ports.http, https: secure ? options.ports.https : null },
        acme,
      };
    },

    async renewEndpointCertificate(ctx: RuntimeContext, target: EndpointTarget, plan: EndpointPlan) {
      await edgeOrFail(ctx);
      const hostname = endpointHostname(target, plan);
      await options.log(ctx, `Waiting for the edge's certificate for ${hostname}`);
      const deadline = Date.now() + CERTIFICATE_WAIT_MS;
      while (!(await edgeHasCertificate(hostname))) {
        if (ctx.signal.aborted) throw new RuntimeError('Operation interrupted');
        if (Date.now() > deadline)
          return options.fail(
            ctx,
            `No certificate for ${hostname} yet: check that ${hostname} points at ${options.publicHost} and that port 80 there reaches the edge`,
          );
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      await options.log(ctx, `The edge serves a certificate for ${hostname}`);
    },

    async deprovisionEndpoint(ctx: RuntimeContext, target: EndpointTarget, plan: EndpointPlan) {
      if (!options.edge) {
        await options.log(ctx, `Endpoint ${target.id} has no edge route to remove`);
        return;
      }
      const edge = await edgeOrFail(ctx);
      try {
        await edge.removeEndpoint(target.id, endpointHostname(target, plan));
      } catch (error) {
        return options.fail(ctx, (error as Error).message);
      }
      await options.log(ctx, `Removed the edge route of endpoint ${target.id}`);
    },

    /**
     * Points a service's endpoints at its new containers (a roll-out's, once they answer). Without an
     * edge there is nothing to point; with one that does not answer, the roll-out fails.
     */
    async switchService(ctx: RuntimeContext, serviceKey: string, specs: ContainerSpec[], draining: string[]) {
      const switched = await routeService(serviceKey, specs, draining);
      if (switched > 0)
        await options.log(ctx, `Switched ${switched} endpoint route(s) to the new container(s)`);
    },

    routeService,

    /**
     * Points a service's endpoints back at these containers (those of them that run), as a roll-out that
     * failed after switching some leaves them.
     */
    async routeBack(serviceKey: string, running: readonly Docker.ContainerInfo[]) {
      if (!options.edge) return;
      await options.edge.switchService(serviceKey, (await containers.ofContainers(running)).newest, []);
    },

    /**
     * Takes over for a service the routes of its endpoints that an older Berth keyed by handles (which
     * another organization's service may share): found by the endpoints Berth records for it, so a
     * switch by the service's key finds them.
     */
    async adoptRoutes(ctx: RuntimeContext, serviceKey: string, endpointIds: readonly number[]) {
      if (!options.edge || endpointIds.length === 0) return;
      let adopted: number;
      try {
        adopted = await options.edge.adoptProxies(serviceKey, endpointIds);
      } catch (error) {
        return options.fail(ctx, (error as Error).message);
      }
      if (adopted > 0)
        await options.log(ctx, `Took over ${adopted} endpoint route(s) made under the service's former key`);
    },

    /**
     * Waits until the edge has no request in flight to a service's containers at these addresses (taken
     * out of its routes, about to stop: stopped mid-request, they would fail it), at most `timeoutMs`,
     * then lets go of what the switch held for draining. False when some were still in flight then.
     */
    async drain(serviceKey: string, hosts: string[], timeoutMs: number): Promise<boolean> {
      const edge = options.edge;
      if (!edge) return true;
      const deadline = Date.now() + timeoutMs;
      try {
        for (;;) {
          // An edge that does not answer has nothing in flight through it.
          const inFlight = hosts.length ? await edge.requestsInFlight(hosts).catch(() => 0) : 0;
          if (inFlight === 0) return true;
          if (Date.now() > deadline) return false;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        // Even with nothing to wait for: a route held past its drain would keep an address the engine
        // may give another container later, its requests counted as this service's.
        await edge.releaseDrained(serviceKey).catch(() => undefined);
      }
    },

    /** Lets go of what a switch held for draining when no drain comes (a switch or restart that failed). */
    async releaseDrained(serviceKey: string) {
      await options.edge?.releaseDrained(serviceKey);
    },

    /**
     * Routes whose containers are gone (the engine restarted them at new addresses, or removed them)
     * go to the service's running containers; routes to running containers are left alone, so a
     * roll-out in progress is never undone. The endpoints Berth records name each route's service: a
     * route an older Berth keyed by handles (which another organization's service may share) is taken
     * over by its endpoint's service first, and one of an endpoint Berth does not record is repaired only
     * under a key of this Berth (an app's id) that running containers carry, never an older one. What
     * changed, for the server's log.
     */
    async repairRouting(recorded: readonly RecordedEndpoint[]): Promise<string[]> {
      const edge = options.edge;
      if (!edge) return [];
      let proxies = await edge.proxies();
      if (proxies.length === 0) return [];
      const byEndpoint = new Map(recorded.map((endpoint) => [endpoint.id, endpoint]));
      const keyOf = (endpoint: RecordedEndpoint) =>
        serviceKey({ appId: endpoint.appId }, endpoint.serviceHandle);
      const changes: string[] = [];
      const taken = new Map<string, number[]>();
      for (const proxy of proxies) {
        const endpoint = byEndpoint.get(proxy.vhostId);
        if (!endpoint || proxy.serviceHash === serviceHash(keyOf(endpoint))) continue;
        taken.set(keyOf(endpoint), [...(taken.get(keyOf(endpoint)) ?? []), endpoint.id]);
      }
      for (const [key, endpointIds] of taken) {
        await edge.adoptProxies(key, endpointIds);
        for (const id of new Set(endpointIds))
          changes.push(`endpoint ${id}: route taken over by service ${key} from its former key`);
      }
      if (taken.size > 0) proxies = await edge.proxies();

      const now = await upstreams.snapshot();
      const unrecorded = new Map(now.keys.map((key) => [serviceHash(key), key]));
      for (const proxy of proxies) {
        const endpoint = byEndpoint.get(proxy.vhostId);
        const key = endpoint ? keyOf(endpoint) : unrecorded.get(proxy.serviceHash);
        // An endpoint Berth did not record when it was asked (made since, or not an app's) whose service
        // has no running container under this Berth's keys: nothing tells whose it is, so it is left.
        if (!key) continue;
        const service = await now.ofService(key, endpoint?.recordedContainers ?? []);
        const dialOf = (upstream: EdgeUpstream) => `${upstream.address}:${proxy.port || upstream.port}`;
        const valid = new Set(service.newest.map(dialOf));
        const live = new Set(service.running.map(dialOf));
        const dead = proxy.dials.some((dial) => !live.has(dial));
        // Swarm starts tasks of its own (a lost node's, elsewhere): the routes take them in as they run.
        const joined =
          options.addNewUpstreams === true && [...valid].some((dial) => !proxy.dials.includes(dial));
        if (!dead && !joined) continue;
        const dials = dead ? [...valid] : [...new Set([...proxy.dials, ...valid])];
        await edge.setProxyDials(proxy.id, dials);
        changes.push(
          `endpoint ${proxy.vhostId}: ${proxy.dials.join(', ') || 'none'} → ${dials.join(', ') || 'none'}`,
        );
      }
      return changes;
    },
  };
}
