import { connect as tlsConnect } from 'node:tls';
import { defaultEndpointDomain } from '@berth/core';
import type Docker from 'dockerode';
import type {
  ContainerSpec,
  EndpointPlan,
  EndpointTarget,
  ProvisionedEndpoint,
  RuntimeContext,
} from '../runtime.ts';
import { RuntimeError } from '../runtime.ts';
import { type Edge, type EdgeTls, type EdgeUpstream, serviceHash } from './caddy-edge.ts';
import { containersLabelled, LABELS } from './engine.ts';

export interface DockerEndpointsOptions {
  docker: Docker;
  network: string;
  installation: string;
  edge: Edge | undefined;
  /** The edge's listeners. */
  ports: { http: number; https: number };
  /** The machine users reach Berth (and so the edge) at: custom domains point there. */
  publicHost: string;
  log(ctx: RuntimeContext, text: string, level?: 'INFO' | 'WARN' | 'ERROR'): Promise<void>;
  fail(ctx: RuntimeContext, message: string): Promise<never>;
}

/** How long a certificate renewal waits for the edge to have the certificate. */
const CERTIFICATE_WAIT_MS = 120_000;

/** A service's identity on the engine: the same key as its containers' label (engine.ts serviceKey). */
export const endpointServiceKey = (target: EndpointTarget) =>
  `${target.stackName}/${target.environmentHandle}/${target.resourceHandle}/${target.serviceHandle}`;

/** The hostname an endpoint answers to on the edge. */
export function endpointHostname(target: EndpointTarget, plan: EndpointPlan): string {
  if (plan.default && plan.defaultName) return defaultEndpointDomain(plan.defaultName, target.defaultDomain);
  return (
    plan.userDomain ||
    plan.certificateCommonName?.replace(/^\*\./, `endpoint-${target.id}.`) ||
    `endpoint-${target.id}.${target.defaultDomain}`
  );
}

/**
 * The docker runtime's endpoints: routes on the edge (Caddy) from a hostname to a service's running
 * containers, with the allowlist and header token checked there, and TLS from an uploaded certificate
 * or a managed one. Roll-outs switch a service's endpoints to the new containers (`switchService`).
 */
