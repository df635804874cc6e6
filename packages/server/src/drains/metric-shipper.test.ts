import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { apps } from '../db/schema.ts';
import { type TestApp, type TestUser, testApp } from '../testing/test-app.ts';
import { makeCertificate } from '../testing/test-certificates.ts';
import { deliverDatadog, deliverInfluxV1, lineProtocol } from './metric-delivery.ts';

// Metric drains send real points to real receivers on loopback (issue 13): InfluxDB 1.x and 2.x write
// APIs in line protocol with their authentication, and Datadog's series API over HTTPS (a test CA).

const certificate = makeCertificate({ subject: { commonName: 'localhost' }, altNames: ['localhost'] });

interface Received {
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

function collector(into: Received[]) {
  return (request: IncomingMessage, response: { writeHead(status: number): void; end(): void }) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      into.push({ url: request.url ?? '', headers: request.headers, body });
      response.writeHead(204);
      response.end();
    });
  };
}

describe('metric drains send points to their destinations', () => {
  let t: TestApp;
  let owner: TestUser;
  let environmentId: string;
  const influx: Received[] = [];
  const datadog: Received[] = [];
  const influxServer = createHttpServer(collector(influx));
  const datadogServer = createHttpsServer(
    { cert: certificate.certificatePem, key: certificate.privateKeyPem },
    collector(datadog),
  );
  const port = (server: { address(): unknown }) => (server.address() as AddressInfo).port;

  beforeAll(async () => {
    await new Promise<void>((resolve) => influxServer.listen(0, '127.0.0.1', resolve));
    await new Promise<void>((resolve) => datadogServer.listen(0, resolve));
    // The InfluxDB receivers are on loopback, a private destination: the guard stays on and the
    // allow-list names their addresses only (IPv4, and IPv6 for the one reached by its literal).
    t = await testApp({
      drainCaCertificates: [certificate.certificatePem],
      drainAllow: loadConfig({ BERTH_DRAIN_ALLOW: '127.0.0.1,::1' }).drainAllow,
    });
    owner = await t.signUp();
    const organization = await t.createOrganization(owner);
    environmentId = (await t.createEnvironment(owner, organization.id, 'measured')).id;
    const [app] = await t.db
      .insert(apps)
      .values({ environmentId: Number(environmentId), handle: 'shop' })
      .returning();
    expect(
      (await t.operate(owner, `/api/apps/${app?.id}/operations`, { type: 'deploy', git_ref: 'main' })).status,
    ).toBe('succeeded');
  });

  afterAll(async () => {
    await t?.close();
    influxServer.close();
    datadogServer.close();
  });

  async function provisioned(body: Record<string, unknown>) {
    const created = await t.call('POST', `/api/accounts/${environmentId}/metric_drains`, {
      token: owner.token,
      body,
    });
    expect(created.statusCode, created.body).toBe(201);
    const op = await t.operate(owner, `/api/metric_drains/${created.json().id}/operations`, {
      type: 'provision',
    });
    return { id: created.json().id as string, status: op.status, operation: op.id };
  }

  it('writes line protocol to InfluxDB 1.x with the account, its password never shown', async () => {
    const drain = await provisioned({
      handle: 'influx-one',
      drain_type: 'influxdb',
      drain_configuration: {
        address: `http://127.0.0.1:${port(influxServer)}`,
        username: 'berth',
        password: 'influx-secret-password',
        database: 'metrics',
      },
    });
    expect(drain.status).toBe('succeeded');
    await t.metricShipper.shipOnce();
    const write = influx.find((found) => found.url.startsWith('/write'));
    expect(write?.url).toBe('/write?db=metrics&precision=s');
    expect(write?.headers.authorization).toBe(
      `Basic ${Buffer.from('berth:influx-secret-password').toString('base64')}`,
    );
    expect(write?.body).toMatch(
      /^berth_container,environment=measured,resource=shop,layer=app,service=cmd,container=\S+ memory_mb=[\d.]+,memory_limit_mb=\d+,cpu_pct=[\d.]+ \d{10}$/m,
    );
    const shown = (await t.call('GET', `/api/metric_drains/${drain.id}`, { token: owner.token })).json();
    expect(shown).toMatchObject({
      status: 'provisioned',
      drain_type: 'influxdb',
      drain_configuration: { username: 'berth', password: '••••word', database: 'metrics' },
      last_error: '',
    });
    expect(shown.points_sent).toBeGreaterThan(0);
    expect(JSON.stringify(shown)).not.toContain('influx-secret-password');
  });

  it('writes to InfluxDB 2.x with its organization, bucket and token', async () => {
    const drain = await provisioned({
      handle: 'influx-two',
      drain_type: 'influxdb2',
      drain_configuration: {
        address: `http://127.0.0.1:${port(influxServer)}`,
        org: 'harbour',
        authToken: 'token-abcdef',
        bucket: 'containers',
      },
    });
    expect(drain.status).toBe('succeeded');
    await t.metricShipper.shipOnce(new Date(Date.now() + 60_000));
    const write = influx.find((found) => found.url.startsWith('/api/v2/write'));
    expect(write?.url).toBe('/api/v2/write?org=harbour&bucket=containers&precision=s');
    expect(write?.headers.authorization).toBe('Token token-abcdef');
  });

  it("posts gauges to Datadog's series API with the API key, and only to Datadog's sites", async () => {
    const refused = await t.call('POST', `/api/accounts/${environmentId}/metric_drains`, {
      token: owner.token,
      body: {
        handle: 'elsewhere',
        drain_type: 'datadog',
        drain_configuration: { api_key: 'k', series_url: 'https://metrics.example.com/api/v1/series' },
      },
    });
    expect(refused.json().message).toMatch(/^The Datadog series URL must be one of its sites'/);
    // The wire format, against a receiver of the test's own (the API takes Datadog's sites only).
    await deliverDatadog(
      `https://localhost:${port(datadogServer)}/api/v1/series`,
      'dd-key-123456',
      [
        {
          time: new Date('2026-11-27T12:00:00Z'),
          environment: 'measured',
          resource: 'shop',
          layer: 'app',
          service: 'cmd',
          container: 'measured-shop-cmd-1',
          memoryMb: 120,
          memoryLimitMb: 512,
          cpuPct: 3.5,
          diskGb: null,
        },
      ],
      { ca: [certificate.certificatePem], allow: { hosts: ['localhost'] } },
    );
    const post = datadog[0];
    expect(post?.url).toBe('/api/v1/series');
    expect(post?.headers['dd-api-key']).toBe('dd-key-123456');
    const { series } = JSON.parse(post?.body ?? '{}') as {
      series: { metric: string; type: string; points: number[][]; tags: string[] }[];
    };
    expect(series.map((entry) => entry.metric)).toEqual([
      'berth.container.memory_mb',
      'berth.container.memory_limit_mb',
      'berth.container.cpu_pct',
    ]);
    expect(series[0]).toEqual({
      metric: 'berth.container.memory_mb',
      type: 'gauge',
      points: [[1795780800, 120]],
      tags: [
        'environment:measured',
        'resource:shop',
        'layer:app',
        'service:cmd',
        'container:measured-shop-cmd-1',
      ],
    });
  });

  it('refuses private destinations unless the operator allows them', async () => {
    const influxTo = (address: string) =>
      deliverInfluxV1(address, { username: 'u', password: 'p', database: 'd' }, [], {});
    await expect(influxTo('http://127.0.0.1:9')).rejects.toThrow(
      '127.0.0.1 is a private address: drains send only to public destinations',
    );
    await expect(influxTo('http://169.254.169.254')).rejects.toThrow('169.254.169.254 is a private address');
    // IPv4-mapped and NAT64 forms of private addresses, and a name resolving to one.
    await expect(influxTo('http://[::ffff:169.254.169.254]')).rejects.toThrow(
      '[::ffff:a9fe:a9fe] is a private address',
    );
    await expect(influxTo('http://[64:ff9b::a00:1]')).rejects.toThrow(
      '[64:ff9b::a00:1] is a private address',
    );
    await expect(influxTo('http://localhost:9')).rejects.toThrow(
      'localhost resolves to a private address: drains send only to public destinations',
    );
  });

  it('provisions to an IPv6 literal, written in brackets as URLs have it', async () => {
    const received: Received[] = [];
    const server = createHttpServer(collector(received));
    await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
    try {
      const drain = await provisioned({
        handle: 'influx-six',
        drain_type: 'influxdb',
        drain_configuration: {
          address: `http://[::1]:${port(server)}`,
          username: 'u',
          password: 'p',
          database: 'd',
        },
      });
      expect(drain.status).toBe('succeeded');
      await t.metricShipper.shipOnce(new Date(Date.now() + 60 * 60_000));
      expect(received.some((write) => write.url.startsWith('/write?db=d'))).toBe(true);
    } finally {
      server.close();
    }
  });

  it('provisions only to what the allow-list names: 127.0.0.1 here, not the rest of loopback', async () => {
    const refused = await provisioned({
      handle: 'beside-allowed',
      drain_type: 'influxdb',
      drain_configuration: {
        address: `http://127.0.0.2:${port(influxServer)}`,
        username: 'u',
        password: 'p',
        database: 'd',
      },
    });
    expect(refused.status).toBe('failed');
    expect(await t.operationLog(owner, refused.operation)).toMatch(
      /ERROR -- : 127\.0\.0\.2 is a private address: drains send only to public destinations$/m,
    );
  });

  it('records a failed delivery, waits, and sends again once the destination is back', async () => {
    const received: Received[] = [];
    let server = createHttpServer(collector(received));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const at = port(server);
    const drain = await provisioned({
      handle: 'flaky',
      drain_type: 'influxdb',
      drain_configuration: { address: `http://127.0.0.1:${at}`, username: 'u', password: 'p', database: 'd' },
    });
    expect(drain.status).toBe('succeeded');
    await new Promise((resolve) => server.close(resolve));
    const now = Date.now() + 10 * 60_000;
    await t.metricShipper.shipOnce(new Date(now));
    const failing = (await t.call('GET', `/api/metric_drains/${drain.id}`, { token: owner.token })).json();
    expect(failing.last_error).toMatch(/Cannot reach InfluxDB/);
    server = createHttpServer(collector(received));
    await new Promise<void>((resolve) => server.listen(at, '127.0.0.1', resolve));
    await t.metricShipper.shipOnce(new Date(now + 500));
    expect(received).toEqual([]);
    await t.metricShipper.shipOnce(new Date(now + 5 * 60_000));
    expect(received.length).toBeGreaterThan(0);
    const recovered = (await t.call('GET', `/api/metric_drains/${drain.id}`, { token: owner.token })).json();
    expect(recovered.last_error).toBe('');
    await new Promise((resolve) => server.close(resolve));
    // A destination that does not answer fails the provision, saying why.
    const refused = await provisioned({
      handle: 'refused',
      drain_type: 'influxdb',
      drain_configuration: { address: `http://127.0.0.1:${at}`, username: 'u', password: 'p', database: 'd' },
    });
    expect(refused.status).toBe('failed');
    expect(await t.operationLog(owner, refused.operation)).toMatch(
      /ERROR -- : 127\.0\.0\.1:\d+ does not answer$/m,
    );
  });

  it('answers the spec messages for each type', async () => {
    const message = async (body: Record<string, unknown>) =>
      (
        await t.call('POST', `/api/accounts/${environmentId}/metric_drains`, {
          token: owner.token,
          body: { handle: 'bad', ...body },
        })
      ).json().message as string;
    expect(await message({ drain_type: 'influxdb', drain_configuration: {} })).toBe('Must provide hostname');
    expect(
      await message({
        drain_type: 'influxdb',
        drain_configuration: { address: 'http://influx.example.com:8086' },
      }),
    ).toBe('Must provide username');
    expect(
      await message({
        drain_type: 'influxdb2',
        drain_configuration: { address: 'https://influx.example.com' },
      }),
    ).toBe('Must provide an organization name');
    expect(await message({ drain_type: 'datadog', drain_configuration: {} })).toBe(
      'Must provide a Datadog API key',
    );
    expect(await message({ drain_type: 'influxdb_database' })).toBe('Must provide an InfluxDB database');
  });

  it('escapes line protocol tag values', () => {
    expect(
      lineProtocol([
        {
          time: new Date('2026-11-27T12:00:00Z'),
          environment: 'prod env',
          resource: 'a,b',
          layer: 'app',
          service: 'web=1',
          container: 'c',
          memoryMb: 12.5,
          memoryLimitMb: null,
          cpuPct: null,
          diskGb: null,
        },
      ]),
    ).toBe(
      'berth_container,environment=prod\\ env,resource=a\\,b,layer=app,service=web\\=1,container=c memory_mb=12.5 1795780800\n',
    );
  });
});
