import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { ENDPOINT_TOKEN_HEADER } from '@berth/core';
import { RuntimeError } from '../runtime.ts';
import { accessLogConfig } from './edge-access-log.ts';

// The docker runtime's edge: Caddy, driven through its admin API (a unix socket in the data directory).
// Each endpoint is one route per listener, found again by its `@id`, so the edge needs no state in
// Berth: the route names the endpoint, and its proxy's id names the service and port it sends to, so a
// roll-out can point every endpoint of a service at the new containers before the old ones stop.

export interface EdgeSettings {
  /** Caddy's admin API socket. */
  adminSocket: string;
  httpPort: number;
  httpsPort: number;
  /** Managed certificates come from Let's Encrypt with this address, else from Caddy's own authority. */
  acmeEmail: string | null;
  /** Where the edge writes the requests it answers (JSON lines), for the endpoints' logs; none: not kept. */
  accessLog?: string;
}

/** Where a container of a service answers. */
export interface EdgeUpstream {
  address: string;
  port: number;
}

export type EdgeTls =
  | { kind: 'none' }
  | { kind: 'certificate'; certificatePem: string; keyPem: string }
  | { kind: 'managed' };

export interface EdgeEndpoint {
  vhostId: number;
  /** The service behind it (the runtime's key), so roll-outs find the endpoint. */
  serviceKey: string;
  hostname: string;
  /** The endpoint's own container port, else each container's PORT. */
  containerPort: number | null;
  ipAllowlist: string[];
  tokenHeader: string | null;
  loadBalancing: string;
  /** gRPC: HTTP/2 to the containers. */
  grpc: boolean;
  tls: EdgeTls;
  upstreams: EdgeUpstream[];
}

/** One endpoint's proxy as the edge has it. */
export interface EdgeProxy {
  id: string;
  vhostId: number;
  listener: Listener;
  serviceHash: string;
  /** The endpoint's own container port, or 0 for each container's PORT. */
  port: number;
  dials: string[];
}

const ADMIN_HOST = 'berth-edge';
const SERVERS = { http: 'berth-http', https: 'berth-https' } as const;
type Listener = keyof typeof SERVERS;

const routeId = (vhostId: number, listener: Listener) => `berth-ep-${vhostId}-${listener}`;
const certificateId = (vhostId: number) => `berth-cert-${vhostId}`;
/** The route holding a service's containers that left its endpoints while requests to them finish. */
const drainingId = (hash: string) => `berth-draining-${hash}`;
/** A service's key as an id part: ids are path segments of the admin API. */
export const serviceHash = (serviceKey: string) =>
  createHash('sha256').update(serviceKey).digest('hex').slice(0, 16);
/** An endpoint's proxy on a listener: it names the service it sends to, by its key's hash, and the port. */
const proxyIdOf = (proxy: Omit<EdgeProxy, 'id' | 'dials'>) =>
  `berth-up-${proxy.vhostId}-${proxy.listener}-${proxy.serviceHash}-${proxy.port}`;
const proxyId = (endpoint: EdgeEndpoint, listener: Listener) =>
  proxyIdOf({
    vhostId: endpoint.vhostId,
    listener,
    serviceHash: serviceHash(endpoint.serviceKey),
    port: endpoint.containerPort ?? 0,
  });

function parseProxyId(id: string): Omit<EdgeProxy, 'dials'> | null {
  const match = /^berth-up-(\d{1,12})-(http|https)-([0-9a-f]{16})-(\d{1,5})$/.exec(id);
  if (!match) return null;
  return {
    id,
    vhostId: Number(match[1]),
    listener: match[2] === 'https' ? 'https' : 'http',
    serviceHash: match[3] ?? '',
    port: Number(match[4]),
  };
}

const SELECTION_POLICIES: Record<string, string> = {
  round_robin: 'round_robin',
  least_outstanding_requests: 'least_conn',
  weighted_random: 'random',
};

