import { z } from 'zod';
import { numericIdFromReference } from '../identity/references.ts';
import { MAX_LENGTH, tooLongMessage } from '../text/limits.ts';
import { trimChar, trimEndChar } from '../text/text.ts';

// spec 2 §3, §4, §5 and §9: endpoints (vhosts on the wire), their settings and the rules on them.

export const ENDPOINT_TYPES = ['http', 'http_proxy_protocol', 'grpc', 'tls', 'tcp'] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];
export const ENDPOINT_PLATFORMS = ['alb', 'elb'] as const;
export type EndpointPlatform = (typeof ENDPOINT_PLATFORMS)[number];

export const LOAD_BALANCING_ALGORITHMS = [
  'round_robin',
  'least_outstanding_requests',
  'weighted_random',
] as const;
export type LoadBalancingAlgorithm = (typeof LOAD_BALANCING_ALGORITHMS)[number];
export const LOAD_BALANCING_ALGORITHM_LABELS: Record<LoadBalancingAlgorithm, string> = {
  round_robin: 'Round Robin',
  least_outstanding_requests: 'Least Outstanding Requests',
  weighted_random: 'Weighted Random',
};
/** The request header that carries an endpoint's header token (spec 2: header authentication). */
export const ENDPOINT_TOKEN_HEADER = 'X-Berth-Token';
export const DEFAULT_LOAD_BALANCING_ALGORITHM: LoadBalancingAlgorithm = 'round_robin';

/** spec 2 §4: endpoint statuses (anything else reads as Unknown). */
export const ENDPOINT_STATUSES = [
  'pending',
  'provisioning',
  'provisioned',
  'deprovisioning',
  'provision_failed',
  'deprovision_failed',
] as const;
export type EndpointStatus = (typeof ENDPOINT_STATUSES)[number];
/** Contract §4.3 vhost acme_status. */
export const ACME_STATUSES = ['pending', 'transitioning', 'ready'] as const;
export type AcmeStatus = (typeof ACME_STATUSES)[number];

export const IP_ALLOWLIST_MAX = 50;
export const PORT_MIN = 1;
export const PORT_MAX = 65535;

export const endpointMessages = {
  type: `Endpoint type must be one of: ${ENDPOINT_TYPES.join(', ')}`,
  platform: `Platform must be one of: ${ENDPOINT_PLATFORMS.join(', ')}`,
  loadBalancingAlgorithm: `Load balancing algorithm must be one of: ${LOAD_BALANCING_ALGORITHMS.join(', ')}`,
  flag: (label: string) => `${label} must be true or false`,
  // spec 2 §5, literal.
  port: 'Port must be a number between 1 and 65535',
  portOf: (value: string | number) => `[${value}] is not between 1 and 65535`,
  ipAllowlistSize: (count: number) =>
    `${count} is greater than the max IP Allowlist size of ${IP_ALLOWLIST_MAX}`,
  ipAllowlistEntry: (value: string) => `[${value}] is not a valid IPv4 address or CIDR`,
  tokenHeaderCharacters:
    'Token header may contain only letters, numbers, underscores, hyphens, colons and periods',
  tokenHeaderType: 'A HTTP or GRPC endpoint is required to pass token',
  certificateRequired: 'A certificate is required for custom HTTPS',
  privateKeyRequired: 'A private key is required for custom HTTPS',
  managedDomainRequired: 'A domain is required for managed HTTPS',
  sharedDomainRequired: 'A domain is required for shared endpoints with a certificate.',
  sharedWildcard: 'Shared endpoints do not support wildcard domains. Please use a specific domain name.',
  sharedToDedicated: 'Shared endpoints cannot be converted to dedicated endpoints.',
  sharedHttpOnly: 'Shared endpoints are available for HTTP endpoints only',
  loadBalancingHttpOnly: 'A load balancing algorithm can be set for HTTP endpoints only',
  defaultAndManaged: 'An endpoint uses either the default domain or managed HTTPS, not both',
  domain: 'Domain must be a valid domain name',
  serviceRequired: 'Must select a service',
  certificateReference: 'Certificate must be the URL of a certificate',
  /** An endpoint waits for its running operation before it takes another change. */
  busy: (status: string) =>
    status === 'deprovisioning'
      ? 'This endpoint is being deprovisioned'
      : 'This endpoint is being provisioned; wait for the operation to finish',
  renewManagedOnly: 'Only managed HTTPS endpoints have a certificate to renew',
  renewProvisionedOnly: 'The endpoint must be provisioned before its certificate can be renewed',
} as const;

