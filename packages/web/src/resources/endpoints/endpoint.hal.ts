import { isHttpEndpointType, isPendingCertificateIssuance, type VhostResource } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';

/** contract §4.3: the DNS records a managed HTTPS endpoint needs the user to create. */
export type AcmeConfiguration = NonNullable<VhostResource['acme_configuration']>;

/** contract §4.3 vhost (an endpoint on the wire) as the console reads it. */
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
  userDomain: string;
  virtualDomain: string;
  externalHost: string;
  /** The ports it answers HTTP and HTTPS on (null: no such listener, or not provisioned yet). */
  httpPort: string | null;
  httpsPort: string | null;
  /** contract §4.3: the console shows only whether a token header is set. */
  hasTokenHeader: boolean;
  shared: boolean;
  lbAlgorithm: string;
  serviceId: string | null;
  certificateId: string | null;
  environmentId: string | null;
  /** The app or database behind the endpoint's service ("" when none). */
  resourceType: string;
  resourceId: string;
  resourceHandle: string;
  createdAt: string;
}

const KNOWN_TYPES = ['http', 'http_proxy_protocol', 'grpc', 'tls', 'tcp'];

/** Hostnames and the container port are null until set and read as ""; the token header is absent when unset. */
export function fromVhostResource(vhost: VhostResource): Endpoint {
  return {
    id: idOf(vhost),
    type: KNOWN_TYPES.includes(vhost.type) ? vhost.type : 'unknown',
    platform: vhost.platform,
    status: vhost.status,
    isDefault: vhost.default,
    acme: vhost.acme,
    acmeStatus: vhost.acme_status,
    acmeConfiguration: vhost.acme_configuration,
    acmeDnsChallengeHost: vhost.acme_dns_challenge_host,
    internal: vhost.internal,
    ipWhitelist: vhost.ip_whitelist,
    containerPort: vhost.container_port ?? '',
    containerPorts: vhost.container_ports,
    userDomain: vhost.user_domain,
    virtualDomain: vhost.virtual_domain,
    externalHost: vhost.external_host ?? '',
    httpPort: vhost.external_http_port ?? null,
    httpsPort: vhost.external_https_port ?? null,
    hasTokenHeader: !!vhost.token_header,
    shared: vhost.shared,
    lbAlgorithm: vhost.load_balancing_algorithm_type || 'round_robin',
    serviceId: linkId(vhost, 'service'),
    certificateId: linkId(vhost, 'certificate'),
    environmentId: linkId(vhost, 'account'),
    resourceType: vhost.resource_type,
    resourceId: vhost.resource_id,
    resourceHandle: vhost.resource_handle,
    createdAt: vhost.created_at,
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

/**
 * The address users reach the endpoint on (contract §4.3: virtual_domain is the preferred display).
 * HTTPS where it answers HTTPS; plain HTTP where it has only an HTTP listener (an endpoint without a
 * certificate on the docker runtime's edge); a port only where it is not the protocol's own.
 */
export function endpointUrl(
  endpoint: Pick<Endpoint, 'type' | 'virtualDomain' | 'externalHost' | 'userDomain'> &
    Partial<Pick<Endpoint, 'httpPort' | 'httpsPort'>>,
): string {
  const host = endpoint.userDomain || endpoint.virtualDomain || endpoint.externalHost;
  if (!host) return '';
  if (!isHttpEndpoint(endpoint) && endpoint.type !== 'grpc') return host;
  const { httpPort = null, httpsPort = null } = endpoint;
  if (httpsPort === null && httpPort !== null)
    return `http://${host}${httpPort === '80' ? '' : `:${httpPort}`}`;
  return `https://${host}${httpsPort === null || httpsPort === '443' ? '' : `:${httpsPort}`}`;
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

/**
 * The user's domain of an endpoint with a custom (uploaded) certificate, which still needs a DNS record
 * pointing it at the endpoint (issue 41); "" for managed HTTPS, default-domain and certificate-less
 * endpoints, or while the domain is the endpoint's own hostname.
 */
export function customCertificateDomain(
  endpoint: Pick<
    Endpoint,
    'acme' | 'isDefault' | 'certificateId' | 'userDomain' | 'virtualDomain' | 'externalHost'
  >,
): string {
  if (endpoint.acme || endpoint.isDefault || endpoint.certificateId === null) return '';
  const domain = endpoint.userDomain || endpoint.virtualDomain;
  return domain && domain !== endpointHostname(endpoint) ? domain : '';
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

/**
 * The container port(s) the endpoint targets: the chosen ones, else the image's default (contract §4.3:
 * Berth sends no exposed ports, so the default is not named).
 */
export function endpointPorts(endpoint: Pick<Endpoint, 'containerPort' | 'containerPorts'>) {
  if (endpoint.containerPorts.length > 0) return endpoint.containerPorts.join(', ');
  if (endpoint.containerPort) return endpoint.containerPort;
  return 'Default';
}