/** Caddy's configuration for a fresh edge: both listeners with only their fallback, and the TLS app. */
export function edgeBaseConfig(settings: EdgeSettings): Record<string, unknown> {
  const fallback = (listener: Listener) => ({
    '@id': `berth-fallback-${listener}`,
    handle: [
      {
        handler: 'static_response',
        status_code: 404,
        headers: { 'Content-Type': ['text/plain; charset=utf-8'] },
        body: 'No endpoint answers at this address.\n',
      },
    ],
  });
  return {
    admin: { listen: `unix/${settings.adminSocket}`, origins: [ADMIN_HOST] },
    logging: {
      logs: settings.accessLog
        ? {
            default: { level: 'WARN', exclude: ['http.log.access'] },
            access: accessLogConfig(settings.accessLog),
          }
        : { default: { level: 'WARN' } },
    },
    apps: {
      http: {
        servers: {
          [SERVERS.http]: {
            listen: [`:${settings.httpPort}`],
            routes: [fallback('http')],
            ...(settings.accessLog ? { logs: {} } : {}),
            automatic_https: { disable: true },
          },
          [SERVERS.https]: {
            listen: [`:${settings.httpsPort}`],
            routes: [fallback('https')],
            ...(settings.accessLog ? { logs: {} } : {}),
            tls_connection_policies: [{}],
            automatic_https: { disable: true },
          },
        },
      },
      tls: {
        certificates: { load_pem: [], automate: [] },
        automation: {
          policies: [
            {
              issuers: settings.acmeEmail
                ? [
                    {
                      module: 'acme',
                      email: settings.acmeEmail,
                      challenges: { http: { alternate_port: settings.httpPort } },
                    },
                  ]
                : [{ module: 'internal' }],
            },
          ],
        },
      },
      // Caddy's own authority signs managed certificates without ACME; it must not touch the machine's trust.
      pki: { certificate_authorities: { local: { install_trust: false } } },
    },
  };
}

/**
 * What an edge started again keeps from its last configuration (Caddy saves each change): the
 * endpoints' routes, certificates and managed names, laid into a fresh base so changed ports and
 * settings apply.
 */
export function carryEdgeConfig(base: Record<string, unknown>, saved: unknown): Record<string, unknown> {
  const config = structuredClone(base) as EdgeConfigShape;
  const previous = (saved ?? {}) as EdgeConfigShape;
  for (const name of Object.values(SERVERS)) {
    const kept = (previous.apps?.http?.servers?.[name]?.routes ?? []).filter((route) =>
      String(route['@id'] ?? '').startsWith('berth-ep-'),
    );
    const server = config.apps?.http?.servers?.[name];
    if (server) server.routes = [...kept, ...(server.routes ?? [])];
  }
  const certificates = config.apps?.tls?.certificates;
  if (certificates) {
    certificates.load_pem = (previous.apps?.tls?.certificates?.load_pem ?? []).filter((entry) =>
      String(entry['@id'] ?? '').startsWith('berth-cert-'),
    );
    certificates.automate = previous.apps?.tls?.certificates?.automate ?? [];
  }
  return config as Record<string, unknown>;
}

interface EdgeConfigShape {
  apps?: {
    http?: { servers?: Record<string, { routes?: Record<string, unknown>[] }> };
    tls?: { certificates?: { load_pem?: Record<string, unknown>[]; automate?: string[] } };
  };
}

