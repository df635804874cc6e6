import { isHttpEndpointType, type VhostResource as VhostHal } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import type { vhosts } from '../../db/schema.ts';
import { iso, links } from '../../http/hal.ts';

export type VhostRow = typeof vhosts.$inferSelect;

/** The app or database an endpoint routes to, through its service. */
export interface VhostResource {
  type: 'app' | 'database';
  id: number;
  handle: string;
}

export interface VhostView {
  vhost: VhostRow;
  resource: VhostResource | null;
  /** The token header is a credential: its value only for callers with sensitive on the environment. */
  showToken: boolean;
}

/** Shown instead of a token header to callers without the sensitive scope: the console only shows "set". */
export const HIDDEN_TOKEN_HEADER = '********';

function portText(
  ports: { http: number | null; https: number | null } | null,
  listener: 'http' | 'https',
  standard: string,
): string | null {
  if (!ports) return standard;
  const port = ports[listener];
  return port === null ? null : String(port);
}

/**
 * Contract §4.3 vhost: an endpoint on the wire. Hostnames are null until it is provisioned. The token
 * header is a shared secret, a credential (spec 2 §6): its value goes to callers with sensitive only.
 */
export function toVhostHal(view: VhostView, urls: FamilyUrls): VhostHal {
  const { vhost, resource } = view;
  const api = urls.api;
  const live = vhost.externalHost !== null;
  const http = isHttpEndpointType(vhost.type) || vhost.type === 'grpc';
  return {
    id: String(vhost.id),
    _type: 'vhost' as const,
    type: vhost.type,
    platform: vhost.platform,
    status: vhost.status,
    default: vhost.isDefault,
    acme: vhost.acme,
    acme_status: vhost.acmeStatus,
    acme_configuration: vhost.acmeConfiguration ?? null,
    acme_dns_challenge_host: vhost.acmeDnsChallengeHost,
    internal: vhost.internal,
    shared: vhost.shared,
    ip_whitelist: vhost.ipWhitelist,
    container_port: vhost.containerPort === null ? null : String(vhost.containerPort),
    container_ports: vhost.containerPorts,
    container_exposed_ports: null,
    user_domain: vhost.userDomain,
    virtual_domain: vhost.virtualDomain,
    external_host: vhost.externalHost,
    // The docker runtime's edge answers on its own ports (8080 and 8443 by default; no TLS listener
    // for an endpoint without a certificate); other runtimes on 80 and 443.
    external_http_port: live && http ? portText(vhost.externalPorts, 'http', '80') : null,
    external_https_port: live && http ? portText(vhost.externalPorts, 'https', '443') : null,
    docker_name: vhost.dockerName,
    elastic_load_balancer_name: vhost.externalHost ? (vhost.externalHost.split('.')[0] ?? null) : null,
    internal_host: vhost.internalHost,
    internal_http_port: null,
    internal_https_port: null,
    internal_health_port: null,
    security_group_id: '',
    // Berth addition: the algorithm the create and update bodies set.
    load_balancing_algorithm_type: vhost.loadBalancingAlgorithm,
    // Berth additions (spec 2 §3 Endpoint): the resource behind the service, for the Resource column.
    resource_type: resource?.type ?? '',
    resource_id: resource ? String(resource.id) : '',
    resource_handle: resource?.handle ?? '',
    // Contract: absent when unset.
    ...(vhost.tokenHeader ? { token_header: view.showToken ? vhost.tokenHeader : HIDDEN_TOKEN_HEADER } : {}),
    created_at: iso(vhost.createdAt),
    updated_at: iso(vhost.updatedAt),
    _links: links({
      self: `${api}/vhosts/${vhost.id}`,
      service: `${api}/services/${vhost.serviceId}`,
      app: resource?.type === 'app' ? `${api}/apps/${resource.id}` : null,
      database: resource?.type === 'database' ? `${api}/databases/${resource.id}` : null,
      account: `${api}/accounts/${vhost.environmentId}`,
      certificate: vhost.certificateId ? `${api}/certificates/${vhost.certificateId}` : null,
      operations: `${api}/vhosts/${vhost.id}/operations`,
    }),
  };
}
