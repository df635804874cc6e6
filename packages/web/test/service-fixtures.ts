import type { ServiceResource } from '@berth/core';
import { TEST_CONFIG } from './fixtures.ts';

// A server answer for a service, typed by core's wire shape: a fixture that drifts from what the server
// sends fails the type check.

export type ServiceFixture = Partial<Omit<ServiceResource, '_links'>> & {
  _links?: Partial<ServiceResource['_links']>;
  /** The app the service belongs to (null: none, e.g. a database's service). */
  appId?: string | null;
  /** The environment (wire: account) it belongs to. */
  environmentId?: string;
};

/** contract §4.3 service; by default the `web` service of app 1 in environment 10, one 1 GB container. */
export function serviceResourceFixture({
  appId = '1',
  environmentId = '10',
  ...fields
}: ServiceFixture = {}): ServiceResource {
  const api = TEST_CONFIG.apiUrl;
  const id = fields.id ?? '5';
  const createdAt = fields.created_at ?? '2026-01-01T00:00:00.000Z';
  return {
    _type: 'service',
    handle: 'web',
    process_type: 'web',
    command: null,
    docker_repo: '',
    docker_ref: '',
    container_count: 1,
    container_memory_limit_mb: 1024,
    instance_class: 'm5',
    force_zero_downtime: false,
    naive_health_check: false,
    stop_timeout: null,
    updated_at: createdAt,
    ...fields,
    id,
    created_at: createdAt,
    _links: {
      self: { href: `${api}/services/${id}` },
      account: { href: `${api}/accounts/${environmentId}` },
      releases: { href: `${api}/services/${id}/releases` },
      operations: { href: `${api}/services/${id}/operations` },
      ...(appId ? { app: { href: `${api}/apps/${appId}` } } : {}),
      ...fields._links,
    },
  };
}
