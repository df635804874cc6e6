import { isHttpEndpointType, isPendingCertificateIssuance } from '@berth/core';
import { type HalResource, idOf, linkId } from '../../../lib/hal.ts';

/** contract §4.3 vhost (an endpoint), plus the spec 2 §3 fields Berth sends beside it. */
export interface VhostHal extends HalResource {
  type?: string | null;
  platform?: string | null;
  status?: string | null;
  default?: boolean | null;
  acme?: boolean | null;
  acme_status?: string | null;
  acme_configuration?: AcmeConfiguration | null;
  acme_dns_challenge_host?: string | null;
  internal?: boolean | null;
  ip_whitelist?: string[] | null;
  container_port?: string | number | null;
  container_ports?: number[] | null;
  container_exposed_ports?: (string | number)[] | null;
  user_domain?: string | null;
  virtual_domain?: string | null;
  external_host?: string | null;
  token_header?: string | null;
  shared?: boolean | null;
  load_balancing_algorithm_type?: string | null;
  resource_type?: string | null;
  resource_id?: string | number | null;
  resource_handle?: string | null;
  created_at?: string;
  updated_at?: string;
}

/** contract §4.3: the DNS records a managed HTTPS endpoint needs the user to create. */
export interface AcmeConfiguration {
  names?: string[];
  challenges?: { method?: string; from?: { name?: string }; to?: { name?: string; legacy?: boolean }[] }[];
}

export interface Endpoint {
  id: string;
  /** http, http_proxy_protocol, grpc, tls, tcp (contract §4.3; anything else reads as unknown). */
  type: string;
  platform: string;
  status: string;
  isDefault: boolean;
  acme: boolean;
  acmeStatus: string;
  acmeConfiguration: AcmeConfiguration | null;
  acmeDnsChallengeHost: string;
  internal: boolean;
  ipWhitelist: string[];
  containerPort: string;
  containerPorts: number[];
  containerExposedPorts: string[];
  userDomain: string;
  virtualDomain: string;
  externalHost: string;
  /** contract §4.3: the console shows only whether a token header is set. */
  hasTokenHeader: boolean;
  shared: boolean;
  lbAlgorithm: string;
  serviceId: string | null;
  certificateId: string | null;
  environmentId: string | null;
  resourceType: string;
  resourceId: string;
  resourceHandle: string;
  createdAt: string;
}

const KNOWN_TYPES = ['http', 'http_proxy_protocol', 'grpc', 'tls', 'tcp'];

export function fromVhostHal(vhost: VhostHal): Endpoint {
  const resourceHref = vhost._links.app?.href ?? vhost._links.database?.href ?? vhost._links.resource?.href;
  const resourceFromLink = resourceHref?.includes('/databases/') ? 'database' : resourceHref ? 'app' : '';
  return {
    id: idOf(vhost),
    type: vhost.type && KNOWN_TYPES.includes(vhost.type) ? vhost.type : 'unknown',
    platform: vhost.platform ?? 'elb',
    status: vhost.status ?? 'pending',
    isDefault: vhost.default === true,
    acme: vhost.acme === true,
    acmeStatus: vhost.acme_status ?? '',
    acmeConfiguration: vhost.acme_configuration ?? null,
    acmeDnsChallengeHost: vhost.acme_dns_challenge_host ?? '',
    internal: vhost.internal === true,
    ipWhitelist: vhost.ip_whitelist ?? [],
    containerPort:
      vhost.container_port === null || vhost.container_port === undefined ? '' : String(vhost.container_port),
    containerPorts: vhost.container_ports ?? [],
    containerExposedPorts: (vhost.container_exposed_ports ?? []).map(String),
    userDomain: vhost.user_domain ?? '',
    virtualDomain: vhost.virtual_domain ?? '',
    externalHost: vhost.external_host ?? '',
    hasTokenHeader: !!vhost.token_header,
    shared: vhost.shared === true,
    lbAlgorithm: vhost.load_balancing_algorithm_type || 'round_robin',
    serviceId: linkId(vhost, 'service'),
    certificateId: linkId(vhost, 'certificate'),
    environmentId: linkId(vhost, 'account'),
    resourceType: vhost.resource_type || resourceFromLink,
    resourceId: String(
      vhost.resource_id ??
        linkId(vhost, 'app') ??
        linkId(vhost, 'database') ??
        linkId(vhost, 'resource') ??
        '',
    ),
    resourceHandle: vhost.resource_handle ?? '',
    createdAt: vhost.created_at ?? '',
  };
}

/** spec 2 §4 endpoint statuses; anything else reads Unknown. */
const STATUS_LABELS: Record<string, string> = {
  provisioning: 'Provisioning',
  provisioned: 'Provisioned',
  deprovisioning: 'Deprovisioning',
  pending: 'Pending',
  provision_failed: 'Provision Failed',
  deprovision_failed: 'Deprovision Failed',
};

