import { eq, inArray, type SQL } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../db/errors.ts';
import { apps, operations, vhosts } from '../../db/schema.ts';
import { createOperationsService } from '../../operations/operations.service.ts';
import { cannotSee, cannotWrite, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { addMember, grant, seedApp, seedDatabase, seedService } from '../../testing/factories.ts';
import type { TestUser } from '../../testing/test-app.ts';
import { makeCertificate } from '../../testing/test-certificates.ts';
import { createAppsService } from '../apps/apps.service.ts';
import { createServicesService } from '../services/services.service.ts';
import { createVhostsService } from './vhosts.service.ts';

const { t, f } = await environmentSuite();
let appId: number;
let webId: number;
let failingServiceId: number;
let foreignServiceId: number;
let certificateUrl: string;
let foreignCertificateUrl: string;
/** destroy only: may deprovision, not create. */
let destroyer: TestUser;
/** sensitive only (which implies read): sees credentials such as token headers. */
let keeper: TestUser;
const api = 'http://berth.test/api';

async function member(name: string, scope: 'destroy' | 'sensitive'): Promise<TestUser> {
  const user = await t.signUp({ name });
  const role = await addMember(t.db, { organizationId: f.organization.id, userId: user.id, name });
  await grant(t.db, { roleId: role.id, environmentId: String(f.environment.id), scope });
  return user;
}

async function uploadCertificate(user: TestUser, environmentId: number, commonName: string) {
  const cert = makeCertificate({ subject: { commonName } });
  const response = await t.call('POST', `/api/accounts/${environmentId}/certificates`, {
    token: user.token,
    body: { certificate_body: cert.certificatePem, private_key: cert.privateKeyPem },
  });
  expect(response.statusCode).toBe(201);
  return `${api}/certificates/${response.json().id}`;
}

async function createEndpoint(body: Record<string, unknown>, serviceId = webId, user = f.deployer) {
  const response = await t.call('POST', `/api/services/${serviceId}/vhosts`, { token: user.token, body });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string; [key: string]: unknown };
}

/** `expectAccess` for a call that needs `scope` on the fixture's environment (its 403s name both). */
function expectScoped(
  request: Omit<Parameters<typeof expectAccess>[1], 'environmentId'>,
  cases: Parameters<typeof expectAccess>[2],
) {
  return expectAccess(t, { ...request, environmentId: f.environment.id }, cases);
}

async function operate(id: string, type: string, user: TestUser = f.deployer) {
  return t.call('POST', `/api/vhosts/${id}/operations`, { token: user.token, body: { type } });
}

async function endpoint(id: string) {
  return (await t.call('GET', `/api/vhosts/${id}`, { token: f.owner.token })).json();
}