export interface Edge {
  /** Answers once the admin API does; throws a RuntimeError saying the edge is down otherwise. */
  check(): Promise<void>;
  /** Routes an endpoint's hostname to its upstreams, replacing what the edge had for it. */
  putEndpoint(endpoint: EdgeEndpoint): Promise<void>;
  removeEndpoint(vhostId: number, hostname: string): Promise<void>;
  /**
   * Points every endpoint of a service at these containers; the number of proxies changed. Those it
   * takes out at the `draining` addresses (the caller's, which it drains) stay counted in
   * `requestsInFlight` until `releaseDrained`; no other address is held.
   */
  switchService(serviceKey: string, upstreams: EdgeUpstream[], draining: string[]): Promise<number>;
  /**
   * Makes these endpoints' proxies the service's, found by its key from then on, still sending where
   * they did: routes made under another key (an older Berth's, of handles another organization's
   * service may share, so taken over by endpoint, never by that key). How many it took over.
   */
  adoptProxies(serviceKey: string, vhostIds: readonly number[]): Promise<number>;
  /** Every endpoint proxy the edge has. */
  proxies(): Promise<EdgeProxy[]>;
  /** Asks the Caddy at the socket to stop (one an older Berth left running without a pid file). */
  shutdown(): Promise<void>;
  setProxyDials(id: string, dials: string[]): Promise<void>;
  /** The whole configuration the edge runs now. */
  currentConfig(): Promise<unknown>;
  /** Replaces the whole configuration at once: Caddy serves the old one until the new one runs. */
  load(config: Record<string, unknown>): Promise<void>;
  /**
   * Requests the edge has in flight to containers at these addresses (any port) now: those a switch
   * took out of a service's routes are counted until `releaseDrained`.
   */
  requestsInFlight(hosts: string[]): Promise<number>;
  /** Forgets the containers switches took out of the service's routes (their requests have ended). */
  releaseDrained(serviceKey: string): Promise<void>;
}

