import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSigningKey } from '../auth/tokens/token-keys.ts';
import { loadConfig } from '../config.ts';
import { apps, databaseCredentials, databases, logDrains, services, vhosts } from '../db/schema.ts';
import { createSimRuntime } from '../runtimes/sim/sim-runtime.ts';
import { createSecretBox, databaseCredentialsBox } from '../security/secret-box.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';
import { makeCertificate } from '../testing/test-certificates.ts';
import { syslogFrame } from './log-delivery.ts';
import { createLogShipper } from './log-shipper.ts';

// Log drains ship real lines to real receivers on loopback (issue 13): an HTTPS endpoint and a TLS
// syslog listener, both with a certificate of the test's own CA (BERTH_DRAIN_CA_FILE's way in), in
// their wire formats; a receiver that is down gets everything once it is back; a full buffer drops the
// oldest lines and counts them.

const certificate = makeCertificate({ subject: { commonName: 'localhost' }, altNames: ['localhost'] });

interface HttpsReceiver {
  server: HttpsServer;
  port: number;
  batches: { time: string; source: string; resource: string; message: string; stream: string }[][];
  /** The batches by the path and query they were posted to. */
  byPath: Map<string, HttpsReceiver['batches']>;
  close(): Promise<void>;
}

async function httpsReceiver(port = 0): Promise<HttpsReceiver> {
  const batches: HttpsReceiver['batches'] = [];
  const byPath: HttpsReceiver['byPath'] = new Map();
  const server = createHttpsServer(
    { cert: certificate.certificatePem, key: certificate.privateKeyPem },
    (request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        body += chunk;
      });
      request.on('end', () => {
        expect(request.url).toMatch(/^\/in\?key=s3cret-key/);
        expect(request.headers['content-type']).toBe('application/json');
        batches.push(JSON.parse(body));
        const path = request.url ?? '';
        byPath.set(path, [...(byPath.get(path) ?? []), JSON.parse(body)]);
        response.end('ok');
      });
    },
  );
  // Every interface: `localhost` may be ::1 or 127.0.0.1.
  await new Promise<void>((resolve) => server.listen(port, resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    batches,
    byPath,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function syslogReceiver(): Promise<{ server: TlsServer; port: number; frames: string[] }> {
  const frames: string[] = [];
  const server = createTlsServer(
    { cert: certificate.certificatePem, key: certificate.privateKeyPem },
    (socket) => {
      let pending = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        pending += chunk;
        // RFC 6587 octet counting: "<length> <message>".
        for (;;) {
          const space = pending.indexOf(' ');
          const length = Number(pending.slice(0, space));
          if (space < 0 || pending.length < space + 1 + length) break;
          frames.push(pending.slice(space + 1, space + 1 + length));
          pending = pending.slice(space + 1 + length);
        }
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, resolve));
  return { server, port: (server.address() as AddressInfo).port, frames };
}

describe('log drains ship to their destinations', () => {
  let t: TestApp;
  let owner: TestUser;
  let environmentId: string;
  let appId: number;
  let https: HttpsReceiver;
  let syslog: Awaited<ReturnType<typeof syslogReceiver>>;

  beforeAll(async () => {
    https = await httpsReceiver();
    syslog = await syslogReceiver();
    // The receivers are on loopback, private destinations: the guard stays on and the allow-list names
    // them only (`localhost` for the HTTPS and syslog receivers, 127.0.0.1 for Elasticsearch's).
    t = await testApp({
      drainCaCertificates: [certificate.certificatePem],
      drainAllow: loadConfig({ BERTH_DRAIN_ALLOW: 'localhost,127.0.0.1' }).drainAllow,
    });
    owner = await t.signUp();
    const organization = await t.createOrganization(owner);
    environmentId = (await t.createEnvironment(owner, organization.id, 'shipping')).id;
    const [app] = await t.db
      .insert(apps)
      .values({ environmentId: Number(environmentId), handle: 'shop' })
      .returning();
    appId = app?.id ?? 0;
  });

  afterAll(async () => {
    await t?.close();
    await https?.close();
    syslog?.server.close();
  });

  const operate = (url: string, body: Record<string, unknown>) => t.operate(owner, url, body);

  async function provisioned(body: Record<string, unknown>) {
    const created = await t.call('POST', `/api/accounts/${environmentId}/log_drains`, {
      token: owner.token,
      body,
    });
    expect(created.statusCode, created.body).toBe(201);
    const op = await operate(`/api/log_drains/${created.json().id}/operations`, { type: 'provision' });
    return { id: created.json().id as string, status: op.status, operation: op.id };
  }

  async function drainOf(id: string) {
    return (await t.call('GET', `/api/log_drains/${id}`, { token: owner.token })).json();
  }

  let httpsDrain: string;

  it('POSTs JSON batches over HTTPS: a deploy and its app, with the URL and key never shown', async () => {
    const drain = await provisioned({
      handle: 'to-https',
      drain_type: 'datadog',
      url: `https://localhost:${https.port}/in?key=s3cret-key`,
      drain_databases: false,
    });
    expect(drain.status).toBe('succeeded');
    httpsDrain = drain.id;
    expect(await operate(`/api/apps/${appId}/operations`, { type: 'deploy', git_ref: 'main' })).toMatchObject(
      {
        status: 'succeeded',
      },
    );
    await t.logShipper.shipOnce();
    const lines = https.batches.flat();
    expect(
      lines.some((line) => line.source === 'operation' && /Starting app deploy operation/.test(line.message)),
    ).toBe(true);
    expect(lines.every((line) => !Number.isNaN(Date.parse(line.time)) && line.resource)).toBe(true);
    const shown = await drainOf(httpsDrain);
    expect(shown).toMatchObject({
      drain_type: 'https_post',
      status: 'provisioned',
      url: `https://localhost:${https.port}/••••`,
      last_error: '',
      lines_sent: lines.length,
      lines_dropped: 0,
      _embedded: { backend: { channel: 'datadog' } },
    });
    expect(JSON.stringify(shown)).not.toContain('s3cret-key');
  });

  it("ships the requests the environment's endpoints answered to a drain that asks for proxy lines", async () => {
    const [web] = await t.db.select().from(services).where(eq(services.appId, appId));
    const endpoint = await t.call('POST', `/api/services/${web?.id}/vhosts`, {
      token: owner.token,
      body: { type: 'http', default: true },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const vhostId = Number(endpoint.json().id);
    expect((await operate(`/api/vhosts/${vhostId}/operations`, { type: 'provision' })).status).toBe(
      'succeeded',
    );
    const drain = await provisioned({
      handle: 'to-https-proxies',
      drain_type: 'https_post',
      url: `https://localhost:${https.port}/in?key=s3cret-key&proxies`,
      drain_apps: false,
      drain_databases: false,
      drain_proxies: true,
    });
    expect(drain.status).toBe('succeeded');
    // A minute of traffic: the endpoint and the drain's cursor a minute back, rather than a wait.
    const minuteAgo = new Date(Date.now() - 60_000);
    await t.db.update(vhosts).set({ createdAt: minuteAgo }).where(eq(vhosts.id, vhostId));
    await t.db
      .update(logDrains)
      .set({ shippedUntil: minuteAgo })
      .where(eq(logDrains.id, Number(drain.id)));
    await t.logShipper.shipOnce();
    // This drain's lines: what was posted to its own URL.
    const lines = (https.byPath.get('/in?key=s3cret-key&proxies') ?? []).flat();
    const hostname = endpoint.json().virtual_domain as string;
    expect(lines.length).toBeGreaterThanOrEqual(15);
    for (const line of lines) {
      expect(line).toMatchObject({
        source: 'proxy',
        resource: hostname,
        service: web?.handle,
        origin: 'endpoint',
      });
      expect(line.message).toMatch(
        new RegExp(
          `^203\\.0\\.113\\.\\d+ ${hostname.replace(/\./g, '\\.')} "GET /\\S* HTTP/1\\.1" \\d{3} \\d+ \\d\\.\\d{3}s "`,
        ),
      );
    }
    // Its receiver is the other tests' too: it stops shipping here.
    expect((await operate(`/api/log_drains/${drain.id}/operations`, { type: 'deprovision' })).status).toBe(
      'succeeded',
    );
  });

  it('sends RFC 5424 syslog over TLS, octet-counted, each message behind the token', async () => {
    const drain = await provisioned({
      handle: 'to-syslog',
      drain_type: 'syslog_tls_tcp',
      drain_host: 'localhost',
      drain_port: String(syslog.port),
      logging_token: 'tok-123456789',
    });
    expect(drain.status).toBe('succeeded');
    expect((await drainOf(drain.id)).logging_token).toBe('••••6789');
    await operate(`/api/apps/${appId}/operations`, { type: 'deploy', git_ref: 'main' });
    await t.logShipper.shipOnce();
    await expect.poll(() => syslog.frames.length).toBeGreaterThan(0);
    const frame = syslog.frames.find((found) => /Starting app deploy operation/.test(found)) ?? '';
    expect(frame).toMatch(
      /^<14>1 \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z shipping\.shop shop operation-\d+ deploy - tok-123456789 /,
    );
  });

  it('keeps the lines while the receiver is down and delivers them all once it is back', async () => {
    const sentBefore = (await drainOf(httpsDrain)).lines_sent;
    const port = https.port;
    await https.close();
    await operate(`/api/apps/${appId}/operations`, { type: 'deploy', git_ref: 'main' });
    const now = new Date();
    await t.logShipper.shipOnce(now);
    const failing = await drainOf(httpsDrain);
    expect(failing.last_error).toMatch(/Cannot reach the drain's URL/);
    expect(failing.lines_sent).toBe(sentBefore);
    https = await httpsReceiver(port);
    // Before its wait is over, nothing is tried; after it, everything held goes.
    await t.logShipper.shipOnce(new Date(now.getTime() + 500));
    expect(https.batches).toEqual([]);
    await t.logShipper.shipOnce(new Date(now.getTime() + 5 * 60_000));
    const delivered = https.batches.flat();
    expect(delivered.some((line) => /Starting app deploy operation/.test(line.message))).toBe(true);
    const recovered = await drainOf(httpsDrain);
    expect(recovered.last_error).toBe('');
    expect(recovered.lines_sent).toBe(sentBefore + delivered.length);
  });

  it('drops the oldest lines of a full buffer, and counts them on the drain', async () => {
    const key = await loadSigningKey(t.db, undefined);
    // A second shipper with a three-line buffer; the app's shipper waits its turn (the lease).
    await t.db
      .update(logDrains)
      .set({ shipperLeaseUntil: null })
      .where(eq(logDrains.id, Number(httpsDrain)));
    const small = createLogShipper({
      db: t.db,
      runtimes: { sim: createSimRuntime({ stepMs: 1 }) },
      box: createSecretBox(key, 'log drains'),
      databaseSecrets: databaseCredentialsBox(key),
      tls: { ca: [certificate.certificatePem], allow: { hosts: ['localhost'] } },
      bufferLines: 3,
    });
    const before = await drainOf(httpsDrain);
    await https.close();
    await operate(`/api/apps/${appId}/operations`, { type: 'deploy', git_ref: 'main' });
    await small.shipOnce();
    const after = await drainOf(httpsDrain);
    expect(after.lines_dropped).toBeGreaterThan(before.lines_dropped);
    expect(after.lines_sent).toBe(before.lines_sent);
    https = await httpsReceiver(https.port);
  });

  it('fails provisioning a drain whose destination does not answer, saying why', async () => {
    const closed = await httpsReceiver();
    await closed.close();
    const drain = await provisioned({
      handle: 'nowhere',
      drain_type: 'papertrail',
      drain_host: 'localhost',
      drain_port: closed.port,
    });
    expect(drain.status).toBe('failed');
    expect((await drainOf(drain.id)).status).toBe('provision_failed');
  });

  it('refuses to provision a drain aimed at a private address the allow-list does not name', async () => {
    // Each would answer: the HTTPS receiver listens on every interface, 127.0.0.2 is loopback too.
    const refusals = [
      [
        { drain_type: 'https_post', url: `https://[::1]:${https.port}/in?key=s3cret-key` },
        '[::1] is a private address: drains send only to public destinations',
      ],
      [
        { drain_type: 'syslog_tls_tcp', drain_host: '169.254.169.254', drain_port: '6514' },
        '169.254.169.254 is a private address: drains send only to public destinations',
      ],
      [
        // A name the resolver turns into 127.0.0.2, which no entry names.
        { drain_type: 'papertrail', drain_host: '2130706434', drain_port: String(syslog.port) },
        '2130706434 resolves to a private address: drains send only to public destinations',
      ],
    ] as const;
    for (const [index, [body, message]] of refusals.entries()) {
      const drain = await provisioned({ handle: `private-${index}`, ...body });
      expect(drain.status).toBe('failed');
      expect((await drainOf(drain.id)).status).toBe('provision_failed');
      expect(await t.operationLog(owner, drain.operation)).toContain(`ERROR -- : ${message}`);
    }
  });

  it("indexes lines with an Elasticsearch database's bulk API, at its connection URL and account", async () => {
    const bulks: { auth: string; url: string; body: string }[] = [];
    const elastic = createHttpServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        body += chunk;
      });
      request.on('end', () => {
        bulks.push({ auth: request.headers.authorization ?? '', url: request.url ?? '', body });
        response.setHeader('Content-Type', 'application/json');
        response.end('{"took":1,"errors":false,"items":[]}');
      });
    });
    await new Promise<void>((resolve) => elastic.listen(0, '127.0.0.1', resolve));
    try {
      const key = await loadSigningKey(t.db, undefined);
      const [database] = await t.db
        .insert(databases)
        .values({
          environmentId: Number(environmentId),
          handle: 'search',
          type: 'elasticsearch',
          status: 'provisioned',
        })
        .returning();
      const port = (elastic.address() as AddressInfo).port;
      await t.db.insert(databaseCredentials).values({
        databaseId: database?.id ?? 0,
        type: 'elasticsearch',
        connectionUrlSealed: databaseCredentialsBox(key).seal(`http://aptible:pass%20word@127.0.0.1:${port}`),
      });
      const drain = await provisioned({
        handle: 'to-elastic',
        drain_type: 'elasticsearch_database',
        database_id: String(database?.id),
        drain_databases: false,
      });
      expect(drain.status).toBe('succeeded');
      await operate(`/api/apps/${appId}/operations`, { type: 'deploy', git_ref: 'main' });
      await t.logShipper.shipOnce(new Date(Date.now() + 10 * 60_000));
      const bulk = bulks.find((found) => /Starting app deploy operation/.test(found.body));
      expect(bulk?.url).toBe('/_bulk');
      expect(bulk?.auth).toBe(`Basic ${Buffer.from('aptible:pass word').toString('base64')}`);
      const [action, document] = (bulk?.body ?? '').split('\n');
      expect(JSON.parse(action ?? '{}')).toEqual({
        index: { _index: expect.stringMatching(/^logs-\d{4}\.\d\d\.\d\d$/) },
      });
      expect(JSON.parse(document ?? '{}')).toMatchObject({
        '@timestamp': expect.any(String),
        environment: 'shipping',
      });
    } finally {
      elastic.close();
    }
  });

  it('frames syslog messages as RFC 5424 names them: priority by stream, no newline inside', () => {
    const frame = syslogFrame(
      {
        time: new Date('2026-11-27T12:00:00.000Z'),
        source: 'app',
        environment: 'prod',
        resource: 'shop',
        service: 'web',
        origin: 'prod-shop-web-1',
        stream: 'stderr',
        message: 'boom\nsecond line',
      },
      '',
    );
    const message = '<11>1 2026-11-27T12:00:00.000Z prod.shop shop prod-shop-web-1 web - boom second line';
    expect(frame).toBe(`${Buffer.byteLength(message)} ${message}`);
  });
});