/** The text of an operation's log, through the signed URL the API hands out. */
async function operationLog(id: string) {
  const pointer = await t.call('GET', `/api/operations/${id}/logs`, { token: f.owner.token });
  const url = new URL(pointer.body);
  return (await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` })).body;
}

async function operationStatus(id: string) {
  const [op] = await t.db
    .select({ status: operations.status })
    .from(operations)
    .where(eq(operations.id, Number(id)));
  return op?.status;
}

beforeAll(async () => {
  const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop', status: 'provisioned' });
  appId = app.id;
  webId = (await seedService(t.db, { environmentId: f.environment.id, appId, handle: 'web' })).id;
  const failing = await seedApp(t.db, { environmentId: f.environment.id, handle: 'simfail-shop' });
  failingServiceId = (
    await seedService(t.db, { environmentId: f.environment.id, appId: failing.id, handle: 'web' })
  ).id;
  const strangerApp = await seedApp(t.db, { environmentId: f.strangerEnvironment.id, handle: 'theirs' });
  foreignServiceId = (
    await seedService(t.db, { environmentId: f.strangerEnvironment.id, appId: strangerApp.id, handle: 'web' })
  ).id;
  destroyer = await member('Destroyer', 'destroy');
  keeper = await member('Keeper', 'sensitive');
  certificateUrl = await uploadCertificate(f.owner, f.environment.id, 'shop.example.com');
  foreignCertificateUrl = await uploadCertificate(f.stranger, f.strangerEnvironment.id, 'theirs.example.com');
});

describe('POST /services/:id/vhosts', () => {
  it('creates a pending default endpoint in the contract shape', async () => {
    const response = await t.call('POST', `/api/services/${webId}/vhosts`, {
      token: f.deployer.token,
      body: {
        type: 'http',
        platform: 'alb',
        acme: false,
        default: true,
        internal: false,
        ip_whitelist: ['10.0.0.0/8'],
        container_port: '8080',
        token_header: 'secret-token',
        load_balancing_algorithm_type: 'least_outstanding_requests',
        shared: false,
      },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      id: expect.any(String),
      _type: 'vhost',
      type: 'http',
      platform: 'alb',
      status: 'pending',
      default: true,
      acme: false,
      acme_status: '',
      acme_configuration: null,
      acme_dns_challenge_host: '',
      internal: false,
      shared: false,
      ip_whitelist: ['10.0.0.0/8'],
      container_port: '8080',
      container_ports: [],
      container_exposed_ports: null,
      user_domain: '',
      // Issue 35: named after the app and its environment, not the endpoint's id.
      virtual_domain: 'shop-production.on-berth.localhost',
      external_host: null,
      external_http_port: null,
      external_https_port: null,
      docker_name: null,
      elastic_load_balancer_name: null,
      internal_host: null,
      internal_http_port: null,
      internal_https_port: null,
      internal_health_port: null,
      security_group_id: '',
      load_balancing_algorithm_type: 'least_outstanding_requests',
      resource_type: 'app',
      resource_id: String(appId),
      resource_handle: 'shop',
      // A credential: the deployer (no sensitive scope) learns only that it is set.
      token_header: '********',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      _links: {
        self: { href: `${api}/vhosts/${body.id}` },
        service: { href: `${api}/services/${webId}` },
        app: { href: `${api}/apps/${appId}` },
        account: { href: `${api}/accounts/${f.environment.id}` },
        operations: { href: `${api}/vhosts/${body.id}/operations` },
      },
    });
    const asKeeper = (await t.call('GET', `/api/vhosts/${body.id}`, { token: keeper.token })).json();
    expect(asKeeper.token_header).toBe('secret-token');
    const listed = (await t.call('GET', '/api/vhosts', { token: keeper.token })).json();
    expect(listed._embedded.vhosts.find((v: { id: string }) => v.id === body.id).token_header).toBe(
      'secret-token',
    );
  });

  it('shows a token header to callers with the sensitive scope only (spec 2 §6: credentials)', async () => {
    const created = await createEndpoint({ default: true, token_header: 'X-Shop-Token:s3cret' });
    const seen = async (user: TestUser) =>
      (await t.call('GET', `/api/vhosts/${created.id}`, { token: user.token })).json().token_header;
    expect(await seen(f.owner)).toBe('X-Shop-Token:s3cret');
    expect(await seen(keeper)).toBe('X-Shop-Token:s3cret');
    // read (Full Visibility) is not enough: sensitive implies read, not the other way.
    for (const user of [f.viewer, f.reader, f.deployer, destroyer]) expect(await seen(user)).toBe('********');
    for (const path of [
      `/api/accounts/${f.environment.id}/vhosts`,
      `/api/apps/${appId}/vhosts`,
      `/api/services/${webId}/vhosts`,
    ]) {
      const listed = (await t.call('GET', path, { token: f.viewer.token })).json();
      const item = listed._embedded.vhosts.find((v: { id: string }) => v.id === created.id);
      expect(item.token_header, path).toBe('********');
    }
    const unset = await createEndpoint({ default: true });
    expect(unset).not.toHaveProperty('token_header');
  });

  it('takes the database endpoint body and a custom certificate by URL', async () => {
    const database = await seedDatabase(t.db, {
      environmentId: f.environment.id,
      handle: 'shop-db',
      type: 'postgresql',
    });
    const databaseService = await seedService(t.db, {
      environmentId: f.environment.id,
      databaseId: database.id,
      handle: 'postgresql',
    });
    const tcp = await createEndpoint(
      {
        type: 'tcp',
        platform: 'elb',
        ip_whitelist: [],
        acme: false,
        default: false,
        internal: false,
        container_ports: '5432 5433',
      },
      databaseService.id,
    );
    expect(tcp).toMatchObject({
      type: 'tcp',
      container_ports: [5432, 5433],
      virtual_domain: '',
      resource_type: 'database',
      resource_id: String(database.id),
      resource_handle: 'shop-db',
      _links: { database: { href: `${api}/databases/${database.id}` } },
    });
    expect(tcp._links).not.toHaveProperty('app');
    await operate(tcp.id, 'provision');
    await t.worker.drain();
    expect((await endpoint(tcp.id)).external_host).toMatch(/^elb-production-\d+-[0-9a-f]{6}\./);
    expect(tcp).not.toHaveProperty('token_header');
    const custom = await createEndpoint({ type: 'http', platform: 'alb', certificate: certificateUrl });
    expect(custom).toMatchObject({ virtual_domain: 'shop.example.com' });
    expect((custom._links as Record<string, { href: string }>).certificate?.href).toBe(certificateUrl);
  });

  it('needs the deploy scope on the service environment', async () => {
    await expectScoped(
      { method: 'POST', url: `/api/services/${webId}/vhosts`, body: { default: true }, scope: 'deploy' },
      [...cannotWrite(f), [destroyer, 403]],
    );
    const foreign = await t.call('POST', `/api/services/${foreignServiceId}/vhosts`, {
      token: f.owner.token,
      body: { default: true },
    });
    expect(foreign.statusCode).toBe(404);
    const missing = await t.call('POST', '/api/services/999999/vhosts', {
      token: f.owner.token,
      body: { default: true },
    });
    expect(missing.statusCode).toBe(404);
  });

  it('checks access before the body: a bad body is 404 or 403 for those who may not create', async () => {
    const bad = { type: 'ftp', container_port: 70000 };
    await expectScoped({ method: 'POST', url: `/api/services/${webId}/vhosts`, body: bad, scope: 'deploy' }, [
      ...cannotWrite(f),
      [f.deployer, 422],
    ]);
    for (const url of [`/api/services/${foreignServiceId}/vhosts`, '/api/services/999999/vhosts']) {
      const response = await t.call('POST', url, { token: f.owner.token, body: bad });
      expect(response.statusCode, url).toBe(404);
    }
  });

  it.each([
    [{ default: true, container_port: 70000 }, 'Port must be a number between 1 and 65535'],
    [{ type: 'tcp', container_ports: '22 0' }, '[0] is not between 1 and 65535'],
    [
      { default: true, ip_whitelist: '10.0.0.1 10.0.0.999' },
      '[10.0.0.999] is not a valid IPv4 address or CIDR',
    ],
    [
      { default: true, ip_whitelist: Array.from({ length: 51 }, (_, i) => `10.1.0.${i}`) },
      '51 is greater than the max IP Allowlist size of 50',
    ],
    [
      { default: true, token_header: 'bad header!' },
      'Token header may contain only letters, numbers, underscores, hyphens, colons and periods',
    ],
    [{ type: 'tcp', token_header: 'secret' }, 'A HTTP or GRPC endpoint is required to pass token'],
    [{ type: 'http' }, 'A certificate is required for custom HTTPS'],
    [{ type: 'http', acme: true }, 'A domain is required for managed HTTPS'],
    [{ shared: true, certificate: 'CERT' }, 'A domain is required for shared endpoints with a certificate.'],
    [
      { shared: true, acme: true, user_domain: '*.example.com' },
      'Shared endpoints do not support wildcard domains. Please use a specific domain name.',
    ],
    [
      { type: 'ftp', default: true },
      'Endpoint type must be one of: http, http_proxy_protocol, grpc, tls, tcp',
    ],
    [{ default: true, platform: 'nlb' }, 'Platform must be one of: alb, elb'],
  ])('refuses %j with 422 "%s"', async (body, message) => {
    const sent = { ...body } as Record<string, unknown>;
    if (sent.certificate === 'CERT') sent.certificate = certificateUrl;
    const response = await t.call('POST', `/api/services/${webId}/vhosts`, {
      token: f.deployer.token,
      body: sent,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ code: 422, message });
  });

  it('refuses a certificate of another environment', async () => {
    const response = await t.call('POST', `/api/services/${webId}/vhosts`, {
      token: f.deployer.token,
      body: { type: 'http', certificate: foreignCertificateUrl },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('Certificate not found in this environment');
  });
});

describe('endpoint lists and detail', () => {
  let listed: string;
  beforeAll(async () => {
    listed = (await createEndpoint({ default: true })).id;
    await createEndpoint({ default: true }, foreignServiceId, f.stranger);
  });

  it('GET /vhosts lists every readable endpoint, and only those', async () => {
    const [response] = await expectAccess(t, { method: 'GET', url: '/api/vhosts?per_page=5000' }, [
      [f.reader, 200],
      [null, 401],
    ]);
    const ids = response?.json()._embedded.vhosts.map((v: { id: string }) => v.id);
    expect(ids).toContain(listed);
    expect(response?.json()).toMatchObject({ current_page: 1, per_page: 5000 });
    const stranger = (await t.call('GET', '/api/vhosts', { token: f.stranger.token })).json();
    expect(stranger._embedded.vhosts.map((v: { id: string }) => v.id)).not.toContain(listed);
    expect(stranger._embedded.vhosts).toHaveLength(1);
    const outsider = (await t.call('GET', '/api/vhosts', { token: f.outsider.token })).json();
    expect(outsider._embedded.vhosts).toEqual([]);
  });

  it.each([
    () => `/api/accounts/${f.environment.id}/vhosts`,
    () => `/api/apps/${appId}/vhosts`,
    () => `/api/services/${webId}/vhosts`,
  ])('%s lists the endpoints of its resource', async (path) => {
    const [response] = await expectAccess(t, { method: 'GET', url: path() }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    const items = response?.json()._embedded.vhosts as {
      id: string;
      _links: { service: { href: string } };
    }[];
    expect(items.map((v) => v.id)).toContain(listed);
    expect(items.every((v) => v._links.service.href.startsWith(`${api}/services/`))).toBe(true);
  });

  it('GET /vhosts/:id answers the endpoint, 404 for others', async () => {
    const [response] = await expectAccess(t, { method: 'GET', url: `/api/vhosts/${listed}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(response?.json()).toMatchObject({ id: listed, _type: 'vhost', status: 'pending' });
    expect((await t.call('GET', '/api/vhosts/999999', { token: f.owner.token })).statusCode).toBe(404);
    expect((await t.call('GET', '/api/vhosts/abc', { token: f.owner.token })).statusCode).toBe(404);
  });

  it('counts the endpoints on the environment detail', async () => {
    const environment = (
      await t.call('GET', `/api/accounts/${f.environment.id}`, { token: f.owner.token })
    ).json();
    const count = (
      await t.call('GET', `/api/accounts/${f.environment.id}/vhosts`, { token: f.owner.token })
    ).json().total_count;
    expect(environment.domain_count).toBe(count);
    expect(count).toBeGreaterThan(0);
  });
});

