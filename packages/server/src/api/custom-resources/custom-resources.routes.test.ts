import { beforeAll, describe, expect, it } from 'vitest';
import { customResources } from '../../db/schema.ts';
import { environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';

// contract §4.3 custom_resource and §7 step 7: the console asks for the list at every start.
const { t, f } = await environmentSuite();
const api = 'http://berth.test/api';
let ownId: number;
let foreignId: number;

describe('GET /custom_resources before any exists', () => {
  it('answers an empty list, not 404', async () => {
    const response = await t.call('GET', '/api/custom_resources?per_page=5000', { token: f.owner.token });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      _embedded: { custom_resources: [] },
      _links: { self: { href: `${api}/custom_resources` } },
      current_page: 1,
      per_page: 5000,
      total_count: 0,
    });
    // A verified user of no organization too.
    const loner = await t.signUp({ name: 'Loner' });
    const alone = await t.call('GET', '/api/custom_resources', { token: loner.token });
    expect([alone.statusCode, alone.json().total_count]).toEqual([200, 0]);
  });
});

describe('GET /custom_resources and /custom_resources/:id', () => {
  beforeAll(async () => {
    const rows = await t.db
      .insert(customResources)
      .values([
        {
          organizationId: f.organization.id,
          handle: 'orders-queue',
          resourceType: 'sqs',
          data: { region: 'eu-west-1' },
        },
        { organizationId: f.strangerEnvironment.organizationId, handle: 'their-queue', resourceType: 'sqs' },
      ])
      .returning();
    ownId = rows[0]?.id ?? 0;
    foreignId = rows[1]?.id ?? 0;
  });

  it("lists the resources of the caller's organizations to every member", async () => {
    const [outsider] = await expectAccess(t, { method: 'GET', url: '/api/custom_resources' }, [
      [f.outsider, 200],
      [null, 401],
    ]);
    expect(outsider?.json()._embedded.custom_resources).toEqual([
      {
        id: String(ownId),
        _type: 'custom_resource',
        handle: 'orders-queue',
        resource_type: 'sqs',
        data: { region: 'eu-west-1' },
        deleted_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        _links: {
          self: { href: `${api}/custom_resources/${ownId}` },
          organization: { href: `http://berth.test/auth/organizations/${f.organization.id}` },
        },
      },
    ]);
    const stranger = (await t.call('GET', '/api/custom_resources', { token: f.stranger.token })).json();
    expect(stranger._embedded.custom_resources.map((row: { id: string }) => row.id)).toEqual([
      String(foreignId),
    ]);
  });

  it("shows one to its organization's members and 404 to others", async () => {
    const [one] = await expectAccess(t, { method: 'GET', url: `/api/custom_resources/${ownId}` }, [
      [f.reader, 200],
      [null, 401],
      [f.stranger, 404],
    ]);
    expect(one?.json()).toMatchObject({ id: String(ownId), handle: 'orders-queue' });
    expect((await t.call('GET', '/api/custom_resources/abc', { token: f.owner.token })).statusCode).toBe(404);
  });
});
