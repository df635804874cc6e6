import { describe, expect, it } from 'vitest';
import { cannotSee, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { seedApp, seedImage } from '../../testing/factories.ts';

const { t, f } = await environmentSuite();

describe('GET /images/:id', () => {
  it('answers the contract shape to anyone who can see the app', async () => {
    const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' });
    const image = await seedImage(t.db, {
      appId: app.id,
      dockerRepo: 'registry.berth.local/shop',
      dockerRef: 'sha256:abc',
      gitRepo: 'git@on-berth.localhost:production/shop.git',
      gitRef: null,
      exposedPorts: [8080],
    });
    const [response] = await expectAccess(t, { method: 'GET', url: `/api/images/${image.id}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(response?.json()).toEqual({
      id: String(image.id),
      _type: 'image',
      docker_repo: 'registry.berth.local/shop',
      docker_ref: 'sha256:abc',
      git_repo: 'git@on-berth.localhost:production/shop.git',
      git_ref: null,
      exposed_ports: [8080],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      _links: {
        self: { href: `http://berth.test/api/images/${image.id}` },
        app: { href: `http://berth.test/api/apps/${app.id}` },
      },
    });
    const missing = await t.call('GET', '/api/images/999999', { token: f.owner.token });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Image not found');
  });
});