export function createEdgeClient(settings: EdgeSettings): Edge {
  function admin(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = request(
        {
          socketPath: settings.adminSocket,
          // A connection of its own: Caddy restarts its admin server at every change and closes the
          // kept-alive ones, so a reused connection could be written to as it closes (EPIPE).
          agent: false,
          path,
          method,
          headers: {
            Host: ADMIN_HOST,
            ...(payload === undefined
              ? {}
              : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }),
          },
          timeout: 15_000,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error('the admin API did not answer in 15 s')));
      req.on('error', (error) =>
        reject(
          new RuntimeError(`The edge (Caddy) does not answer at ${settings.adminSocket}: ${error.message}`),
        ),
      );
      req.end(payload);
    });
  }

  async function ok(method: string, path: string, body?: unknown): Promise<string> {
    const answer = await admin(method, path, body);
    if (answer.status >= 200 && answer.status < 300) return answer.text;
    throw new RuntimeError(`The edge refused ${method} ${path}: ${answer.text.trim().slice(0, 500)}`);
  }

  const unknownId = (text: string) => /unknown object ID/i.test(text);

  /** Replaces the object with this id, or adds it where `insert` says when the edge has none. */
  async function upsert(id: string, value: unknown, insert: { method: 'PUT' | 'POST'; path: string }) {
    const answer = await admin('PATCH', `/id/${id}`, value);
    if (answer.status >= 200 && answer.status < 300) return;
    if (!unknownId(answer.text))
      throw new RuntimeError(`The edge refused endpoint ${id}: ${answer.text.trim().slice(0, 500)}`);
    await ok(insert.method, insert.path, value);
  }

  async function remove(id: string) {
    const answer = await admin('DELETE', `/id/${id}`);
    if (answer.status >= 300 && !unknownId(answer.text))
      throw new RuntimeError(`The edge refused to remove ${id}: ${answer.text.trim().slice(0, 500)}`);
  }

  /** Upstreams as dials on a port: the endpoint's own, else each container's (none when neither is known). */
  function dialsOf(port: number, upstreams: EdgeUpstream[]) {
    return upstreams
      .filter((upstream) => (port || upstream.port) > 0)
      .map((upstream) => ({ dial: `${upstream.address}:${port || upstream.port}` }));
  }

  /**
   * Requests retry on another container while one stops; with none, the 503 comes at once. 3 s leaves
   * room for a second try after a dial that timed out (1.5 s, then 250 ms), on a busy machine too.
   */
  const tryDuration = (dials: unknown[]) => (dials.length ? '3s' : '0s');

  // One change to the edge at a time in this process: each is several requests (read, then write).
  let queue: Promise<unknown> = Promise.resolve();
  function serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  }

  /** The checks and the proxy behind an endpoint's hostname on one listener. */
  function endpointRoute(endpoint: EdgeEndpoint, listener: Listener) {
    const checks: Record<string, unknown>[] = [];
    if (endpoint.ipAllowlist.length) {
      checks.push({
        match: [{ not: [{ remote_ip: { ranges: endpoint.ipAllowlist } }] }],
        handle: [{ handler: 'static_response', status_code: 403, body: 'Forbidden\n' }],
        terminal: true,
      });
    }
    if (endpoint.tokenHeader) {
      checks.push({
        match: [{ not: [{ header: { [ENDPOINT_TOKEN_HEADER]: [endpoint.tokenHeader] } }] }],
        handle: [{ handler: 'static_response', status_code: 401, body: 'Unauthorized\n' }],
        terminal: true,
      });
    }
    const secure = endpoint.tls.kind !== 'none';
    const dials = dialsOf(endpoint.containerPort ?? 0, endpoint.upstreams);
    const last =
      listener === 'http' && secure
        ? {
            handle: [
              {
                handler: 'static_response',
                status_code: 308,
                headers: {
                  Location: [
                    `https://{http.request.host}${settings.httpsPort === 443 ? '' : `:${settings.httpsPort}`}{http.request.uri}`,
                  ],
                },
              },
            ],
          }
        : {
            handle: [
              {
                '@id': proxyId(endpoint, listener),
                handler: 'reverse_proxy',
                upstreams: dials,
                load_balancing: {
                  selection_policy: { policy: SELECTION_POLICIES[endpoint.loadBalancing] ?? 'round_robin' },
                  // A container stopping mid-request: the request goes to another.
                  try_duration: tryDuration(dials),
                  try_interval: '250ms',
                },
                health_checks: { passive: { fail_duration: '10s', max_fails: 3 } },
                headers: { request: { delete: [ENDPOINT_TOKEN_HEADER] } },
                transport: {
                  protocol: 'http',
                  // A machine that died answers nothing: a dial gives up after 1.5 s (Caddy waits 3 s by
                  // default), and the request is tried on another container within try_duration. Not 1 s:
                  // a container whose accept queue is full for a moment has its kernel drop the first
                  // packet, which TCP sends again after 1 s; a dial cut off right then counts as the
                  // container failing, and three take it out of the routes (all 502s behind one container).
                  dial_timeout: '1500ms',
                  // gRPC needs HTTP/2 to the containers (cleartext: they are on the private network).
                  ...(endpoint.grpc ? { versions: ['h2c', '2'] } : {}),
                },
              },
            ],
          };
    return {
      '@id': routeId(endpoint.vhostId, listener),
      match: [{ host: [endpoint.hostname] }],
      handle: [{ handler: 'subroute', routes: [...checks, last] }],
      terminal: true,
    };
  }

  /**
   * Keeps addresses a service's routes no longer send to in Caddy's upstream pool, through a route no
   * request matches: Caddy forgets an address (and so its requests in flight) once no route names it,
   * while the requests sent before go on. Held, they stay counted (`requestsInFlight`) until released.
   * The route must never match: it would reach the containers past the endpoint's checks (allowlist,
   * token, HTTPS redirect), so its matcher is an expression that is false, not a hostname.
   */
  async function holdForDraining(hash: string, dials: string[]) {
    const id = drainingId(hash);
    const answer = await admin('GET', `/id/${id}/handle/0/upstreams`);
    const held = answer.status < 300 ? (JSON.parse(answer.text) as { dial: string }[]) : [];
    const all = [...new Set([...held.map((upstream) => upstream.dial), ...dials])];
    await upsert(
      id,
      {
        '@id': id,
        match: [{ expression: 'false' }],
        handle: [{ handler: 'reverse_proxy', upstreams: all.map((dial) => ({ dial })) }],
        terminal: true,
      },
      { method: 'PUT', path: `/config/apps/http/servers/${SERVERS.http}/routes/0` },
    );
  }

  async function automated(): Promise<string[]> {
    return JSON.parse((await ok('GET', '/config/apps/tls/certificates/automate')) || '[]') ?? [];
  }

  async function setAutomated(names: string[]) {
    await ok('PATCH', '/config/apps/tls/certificates/automate', names);
  }

  /** The hostname an endpoint's route answers to now, or null when the edge has no route for it. */
  async function routedHost(vhostId: number): Promise<string | null> {
    const answer = await admin('GET', `/id/${routeId(vhostId, 'http')}/match/0/host/0`);
    if (answer.status >= 300) return null;
    return JSON.parse(answer.text) as string;
  }

  /**
   * Where a new route goes: an exact hostname first, so no wildcard created earlier takes its requests;
   * a wildcard last, just before the edge's own 404.
   */
  async function insertPath(listener: Listener, hostname: string): Promise<string> {
    const base = `/config/apps/http/servers/${SERVERS[listener]}/routes`;
    if (!hostname.startsWith('*.')) return `${base}/0`;
    const routes = JSON.parse((await ok('GET', base)) || '[]') as unknown[];
    return `${base}/${Math.max(0, routes.length - 1)}`;
  }

  async function proxies(): Promise<EdgeProxy[]> {
    const servers = JSON.parse((await ok('GET', '/config/apps/http/servers')) || '{}');
    const found: EdgeProxy[] = [];
    const walk = (value: unknown) => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (!value || typeof value !== 'object') return;
      const object = value as Record<string, unknown>;
      const parsed = typeof object['@id'] === 'string' ? parseProxyId(object['@id']) : null;
      if (parsed) {
        const upstreams = (object.upstreams ?? []) as { dial?: string }[];
        found.push({ ...parsed, dials: upstreams.map((upstream) => upstream.dial ?? '') });
      }
      Object.values(object).forEach(walk);
    };
    walk(servers);
    return found;
  }

  return {
    async check() {
      await ok('GET', '/config/admin');
    },

    putEndpoint: (endpoint) =>
      serialized(async () => {
        const previousHost = await routedHost(endpoint.vhostId);
        for (const listener of ['http', 'https'] as const) {
          if (listener === 'https' && endpoint.tls.kind === 'none') {
            await remove(routeId(endpoint.vhostId, 'https'));
            continue;
          }
          await upsert(routeId(endpoint.vhostId, listener), endpointRoute(endpoint, listener), {
            method: 'PUT',
            path: await insertPath(listener, endpoint.hostname),
          });
        }
        if (endpoint.tls.kind === 'certificate') {
          await upsert(
            certificateId(endpoint.vhostId),
            {
              '@id': certificateId(endpoint.vhostId),
              certificate: endpoint.tls.certificatePem,
              key: endpoint.tls.keyPem,
            },
            { method: 'POST', path: '/config/apps/tls/certificates/load_pem' },
          );
        } else {
          await remove(certificateId(endpoint.vhostId));
        }
        // Managed names: this endpoint's when it is managed; never the name it answered to before.
        const names = await automated();
        const wanted = names.filter(
          (name) => name !== previousHost && (name !== endpoint.hostname || endpoint.tls.kind === 'managed'),
        );
        if (endpoint.tls.kind === 'managed' && !wanted.includes(endpoint.hostname))
          wanted.push(endpoint.hostname);
        if (wanted.length !== names.length || wanted.some((name, index) => name !== names[index]))
          await setAutomated(wanted);
      }),

    removeEndpoint: (vhostId, hostname) =>
      serialized(async () => {
        await remove(routeId(vhostId, 'http'));
        await remove(routeId(vhostId, 'https'));
        await remove(certificateId(vhostId));
        const names = await automated();
        if (hostname && names.includes(hostname))
          await setAutomated(names.filter((name) => name !== hostname));
      }),

    switchService: (serviceKey, upstreams, draining) =>
      serialized(async () => {
        const hash = serviceHash(serviceKey);
        const mine = (await proxies()).filter((proxy) => proxy.serviceHash === hash);
        const drained = new Set(draining);
        // Only what the caller drains (and so releases): any other address, a stale one the engine may
        // give another container, is let go at once.
        const leaving = mine.flatMap((proxy) => {
          const staying = new Set(dialsOf(proxy.port, upstreams).map((upstream) => upstream.dial));
          return proxy.dials.filter(
            (dial) => !staying.has(dial) && drained.has(dial.slice(0, dial.lastIndexOf(':'))),
          );
        });
        if (leaving.length > 0) await holdForDraining(hash, leaving);
        for (const proxy of mine) {
          const dials = dialsOf(proxy.port, upstreams);
          const answer = await admin('PATCH', `/id/${proxy.id}/upstreams`, dials);
          // An endpoint deprovisioned meanwhile has nothing left to switch.
          if (answer.status >= 300 && unknownId(answer.text)) continue;
          if (answer.status >= 300)
            throw new RuntimeError(
              `The edge refused to switch ${proxy.id}: ${answer.text.trim().slice(0, 500)}`,
            );
          await admin('PATCH', `/id/${proxy.id}/load_balancing/try_duration`, tryDuration(dials));
        }
        return mine.length;
      }),

    adoptProxies: (serviceKey, vhostIds) =>
      serialized(async () => {
        const hash = serviceHash(serviceKey);
        const wanted = new Set(vhostIds);
        let adopted = 0;
        for (const proxy of await proxies()) {
          if (!wanted.has(proxy.vhostId) || proxy.serviceHash === hash) continue;
          const answer = await admin('GET', `/id/${proxy.id}`);
          // An endpoint deprovisioned meanwhile has nothing left to take over.
          if (answer.status >= 300 && unknownId(answer.text)) continue;
          if (answer.status >= 300)
            throw new RuntimeError(
              `The edge refused to read ${proxy.id}: ${answer.text.trim().slice(0, 500)}`,
            );
          const handler = JSON.parse(answer.text) as Record<string, unknown>;
          // Caddy indexes the ids anew with each change, so the proxy is found by the new one at once.
          await ok('PATCH', `/id/${proxy.id}`, {
            ...handler,
            '@id': proxyIdOf({ ...proxy, serviceHash: hash }),
          });
          adopted++;
        }
        return adopted;
      }),

    releaseDrained: (serviceKey) => serialized(() => remove(drainingId(serviceHash(serviceKey)))),

    proxies,

    async shutdown() {
      await ok('POST', '/stop');
    },

    async currentConfig() {
      return JSON.parse((await ok('GET', '/config/')) || 'null');
    },

    load: (config) =>
      serialized(async () => {
        await ok('POST', '/load', config);
      }),

    async requestsInFlight(hosts) {
      // Caddy counts requests per upstream `host:port` across its configurations (an address no route
      // names any more is listed until its last request ends).
      const upstreams = JSON.parse((await ok('GET', '/reverse_proxy/upstreams')) || '[]') as {
        address?: string;
        num_requests?: number;
      }[];
      const wanted = new Set(hosts);
      return upstreams
        .filter((upstream) => {
          const address = upstream.address ?? '';
          return wanted.has(address.slice(0, address.lastIndexOf(':')));
        })
        .reduce((sum, upstream) => sum + (upstream.num_requests ?? 0), 0);
    },

    setProxyDials: (id, dials) =>
      serialized(async () => {
        await ok(
          'PATCH',
          `/id/${id}/upstreams`,
          dials.map((dial) => ({ dial })),
        );
        await admin('PATCH', `/id/${id}/load_balancing/try_duration`, tryDuration(dials));
      }),
  };
}
