import type {
  CostResource,
  EnvironmentResource,
  OrganizationResource,
  RoleResource,
  StackResource,
  TokenResource,
  UserResource,
} from '@berth/core';
import type { RuntimeConfig } from '../src/lib/config.ts';

// Contract-shaped answers (api-contract.md §3-§5), built the way the server builds them and typed by
// core's wire shapes: a fixture that drifts from what the server sends fails the type check.

export const HOST = 'http://berth.test';

export const TEST_CONFIG: RuntimeConfig = {
  authUrl: `${HOST}/auth`,
  apiUrl: `${HOST}/api`,
  billingUrl: `${HOST}/billing`,
  metricTunnelUrl: `${HOST}/metrics`,
  appUrl: HOST,
  mailboxUrl: `${HOST}/dev/mail`,
  docsUrl: null,
  statusPageUrl: null,
  home: true,
  payments: 'local',
  stripePublishableKey: null,
};

const auth = (path: string) => `${TEST_CONFIG.authUrl}${path}`;
const api = (path: string) => `${TEST_CONFIG.apiUrl}${path}`;
const TIMESTAMP = '2025-01-15T10:00:00.000Z';

function base64Url(value: string): string {
  return btoa(value).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function jwt(claims: Record<string, unknown>): string {
  return [
    base64Url(JSON.stringify({ alg: 'ES256', typ: 'JWT' })),
    base64Url(JSON.stringify(claims)),
    'signature',
  ].join('.');
}

export function tokenHal({
  id = 'tok-1',
  userId = 'user-1',
  email = 'ada@example.com',
  scope = 'manage',
  lifetime = 43200,
}: {
  id?: string;
  userId?: string;
  email?: string;
  scope?: string;
  lifetime?: number;
} = {}): TokenResource {
  const exp = Math.floor(Date.now() / 1000) + lifetime;
  return {
    _type: 'token',
    id,
    access_token: jwt({
      id,
      iss: auth(''),
      sub: auth(`/users/${userId}`),
      scope,
      exp,
      email,
      email_verified: true,
    }),
    token_type: 'bearer',
    scope,
    expires_in: lifetime,
    expires_at: new Date(exp * 1000).toISOString(),
    created_at: TIMESTAMP,
    _links: { self: { href: auth(`/tokens/${id}`) }, user: { href: auth(`/users/${userId}`) } },
  };
}

export function userHal({
  id = 'user-1',
  name = 'Ada Lovelace',
  email = 'ada@example.com',
  verified = true,
  superuser = false,
  readOnlyImpersonate = false,
  selectedOrganizationId = null,
}: {
  id?: string;
  name?: string;
  email?: string;
  verified?: boolean;
  superuser?: boolean;
  readOnlyImpersonate?: boolean;
  selectedOrganizationId?: string | null;
} = {}): UserResource {
  return {
    _type: 'user',
    id,
    name,
    email,
    username: email,
    verified,
    otp_enabled: false,
    superuser,
    read_only_impersonate: readOnlyImpersonate,
    external_id: null,
    public_key_fingerprint: null,
    ssh_public_key: null,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
    _links: {
      self: { href: auth(`/users/${id}`) },
      ...(selectedOrganizationId
        ? { selected_organization: { href: auth(`/organizations/${selectedOrganizationId}`) } }
        : {}),
      roles: { href: auth(`/users/${id}/roles`) },
      ssh_keys: { href: auth(`/users/${id}/ssh_keys`) },
      u2f_devices: { href: auth(`/users/${id}/u2f_devices`) },
      email_verification_challenges: { href: auth(`/users/${id}/email_verification_challenges`) },
    },
  };
}

export function organizationHal({
  id = 'org-1',
  name = 'Analytical Engines',
  updatedAt = TIMESTAMP,
  ssoEnforced = false,
  reauthRequired = false,
}: {
  id?: string;
  name?: string;
  updatedAt?: string;
  ssoEnforced?: boolean;
  reauthRequired?: boolean;
} = {}): OrganizationResource {
  return {
    _type: 'organization',
    id,
    name,
    sso_enforced: ssoEnforced,
    address: null,
    city: null,
    state: null,
    zip: null,
    primary_phone: null,
    emergency_phone: null,
    ops_alert_email: null,
    security_alert_email: null,
    reauth_required: reauthRequired,
    created_at: TIMESTAMP,
    updated_at: updatedAt,
    _links: {
      self: { href: auth(`/organizations/${id}`) },
      users: { href: auth(`/organizations/${id}/users`) },
      roles: { href: auth(`/organizations/${id}/roles`) },
      invitations: { href: auth(`/organizations/${id}/invitations`) },
      billing_detail: { href: `${TEST_CONFIG.billingUrl}/billing_details/${id}` },
    },
  };
}

export function roleHal({
  id = 'role-1',
  name = 'Owners',
  type = 'owner',
  organizationId = 'org-1',
}: {
  id?: string;
  name?: string;
  type?: string;
  organizationId?: string;
} = {}): RoleResource {
  return {
    _type: 'role',
    id,
    name,
    type,
    scim_created: false,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
    _links: {
      self: { href: auth(`/roles/${id}`) },
      organization: { href: auth(`/organizations/${organizationId}`) },
      users: { href: auth(`/roles/${id}/users`) },
      memberships: { href: auth(`/roles/${id}/memberships`) },
    },
  };
}

export function stackHal({
  id = '1',
  name = 'shared-us-west-1',
  organizationId = null,
  isDefault = false,
}: {
  id?: string;
  name?: string;
  organizationId?: string | null;
  isDefault?: boolean;
} = {}): StackResource {
  return {
    _type: 'stack',
    id,
    name,
    region: 'us-west-1',
    default: isDefault,
    public: organizationId === null,
    self_hosted: false,
    runtime: '',
    aws_account_id: '',
    internal_domain: 'berth.internal',
    default_domain: 'on-berth.localhost',
    outbound_ip_addresses: [],
    memory_limits: false,
    cpu_limits: false,
    intrusion_detection: false,
    expose_intrusion_detection_reports: false,
    allow_c_instance_profile: false,
    allow_m_instance_profile: true,
    allow_r_instance_profile: false,
    allow_t_instance_profile: false,
    allow_granular_container_sizes: false,
    vertical_autoscaling: false,
    horizontal_autoscaling: false,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
    _links: {
      self: { href: api(`/stacks/${id}`) },
      accounts: { href: api(`/stacks/${id}/accounts`) },
      ...(organizationId ? { organization: { href: auth(`/organizations/${organizationId}`) } } : {}),
    },
  };
}

export function environmentHal({
  id = '10',
  handle = 'production',
  organizationId = 'org-1',
  stackId = '1',
  apps = 0,
  databases = 0,
  permissions = [],
}: {
  id?: string;
  handle?: string;
  organizationId?: string;
  stackId?: string;
  apps?: number;
  databases?: number;
  permissions?: { id: string; scope: string; roleId: string }[];
} = {}): EnvironmentResource {
  return {
    _type: 'account',
    id,
    handle,
    organization_id: organizationId,
    type: 'development',
    activated: true,
    onboarding_status: 'initiated',
    sweetness_stack: '',
    total_app_count: apps,
    total_database_count: databases,
    created_at: TIMESTAMP,
    updated_at: TIMESTAMP,
    _links: {
      self: { href: api(`/accounts/${id}`) },
      stack: { href: api(`/stacks/${stackId}`) },
      organization: { href: auth(`/organizations/${organizationId}`) },
      apps: { href: api(`/accounts/${id}/apps`) },
      databases: { href: api(`/accounts/${id}/databases`) },
      operations: { href: api(`/accounts/${id}/operations`) },
      permissions: { href: api(`/accounts/${id}/permissions`) },
    },
    _embedded: {
      permissions: permissions.map((permission) => ({
        _type: 'permission',
        id: permission.id,
        scope: permission.scope,
        created_at: TIMESTAMP,
        updated_at: TIMESTAMP,
        _links: {
          self: { href: api(`/permissions/${permission.id}`) },
          account: { href: api(`/accounts/${id}`) },
          role: { href: auth(`/roles/${permission.roleId}`) },
        },
      })),
    },
  };
}

export function collection(key: string, items: unknown[]) {
  return {
    _embedded: { [key]: items },
    _links: { self: { href: `${HOST}/${key}` } },
    current_page: 1,
    per_page: Math.max(items.length, 1),
    total_count: items.length,
  };
}

export function errorBody(status: number, error: string, message: string) {
  return { code: status, error, message, exception_context: {} };
}

/** contract §4.3 cost: one estimated monthly cost of a resource. */
export function costHal(
  id: string,
  resourceType: CostResource['resource_type'],
  estCost: number,
): CostResource {
  return { _type: 'cost', id, resource_type: resourceType, est_cost: estCost, _links: {} };
}
