import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apps } from '../../db/schema.ts';
import { environmentSuite, onApp } from '../../testing/environment-fixture.ts';
import { seedApp, seedDeployment, seedImage, seedOperation } from '../../testing/factories.ts';
import type { TestUser } from '../../testing/test-app.ts';

const { t, f } = await environmentSuite();
let deployed: { id: number };
let plain: { id: number };
beforeAll(async () => {
  // One deployed app whose git ref, image, commit and last operation only the embeds would show...
  deployed = await seedApp(t.db, {
    environmentId: f.environment.id,
    handle: 'storefront',
    status: 'provisioned',
  });
  const image = await seedImage(t.db, {
    appId: deployed.id,
    dockerRepo: 'registry.example/Shop-Image',
    gitRef: 'release-2026',
  });
  const operation = onApp(f, deployed.id);
  const deploy = await seedOperation(t.db, {
    ...operation,
    type: 'deploy',
    status: 'succeeded',
    userName: 'Old Deployer',
  });
  const deployment = await seedDeployment(t.db, {
    appId: deployed.id,
    operationId: deploy.id,
    gitCommitSha: 'c0ffee1234',
  });
  await seedOperation(t.db, { ...operation, type: 'restart', status: 'running', userName: 'Grace Hopper' });
  await t.db
    .update(apps)
    .set({ currentImageId: image.id, currentDeploymentId: deployment.id })
    .where(eq(apps.id, deployed.id));
  // ...and one that has none of them.
  plain = await seedApp(t.db, { environmentId: f.environment.id, handle: 'plain' });
});

async function search(user: TestUser | null, text: string) {
  const response = await t.call(
    'GET',
    `/api/apps?per_page=5000&no_embed=true&search=${encodeURIComponent(text)}`,
    user ? { token: user.token } : {},
  );
  return response;
}
const ids = async (user: TestUser, text: string) =>
  (await search(user, text)).json()._embedded.apps.map((app: { id: string }) => app.id);

describe('GET /apps?search= (spec 3 §2 Apps search, served without embeds)', () => {
  it.each([
    ['the git ref', 'RELEASE-2026'],
    ['the image', 'shop-image'],
    ['the commit', 'c0ffee'],
    ['the last operation’s user', 'grace'],
    ['the last operation’s type', 'restart'],
    ['the last operation’s status', 'running'],
    ['the handle', 'storef'],
    ['the environment handle', 'production'],
  ])('finds an app by %s, case-insensitively', async (_field, text) => {
    expect(await ids(f.reader, text)).toContain(String(deployed.id));
    if (text !== 'production') expect(await ids(f.reader, text)).not.toContain(String(plain.id));
  });

  it('finds by id, matches only the last operation, and keeps the list bare', async () => {
    expect(await ids(f.reader, String(plain.id))).toContain(String(plain.id));
    // The deploy is not the last operation any more.
    expect(await ids(f.reader, 'Old Deployer')).toEqual([]);
    // A needle with LIKE wildcards is taken literally.
    expect(await ids(f.reader, '%')).toEqual([]);
    const body = (await search(f.reader, 'grace')).json();
    expect(body.total_count).toBe(1);
    expect(body._embedded.apps[0]._embedded).toBeUndefined();
  });

  it('searches only what the caller may read: 401 without a token, nothing for others', async () => {
    expect((await search(null, 'grace')).statusCode).toBe(401);
    expect(await ids(f.stranger, 'grace')).toEqual([]);
    expect(await ids(f.outsider, 'storefront')).toEqual([]);
  });
});
