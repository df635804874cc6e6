import { describe, expect, it } from 'vitest';
import { cannotSee, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { addMember, grant, seedApp, seedConfiguration } from '../../testing/factories.ts';

const { t, f } = await environmentSuite();

describe('GET /configurations/:id', () => {
  it('shows the variables to read (or sensitive) holders and refuses basic_read with the spec text', async () => {
    const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' });
    const configuration = await seedConfiguration(t.db, {
      appId: app.id,
      env: { DATABASE_URL: 'postgresql://user:secret@db/shop', FEATURE: null },
    });
    const sensitive = await t.signUp({ name: 'Sensitive' });
    const role = await addMember(t.db, { organizationId: f.organization.id, userId: sensitive.id });
    await grant(t.db, { roleId: role.id, environmentId: String(f.environment.id), scope: 'sensitive' });

    const url = `/api/configurations/${configuration.id}`;
    const [response] = await expectAccess(
      t,
      { method: 'GET', url, scope: 'read', environmentId: f.environment.id },
      [
        [f.viewer, 200],
        [sensitive, 200],
        [f.owner, 200],
        ...cannotSee(f),
        [f.reader, 403],
        [f.deployer, 403],
      ],
    );
    expect(response?.json()).toEqual({
      id: String(configuration.id),
      _type: 'configuration',
      env: { DATABASE_URL: 'postgresql://user:secret@db/shop', FEATURE: null },
      created_at: expect.any(String),
      updated_at: expect.any(String),
      _links: {
        self: { href: `http://berth.test/api/configurations/${configuration.id}` },
        resource: { href: `http://berth.test/api/apps/${app.id}` },
      },
    });
  });
});
