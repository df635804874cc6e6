import { beforeAll, describe, expect, it } from 'vitest';
import { cannotSee, environmentSuite, expectAccess } from '../../testing/environment-fixture.ts';
import { seedApp, seedContainer, seedRelease, seedService } from '../../testing/factories.ts';

const { t, f } = await environmentSuite();
let serviceId: number;
let retired: Awaited<ReturnType<typeof seedRelease>>;
let current: Awaited<ReturnType<typeof seedRelease>>;
let running: Awaited<ReturnType<typeof seedContainer>>;
let stopped: Awaited<ReturnType<typeof seedContainer>>;

const api = 'http://berth.test/api';
const ids = (items: { id: string }[]) => items.map((item) => item.id);

beforeAll(async () => {
  const app = await seedApp(t.db, { environmentId: f.environment.id, handle: 'shop' });
  const service = await seedService(t.db, { environmentId: f.environment.id, appId: app.id, handle: 'web' });
  serviceId = service.id;
  retired = await seedRelease(t.db, {
    serviceId,
    dockerRepo: 'registry.berth.local/shop',
    dockerRef: 'sha256:old',
    retiredAt: new Date(),
  });
  current = await seedRelease(t.db, {
    serviceId,
    dockerRepo: 'registry.berth.local/shop',
    dockerRef: 'sha256:new',
  });
  running = await seedContainer(t.db, {
    releaseId: current.id,
    dockerName: 'shop-web-1',
    host: 'sim-host-3',
    status: 'running',
    memoryLimit: 1024,
    port: 3000,
    portMapping: [[3000, 41234]],
  });
  stopped = await seedContainer(t.db, { releaseId: current.id, status: 'stopped', deletedAt: new Date() });
});

describe('GET /services/:id/releases', () => {
  it('lists current releases, and retired ones with with_deleted (trailing slash as the console sends it)', async () => {
    const [withDeleted] = await expectAccess(
      t,
      { method: 'GET', url: `/api/services/${serviceId}/releases/?with_deleted=true` },
      [[f.reader, 200], ...cannotSee(f)],
    );
    expect(ids(withDeleted?.json()._embedded.releases)).toEqual([String(current.id), String(retired.id)]);
    const live = (
      await t.call('GET', `/api/services/${serviceId}/releases`, { token: f.reader.token })
    ).json();
    expect(ids(live._embedded.releases)).toEqual([String(current.id)]);
    expect((await t.call('GET', '/api/services/999999/releases', { token: f.owner.token })).statusCode).toBe(
      404,
    );
  });
});

describe('GET /releases/:id', () => {
  it('answers the contract shape', async () => {
    const [response] = await expectAccess(t, { method: 'GET', url: `/api/releases/${current.id}` }, [
      [f.reader, 200],
      ...cannotSee(f),
    ]);
    expect(response?.json()).toEqual({
      id: String(current.id),
      _type: 'release',
      docker_repo: 'registry.berth.local/shop',
      docker_ref: 'sha256:new',
      created_at: expect.any(String),
      updated_at: expect.any(String),
      _links: {
        self: { href: `${api}/releases/${current.id}` },
        service: { href: `${api}/services/${serviceId}` },
        containers: { href: `${api}/releases/${current.id}/containers` },
      },
    });
  });
});

describe('GET /releases/:id/containers', () => {
  it('lists running containers, and stopped ones with with_deleted', async () => {
    const [response] = await expectAccess(
      t,
      { method: 'GET', url: `/api/releases/${current.id}/containers?with_deleted=true` },
      [[f.reader, 200], ...cannotSee(f)],
    );
    const all = response?.json()._embedded.containers;
    expect(ids(all)).toEqual([String(running.id), String(stopped.id)]);
    expect(all[0]).toEqual({
      id: String(running.id),
      _type: 'container',
      docker_name: 'shop-web-1',
      host: 'sim-host-3',
      aws_instance_id: '',
      instance_class: 'm5',
      status: 'running',
      layer: 'app',
      memory_limit: 1024,
      port: 3000,
      port_mapping: [[3000, 41234]],
      created_at: expect.any(String),
      updated_at: expect.any(String),
      _links: {
        release: { href: `${api}/releases/${current.id}` },
      },
    });
    const live = (
      await t.call('GET', `/api/releases/${current.id}/containers`, { token: f.reader.token })
    ).json();
    expect(ids(live._embedded.containers)).toEqual([String(running.id)]);
  });
});
