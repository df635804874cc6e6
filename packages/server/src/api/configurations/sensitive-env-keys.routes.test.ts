import { envMessages, MAX_LENGTH, MAX_SENSITIVE_ENV_KEYS, sensitiveEnvKeysMessages } from '@berth/core';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apps, configurations } from '../../db/schema.ts';
import { cannotSee, cannotWrite, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { seedApp } from '../../testing/factories.ts';

const { t, f } = await environmentSuite();

// issue 41: which variables of an app are sensitive, kept beside its configuration.
const path = (appId: number) => `/api/apps/${appId}/sensitive_env_keys`;

async function keysOf(appId: number): Promise<string[]> {
  const response = await t.call('GET', path(appId), { token: f.owner.token });
  expect(response.statusCode).toBe(200);
  return response.json().keys;
}

async function configure(appId: number, env: Record<string, string>) {
  const response = await t.call('POST', `/api/apps/${appId}/operations`, {
    token: f.owner.token,
    body: { type: 'configure', env },
  });
  expect(response.statusCode).toBe(201);
  await t.worker.drain();
}

async function currentEnv(appId: number) {
  const [row] = await t.db
    .select({ env: configurations.env })
    .from(apps)
    .innerJoin(configurations, eq(configurations.id, apps.currentConfigurationId))
    .where(eq(apps.id, appId));
  return row?.env;
}

describe('GET /apps/:id/sensitive_env_keys', () => {
  it('answers the names to read (or higher) holders and refuses basic_read with the spec text', async () => {
    const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'keys-read' });
    const [response] = await expectAccess(
      t,
      { method: 'GET', url: path(app.id), scope: 'read', environmentId: f.environment.id },
      [[f.viewer, 200], [f.deployer, 403], [f.owner, 200], ...cannotSee(f), [f.reader, 403]],
    );
    expect(response?.json()).toEqual({
      _type: 'sensitive_env_keys',
      keys: [],
      _links: {
        self: { href: `http://berth.test/api/apps/${app.id}/sensitive_env_keys` },
        app: { href: `http://berth.test/api/apps/${app.id}` },
      },
    });
  });

  it('is 404 for an app that does not exist', async () => {
    const response = await t.call('GET', path(987654321), { token: f.owner.token });
    expect(response.statusCode).toBe(404);
  });
});

describe('POST /apps/:id/sensitive_env_keys', () => {
  it('marks names with deploy and refuses every caller who may not configure', async () => {
    const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'keys-mark' });
    const body = { keys: ['STRIPE_KEY'] };
    await expectAccess(
      t,
      { method: 'POST', url: path(app.id), body, scope: 'deploy', environmentId: f.environment.id },
      cannotWrite(f),
    );
    expect(await keysOf(app.id)).toEqual([]);
    const [marked] = await expectAccess(t, { method: 'POST', url: path(app.id), body }, [[f.deployer, 200]]);
    expect(marked?.json().keys).toEqual(['STRIPE_KEY']);
    // Marking again, with another name, only adds; the answer is the names given, in name order (the
    // whole list is for readers: a deploy-only caller learns no name it did not send).
    const again = await t.call('POST', path(app.id), {
      token: f.owner.token,
      body: { keys: ['API_TOKEN', 'API_TOKEN'] },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json().keys).toEqual(['API_TOKEN']);
    expect(await keysOf(app.id)).toEqual(['API_TOKEN', 'STRIPE_KEY']);
  });

  it("refuses names breaking the spec's key rule, too long, none or too many (422)", async () => {
    const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'keys-bad' });
    const cases: [unknown, string][] = [
      [{ keys: ['1BAD'] }, envMessages.badKey('1BAD')],
      [{ keys: ['A'.repeat(MAX_LENGTH.envKey + 1)] }, 'A variable name must be at most 256 characters'],
      [{ keys: [] }, sensitiveEnvKeysMessages.none],
      [
        { keys: Array.from({ length: MAX_SENSITIVE_ENV_KEYS + 1 }, (_, i) => `K${i}`) },
        sensitiveEnvKeysMessages.tooMany,
      ],
    ];
    for (const [body, message] of cases) {
      const response = await t.call('POST', path(app.id), { token: f.owner.token, body });
      expect(response.statusCode, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(response.json().message).toBe(message);
    }
    // The cap holds across requests too.
    const first = Array.from({ length: MAX_SENSITIVE_ENV_KEYS }, (_, i) => `K${i}`);
    expect(
      (await t.call('POST', path(app.id), { token: f.owner.token, body: { keys: first } })).statusCode,
    ).toBe(200);
    const over = await t.call('POST', path(app.id), { token: f.owner.token, body: { keys: ['ONE_MORE'] } });
    expect(over.statusCode).toBe(422);
    expect(over.json().message).toBe(sensitiveEnvKeysMessages.tooMany);
    expect(await keysOf(app.id)).toHaveLength(MAX_SENSITIVE_ENV_KEYS);
  });

  it('keeps the configuration as the contract has it, and a name marked for good', async () => {
    const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'keys-prune' });
    // The console marks first, then configures.
    await t.call('POST', path(app.id), { token: f.owner.token, body: { keys: ['SECRET', 'OTHER'] } });
    await configure(app.id, { SECRET: 's3cr3t', OTHER: 'o', PLAIN: 'p' });
    expect(await currentEnv(app.id)).toEqual({ SECRET: 's3cr3t', OTHER: 'o', PLAIN: 'p' });
    expect(await keysOf(app.id)).toEqual(['OTHER', 'SECRET']);

    // Values still answer to read holders (contract §4.3), sensitive or not.
    const [current] = await t.db
      .select({ id: apps.currentConfigurationId })
      .from(apps)
      .where(eq(apps.id, app.id));
    const configuration = await t.call('GET', `/api/configurations/${current?.id}`, {
      token: f.viewer.token,
    });
    expect(configuration.json().env).toEqual({ SECRET: 's3cr3t', OTHER: 'o', PLAIN: 'p' });

    // Replacing a sensitive value keeps it sensitive; removing the variable keeps its name marked: the
    // older configurations still hold the value, and a configure queued before a mark must not undo it.
    await configure(app.id, { SECRET: 'n3w', OTHER: '' });
    expect(await currentEnv(app.id)).toEqual({ SECRET: 'n3w', PLAIN: 'p' });
    expect(await keysOf(app.id)).toEqual(['OTHER', 'SECRET']);
    await configure(app.id, { SECRET: '', PLAIN: '' });
    expect(await keysOf(app.id)).toEqual(['OTHER', 'SECRET']);
    // A mark made while an older configure (without that variable) is still to finish survives it.
    await t.call('POST', path(app.id), { token: f.owner.token, body: { keys: ['LATER'] } });
    await configure(app.id, { PLAIN: 'again' });
    expect(await keysOf(app.id)).toEqual(['LATER', 'OTHER', 'SECRET']);
  });
});