describe('provisioning (spec 2 §4)', () => {
  it('provision runs on the sim: provisioning, then provisioned with hostnames', async () => {
    const created = await createEndpoint({ default: true, platform: 'alb' });
    const response = await operate(created.id, 'provision');
    expect(response.statusCode).toBe(201);
    const op = response.json();
    expect(op).toMatchObject({ _type: 'operation', type: 'provision', status: 'queued' });
    expect(op._links.resource.href).toBe(`${api}/vhosts/${created.id}`);
    expect(op._links.account.href).toBe(`${api}/accounts/${f.environment.id}`);
    expect((await endpoint(created.id)).status).toBe('provisioning');
    const busy = await operate(created.id, 'provision');
    expect(busy.statusCode).toBe(422);
    expect(created.virtual_domain).toMatch(/^shop-production-\d+\.on-berth\.localhost$/);

    await t.worker.drain();
    expect(await operationStatus(op.id)).toBe('succeeded');
    const provisioned = await endpoint(created.id);
    expect(provisioned).toMatchObject({
      status: 'provisioned',
      virtual_domain: created.virtual_domain,
      external_host: expect.stringMatching(
        new RegExp(`^alb-production-${created.id}-[0-9a-f]{6}\\.us-west-1\\.on-berth\\.localhost$`),
      ),
      external_http_port: '80',
      external_https_port: '443',
      docker_name: `shop-web-vhost-${created.id}`,
      acme_status: '',
    });

    // The operation shows on every list the console polls.
    for (const path of [
      `/api/vhosts/${created.id}/operations`,
      `/api/accounts/${f.environment.id}/operations`,
      `/api/organizations/${f.organization.id}/operations`,
      `/api/apps/${appId}/operations?with_services=true`,
    ]) {
      const list = (await t.call('GET', path, { token: f.reader.token })).json();
      expect(
        list._embedded.operations.map((o: { id: string }) => o.id),
        path,
      ).toContain(op.id);
    }
    const appOnly = (await t.call('GET', `/api/apps/${appId}/operations`, { token: f.reader.token })).json();
    expect(appOnly._embedded.operations.map((o: { id: string }) => o.id)).not.toContain(op.id);
    const own = (
      await t.call('GET', `/api/vhosts/${created.id}/operations`, { token: f.reader.token })
    ).json();
    expect(own).toMatchObject({ current_page: 1, per_page: 40, total_count: 1 });

    // Provisioning again (after a change) keeps the load balancer.
    await operate(created.id, 'provision');
    await t.worker.drain();
    expect((await endpoint(created.id)).external_host).toBe(provisioned.external_host);
  });

  it('a failing provision ends provision_failed with the error in the log', async () => {
    const created = await createEndpoint({ default: true }, failingServiceId);
    const op = (await operate(created.id, 'provision')).json();
    await t.worker.drain();
    expect(await operationStatus(op.id)).toBe('failed');
    expect((await endpoint(created.id)).status).toBe('provision_failed');
    expect(await operationLog(op.id)).toContain('Unable to create load balancer for simfail-shop');
  });

  it('managed HTTPS waits for DNS (acme pending) until renew issues the certificate', async () => {
    const created = await createEndpoint({ type: 'http', acme: true, user_domain: 'www.shop.example.com.' });
    expect(created.virtual_domain).toBe('www.shop.example.com');
    const renewEarly = await operate(created.id, 'renew');
    expect(renewEarly.statusCode).toBe(422);
    expect(renewEarly.json().message).toBe(
      'The endpoint must be provisioned before its certificate can be renewed',
    );
    await operate(created.id, 'provision');
    await t.worker.drain();
    const pending = await endpoint(created.id);
    expect(pending).toMatchObject({ status: 'provisioned', acme: true, acme_status: 'pending' });
    expect(pending.acme_dns_challenge_host).toMatch(/^acme-\d+-[0-9a-f]{6}\.on-berth\.localhost$/);
    expect(pending.acme_configuration).toEqual({
      names: ['www.shop.example.com'],
      challenges: [
        {
          method: 'dns01',
          from: { name: '_acme-challenge.www.shop.example.com' },
          to: [{ name: pending.acme_dns_challenge_host, legacy: false }],
        },
        {
          method: 'http01',
          from: { name: 'www.shop.example.com' },
          to: [{ name: pending.external_host, legacy: false }],
        },
      ],
    });
    const renew = await operate(created.id, 'renew');
    expect(renew.statusCode).toBe(201);
    await t.worker.drain();
    expect(await operationStatus(renew.json().id)).toBe('succeeded');
    expect((await endpoint(created.id)).acme_status).toBe('ready');
  });

  it('a managed endpoint with a transitional certificate is transitioning', async () => {
    const created = await createEndpoint({
      acme: true,
      user_domain: 'api.shop.example.com',
      certificate: certificateUrl,
    });
    await operate(created.id, 'provision');
    await t.worker.drain();
    expect((await endpoint(created.id)).acme_status).toBe('transitioning');
  });

  it('a new domain on a managed endpoint drops its ACME state: the next provision asks for DNS again', async () => {
    const created = await createEndpoint({ acme: true, user_domain: 'old.shop.example.com' });
    await operate(created.id, 'provision');
    await t.worker.drain();
    await operate(created.id, 'renew');
    await t.worker.drain();
    const validated = await endpoint(created.id);
    expect(validated.acme_status).toBe('ready');

    // The same domain (as typed, before normalising) keeps what was validated.
    const same = await t.call('PATCH', `/api/vhosts/${created.id}`, {
      token: f.deployer.token,
      body: { user_domain: 'OLD.shop.example.com.', ip_whitelist: [] },
    });
    expect(same.json()).toMatchObject({
      acme_status: 'ready',
      acme_dns_challenge_host: validated.acme_dns_challenge_host,
    });

    const changed = await t.call('PATCH', `/api/vhosts/${created.id}`, {
      token: f.deployer.token,
      body: { user_domain: 'new.shop.example.com' },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      user_domain: 'new.shop.example.com',
      virtual_domain: 'new.shop.example.com',
      acme_status: '',
      acme_configuration: null,
      acme_dns_challenge_host: '',
    });

    const op = (await operate(created.id, 'provision')).json();
    await t.worker.drain();
    const reprovisioned = await endpoint(created.id);
    expect(reprovisioned).toMatchObject({ status: 'provisioned', acme_status: 'pending' });
    expect(reprovisioned.acme_configuration.names).toEqual(['new.shop.example.com']);
    expect(reprovisioned.acme_dns_challenge_host).not.toBe(validated.acme_dns_challenge_host);
    expect(await operationLog(op.id)).toContain(
      'Managed HTTPS for new.shop.example.com: create a CNAME from _acme-challenge.new.shop.example.com',
    );
    await operate(created.id, 'renew');
    await t.worker.drain();
    expect((await endpoint(created.id)).acme_status).toBe('ready');
  });

  it('operation calls: 401, 404, 422 for an unknown type or renew without ACME, 403 by type', async () => {
    const created = await createEndpoint({ default: true });
    const url = `/api/vhosts/${created.id}/operations`;
    await expectScoped({ method: 'POST', url, body: { type: 'provision' }, scope: 'deploy' }, [
      ...cannotSee(f),
      [f.reader, 403],
      [destroyer, 403],
    ]);
    await expectScoped({ method: 'POST', url, body: { type: 'deprovision' }, scope: 'destroy' }, [
      [f.deployer, 403],
      [f.viewer, 403],
    ]);
    const unknown = await operate(created.id, 'scale');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe('Operation type "scale" is not supported for an endpoint');
    const renew = await operate(created.id, 'renew');
    expect(renew.json().message).toBe('Only managed HTTPS endpoints have a certificate to renew');
    await expectAccess(t, { method: 'GET', url: `/api/vhosts/${created.id}/operations` }, [
      [f.reader, 200],
      [null, 401],
      [f.stranger, 404],
    ]);
  });

  it('deprovision removes the endpoint; a failing one ends deprovision_failed', async () => {
    const created = await createEndpoint({ default: true });
    await operate(created.id, 'provision');
    await t.worker.drain();
    const op = (await operate(created.id, 'deprovision', destroyer)).json();
    expect((await endpoint(created.id)).status).toBe('deprovisioning');
    await t.worker.drain();
    expect(await operationStatus(op.id)).toBe('succeeded');
    expect((await t.call('GET', `/api/vhosts/${created.id}`, { token: f.owner.token })).statusCode).toBe(404);
    // Its operations stay in the environment's activity.
    const activity = (
      await t.call('GET', `/api/accounts/${f.environment.id}/operations`, { token: f.owner.token })
    ).json();
    expect(activity._embedded.operations.map((o: { id: string }) => o.id)).toContain(op.id);

    const stuck = await createEndpoint({ acme: true, user_domain: 'simfail-deprovision.example.com' });
    await operate(stuck.id, 'provision');
    await t.worker.drain();
    expect((await endpoint(stuck.id)).status).toBe('provisioned');
    await operate(stuck.id, 'deprovision', f.owner);
    await t.worker.drain();
    expect((await endpoint(stuck.id)).status).toBe('deprovision_failed');
  });
});

