import type { VhostResource } from '@berth/core';
import { TEST_CONFIG } from './fixtures.ts';

// A server answer for an endpoint (wire: vhost), typed by core's wire shape: a fixture that drifts from
// what the server sends fails the type check.

export type VhostFixture = Partial<Omit<VhostResource, '_links'>> & {
  _links?: Partial<VhostResource['_links']>;
  /** The service the endpoint routes to. */
  serviceId?: string;
  /** The environment (wire: account) it belongs to. */
  environmentId?: string;
};

/** contract §4.3 vhost; by default a provisioned external HTTP default endpoint of service 5 in environment 10. */
export function vhostResourceFixture({
  serviceId = '5',
  environmentId = '10',
  ...fields
}: VhostFixture = {}): VhostResource {
  const api = TEST_CONFIG.apiUrl;
  const id = fields.id ?? '1';
  const createdAt = fields.created_at ?? '2026-01-01T00:00:00.000Z';
  return {
    _type: 'vhost',
    type: 'http',
    platform: 'alb',
    status: 'provisioned',
    default: true,
    acme: false,
    acme_status: '',
    acme_configuration: null,
    acme_dns_challenge_host: '',
    internal: false,
    shared: false,
    ip_whitelist: [],
    container_port: null,
    container_ports: [],
    container_exposed_ports: null,
    user_domain: '',
    virtual_domain: `app-${id}.on-berth.localhost`,
    external_host: `elb-${id}.on-berth.localhost`,
    external_http_port: null,
    external_https_port: null,
    docker_name: null,
    elastic_load_balancer_name: null,
    internal_host: null,
    internal_http_port: null,
    internal_https_port: null,
    internal_health_port: null,
    security_group_id: '',
    load_balancing_algorithm_type: 'round_robin',
    resource_type: '',
    resource_id: '',
    resource_handle: '',
    updated_at: createdAt,
    ...fields,
    id,
    created_at: createdAt,
    _links: {
      self: { href: `${api}/vhosts/${id}` },
      service: { href: `${api}/services/${serviceId}` },
      account: { href: `${api}/accounts/${environmentId}` },
      operations: { href: `${api}/vhosts/${id}/operations` },
      ...fields._links,
    },
  };
}