/** Types whose traffic the platform terminates TLS for, so a custom endpoint needs a certificate. */
const TLS_TERMINATED: readonly EndpointType[] = ['http', 'http_proxy_protocol', 'grpc', 'tls'];
/** spec 2 §4: "Load balancing algorithm and shared only for HTTP". */
const HTTP_TYPES: readonly EndpointType[] = ['http', 'http_proxy_protocol'];

export function isHttpEndpointType(type: string): boolean {
  return (HTTP_TYPES as readonly string[]).includes(type);
}

/** spec 2 §4 deployment strategy: these types keep zero-downtime deploys. */
export function isZeroDowntimeEndpointType(type: string): boolean {
  return type === 'http' || type === 'http_proxy_protocol' || type === 'grpc';
}

/** spec 2 §4: an ACME endpoint, provisioned, whose certificate is not issued yet: DNS setup prompts. */
export function isPendingCertificateIssuance(vhost: {
  acme: boolean;
  acmeStatus: string | null | undefined;
  status: string;
}): boolean {
  return vhost.acme && vhost.acmeStatus !== 'ready' && vhost.status === 'provisioned';
}

/** RFC 1035: one label of a host name holds at most 63 characters. */
const DNS_LABEL_MAX_LENGTH = 63;

/** A handle as part of a DNS label: lower case, each run of other characters (`.`, `_`) one hyphen, none at the ends. */
function labelPart(handle: string): string {
  return trimChar(handle.toLowerCase().replace(/[^a-z0-9]+/g, '-'), '-');
}

/**
 * The name of a default endpoint, the one label it adds to its stack's default domain: its app's (or
 * database's) handle and its environment's, `shop-production`, as Heroku and Render name theirs. `suffix`
 * (`-2`) tells it apart from a name already taken. Long handles are cut so the label stays within 63
 * characters: each keeps at least half the room, and a short one leaves the rest to the other.
 */
export function defaultEndpointName(resourceHandle: string, environmentHandle: string, suffix = ''): string {
  const room = DNS_LABEL_MAX_LENGTH - suffix.length;
  let resource = labelPart(resourceHandle);
  let environment = labelPart(environmentHandle);
  if (resource.length + 1 + environment.length > room) {
    const half = Math.floor((room - 1) / 2);
    const environmentRoom = Math.max(half, room - 1 - resource.length);
    environment = trimEndChar(environment.slice(0, environmentRoom), '-');
    resource = trimEndChar(resource.slice(0, room - 1 - environment.length), '-');
  }
  const name = [resource, environment].filter(Boolean).join('-') || 'endpoint';
  return `${name}${suffix}`;
}

/** The hostname of a default endpoint: its name on its stack's default domain. */
export function defaultEndpointDomain(name: string, stackDefaultDomain: string): string {
  return `${name}.${stackDefaultDomain}`;
}

/** spec 2 §5: domain names are compared with a trailing dot normalised. */
export function normalizeDomain(domain: string): string {
  return trimEndChar(domain.trim().toLowerCase(), '.');
}

// A DNS label: letters, digits and inner hyphens, 1 to 63 characters. Checked label by label, so the
// pattern stays simple enough for the ReDoS checker to prove linear.
const DOMAIN_LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/** A host name of two or more labels, optionally behind `*.`, at most 253 characters (spec 2 §5). */
export function isValidDomain(domain: string): boolean {
  const normalized = normalizeDomain(domain);
  if (normalized.length > 253) return false;
  const labels = normalized.split('.');
  if (labels[0] === '*') labels.shift();
  return labels.length >= 2 && labels.every((label) => label.length <= 63 && DOMAIN_LABEL.test(label));
}

export function isWildcardDomain(domain: string): boolean {
  return normalizeDomain(domain).startsWith('*.');
}

// Four octets of 0 to 255, then an optional /0 to /32.
const IPV4_OR_CIDR =
  /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}(?:\/(?:3[0-2]|[12]?\d))?$/;

/** spec 2 §5: an IPv4 address, or a CIDR with a prefix of 0 to 32. */
export function isIpv4OrCidr(value: string): boolean {
  return IPV4_OR_CIDR.test(value);
}

