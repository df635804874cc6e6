import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familyUrls } from '../../config.ts';
import { databaseImages } from '../../db/schema.ts';
import { type TestApp, testApp } from '../../testing/test-app.ts';
import { DATABASE_IMAGE_CATALOG } from './database-images.catalog.ts';
import { toDatabaseImageHal } from './database-images.hal.ts';
import { ensureDatabaseImages } from './database-images.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.close());

interface ImageHal {
  id: string;
  type: string;
  version: string;
  description: string;
  docker_repo: string;
  default: boolean;
  eol_at: string | null;
  pitr_supported: boolean;
}

describe('GET /database_images', () => {
  it('lists the seeded catalog of real engines to any signed-in user', async () => {
    const user = await t.signUp();
    const response = await t.call('GET', '/api/database_images?per_page=5000', { token: user.token });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const images: ImageHal[] = body._embedded.database_images;
    expect(body.total_count).toBe(DATABASE_IMAGE_CATALOG.length);
    expect(new Set(images.map((image) => image.type))).toEqual(
      new Set([
        'postgresql',
        'mysql',
        'redis',
        'mongodb',
        'elasticsearch',
        'rabbitmq',
        'influxdb',
        'couchdb',
      ]),
    );
    expect(images.filter((image) => image.type === 'postgresql').map((image) => image.version)).toEqual([
      '17',
      '16',
      '15',
      '14',
      '13',
      '12',
      '11',
    ]);
    const pg16 = images.find((image) => image.type === 'postgresql' && image.version === '16');
    expect(pg16).toMatchObject({
      _type: 'database_image',
      description: 'PostgreSQL 16',
      docker_repo: 'berth/postgresql:16',
      default: false,
      discoverable: true,
      visible: true,
      pitr_supported: true,
      _links: { self: { href: `http://berth.test/api/database_images/${pg16?.id}` } },
    });
    const pg12 = images.find((image) => image.type === 'postgresql' && image.version === '12');
    expect(pg12).toMatchObject({ eol_at: '2024-11-21T00:00:00.000Z', pitr_supported: false });
    expect(images.find((image) => image.description === 'PostgreSQL 11')?.eol_at).toBe(
      '2023-11-09T00:00:00.000Z',
    );
    expect(images.find((image) => image.description === 'MySQL 5.7')?.eol_at).toBe(
      '2023-10-31T00:00:00.000Z',
    );
    expect(images.find((image) => image.description === 'MongoDB 5.0')?.eol_at).toBe(
      '2024-10-31T00:00:00.000Z',
    );
    // Every catalog date already reached is reported, and no future one.
    const now = Date.now();
    for (const entry of DATABASE_IMAGE_CATALOG) {
      const image = images.find((i) => i.type === entry.type && i.version === entry.version);
      const reached = entry.eolAt !== null && Date.parse(`${entry.eolAt}T00:00:00.000Z`) <= now;
      expect(image?.eol_at).toBe(reached ? `${entry.eolAt}T00:00:00.000Z` : null);
    }
    // One default per engine.
    const defaults = images.filter((image) => image.default).map((image) => image.type);
    expect(defaults.sort()).toEqual(
      ['couchdb', 'elasticsearch', 'influxdb', 'mongodb', 'mysql', 'postgresql', 'rabbitmq', 'redis'].sort(),
    );
    expect(images.every((image) => image.id.match(/^\d+$/))).toBe(true);
  });

  it('needs a token', async () => {
    expect((await t.call('GET', '/api/database_images')).statusCode).toBe(401);
  });
});

describe('GET /database_images/:id', () => {
  it('returns one image, 404 for unknown ids, 401 without a token', async () => {
    const user = await t.signUp();
    const list: ImageHal[] = (await t.call('GET', '/api/database_images', { token: user.token })).json()
      ._embedded.database_images;
    const redis = list.find((image) => image.description === 'Redis 3.0');
    const one = await t.call('GET', `/api/database_images/${redis?.id}`, { token: user.token });
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ type: 'redis', version: '3.0', docker_repo: 'berth/redis:3.0' });
    expect((await t.call('GET', '/api/database_images/999999', { token: user.token })).statusCode).toBe(404);
    expect((await t.call('GET', '/api/database_images/abc', { token: user.token })).statusCode).toBe(404);
    expect((await t.call('GET', `/api/database_images/${redis?.id}`)).statusCode).toBe(401);
  });
});

describe('the catalog seed', () => {
  it('is idempotent and leaves unchanged rows alone', async () => {
    const before = await t.db.select().from(databaseImages);
    await ensureDatabaseImages(t.db);
    await ensureDatabaseImages(t.db);
    const after = await t.db.select().from(databaseImages);
    expect(after).toHaveLength(before.length);
    expect(after.map((row) => [row.id, row.updatedAt.toISOString()]).sort()).toEqual(
      before.map((row) => [row.id, row.updatedAt.toISOString()]).sort(),
    );
  });

  it('reports an end of life only once it is reached', () => {
    const image = {
      id: 1,
      type: 'postgresql',
      version: '17',
      description: 'PostgreSQL 17',
      dockerRepo: 'berth/postgresql:17',
      isDefault: true,
      discoverable: true,
      visible: true,
      eolAt: new Date('2029-11-08T00:00:00.000Z'),
      pitrSupported: true,
      createdAt: new Date(),
      updatedAt: new Date(),
    };
    const urls = familyUrls({ publicUrl: 'http://x' });
    expect(toDatabaseImageHal(image, urls, new Date('2029-11-07T23:59:59.000Z')).eol_at).toBeNull();
    expect(toDatabaseImageHal(image, urls, new Date('2029-11-08T00:00:00.000Z')).eol_at).toBe(
      '2029-11-08T00:00:00.000Z',
    );
  });
});