export function createDockerEndpoints(options: DockerEndpointsOptions) {
  const { docker, network } = options;

  async function edgeOrFail(ctx: RuntimeContext): Promise<Edge> {
    if (!options.edge) return options.fail(ctx, 'Endpoints need the edge, which this Berth does not run');
    try {
      await options.edge.check();
    } catch (error) {
      return options.fail(ctx, (error as Error).message);
    }
    return options.edge;
  }

  /** The running containers of a service's newest release, where the edge reaches them. */
  async function serviceUpstreams(serviceKey: string): Promise<EdgeUpstream[]> {
    const running = (
      await containersLabelled(docker, {
        [LABELS.service]: serviceKey,
        [LABELS.installation]: options.installation,
      })
    ).filter((container) => container.State === 'running');
    const newest = running.reduce<Docker.ContainerInfo | null>(
      (best, container) => (!best || container.Created > best.Created ? container : best),
      null,
    );
    const release = newest?.Labels[LABELS.release];
    const upstreams: EdgeUpstream[] = [];
    for (const container of running) {
      if (container.Labels[LABELS.release] !== release) continue;
      const address = container.NetworkSettings?.Networks?.[network]?.IPAddress;
      // Port 0 (a process without PORT) still counts: an endpoint with its own container port reaches it.
      if (address) upstreams.push({ address, port: await containerPort(container) });
    }
    return upstreams.sort((a, b) => a.address.localeCompare(b.address));
  }

  /** The port a container answers on: its label, or PORT in its environment (older containers). */
  async function containerPort(container: Docker.ContainerInfo): Promise<number> {
    const labelled = Number(container.Labels[LABELS.port] ?? 0);
    if (labelled > 0) return labelled;
    const info = await docker.getContainer(container.Id).inspect();
    const entry = (info.Config.Env ?? []).find((variable) => variable.startsWith('PORT='));
    return Number(entry?.slice(5) ?? 0) || 0;
  }

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

  /** Points every endpoint of a service at these containers only; how many routes that changed. */
  async function routeService(serviceKey: string, specs: ContainerSpec[]): Promise<number> {
    if (!options.edge) return 0;
    return options.edge.switchService(
      serviceKey,
      specs.map((spec) => ({ address: spec.host, port: spec.port })),
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
          'HTTP endpoints with the PROXY protocol are not available on the docker runtime: choose HTTP',
        );
      if (plan.type !== 'http' && plan.type !== 'grpc')
        return options.fail(
          ctx,
          `${plan.type.toUpperCase()} endpoints are not available on the docker runtime: its edge routes HTTP by hostname`,
        );
      const edge = await edgeOrFail(ctx);
      const hostname = endpointHostname(target, plan);
      const tls = tlsOf(plan);
      const key = endpointServiceKey(target);
      const upstreams = await serviceUpstreams(key);
      await options.log(
        ctx,
        `${plan.externalHost ? 'Updating' : 'Creating'} the edge route for ${hostname} to service ${target.serviceHandle} of ${target.resourceHandle}`,
      );
      await options.log(
        ctx,
        upstreams.length
          ? `Routing to ${upstreams.length} container(s) on port ${plan.containerPort ?? upstreams[0]?.port} (${plan.loadBalancingAlgorithm})`
          : `Service ${target.serviceHandle} has no running containers yet: the endpoint answers 503 until it has`,
        upstreams.length ? 'INFO' : 'WARN',
      );
      await options.log(
        ctx,
        plan.ipWhitelist.length
          ? `Restricting access to ${plan.ipWhitelist.length} IP address range(s)`
          : 'Access is open to all IP addresses',
      );
      if (plan.tokenHeader) await options.log(ctx, 'Requests must carry the header token');
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
          containerPort: plan.containerPort,
          ipAllowlist: plan.ipWhitelist,
          tokenHeader: plan.tokenHeader,
          loadBalancing: plan.loadBalancingAlgorithm,
          grpc: plan.type === 'grpc',
          tls,
          upstreams,
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
    async switchService(ctx: RuntimeContext, serviceKey: string, specs: ContainerSpec[]) {
      const switched = await routeService(serviceKey, specs);
      if (switched > 0)
        await options.log(ctx, `Switched ${switched} endpoint route(s) to the new container(s)`);
    },

    routeService,

    /**
     * Waits until the edge has no request in flight to a service's containers at these addresses (taken
     * out of its routes, about to stop: stopped mid-request, they would fail it), at most `timeoutMs`.
     * False when some were still in flight then.
     */
    async drain(serviceKey: string, hosts: string[], timeoutMs: number): Promise<boolean> {
      const edge = options.edge;
      if (!edge || hosts.length === 0) return true;
      const deadline = Date.now() + timeoutMs;
      try {
        for (;;) {
          // An edge that does not answer has nothing in flight through it.
          const inFlight = await edge.requestsInFlight(hosts).catch(() => 0);
          if (inFlight === 0) return true;
          if (Date.now() > deadline) return false;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      } finally {
        await edge.releaseDrained(serviceKey).catch(() => undefined);
      }
    },

    /**
     * Routes whose containers are gone (the engine restarted them at new addresses, or removed them)
     * go to the service's running containers; routes to running containers are left alone, so a
     * roll-out in progress is never undone. What changed, for the server's log.
     */
    async repairRouting(): Promise<string[]> {
      if (!options.edge) return [];
      const proxies = await options.edge.proxies();
      if (proxies.length === 0) return [];
      const running = (
        await containersLabelled(docker, { [LABELS.installation]: options.installation })
      ).filter((container) => container.State === 'running');
      const keys = new Map<string, string>();
      for (const container of running) {
        const key = container.Labels[LABELS.service];
        if (key) keys.set(serviceHash(key), key);
      }
      const changes: string[] = [];
      for (const proxy of proxies) {
        const key = keys.get(proxy.serviceHash);
        const upstreams = key ? await serviceUpstreams(key) : [];
        const valid = new Set(
          upstreams.map((upstream) => `${upstream.address}:${proxy.port || upstream.port}`),
        );
        // A service with no running container (its key unknown) has nothing live.
        const live = new Set(
          await Promise.all(
            running
              .filter((container) => key !== undefined && container.Labels[LABELS.service] === key)
              .map(
                async (container) =>
                  `${container.NetworkSettings?.Networks?.[network]?.IPAddress}:${proxy.port || (await containerPort(container))}`,
              ),
          ),
        );
        if (!proxy.dials.some((dial) => !live.has(dial))) continue;
        const dials = [...valid];
        await options.edge.setProxyDials(proxy.id, dials);
        changes.push(
          `endpoint ${proxy.vhostId}: ${proxy.dials.join(', ') || 'none'} → ${dials.join(', ') || 'none'}`,
        );
      }
      return changes;
    },
  };
}