/** Splits whitespace, newline (and comma) separated text; an array is taken entry by entry. */
function splitList(value: unknown): unknown {
  if (typeof value === 'string') return value.split(/[\s,]+/).filter((part) => part !== '');
  if (Array.isArray(value)) return value.map((entry) => (typeof entry === 'string' ? entry.trim() : entry));
  return value;
}

/** spec 2 §5 IP allowlist: each problem, the size first. */
export function ipAllowlistProblems(entries: readonly string[]): string[] {
  const problems: string[] = [];
  if (entries.length > IP_ALLOWLIST_MAX) problems.push(endpointMessages.ipAllowlistSize(entries.length));
  for (const entry of entries) {
    if (!isIpv4OrCidr(entry)) problems.push(endpointMessages.ipAllowlistEntry(entry));
  }
  return problems;
}

function isPort(value: number): boolean {
  return Number.isInteger(value) && value >= PORT_MIN && value <= PORT_MAX;
}

/** Reads one port from a number or a digit string; null for empty. undefined when it is not a port. */
export function parsePort(value: unknown): number | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return null;
    if (!/^\d+$/.test(text)) return undefined;
    const port = Number(text);
    return isPort(port) ? port : undefined;
  }
  if (typeof value === 'number') return isPort(value) ? value : undefined;
  return undefined;
}

/** spec 2 §5: container ports are comma or whitespace separated numbers, each 1 to 65535 (tcp/tls message). */
export function containerPortsProblems(entries: readonly unknown[]): string[] {
  return entries
    .filter((entry) => parsePort(entry) == null)
    .map((entry) => endpointMessages.portOf(String(entry)));
}

export const TOKEN_HEADER_PATTERN = /^[A-Za-z0-9_\-:.]+$/;

/** The settings the cross-field rules look at, whatever the request shape. */
export interface EndpointSettings {
  type: string;
  acme: boolean;
  default: boolean;
  shared: boolean;
  userDomain: string;
  hasCertificate: boolean;
  tokenHeader: string | null;
  /** Set when the request chose an algorithm (a PATCH keeps the stored one). */
  loadBalancingAlgorithm?: string | null;
}

/**
 * spec 2 §5 rules between fields of an endpoint, in the order the form shows them. Used by the create
 * schema and, on the merged result, by an update.
 */
export function endpointSettingsProblems(settings: EndpointSettings): string[] {
  const problems: string[] = [];
  const type = settings.type as EndpointType;
  const domain = settings.userDomain.trim();
  if (settings.tokenHeader && !TOKEN_HEADER_PATTERN.test(settings.tokenHeader)) {
    problems.push(endpointMessages.tokenHeaderCharacters);
  }
  if (settings.tokenHeader && (type === 'tcp' || type === 'tls')) {
    problems.push(endpointMessages.tokenHeaderType);
  }
  if (settings.acme && settings.default) problems.push(endpointMessages.defaultAndManaged);
  if (settings.acme && domain === '') problems.push(endpointMessages.managedDomainRequired);
  if (!settings.acme && !settings.default && TLS_TERMINATED.includes(type) && !settings.hasCertificate) {
    problems.push(endpointMessages.certificateRequired);
  }
  if (domain !== '' && !isValidDomain(domain)) problems.push(endpointMessages.domain);
  if (settings.shared) {
    if (!isHttpEndpointType(type)) problems.push(endpointMessages.sharedHttpOnly);
    if (settings.hasCertificate && domain === '') problems.push(endpointMessages.sharedDomainRequired);
    if (domain !== '' && isWildcardDomain(domain)) problems.push(endpointMessages.sharedWildcard);
  }
  if (
    settings.loadBalancingAlgorithm &&
    settings.loadBalancingAlgorithm !== DEFAULT_LOAD_BALANCING_ALGORITHM &&
    !isHttpEndpointType(type)
  ) {
    problems.push(endpointMessages.loadBalancingHttpOnly);
  }
  return problems;
}

/** spec 2 §4 and §8: a shared endpoint stays shared. */
export function sharedConversionProblem(wasShared: boolean, shared: boolean | undefined): string | null {
  return wasShared && shared === false ? endpointMessages.sharedToDedicated : null;
}

const flag = (label: string) => z.boolean({ error: endpointMessages.flag(label) });

