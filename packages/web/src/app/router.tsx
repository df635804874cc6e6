import type { RouteObject } from 'react-router';
import { FullPageSpinner } from '../components/ui/spinner.tsx';
import { paths } from '../lib/paths.ts';
import { RouteErrorBoundary } from './error-page.tsx';
import { RequireSession, RequireVerifiedUser } from './guards.tsx';
import { listPages } from './list-pages.ts';
import { RootLayout, type RouteHandle } from './root-layout.tsx';

const beforeSession: RouteHandle = { rendersBeforeSession: true };

// Every screen is its own lazy chunk, so the login page ships only what it needs.
export const appRoutes: RouteObject[] = [
  {
    path: paths.root,
    Component: RootLayout,
    ErrorBoundary: RouteErrorBoundary,
    HydrateFallback: FullPageSpinner,
    children: [
      { path: paths.login, handle: beforeSession, lazy: () => import('./routes/auth/login.tsx') },
      { path: paths.signup, handle: beforeSession, lazy: () => import('./routes/auth/signup.tsx') },
      // SSO login and its failure page work signed out (spec 1 §2); a signed-in visitor is told so.
      { path: paths.sso, handle: beforeSession, lazy: () => import('./routes/sso/sso-login.tsx') },
      {
        path: paths.ssoOrganization,
        handle: beforeSession,
        lazy: () => import('./routes/sso/sso-login.tsx'),
      },
      { path: paths.ssoFailure, handle: beforeSession, lazy: () => import('./routes/sso/sso-failure.tsx') },
      // spec 3 "CLI token": signed in or not (the SSO login is the proof); the login lands on the reader.
      { path: paths.ssoCli, lazy: () => import('./routes/sso/cli-token.tsx') },
      {
        path: paths.ssoCliRead,
        handle: beforeSession,
        lazy: () => import('./routes/sso/cli-token-read.tsx'),
      },
      { path: paths.logout, lazy: () => import('./routes/auth/logout.tsx') },
      { path: paths.notFound, lazy: () => import('./routes/errors/not-found.tsx') },
      { path: paths.error, lazy: () => import('./routes/errors/error.tsx') },
      // Outside the session guard: a signed-out invitee sees the invitation before logging in (spec 1 §4).
      { path: paths.claimInvitation, lazy: () => import('./routes/invitations/claim.tsx') },
      // Public: a forgotten password is asked for, and reset from the mailed link, without a session.
      {
        path: paths.forgotPassword,
        handle: beforeSession,
        lazy: () => import('./routes/auth/forgot-password.tsx'),
      },
      // Shown the same signed in or out, so at once (and prerendered): nothing on it waits for the session.
      {
        path: paths.passwordUpdate,
        handle: beforeSession,
        lazy: () => import('./routes/auth/password-update.tsx'),
      },
      // The API documents are public: the reference reads the same signed in or out.
      { path: paths.apiReference, lazy: () => import('./routes/api-reference/index.tsx') },
      // The mailed 2FA reset link works signed out too: the code in it is the proof (contract §3.9).
      {
        path: paths.otpResetVerify,
        handle: beforeSession,
        lazy: () => import('./routes/auth/otp-reset-verify.tsx'),
      },
      {
        Component: RequireSession,
        children: [
          { path: paths.verify, lazy: () => import('./routes/auth/verify.tsx') },
          { path: paths.verifyChallenge, lazy: () => import('./routes/auth/verify-challenge.tsx') },
          { path: paths.elevate, lazy: () => import('./routes/auth/elevate.tsx') },
          {
            Component: RequireVerifiedUser,
            children: [
              { path: paths.organizationsCreate, lazy: () => import('./routes/organizations/create.tsx') },
              { path: paths.organizationsPicker, lazy: () => import('./routes/organizations/picker.tsx') },
              {
                lazy: async () => ({ Component: (await import('./shell/app-shell.tsx')).AppShell }),
                children: [
                  { index: true, lazy: () => import('./routes/home/home.tsx') },
                  { path: paths.homeBeta, lazy: () => import('./routes/home/home-beta.tsx') },
                  { path: paths.environments, lazy: listPages.environments },
                  { path: paths.createEnvironment, lazy: () => import('./routes/environments/create.tsx') },
                  { path: paths.apps, lazy: listPages.apps },
                  { path: paths.appDetail, lazy: () => import('./routes/apps/detail.tsx') },
                  { path: paths.backupRestore, lazy: () => import('./routes/backups/restore.tsx') },
                  { path: paths.databaseDetail, lazy: () => import('./routes/databases/detail.tsx') },
                  { path: paths.serviceDetail, lazy: () => import('./routes/services/detail.tsx') },
                  { path: paths.createApp, lazy: () => import('./routes/apps/create.tsx') },
                  // spec 3 guided app deployment (issue 38): steps 1 to 4.
                  { path: paths.deploy, lazy: () => import('./routes/deploy/choose-environment.tsx') },
                  {
                    path: paths.createDeployments,
                    lazy: () => import('./routes/deploy/create-deployments.tsx'),
                  },
                  { path: paths.appGetStarted, lazy: () => import('./routes/deploy/get-started.tsx') },
                  { path: paths.appGit, lazy: () => import('./routes/deploy/git.tsx') },
                  { path: paths.appDeployConfigure, lazy: () => import('./routes/deploy/configure.tsx') },
                  { path: paths.appDeployStatus, lazy: () => import('./routes/deploy/status.tsx') },
                  { path: paths.databases, lazy: listPages.databases },
                  { path: paths.createDatabase, lazy: () => import('./routes/databases/create.tsx') },
                  { path: paths.services, lazy: listPages.services },
                  { path: paths.deployments, lazy: listPages.deployments },
                  { path: paths.deploymentDetail, lazy: () => import('./routes/deployments/detail.tsx') },
                  { path: paths.sources, lazy: listPages.sources },
                  { path: paths.sourcesSetup, lazy: () => import('./routes/sources/setup.tsx') },
                  { path: paths.sourceDetail, lazy: () => import('./routes/sources/detail.tsx') },
                  { path: paths.activity, lazy: listPages.activity },
                  { path: paths.costs, lazy: () => import('./routes/costs/costs.tsx') },
                  {
                    path: paths.securityCompliance,
                    lazy: () => import('./routes/security/security-compliance.tsx'),
                  },
                  { path: paths.search, lazy: () => import('./routes/search/index.tsx') },
                  { path: paths.operationDetail, lazy: () => import('./routes/operations/detail.tsx') },
                  // Signed in, reached by URL only: the spec puts no style guide in the menu (issue 38).
                  { path: paths.styles, lazy: () => import('./routes/styles/style-guide.tsx') },
                  { path: paths.environmentDetail, lazy: () => import('./routes/environments/detail.tsx') },
                  { path: paths.selectEnvironment, lazy: () => import('./routes/environments/select.tsx') },
                  { path: paths.stacks, lazy: listPages.stacks },
                  { path: paths.stackDetail, lazy: () => import('./routes/stacks/detail.tsx') },
                  { path: paths.createStack, lazy: () => import('./routes/stacks/create.tsx') },
                  { path: paths.support, lazy: () => import('./routes/support/support.tsx') },
                  {
                    path: paths.settings,
                    lazy: () => import('./routes/settings/layout.tsx'),
                    children: [
                      { index: true, lazy: () => import('./routes/settings/index-redirect.tsx') },
                      { path: paths.settingsProfile, lazy: () => import('./routes/settings/profile.tsx') },
                      { path: paths.settingsSecurity, lazy: () => import('./routes/settings/security.tsx') },
                      { path: paths.otpSetup, lazy: () => import('./routes/settings/otp-setup.tsx') },
                      {
                        path: paths.addSecurityKey,
                        lazy: () => import('./routes/settings/add-security-key.tsx'),
                      },
                      {
                        path: paths.otpRecoveryCodes,
                        lazy: () => import('./routes/settings/otp-recovery-codes.tsx'),
                      },
                      { path: paths.teamMembers, lazy: () => import('./routes/settings/members.tsx') },
                      { path: paths.teamMember, lazy: () => import('./routes/settings/member.tsx') },
                      { path: paths.teamInvite, lazy: () => import('./routes/settings/invite.tsx') },
                      {
                        path: paths.teamPendingInvites,
                        lazy: () => import('./routes/settings/pending-invites.tsx'),
                      },
                      { path: paths.teamContacts, lazy: () => import('./routes/settings/contacts.tsx') },
                      { path: paths.invoices, lazy: () => import('./routes/settings/invoices.tsx') },
                      { path: paths.teamSso, lazy: () => import('./routes/settings/sso.tsx') },
                      { path: paths.teamScim, lazy: () => import('./routes/settings/scim.tsx') },
                      { path: paths.teamRoles, lazy: () => import('./routes/roles/overview.tsx') },
                      { path: paths.createRole, lazy: () => import('./routes/roles/create.tsx') },
                      { path: paths.settingsSsh, lazy: () => import('./routes/settings/ssh.tsx') },
                      { path: paths.settingsTokens, lazy: () => import('./routes/settings/tokens.tsx') },
                    ],
                  },
                  // A role's page sits in the settings frame too, though its path is outside /settings.
                  {
                    lazy: () => import('./routes/settings/layout.tsx'),
                    children: [{ path: paths.roleDetail, lazy: () => import('./routes/roles/detail.tsx') }],
                  },
                  { path: paths.endpoints, lazy: listPages.endpoints },
                  { path: paths.endpointDetail, lazy: () => import('./routes/endpoints/detail.tsx') },
                  { path: paths.createAppEndpoint, lazy: () => import('./routes/endpoints/create.tsx') },
                  {
                    path: paths.createDatabaseEndpoint,
                    lazy: () => import('./routes/endpoints/create-database.tsx'),
                  },
                  { path: paths.certificateDetail, lazy: () => import('./routes/certificates/detail.tsx') },
                  { path: paths.createCertificate, lazy: () => import('./routes/certificates/create.tsx') },
                  { path: paths.createLogDrain, lazy: () => import('./routes/drains/create-log-drain.tsx') },
                  {
                    path: paths.createMetricDrain,
                    lazy: () => import('./routes/drains/create-metric-drain.tsx'),
                  },
                  { path: paths.impersonate, lazy: () => import('./routes/impersonate/impersonate.tsx') },
                  { path: paths.plans, lazy: () => import('./routes/billing/plans.tsx') },
                  { path: paths.billing, lazy: () => import('./routes/billing/add-payment.tsx') },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', lazy: () => import('./routes/errors/not-found.tsx') },
    ],
  },
];
