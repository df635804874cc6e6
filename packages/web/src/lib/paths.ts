import { generatePath, matchPath } from 'react-router';

// Every console path, once (spec 1 §2, spec 3 §2). Build paths with params through `to`.
export const paths = {
  root: '/',
  login: '/login',
  logout: '/logout',
  signup: '/signup',
  elevate: '/elevate',
  verify: '/verify',
  verifyChallenge: '/verify/:verificationId/:verificationCode',
  organizationsCreate: '/organizations/create',
  organizationsPicker: '/organizations/picker',
  notFound: '/404',
  error: '/error',
  // spec 3 §2: the style guide, every piece of the UI kit in its states (issue 38).
  styles: '/styles',
  homeBeta: '/home-beta',
  stacks: '/stacks',
  environments: '/environments',
  apps: '/apps',
  databases: '/databases',
  endpoints: '/endpoints',
  services: '/services',
  sources: '/sources',
  deployments: '/deployments',
  activity: '/activity',
  // Issue 41: the organization's costs; the spec names no route for it, this one is ours.
  costs: '/costs',
  // spec 3 §2: global search, its text in the `search` query parameter.
  search: '/search',
  // The spec names no route for the Security & Compliance entry; this one is ours.
  securityCompliance: '/security-compliance',
  createEnvironment: '/create/environment',
  // Stacks and environments detail pages: the tab is the last segment (spec 2 §2).
  stackDetail: '/stacks/:id/:tab?',
  environmentDetail: '/environments/:id/:tab?',
  createStack: '/create/stack',
  selectEnvironment: '/select/env',
  createApp: '/create/app',
  // Apps and services (spec 2 §2): the tab is the last segment.
  appDetail: '/apps/:id/:tab?',
  serviceDetail: '/apps/:id/services/:serviceId/:tab?',
  // Deployments, sources and operations (spec 2 §2, spec 3 §2): the tab is the last segment.
  deploymentDetail: '/deployments/:id/:tab?',
  sourcesSetup: '/sources/setup',
  sourceDetail: '/sources/:id/:tab?',
  operationDetail: '/operations/:id',
  // Endpoints and certificates (spec 2 §2): the tab is the last segment.
  endpointDetail: '/endpoints/:id/:tab?',
  createAppEndpoint: '/apps/:id/endpoints/create',
  certificateDetail: '/certificates/:id/:tab?',
  // Databases (spec 2 §2 /databases/{id}): the tab is the last segment; endpoints/create is its own page.
  databaseDetail: '/databases/:id/:tab?',
  createDatabaseEndpoint: '/databases/:id/endpoints/create',
  createDatabase: '/create/db',
  // Backups (spec 2 §2): restore a backup into a new database.
  backupRestore: '/backups/:id/restore',
  createCertificate: '/environments/:id/certificates/create',
  // Drains (spec 2 §2): the environment is a query parameter.
  createLogDrain: '/log-drains/create',
  createMetricDrain: '/metric-drains/create',
  // Roles (spec 1 §2): the overview, New Role, and the role detail whose tab is the last segment.
  teamRoles: '/settings/team/roles',
  createRole: '/settings/team/roles/create',
  roleDetail: '/roles/:id/:tab?',
  deploy: '/deploy',
  // spec 3 §2 guided app deployment (issue 38): name the app, push or pick a template, configure, deploy.
  createDeployments: '/create/deployments',
  appGetStarted: '/apps/:id/get-started',
  appGit: '/apps/:id/git',
  appDeployConfigure: '/apps/:id/deploy/configure',
  appDeployStatus: '/apps/:id/deploy/status',
  settings: '/settings',
  // Team settings (spec 1 §2) and the invitation link (contract §3.9).
  teamMembers: '/settings/team/members',
  teamMember: '/settings/team/members/:id',
  teamInvite: '/settings/team/invite',
  teamPendingInvites: '/settings/team/pending-invites',
  teamContacts: '/settings/team/contacts',
  // spec 1 §2: plan selection, add payment information and invoices (issue 37).
  plans: '/plans',
  billing: '/billing',
  invoices: '/settings/billing/invoices',
  // spec 1 §2: provisioning (SCIM).
  teamScim: '/settings/team/scim',
  claimInvitation: '/claim/:inviteId/:code',
  // Account settings and self-service security (spec 1 §2).
  settingsProfile: '/settings/profile',
  settingsSecurity: '/settings/security',
  settingsSsh: '/settings/ssh',
  // Ours (issue 35): personal access tokens for git and the API, beside the SSH keys.
  settingsTokens: '/settings/tokens',
  otpSetup: '/settings/otp-setup',
  otpRecoveryCodes: '/settings/otp-recovery-codes',
  addSecurityKey: '/settings/add-security-key',
  otpResetVerify: '/otp-reset-verify/:challengeId/:verificationCode',
  forgotPassword: '/forgot-password',
  passwordUpdate: '/password/update/:challengeId/:verificationCode',
  impersonate: '/impersonate',
  support: '/support',
  // Ours (issue 8): the public API reference, read from each service family's OpenAPI document.
  apiReference: '/api-reference',
  sso: '/sso',
  // spec 1 §2 /sso/{orgId}: the shortcut login link, by organization id or SSO login ID (handle).
  ssoOrganization: '/sso/:orgId',
  // spec 1 §7: where the auth host sends a failed SSO login back to.
  ssoFailure: '/sso/failure',
  // spec 3 "CLI token": choose a lifetime and sign in; the login lands on the reading variant.
  ssoCli: '/sso/cli',
  ssoCliRead: '/sso/cli/read',
  // spec 1 §2: single sign-on settings.
  teamSso: '/settings/team/sso',
} as const;

