import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { logDrains } from '../../db/schema.ts';
import { cannotSee, cannotWrite, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { duplicateLogDrain } from './log-drains.service.ts';

// Log drains through the API (contract §5.10): create with the spec's messages, list, show with the
// destination's secrets masked, delete; each refused to callers without the Ops scope or out of reach.

const { t, f } = await environmentSuite();
const api = 'http://berth.test/api';
const accountDrains = () => `/api/accounts/${f.environment.id}/log_drains`;

async function create(body: Record<string, unknown>, token = f.deployer.token) {
  return t.call('POST', accountDrains(), { token, body });
}

describe('POST /accounts/:id/log_drains', () => {
  it('creates a drain in the contract shape: stored type, sources, masked secrets, pending', async () => {
    const response = await create({
      handle: 'to-datadog',
      drain_type: 'datadog',
      url: 'https://http-intake.logs.datadoghq.com/api/v2/logs?dd-api-key=abcdef0123456789',
      drain_proxies: true,
    });
    expect(response.statusCode, response.body).toBe(201);
    const drain = response.json();
    expect(drain).toEqual({
      id: expect.stringMatching(/^\d+$/),
      _type: 'log_drain',
      handle: 'to-datadog',
      drain_type: 'https_post',
      drain_host: 'http-intake.logs.datadoghq.com',
      drain_port: '443',
      url: 'https://http-intake.logs.datadoghq.com/••••',
      logging_token: '',
      drain_username: '',
      drain_password: '',
      drain_apps: true,
      drain_databases: true,
      drain_ephemeral_sessions: true,
      drain_proxies: true,
      status: 'pending',
      lines_sent: 0,
      lines_dropped: 0,
      last_error: '',
      last_shipped_at: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      _embedded: { backend: { channel: 'datadog' } },
      _links: {
        self: { href: `${api}/log_drains/${drain.id}` },
        account: { href: `${api}/accounts/${f.environment.id}` },
        operations: { href: `${api}/log_drains/${drain.id}/operations` },
      },
    });
    expect(response.body).not.toContain('abcdef0123456789');
  });

  it('answers the spec messages for each type', async () => {
    const message = async (body: Record<string, unknown>) =>
      (await create({ handle: 'bad', ...body })).json().message as string;
    expect(await message({ drain_type: 'https_post' })).toBe('Must provide a URL for log drain');
    expect(await message({ drain_type: 'logdna', url: 'http://logs.example.com' })).toBe(
      'Must begin with https://',
    );
    expect(await message({ drain_type: 'papertrail', drain_port: 1234 })).toBe('Must provide a Drain Host');
    expect(
      await message({ drain_type: 'syslog_tls_tcp', drain_host: 'logs.example.com', drain_port: 'x' }),
    ).toBe('Port must be a number between 1 and 65535');
    expect(await message({ drain_type: 'insightops' })).toBe('Must provide a token for log drain.');
    expect(await message({ drain_type: 'elasticsearch_database' })).toBe(
      'Must provide an Elasticsearch database',
    );
    // A database that is no Elasticsearch of this environment is not one either.
    expect(await message({ drain_type: 'elasticsearch_database', database_id: '999999' })).toBe(
      'Must provide an Elasticsearch database',
    );
  });

  it('gives InsightOps its fixed host and port, and syslog 6514 by default', async () => {
    const insight = (
      await create({ handle: 'insight', drain_type: 'insightops', logging_token: 'token-1234567890' })
    ).json();
    expect(insight).toMatchObject({
      drain_type: 'syslog_tls_tcp',
      drain_host: 'data.logs.insight.rapid7.com',
      drain_port: '20000',
      logging_token: '••••7890',
      _embedded: { backend: { channel: 'insightops' } },
    });
    const solar = (
      await create({
        handle: 'solar',
        drain_type: 'solarwinds',
        drain_host: 'syslog.collector.example.com',
        logging_token: 'abc',
      })
    ).json();
    expect(solar).toMatchObject({ drain_port: '6514', logging_token: '••••' });
  });

  it('refuses a second drain of the same handle in the environment', async () => {
    const first = await create({
      handle: 'twice',
      drain_type: 'papertrail',
      drain_host: 'logs.example.com',
      drain_port: 1,
    });
    expect(first.statusCode).toBe(201);
    const second = await create({
      handle: 'twice',
      drain_type: 'papertrail',
      drain_host: 'logs.example.com',
      drain_port: 1,
    });
    expect(second.statusCode).toBe(422);
    expect(second.json().message).toBe(duplicateLogDrain('twice'));
  });

  it('needs the Ops scope on the environment, checked before the body', async () => {
    await expectAccess(
      t,
      {
        method: 'POST',
        url: accountDrains(),
        body: { drain_type: 'nonsense' },
        scope: 'observability',
        environmentId: f.environment.id,
      },
      cannotWrite(f),
    );
  });
});

describe('GET log drains', () => {
  it('lists them per environment and across the environments a caller sees', async () => {
    const [inEnvironment] = await expectAccess(t, { method: 'GET', url: accountDrains() }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    const handles = inEnvironment
      ?.json()
      ._embedded.log_drains.map((drain: { handle: string }) => drain.handle);
    expect(handles).toEqual(expect.arrayContaining(['to-datadog', 'insight', 'solar', 'twice']));
    const everywhere = await t.call('GET', '/api/log_drains?per_page=2', { token: f.reader.token });
    expect(everywhere.json()).toMatchObject({ per_page: 2, total_count: handles.length });
    expect(everywhere.json()._links.next).toBeDefined();
    const stranger = await t.call('GET', '/api/log_drains', { token: f.stranger.token });
    expect(stranger.json()._embedded.log_drains).toEqual([]);
    expect((await t.call('GET', '/api/log_drains')).statusCode).toBe(401);
  });

  it('shows one drain to those who see the environment', async () => {
    const [drain] = (await t.call('GET', accountDrains(), { token: f.owner.token })).json()._embedded
      .log_drains;
    await expectAccess(t, { method: 'GET', url: `/api/log_drains/${drain.id}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
  });
});

describe('DELETE /log_drains/:id and its operations', () => {
  it('deletes a drain that is not shipping; one that ships is deprovisioned first', async () => {
    const drain = (
      await create({
        handle: 'gone',
        drain_type: 'papertrail',
        drain_host: 'logs.example.com',
        drain_port: 2,
      })
    ).json();
    await expectAccess(
      t,
      {
        method: 'DELETE',
        url: `/api/log_drains/${drain.id}`,
        scope: 'observability',
        environmentId: f.environment.id,
      },
      cannotWrite(f),
    );
    // Shipping: deprovisioned first, with the message.
    await t.db
      .update(logDrains)
      .set({ status: 'provisioned' })
      .where(eq(logDrains.id, Number(drain.id)));
    const refused = await t.call('DELETE', `/api/log_drains/${drain.id}`, { token: f.deployer.token });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe('Deprovision the log drain before deleting it');
    await t.db
      .update(logDrains)
      .set({ status: 'provision_failed' })
      .where(eq(logDrains.id, Number(drain.id)));
    const deleted = await t.call('DELETE', `/api/log_drains/${drain.id}`, { token: f.deployer.token });
    expect(deleted.statusCode).toBe(204);
    expect((await t.call('GET', `/api/log_drains/${drain.id}`, { token: f.owner.token })).statusCode).toBe(
      404,
    );
  });

  it('takes provision, configure and deprovision from the Ops scope only', async () => {
    const drain = (
      await create({ handle: 'ops', drain_type: 'papertrail', drain_host: 'logs.example.com', drain_port: 3 })
    ).json();
    await expectAccess(
      t,
      {
        method: 'POST',
        url: `/api/log_drains/${drain.id}/operations`,
        body: { type: 'provision' },
        scope: 'observability',
        environmentId: f.environment.id,
      },
      cannotWrite(f),
    );
    const unknown = await t.call('POST', `/api/log_drains/${drain.id}/operations`, {
      token: f.deployer.token,
      body: { type: 'restart' },
    });
    expect(unknown.statusCode).toBe(422);
    const provision = await t.call('POST', `/api/log_drains/${drain.id}/operations`, {
      token: f.deployer.token,
      body: { type: 'provision' },
    });
    expect(provision.statusCode).toBe(201);
    expect((await t.call('GET', `/api/log_drains/${drain.id}`, { token: f.owner.token })).json().status).toBe(
      'provisioning',
    );
  });

  it("lists a drain's operations, newest first, to those who see the environment (issue 41)", async () => {
    const drain = (
      await create({
        handle: 'history',
        drain_type: 'papertrail',
        drain_host: 'logs.example.com',
        drain_port: 4,
      })
    ).json();
    const provision = await t.call('POST', `/api/log_drains/${drain.id}/operations`, {
      token: f.deployer.token,
      body: { type: 'provision' },
    });
    expect(provision.statusCode).toBe(201);
    const [listed] = await expectAccess(t, { method: 'GET', url: `/api/log_drains/${drain.id}/operations` }, [
      [f.reader, 200],
      [f.viewer, 200],
      ...cannotSee(f),
    ]);
    const operations = listed?.json()._embedded.operations;
    expect(operations.map((op: { id: string }) => op.id)).toEqual([provision.json().id]);
    expect(operations[0]).toMatchObject({
      type: 'provision',
      resource_type: 'log_drain',
      resource_id: drain.id,
    });
    expect(listed?.json()._links.self.href).toContain(`/log_drains/${drain.id}/operations`);
    const missing = await t.call('GET', '/api/log_drains/999999/operations', { token: f.owner.token });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Log drain not found');
  });
});