export function endpointStatusLabel(status: string): string {
  return STATUS_LABELS[status] ?? 'Unknown';
}

/** The colour of a status pill: success, error or progress (as the operation banners, spec 2 §4). */
export function endpointStatusTone(status: string): 'success' | 'error' | 'progress' | null {
  if (status === 'provisioned') return 'success';
  if (status === 'provision_failed' || status === 'deprovision_failed') return 'error';
  if (status === 'provisioning' || status === 'deprovisioning' || status === 'pending') return 'progress';
  return null;
}

/** spec 2 §2: an endpoint not provisioned yet shows Pending instead of its URL. */
export function isEndpointPending(endpoint: Pick<Endpoint, 'status'>): boolean {
  return endpoint.status === 'pending' || endpoint.status === 'provisioning';
}

/**
 * The public name of an endpoint: the stack's default domain for a default endpoint, else the load
 * balancer's host (the CNAME target). The deprovision form asks for exactly this text.
 */
export function endpointHostname(endpoint: Pick<Endpoint, 'isDefault' | 'virtualDomain' | 'externalHost'>) {
  return endpoint.isDefault
    ? endpoint.virtualDomain || endpoint.externalHost
    : endpoint.externalHost || endpoint.virtualDomain;
}

/** The address users reach the endpoint on (contract §4.3: virtual_domain is the preferred display). */
export function endpointUrl(
  endpoint: Pick<Endpoint, 'type' | 'virtualDomain' | 'externalHost' | 'userDomain'>,
): string {
  const host = endpoint.userDomain || endpoint.virtualDomain || endpoint.externalHost;
  if (!host) return '';
  if (isHttpEndpoint(endpoint) || endpoint.type === 'grpc') return `https://${host}`;
  return host;
}

/** HTTP traffic (spec 2 §4: the load balancing algorithm and shared apply to HTTP only). */
export function isHttpEndpoint(endpoint: Pick<Endpoint, 'type'>): boolean {
  return isHttpEndpointType(endpoint.type);
}

/** spec 3 §2 search keywords: shared:yes, shared:no, or shared:n/a where sharing does not apply. */
export function sharedKeyword(endpoint: Pick<Endpoint, 'type' | 'shared'>): string {
  if (!isHttpEndpoint(endpoint)) return 'shared:n/a';
  return endpoint.shared ? 'shared:yes' : 'shared:no';
}

export function sharedLabel(endpoint: Pick<Endpoint, 'type' | 'shared'>): string {
  if (!isHttpEndpoint(endpoint)) return 'N/A';
  return endpoint.shared ? 'Yes' : 'No';
}

/** spec 2 §4 (core): ACME, not ready, provisioned: the certificate waits on the user's DNS records. */
export function needsDnsSetup(endpoint: Pick<Endpoint, 'acme' | 'acmeStatus' | 'status'>): boolean {
  return isPendingCertificateIssuance(endpoint);
}

const ACME_LABELS: Record<string, string> = {
  pending: 'Pending',
  transitioning: 'Transitioning',
  ready: 'Ready',
};

export function acmeStatusLabel(endpoint: Pick<Endpoint, 'acme' | 'acmeStatus'>): string {
  if (!endpoint.acme) return 'N/A';
  return ACME_LABELS[endpoint.acmeStatus] ?? 'Pending';
}

export function placementLabel(endpoint: Pick<Endpoint, 'internal'>): string {
  return endpoint.internal ? 'Internal' : 'External';
}

export function platformLabel(endpoint: Pick<Endpoint, 'platform'>): string {
  return endpoint.platform.toUpperCase();
}

/** The endpoint type as the detail shows it: Default domain, Managed HTTPS, Custom certificate, or the transport. */
export function endpointTypeLabel(endpoint: Pick<Endpoint, 'type' | 'isDefault' | 'acme'>): string {
  const traffic = endpoint.type === 'grpc' ? 'gRPC' : endpoint.type.toUpperCase().replace(/_/g, ' ');
  if (endpoint.type === 'tcp' || endpoint.type === 'tls' || endpoint.type === 'unknown') return traffic;
  if (endpoint.isDefault) return `${traffic}, Default domain`;
  if (endpoint.acme) return `${traffic}, Managed HTTPS`;
  return `${traffic}, Custom certificate`;
}

/** The container port(s) the endpoint targets: the chosen ones, or the image's first exposed port. */
export function endpointPorts(
  endpoint: Pick<Endpoint, 'containerPort' | 'containerPorts' | 'containerExposedPorts'>,
) {
  if (endpoint.containerPorts.length > 0) return endpoint.containerPorts.join(', ');
  if (endpoint.containerPort) return endpoint.containerPort;
  const exposed = [...endpoint.containerExposedPorts].sort((a, b) => Number(a) - Number(b));
  return exposed[0] ? `Default (${exposed[0]})` : 'Default';
}