export const to = {
  verifyChallenge: (verificationId: string, verificationCode: string) =>
    generatePath(paths.verifyChallenge, { verificationId, verificationCode }),
  elevate: (redirect: string) => `${paths.elevate}?${new URLSearchParams({ redirect })}`,
  error: (message: string) => `${paths.error}?${new URLSearchParams({ message })}`,
  app: (id: string, tab?: string) => generatePath(paths.appDetail, { id, tab: tab ?? null }),
  service: (appId: string, serviceId: string, tab?: string) =>
    generatePath(paths.serviceDetail, { id: appId, serviceId, tab: tab ?? null }),
  deployment: (id: string, tab?: string) => generatePath(paths.deploymentDetail, { id, tab: tab ?? null }),
  search: (text: string) =>
    text ? `${paths.search}?${new URLSearchParams({ search: text })}` : paths.search,
  source: (id: string, tab?: string) => generatePath(paths.sourceDetail, { id, tab: tab ?? null }),
  operation: (id: string) => generatePath(paths.operationDetail, { id }),
  stack: (id: string, tab?: string) => generatePath(paths.stackDetail, { id, tab: tab ?? null }),
  environment: (id: string, tab?: string) => generatePath(paths.environmentDetail, { id, tab: tab ?? null }),
  endpoint: (id: string, tab?: string) => generatePath(paths.endpointDetail, { id, tab: tab ?? null }),
  createAppEndpoint: (appId: string) => generatePath(paths.createAppEndpoint, { id: appId }),
  certificate: (id: string, tab?: string) => generatePath(paths.certificateDetail, { id, tab: tab ?? null }),
  createLogDrain: (environmentId: string) =>
    `${paths.createLogDrain}?environment_id=${encodeURIComponent(environmentId)}`,
  createMetricDrain: (environmentId: string) =>
    `${paths.createMetricDrain}?environment_id=${encodeURIComponent(environmentId)}`,
  createCertificate: (environmentId: string) => generatePath(paths.createCertificate, { id: environmentId }),
  database: (id: string, tab?: string) => generatePath(paths.databaseDetail, { id, tab: tab ?? null }),
  createDatabaseEndpoint: (databaseId: string) =>
    generatePath(paths.createDatabaseEndpoint, { id: databaseId }),
  createDatabase: (environmentId?: string | null) =>
    environmentId
      ? `${paths.createDatabase}?${new URLSearchParams({ environment_id: environmentId })}`
      : paths.createDatabase,
  backupRestore: (id: string) => generatePath(paths.backupRestore, { id }),
  role: (id: string, tab?: string) => generatePath(paths.roleDetail, { id, tab: tab ?? null }),
  teamMember: (id: string) => generatePath(paths.teamMember, { id }),
  otpResetVerify: (challengeId: string, verificationCode: string) =>
    generatePath(paths.otpResetVerify, { challengeId, verificationCode }),
  passwordUpdate: (challengeId: string, verificationCode: string) =>
    generatePath(paths.passwordUpdate, { challengeId, verificationCode }),
  claimInvitation: (inviteId: string, code: string) =>
    generatePath(paths.claimInvitation, { inviteId, code }),
  /** spec 1 §4 Sign-up "with an invitation": the claim page hands its invitation over explicitly. */
  signupFromInvitation: (inviteId: string, code: string) =>
    `${paths.signup}?${new URLSearchParams({ invitation: inviteId, code })}`,
  /** Create Environment, on a given stack when the page it starts from has one. */
  createEnvironment: (stackId?: string | null) =>
    stackId
      ? `${paths.createEnvironment}?${new URLSearchParams({ stack_id: stackId })}`
      : paths.createEnvironment,
  createApp: (environmentId: string) =>
    `${paths.createApp}?${new URLSearchParams({ environment_id: environmentId })}`,
  /** The support form, prefilled for a request the spec sends through support (or a ticket's page). */
  support: (prefill: { subject?: string; description?: string; priority?: string; ticket?: string } = {}) => {
    const query = new URLSearchParams(
      Object.entries(prefill).filter((entry): entry is [string, string] => Boolean(entry[1])),
    ).toString();
    return query ? `${paths.support}?${query}` : paths.support;
  },
  /** spec 3 "Choose your Environment" of the guided deploy, on a stack or environment when one is known. */
  deploy: (query: { stackId?: string | null; environmentId?: string | null } = {}) =>
    withQuery(paths.deploy, { stack_id: query.stackId, environment_id: query.environmentId }),
  /** Step 1: the app in an environment, or (no environment yet) an environment and app on a stack. */
  createDeployments: (query: { environmentId?: string | null; stackId?: string | null }) =>
    withQuery(paths.createDeployments, { environment_id: query.environmentId, stack_id: query.stackId }),
  appGetStarted: (id: string) => generatePath(paths.appGetStarted, { id }),
  appGit: (id: string, query: { template?: string | null } = {}) =>
    withQuery(generatePath(paths.appGit, { id }), { template: query.template }),
  appDeployConfigure: (id: string, query: { gitRef?: string | null; template?: string | null } = {}) =>
    withQuery(generatePath(paths.appDeployConfigure, { id }), {
      git_ref: query.gitRef,
      template: query.template,
    }),
  appDeployStatus: (id: string) => generatePath(paths.appDeployStatus, { id }),
};