const ipWhitelist = z.preprocess(
  splitList,
  z
    .array(
      z
        .string({ error: endpointMessages.ipAllowlistEntry('') })
        .max(64, { error: tooLongMessage('An IP allowlist entry', 64), abort: true }),
    )
    .superRefine((entries, ctx) => {
      for (const message of ipAllowlistProblems(entries)) ctx.addIssue({ code: 'custom', message });
    }),
);

const containerPort = z
  .union([z.string().max(10, { error: endpointMessages.port, abort: true }), z.number(), z.null()], {
    error: endpointMessages.port,
  })
  .transform((value, ctx) => {
    const port = parsePort(value);
    if (port === undefined) {
      ctx.addIssue({ code: 'custom', message: endpointMessages.port });
      return z.NEVER;
    }
    return port;
  });

const containerPorts = z.preprocess(
  (value) => (value === null ? [] : splitList(value)),
  z.array(z.unknown(), { error: endpointMessages.portOf('') }).transform((entries, ctx) => {
    const problems = containerPortsProblems(entries);
    for (const message of problems) ctx.addIssue({ code: 'custom', message });
    return problems.length ? z.NEVER : entries.map((entry) => parsePort(entry) as number);
  }),
);

const tokenHeader = z
  .string({ error: endpointMessages.tokenHeaderCharacters })
  .max(1024, { error: tooLongMessage('The token header', 1024), abort: true })
  .nullable()
  .transform((value) => (value === null || value.trim() === '' ? null : value.trim()));

const userDomain = z
  .string({ error: endpointMessages.domain })
  .max(MAX_LENGTH.domain + 2, { error: endpointMessages.domain, abort: true })
  .nullable()
  .transform((value) => (value === null ? '' : normalizeDomain(value)));

/** A certificate reference (contract §1.9): its absolute URL, or a bare id; "" or null detach. */
const certificateReference = z
  .union(
    [
      z.string().max(MAX_LENGTH.reference, { error: endpointMessages.certificateReference, abort: true }),
      z.number(),
      z.null(),
    ],
    { error: endpointMessages.certificateReference },
  )
  .transform((value, ctx) => {
    if (value === null || value === '') return null;
    const id = numericIdFromReference(String(value));
    if (id === null) {
      ctx.addIssue({ code: 'custom', message: endpointMessages.certificateReference });
      return z.NEVER;
    }
    return id;
  });

const loadBalancingAlgorithm = z.enum(LOAD_BALANCING_ALGORITHMS, {
  error: endpointMessages.loadBalancingAlgorithm,
});

/** The keys an endpoint update may change (contract §5.9 PATCH /vhosts/:id, spec 2 §7). */
const updatableFields = {
  ip_whitelist: ipWhitelist.optional(),
  container_port: containerPort.optional(),
  container_ports: containerPorts.optional(),
  token_header: tokenHeader.optional(),
  load_balancing_algorithm_type: loadBalancingAlgorithm.optional(),
  shared: flag('Shared').optional(),
  certificate: certificateReference.optional(),
  user_domain: userDomain.optional(),
};

/** `POST /services/:id/vhosts` (contract §5.9): a record only; the console then posts `provision`. */
export const createEndpointSchema = z
  .object({
    type: z.enum(ENDPOINT_TYPES, { error: endpointMessages.type }).default('http'),
    platform: z.enum(ENDPOINT_PLATFORMS, { error: endpointMessages.platform }).default('elb'),
    acme: flag('Managed HTTPS').default(false),
    default: flag('Default domain').default(false),
    internal: flag('Internal').default(false),
    ...updatableFields,
    ip_whitelist: ipWhitelist.default([]),
    shared: flag('Shared').default(false),
  })
  .superRefine((body, ctx) => {
    const problems = endpointSettingsProblems({
      type: body.type,
      acme: body.acme,
      default: body.default,
      shared: body.shared,
      userDomain: body.user_domain ?? '',
      hasCertificate: Boolean(body.certificate),
      tokenHeader: body.token_header ?? null,
      loadBalancingAlgorithm: body.load_balancing_algorithm_type ?? null,
    });
    for (const message of problems) ctx.addIssue({ code: 'custom', message });
  });
export type CreateEndpointInput = z.infer<typeof createEndpointSchema>;

/** `PATCH /vhosts/:id`: keys left out keep their value; the cross-field rules run on the merged result. */
export const updateEndpointSchema = z.object(updatableFields);
export type UpdateEndpointInput = z.infer<typeof updateEndpointSchema>;
