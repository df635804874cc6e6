import { operationTypeBody, operationTypeEntry } from '@berth/core';
import { describe, expect, it } from 'vitest';
import { operationFixture } from '../../../../test/operation-fixtures.ts';
import type { Operation } from '../../../resources/operations/operation.hal.ts';
import { rerunRequest } from './use-rerun-operation.ts';

const operation = (overrides: Partial<Operation>): Operation =>
  operationFixture({
    id: '90',
    status: 'failed',
    resourceId: '7',
    resourceHandle: 'web',
    environmentId: '3',
    userName: 'Owner',
    userEmail: 'owner@example.com',
    ...overrides,
  });

describe('rerunRequest (contract §6 bodies, built from core’s catalog)', () => {
  it.each<[Partial<Operation>, { path: string; body: Record<string, unknown> }]>([
    [{ gitRef: 'main' }, { path: '/apps/7/operations', body: { type: 'deploy', git_ref: 'main' } }],
    [
      { gitRef: 'main', dockerRef: 'quay.io/acme/web:1' },
      { path: '/apps/7/operations', body: { type: 'deploy', docker_image: 'quay.io/acme/web:1' } },
    ],
    [
      { type: 'scan_code', gitRef: 'v2' },
      { path: '/apps/7/operations', body: { type: 'scan_code', git_ref: 'v2' } },
    ],
    [
      { type: 'configure', env: { A: '1', B: '' } },
      { path: '/apps/7/operations', body: { type: 'configure', env: { A: '1', B: '' } } },
    ],
    [{ type: 'configure' }, { path: '/apps/7/operations', body: { type: 'configure', env: {} } }],
    [{ type: 'restart' }, { path: '/apps/7/operations', body: { type: 'restart', id: '7' } }],
    [{ type: 'deprovision' }, { path: '/apps/7/operations', body: { type: 'deprovision' } }],
    [
      { resourceType: 'service', type: 'scale', containerCount: 2, containerSize: 1024 },
      {
        path: '/services/7/operations',
        body: { type: 'scale', id: '7', container_count: 2, container_size: 1024 },
      },
    ],
    [
      { resourceType: 'service', type: 'scale', instanceProfile: 'r5' },
      { path: '/services/7/operations', body: { type: 'scale', id: '7', instance_profile: 'r5' } },
    ],
    [
      { resourceType: 'service', type: 'restart_recreate' },
      { path: '/services/7/operations', body: { type: 'restart_recreate', id: '7' } },
    ],
    [
      { resourceType: 'vhost', type: 'renew' },
      { path: '/vhosts/7/operations', body: { type: 'renew' } },
    ],
  ])('%o posts %o', (overrides, expected) => {
    expect(rerunRequest(operation(overrides))).toEqual(expected);
  });

  it('sends bodies the server’s schemas accept', () => {
    const request = rerunRequest(operation({ type: 'configure', env: { A: '1' } }));
    const entry = operationTypeEntry('app', 'configure');
    expect(operationTypeBody.safeParse(request?.body).success).toBe(true);
    expect(entry?.body.safeParse(request?.body).success).toBe(true);
  });

  it('posts a database scale again with the sizes it asked for', () => {
    const request = rerunRequest(
      operation({
        resourceType: 'database',
        resourceId: '7',
        type: 'scale',
        containerSize: 2048,
        diskSize: 20,
        provisionedIops: 0,
        instanceProfile: 'r5',
      }),
    );
    expect(request).toEqual({
      path: '/databases/7/operations',
      body: { type: 'scale', id: '7', container_size: 2048, disk_size: 20, instance_profile: 'r5' },
    });
    expect(operationTypeEntry('database', 'scale')?.body.safeParse(request?.body).success).toBe(true);
  });

  it('builds nothing for types or resources outside the catalog', () => {
    expect(rerunRequest(operation({ type: 'scale' }))).toBeNull();
    expect(rerunRequest(operation({ resourceType: 'drain', type: 'provision' }))).toBeNull();
    expect(rerunRequest(operation({ type: 'constructor' }))).toBeNull();
  });
});