/** A path with the query parameters that have a value. */
function withQuery(path: string, query: Record<string, string | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

/** spec 1 §2: the page is remembered for after login, except these. */
const NOT_REMEMBERED = [paths.login, paths.signup, paths.logout, paths.verify];

export function isRememberedPath(pathname: string): boolean {
  return !NOT_REMEMBERED.some((path) => pathname === path || pathname.startsWith(`${path}/`));
}

/** Only same-origin paths may be redirect targets, so a crafted link cannot send users elsewhere. */
export function safeInternalPath(value: string | null | undefined): string | null {
  return value && /^\/(?![/\\])/.test(value) ? value : null;
}

/** The invitation a sign-up was started from (`to.signupFromInvitation`), or null for a plain sign-up. */
export function signupInvitationOf(
  params: URLSearchParams,
): { inviteId: string; code: string; path: string } | null {
  const inviteId = params.get('invitation') ?? '';
  const code = params.get('code') ?? '';
  return inviteId && code ? { inviteId, code, path: to.claimInvitation(inviteId, code) } : null;
}

/** The invitation of a claim path (contract §3.9 /claim/:invitationId/:code), e.g. a remembered page. */
export function claimOf(
  path: string | null | undefined,
): { inviteId: string; code: string; path: string } | null {
  const match = path ? matchPath(paths.claimInvitation, path.split(/[?#]/)[0] ?? '') : null;
  const { inviteId, code } = match?.params ?? {};
  return path && inviteId && code ? { inviteId, code, path } : null;
}
