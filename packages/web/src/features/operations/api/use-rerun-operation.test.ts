import { operationTypeBody, operationTypeEntry } from '@berth/core';
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../../resources/operations/operation.hal.ts';
import { rerunRequest } from './use-rerun-operation.ts';

function operation(overrides: Partial<Operation>): Operation {
  return {
    id: '90',
    type: 'deploy',
    status: 'failed',
    resourceType: 'app',
    resourceId: '7',
    resourceHandle: 'web',
    environmentId: '3',
    gitRef: null,
    dockerRef: null,
    containerCount: null,
    containerSize: null,
    instanceProfile: null,
    previousContainerCount: null,
    previousContainerSize: null,
    previousInstanceProfile: null,
    env: null,
    note: '',
    userName: 'Owner',
    userEmail: 'owner@example.com',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

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

  it('builds nothing for types or resources outside the catalog', () => {
    expect(rerunRequest(operation({ type: 'scale' }))).toBeNull();
    expect(rerunRequest(operation({ resourceType: 'database', type: 'provision' }))).toBeNull();
    expect(rerunRequest(operation({ type: 'constructor' }))).toBeNull();
  });
});