describe('default endpoint names (issue 35)', () => {
  async function appService(environmentId: number, handle: string) {
    const app = await seedApp(t.db, { environmentId, handle, status: 'provisioned' });
    const service = await seedService(t.db, { environmentId, appId: app.id, handle: 'web' });
    return { appId: app.id, serviceId: service.id };
  }

  it('names one after its app and environment, with a suffix only on a clash, across organizations', async () => {
    const { serviceId } = await appService(f.environment.id, 'names');
    const first = await createEndpoint({ default: true }, serviceId);
    expect(first.virtual_domain).toBe('names-production.on-berth.localhost');
    // A custom endpoint has no default name and takes none.
    expect((await createEndpoint({ certificate: certificateUrl }, serviceId)).virtual_domain).toBe(
      'shop.example.com',
    );
    const second = await createEndpoint({ default: true }, serviceId);
    expect(second.virtual_domain).toBe('names-production-2.on-berth.localhost');
    // Another organization's app and environment of the same handles share the installation's domain.
    const theirs = await t.createEnvironment(f.stranger, f.strangerEnvironment.organizationId, 'production');
    const elsewhere = await appService(Number(theirs.id), 'names');
    const third = await createEndpoint({ default: true }, elsewhere.serviceId, f.stranger);
    expect(third.virtual_domain).toBe('names-production-3.on-berth.localhost');
    // A pending endpoint is deleted at once and frees its name.
    expect((await t.call('DELETE', `/api/vhosts/${first.id}`, { token: f.owner.token })).statusCode).toBe(
      204,
    );
    expect((await createEndpoint({ default: true }, serviceId)).virtual_domain).toBe(
      'names-production.on-berth.localhost',
    );
  });

  it('names a database endpoint after the database, and cuts long handles to one DNS label', async () => {
    const database = await seedDatabase(t.db, {
      environmentId: f.environment.id,
      handle: 'orders_db',
      type: 'postgresql',
    });
    const databaseService = await seedService(t.db, {
      environmentId: f.environment.id,
      databaseId: database.id,
      handle: 'postgresql',
    });
    const named = await createEndpoint({ default: true }, databaseService.id);
    expect(named.virtual_domain).toBe('orders-db-production.on-berth.localhost');
    const long = await appService(f.environment.id, `api.${'x'.repeat(60)}`);
    const cut = await createEndpoint({ default: true }, long.serviceId);
    const [label] = String(cut.virtual_domain).split('.');
    expect(label).toBe(`api-${'x'.repeat(48)}-production`);
    expect(label?.length).toBeLessThanOrEqual(63);
  });

  it('keeps its hostname when provisioned again, after the app is renamed too', async () => {
    const { appId: renamedId, serviceId } = await appService(f.environment.id, 'before');
    const created = await createEndpoint({ default: true }, serviceId);
    await operate(created.id, 'provision');
    await t.worker.drain();
    expect((await endpoint(created.id)).virtual_domain).toBe('before-production.on-berth.localhost');
    const renamed = await t.call('PUT', `/api/apps/${renamedId}`, {
      token: f.owner.token,
      body: { handle: 'after' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await operate(created.id, 'provision');
    await t.worker.drain();
    expect(await endpoint(created.id)).toMatchObject({
      status: 'provisioned',
      virtual_domain: 'before-production.on-berth.localhost',
    });
  });

  it('an endpoint named after its id (before issue 35) keeps that hostname', async () => {
    const { serviceId } = await appService(f.environment.id, 'legacy');
    const created = await createEndpoint({ default: true }, serviceId);
    // As migration 0021 leaves the default endpoints it finds.
    await t.db
      .update(vhosts)
      .set({ defaultName: `app-${created.id}`, virtualDomain: `app-${created.id}.on-berth.localhost` })
      .where(eq(vhosts.id, Number(created.id)));
    await operate(created.id, 'provision');
    await t.worker.drain();
    expect((await endpoint(created.id)).virtual_domain).toBe(`app-${created.id}.on-berth.localhost`);
  });

  it('one name belongs to one endpoint: the database refuses a second', async () => {
    const { serviceId } = await appService(f.environment.id, 'unique');
    const created = await createEndpoint({ default: true }, serviceId);
    const again = await createEndpoint({ default: true }, serviceId);
    const error = await t.db
      .update(vhosts)
      .set({ defaultName: 'unique-production' })
      .where(eq(vhosts.id, Number(again.id)))
      .then(
        () => null,
        (failure: unknown) => failure,
      );
    expect(isUniqueViolation(error)).toBe(true);
    expect(created.virtual_domain).toBe('unique-production.on-berth.localhost');
  });
});

describe('PATCH /vhosts/:id', () => {
  it('changes the settings and keeps the others', async () => {
    const created = await createEndpoint({ default: true, ip_whitelist: ['10.0.0.1'], container_port: 3000 });
    const response = await t.call('PATCH', `/api/vhosts/${created.id}`, {
      token: f.deployer.token,
      body: { ip_whitelist: '192.168.0.0/16\n172.16.0.1', token_header: 'abc:def', container_port: '' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      ip_whitelist: ['192.168.0.0/16', '172.16.0.1'],
      token_header: '********',
      container_port: null,
      default: true,
    });
    const cleared = await t.call('PATCH', `/api/vhosts/${created.id}`, {
      token: f.deployer.token,
      body: { token_header: '' },
    });
    expect(cleared.json()).not.toHaveProperty('token_header');
    expect(cleared.json().ip_whitelist).toEqual(['192.168.0.0/16', '172.16.0.1']);
  });

  it('attaches a certificate and renames a custom endpoint after it', async () => {
    const created = await createEndpoint({ default: false, type: 'http', certificate: certificateUrl });
    const replacement = await uploadCertificate(f.owner, f.environment.id, 'new.example.com');
    const response = await t.call('PATCH', `/api/vhosts/${created.id}`, {
      token: f.deployer.token,
      body: { certificate: replacement },
    });
    expect(response.json()._links.certificate.href).toBe(replacement);
    expect(response.json().virtual_domain).toBe('new.example.com');
    const detached = await t.call('PATCH', `/api/vhosts/${created.id}`, {
      token: f.deployer.token,
      body: { certificate: null },
    });
    expect(detached.statusCode).toBe(422);
    expect(detached.json().message).toBe('A certificate is required for custom HTTPS');
  });

  it('refuses making a shared endpoint dedicated', async () => {
    const created = await createEndpoint({ default: true, shared: true });
    const response = await t.call('PATCH', `/api/vhosts/${created.id}`, {
      token: f.deployer.token,
      body: { shared: false },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe('Shared endpoints cannot be converted to dedicated endpoints.');
    const dedicated = await createEndpoint({ default: true });
    const shared = await t.call('PATCH', `/api/vhosts/${dedicated.id}`, {
      token: f.deployer.token,
      body: { shared: true },
    });
    expect(shared.json().shared).toBe(true);
  });

  it.each([
    [{ ip_whitelist: ['nope'] }, '[nope] is not a valid IPv4 address or CIDR'],
    [{ container_port: -1 }, 'Port must be a number between 1 and 65535'],
    [
      { token_header: 'a/b' },
      'Token header may contain only letters, numbers, underscores, hyphens, colons and periods',
    ],
    [
      { shared: true, user_domain: '*.shop.example.com' },
      'Shared endpoints do not support wildcard domains. Please use a specific domain name.',
    ],
  ])('refuses %j with 422 "%s"', async (body, message) => {
    const created = await createEndpoint({ default: true });
    const response = await t.call('PATCH', `/api/vhosts/${created.id}`, { token: f.deployer.token, body });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toBe(message);
  });

  it('refuses a token on a tcp endpoint and any change while provisioning', async () => {
    const tcp = await createEndpoint({ type: 'tcp' });
    const token = await t.call('PATCH', `/api/vhosts/${tcp.id}`, {
      token: f.deployer.token,
      body: { token_header: 'x' },
    });
    expect(token.json().message).toBe('A HTTP or GRPC endpoint is required to pass token');
    await operate(tcp.id, 'provision');
    const busy = await t.call('PATCH', `/api/vhosts/${tcp.id}`, {
      token: f.deployer.token,
      body: { ip_whitelist: [] },
    });
    expect(busy.statusCode).toBe(422);
    await t.worker.drain();
  });

  it('checks access before the body: a bad body is 404 or 403 for those who may not change it', async () => {
    const created = await createEndpoint({ default: true });
    const foreign = await createEndpoint({ default: true }, foreignServiceId, f.stranger);
    await expectScoped(
      { method: 'PATCH', url: `/api/vhosts/${created.id}`, body: { container_port: -1 }, scope: 'deploy' },
      [...cannotWrite(f), [f.deployer, 422]],
    );
    const response = await t.call('PATCH', `/api/vhosts/${foreign.id}`, {
      token: f.owner.token,
      body: { container_port: -1 },
    });
    expect(response.statusCode).toBe(404);
  });

  it('needs the deploy scope', async () => {
    const created = await createEndpoint({ default: true });
    await expectScoped(
      { method: 'PATCH', url: `/api/vhosts/${created.id}`, body: { ip_whitelist: [] }, scope: 'deploy' },
      cannotWrite(f),
    );
  });
});

describe('DELETE /vhosts/:id', () => {
  it('removes a pending endpoint at once and deprovisions a provisioned one', async () => {
    const pending = await createEndpoint({ default: true });
    expect((await t.call('DELETE', `/api/vhosts/${pending.id}`, { token: destroyer.token })).statusCode).toBe(
      204,
    );
    expect((await t.call('GET', `/api/vhosts/${pending.id}`, { token: f.owner.token })).statusCode).toBe(404);

    const live = await createEndpoint({ default: true });
    await operate(live.id, 'provision');
    await t.worker.drain();
    expect((await t.call('DELETE', `/api/vhosts/${live.id}`, { token: destroyer.token })).statusCode).toBe(
      204,
    );
    expect((await endpoint(live.id)).status).toBe('deprovisioning');
    await t.worker.drain();
    const [row] = await t.db
      .select()
      .from(vhosts)
      .where(eq(vhosts.id, Number(live.id)));
    expect(row).toBeUndefined();
  });

  it('deprovisions instead when the endpoint was provisioned between its check and its delete', async () => {
    const created = await createEndpoint({ default: true });
    const id = Number(created.id);
    // The real database, where another request provisions the endpoint just before the delete runs.
    const racing = new Proxy(t.db, {
      get(target, property, receiver) {
        if (property !== 'delete') return Reflect.get(target, property, receiver);
        return (table: typeof vhosts) => ({
          where: (condition: SQL | undefined) => ({
            async returning(columns: { id: typeof vhosts.id }) {
              await target
                .update(vhosts)
                .set({ status: 'provisioned', externalHost: 'elb-raced.on-berth.localhost' })
                .where(eq(vhosts.id, id));
              return target.delete(table).where(condition).returning(columns);
            },
          }),
        });
      },
    });
    const apps = createAppsService({ db: racing });
    const service = createVhostsService({
      db: racing,
      operations: createOperationsService({ db: t.db, logsKey: new Uint8Array(32) }),
      apps,
      services: createServicesService({ db: racing, apps }),
    });
    const destroyerUser = { id: destroyer.id, name: 'Destroyer', email: destroyer.email };
    const op = await service.remove(destroyerUser, id);
    expect(op).toMatchObject({
      resourceType: 'vhost',
      resourceId: id,
      type: 'deprovision',
      status: 'queued',
    });
    expect((await endpoint(created.id)).status).toBe('deprovisioning');
    await t.worker.drain();
    expect(await operationLog(String(op?.id))).toContain(
      `Removing endpoint ${id} (elb-raced.on-berth.localhost)`,
    );
    expect(await t.db.select().from(vhosts).where(eq(vhosts.id, id))).toEqual([]);
  });

  it('needs the destroy scope', async () => {
    const created = await createEndpoint({ default: true });
    await expectScoped({ method: 'DELETE', url: `/api/vhosts/${created.id}`, scope: 'destroy' }, [
      ...cannotSee(f),
      [f.deployer, 403],
      [f.viewer, 403],
    ]);
  });
});

describe('app deprovision', () => {
  async function appWithEndpoints(handle: string) {
    const owner = await seedApp(t.db, { environmentId: f.environment.id, handle, status: 'provisioned' });
    const web = await seedService(t.db, { environmentId: f.environment.id, appId: owner.id, handle: 'web' });
    const worker = await seedService(t.db, {
      environmentId: f.environment.id,
      appId: owner.id,
      handle: 'worker',
    });
    return { app: owner, serviceIds: [web.id, worker.id] };
  }

  async function deprovisionApp(id: number) {
    const response = await t.call('POST', `/api/apps/${id}/operations`, {
      token: f.owner.token,
      body: { type: 'deprovision' },
    });
    expect(response.statusCode, response.body).toBe(201);
    await t.worker.drain();
    return response.json().id as string;
  }

  const endpointsOf = (serviceIds: number[]) =>
    t.db.select().from(vhosts).where(inArray(vhosts.serviceId, serviceIds)).orderBy(vhosts.id);

  it('removes each endpoint through the runtime before the app goes', async () => {
    const { app, serviceIds } = await appWithEndpoints('leaving');
    const [webServiceId, workerServiceId] = serviceIds as [number, number];
    const live = await createEndpoint({ default: true }, webServiceId);
    await operate(live.id, 'provision');
    await t.worker.drain();
    const { external_host: liveHost } = await endpoint(live.id);
    const pending = await createEndpoint({ type: 'tcp' }, workerServiceId);

    const opId = await deprovisionApp(app.id);
    expect(await operationStatus(opId)).toBe('succeeded');
    const log = await operationLog(opId);
    for (const [id, host] of [
      [live.id, liveHost],
      [pending.id, 'never provisioned'],
    ]) {
      expect(log).toContain(`Deprovisioning endpoint ${id} of leaving`);
      expect(log).toContain(`Removing endpoint ${id} (${host})`);
      expect(log).toContain(`Endpoint ${id} removed`);
    }
    // Load balancers first, then the containers.
    expect(log.indexOf(`Endpoint ${pending.id} removed`)).toBeLessThan(
      log.indexOf('Stopping all containers of app leaving'),
    );
    expect(await endpointsOf(serviceIds)).toEqual([]);
    expect(await t.db.select().from(apps).where(eq(apps.id, app.id))).toEqual([]);
  });

  it('keeps the app (deprovision_failed) when an endpoint cannot be removed', async () => {
    const { app, serviceIds } = await appWithEndpoints('sticky');
    // A domain of its own: the endpoint left deprovision_failed above still holds the other one.
    const stuck = await createEndpoint(
      { acme: true, user_domain: 'simfail-deprovision.sticky.example.com' },
      serviceIds[0],
    );
    await operate(stuck.id, 'provision');
    await t.worker.drain();

    const opId = await deprovisionApp(app.id);
    expect(await operationStatus(opId)).toBe('failed');
    expect(await operationLog(opId)).toContain(`Unable to delete load balancer of endpoint ${stuck.id}`);
    const [kept] = await t.db.select().from(apps).where(eq(apps.id, app.id));
    expect(kept?.status).toBe('deprovision_failed');
    const left = await endpointsOf(serviceIds);
    expect(left.map((row) => [String(row.id), row.status])).toEqual([[stuck.id, 'deprovision_failed']]);
  });

  it('fails before removing anything while an endpoint operation is in flight', async () => {
    const { app, serviceIds } = await appWithEndpoints('busy');
    const idle = await createEndpoint({ default: true }, serviceIds[0]);
    const busy = await createEndpoint({ default: true }, serviceIds[1]);
    await t.db
      .update(vhosts)
      .set({ status: 'provisioning' })
      .where(eq(vhosts.id, Number(busy.id)));

    const opId = await deprovisionApp(app.id);
    expect(await operationStatus(opId)).toBe('failed');
    const log = await operationLog(opId);
    expect(log).toContain(
      `Endpoint ${busy.id} of busy is provisioning; deprovision the app once its operation is done`,
    );
    expect(log).not.toContain('Removing endpoint');
    expect((await endpointsOf(serviceIds)).map((row) => String(row.id))).toEqual([idle.id, busy.id]);
  });
});

describe('endpoint costs (spec 2 §9)', () => {
  it('a provisioned endpoint costs its app 0.06/h, a shared one 0.04/h, over 730 hours', async () => {
    const costApp = await seedApp(t.db, { environmentId: f.environment.id, handle: 'priced' });
    const service = await seedService(t.db, {
      environmentId: f.environment.id,
      appId: costApp.id,
      handle: 'web',
      containerCount: 0,
    });
    const appCost = async () => {
      const response = await t.call('GET', `/api/costs/${f.organization.id}/apps`, { token: f.owner.token });
      const costs = response.json()._embedded.costs as { id: string; est_cost: number }[];
      return costs.find((c) => c.id === String(costApp.id))?.est_cost;
    };
    const dedicated = await createEndpoint({ default: true }, service.id);
    expect(await appCost()).toBe(0);
    await operate(dedicated.id, 'provision');
    const shared = await createEndpoint({ default: true, shared: true }, service.id);
    await operate(shared.id, 'provision');
    await t.worker.drain();
    expect(await appCost()).toBeCloseTo(0.06 * 730 + 0.04 * 730, 6);
  });
});
