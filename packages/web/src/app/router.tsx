import type { RouteObject } from 'react-router';
import { FullPageSpinner } from '../components/ui/spinner.tsx';
import { paths } from '../lib/paths.ts';
import { RouteErrorBoundary } from './error-page.tsx';
import { RequireSession, RequireVerifiedUser } from './guards.tsx';
import { listPages } from './list-pages.ts';
import { RootLayout, type RouteHandle } from './root-layout.tsx';

const beforeSession: RouteHandle = { rendersBeforeSession: true };
/** The page a route shows, for the document title (issue 41). */
const page = (title: string): RouteHandle => ({ title });
/** A resource's page: its header's name leads the title ("web · Apps · Berth"). */
const resourcePage = (title: string): RouteHandle => ({ title, namedByHeader: true });

// Every screen is its own lazy chunk, so the login page ships only what it needs.
export const appRoutes: RouteObject[] = [
  {
    path: paths.root,
    Component: RootLayout,
    ErrorBoundary: RouteErrorBoundary,
    HydrateFallback: FullPageSpinner,
    children: [
      {
        path: paths.login,
        handle: { ...beforeSession, ...page('Log In') },
        lazy: () => import('./routes/auth/login.tsx'),
      },
      {
        path: paths.signup,
        handle: { ...beforeSession, ...page('Sign Up') },
        lazy: () => import('./routes/auth/signup.tsx'),
      },
      // SSO login and its failure page work signed out (spec 1 §2); a signed-in visitor is told so.
      {
        path: paths.sso,
        handle: { ...beforeSession, ...page('Single Sign-On') },
        lazy: () => import('./routes/sso/sso-login.tsx'),
      },
      {
        path: paths.ssoOrganization,
        handle: { ...beforeSession, ...page('Single Sign-On') },
        lazy: () => import('./routes/sso/sso-login.tsx'),
      },
      {
        path: paths.ssoFailure,
        handle: { ...beforeSession, ...page('Single Sign-On') },
        lazy: () => import('./routes/sso/sso-failure.tsx'),
      },
      // spec 3 "CLI token": signed in or not (the SSO login is the proof); the login lands on the reader.
      { path: paths.ssoCli, handle: page('CLI Token'), lazy: () => import('./routes/sso/cli-token.tsx') },
      {
        path: paths.ssoCliRead,
        handle: { ...beforeSession, ...page('CLI Token') },
        lazy: () => import('./routes/sso/cli-token-read.tsx'),
      },
      { path: paths.logout, handle: page('Log Out'), lazy: () => import('./routes/auth/logout.tsx') },
      {
        path: paths.notFound,
        handle: page('Page Not Found'),
        lazy: () => import('./routes/errors/not-found.tsx'),
      },
      { path: paths.error, handle: page('Error'), lazy: () => import('./routes/errors/error.tsx') },
      // Outside the session guard: a signed-out invitee sees the invitation before logging in (spec 1 §4).
      {
        path: paths.claimInvitation,
        handle: page('Invitation'),
        lazy: () => import('./routes/invitations/claim.tsx'),
      },
      // Public: a forgotten password is asked for, and reset from the mailed link, without a session.
      {
        path: paths.forgotPassword,
        handle: { ...beforeSession, ...page('Forgot Password') },
        lazy: () => import('./routes/auth/forgot-password.tsx'),
      },
      // Shown the same signed in or out, so at once (and prerendered): nothing on it waits for the session.
      {
        path: paths.passwordUpdate,
        handle: { ...beforeSession, ...page('Reset Password') },
        lazy: () => import('./routes/auth/password-update.tsx'),
      },
      // The API documents are public: the reference reads the same signed in or out.
      {
        path: paths.apiReference,
        handle: page('API Reference'),
        lazy: () => import('./routes/api-reference/index.tsx'),
      },
      // The mailed 2FA reset link works signed out too: the code in it is the proof (contract §3.9).
      {
        path: paths.otpResetVerify,
        handle: { ...beforeSession, ...page('Reset 2FA') },
        lazy: () => import('./routes/auth/otp-reset-verify.tsx'),
      },
      {
        Component: RequireSession,
        children: [
          {
            path: paths.verify,
            handle: page('Verify Email'),
            lazy: () => import('./routes/auth/verify.tsx'),
          },
          {
            path: paths.verifyChallenge,
            handle: page('Verify Email'),
            lazy: () => import('./routes/auth/verify-challenge.tsx'),
          },
          {
            path: paths.elevate,
            handle: page('Confirm Your Password'),
            lazy: () => import('./routes/auth/elevate.tsx'),
          },
          {
            Component: RequireVerifiedUser,
            children: [
              {
                path: paths.organizationsCreate,
                handle: page('Create Organization'),
                lazy: () => import('./routes/organizations/create.tsx'),
              },
              {
                path: paths.organizationsPicker,
                handle: page('Organizations'),
                lazy: () => import('./routes/organizations/picker.tsx'),
              },
              {
                lazy: async () => ({ Component: (await import('./shell/app-shell.tsx')).AppShell }),
                children: [
                  { index: true, handle: page('Home'), lazy: () => import('./routes/home/home.tsx') },
                  {
                    path: paths.homeBeta,
                    handle: page('Home'),
                    lazy: () => import('./routes/home/home-beta.tsx'),
                  },
                  { path: paths.environments, handle: page('Environments'), lazy: listPages.environments },
                  {
                    path: paths.createEnvironment,
                    handle: page('New Environment'),
                    lazy: () => import('./routes/environments/create.tsx'),
                  },
                  { path: paths.apps, handle: page('Apps'), lazy: listPages.apps },
                  {
                    path: paths.appDetail,
                    handle: resourcePage('Apps'),
                    lazy: () => import('./routes/apps/detail.tsx'),
                  },
                  {
                    path: paths.backupRestore,
                    handle: page('Restore Backup'),
                    lazy: () => import('./routes/backups/restore.tsx'),
                  },
                  {
                    path: paths.databaseDetail,
                    handle: resourcePage('Databases'),
                    lazy: () => import('./routes/databases/detail.tsx'),
                  },
                  {
                    path: paths.serviceDetail,
                    handle: resourcePage('Services'),
                    lazy: () => import('./routes/services/detail.tsx'),
                  },
                  {
                    path: paths.createApp,
                    handle: page('New App'),
                    lazy: () => import('./routes/apps/create.tsx'),
                  },
                  // spec 3 guided app deployment (issue 38): steps 1 to 4.
                  {
                    path: paths.deploy,
                    handle: page('Deploy'),
                    lazy: () => import('./routes/deploy/choose-environment.tsx'),
                  },
                  {
                    path: paths.createDeployments,
                    handle: page('Deploy'),
                    lazy: () => import('./routes/deploy/create-deployments.tsx'),
                  },
                  {
                    path: paths.appGetStarted,
                    handle: page('Deploy'),
                    lazy: () => import('./routes/deploy/get-started.tsx'),
                  },
                  {
                    path: paths.appGit,
                    handle: page('Deploy'),
                    lazy: () => import('./routes/deploy/git.tsx'),
                  },
                  {
                    path: paths.appDeployConfigure,
                    handle: page('Deploy'),
                    lazy: () => import('./routes/deploy/configure.tsx'),
                  },
                  {
                    path: paths.appDeployStatus,
                    handle: page('Deploy'),
                    lazy: () => import('./routes/deploy/status.tsx'),
                  },
                  { path: paths.databases, handle: page('Databases'), lazy: listPages.databases },
                  {
                    path: paths.createDatabase,
                    handle: page('New Database'),
                    lazy: () => import('./routes/databases/create.tsx'),
                  },
                  { path: paths.services, handle: page('Services'), lazy: listPages.services },
                  { path: paths.deployments, handle: page('Deployments'), lazy: listPages.deployments },
                  {
                    path: paths.deploymentDetail,
                    handle: resourcePage('Deployments'),
                    lazy: () => import('./routes/deployments/detail.tsx'),
                  },
                  { path: paths.sources, handle: page('Sources'), lazy: listPages.sources },
                  {
                    path: paths.sourcesSetup,
                    handle: page('Set Up a Source'),
                    lazy: () => import('./routes/sources/setup.tsx'),
                  },
                  {
                    path: paths.sourceDetail,
                    handle: resourcePage('Sources'),
                    lazy: () => import('./routes/sources/detail.tsx'),
                  },
                  { path: paths.activity, handle: page('Activity'), lazy: listPages.activity },
                  {
                    path: paths.costs,
                    handle: page('Costs'),
                    lazy: () => import('./routes/costs/costs.tsx'),
                  },
                  {
                    path: paths.securityCompliance,
                    handle: page('Security & Compliance'),
                    lazy: () => import('./routes/security/security-compliance.tsx'),
                  },
                  {
                    path: paths.search,
                    handle: page('Search'),
                    lazy: () => import('./routes/search/index.tsx'),
                  },
                  {
                    path: paths.operationDetail,
                    handle: resourcePage('Operations'),
                    lazy: () => import('./routes/operations/detail.tsx'),
                  },
                  // Signed in, reached by URL only: the spec puts no style guide in the menu (issue 38).
                  {
                    path: paths.styles,
                    handle: page('Style Guide'),
                    lazy: () => import('./routes/styles/style-guide.tsx'),
                  },
                  {
                    path: paths.environmentDetail,
                    handle: resourcePage('Environments'),
                    lazy: () => import('./routes/environments/detail.tsx'),
                  },
                  {
                    path: paths.selectEnvironment,
                    handle: page('Choose Environment'),
                    lazy: () => import('./routes/environments/select.tsx'),
                  },
                  { path: paths.stacks, handle: page('Stacks'), lazy: listPages.stacks },
                  {
                    path: paths.stackDetail,
                    handle: resourcePage('Stacks'),
                    lazy: () => import('./routes/stacks/detail.tsx'),
                  },
                  {
                    path: paths.createStack,
                    handle: page('New Stack'),
                    lazy: () => import('./routes/stacks/create.tsx'),
                  },
                  {
                    path: paths.support,
                    handle: page('Support'),
                    lazy: () => import('./routes/support/support.tsx'),
                  },
                  {
                    path: paths.settings,
                    handle: page('Settings'),
                    lazy: () => import('./routes/settings/layout.tsx'),
                    children: [
                      { index: true, lazy: () => import('./routes/settings/index-redirect.tsx') },
                      {
                        path: paths.settingsProfile,
                        handle: page('Profile'),
                        lazy: () => import('./routes/settings/profile.tsx'),
                      },
                      {
                        path: paths.settingsSecurity,
                        handle: page('Security'),
                        lazy: () => import('./routes/settings/security.tsx'),
                      },
                      {
                        path: paths.otpSetup,
                        handle: page('Set Up 2FA'),
                        lazy: () => import('./routes/settings/otp-setup.tsx'),
                      },
                      {
                        path: paths.addSecurityKey,
                        handle: page('Add Security Key'),
                        lazy: () => import('./routes/settings/add-security-key.tsx'),
                      },
                      {
                        path: paths.otpRecoveryCodes,
                        handle: page('Recovery Codes'),
                        lazy: () => import('./routes/settings/otp-recovery-codes.tsx'),
                      },
                      {
                        path: paths.teamMembers,
                        handle: page('Members'),
                        lazy: () => import('./routes/settings/members.tsx'),
                      },
                      {
                        path: paths.teamMember,
                        handle: resourcePage('Members'),
                        lazy: () => import('./routes/settings/member.tsx'),
                      },
                      {
                        path: paths.teamInvite,
                        handle: page('Invite'),
                        lazy: () => import('./routes/settings/invite.tsx'),
                      },
                      {
                        path: paths.teamPendingInvites,
                        handle: page('Pending Invites'),
                        lazy: () => import('./routes/settings/pending-invites.tsx'),
                      },
                      {
                        path: paths.teamContacts,
                        handle: page('Contacts'),
                        lazy: () => import('./routes/settings/contacts.tsx'),
                      },
                      {
                        path: paths.invoices,
                        handle: page('Invoices'),
                        lazy: () => import('./routes/settings/invoices.tsx'),
                      },
                      {
                        path: paths.teamSso,
                        handle: page('SSO'),
                        lazy: () => import('./routes/settings/sso.tsx'),
                      },
                      {
                        path: paths.teamScim,
                        handle: page('SCIM'),
                        lazy: () => import('./routes/settings/scim.tsx'),
                      },
                      {
                        path: paths.teamRoles,
                        handle: page('Roles'),
                        lazy: () => import('./routes/roles/overview.tsx'),
                      },
                      {
                        path: paths.createRole,
                        handle: page('New Role'),
                        lazy: () => import('./routes/roles/create.tsx'),
                      },
                      {
                        path: paths.settingsSsh,
                        handle: page('SSH Keys'),
                        lazy: () => import('./routes/settings/ssh.tsx'),
                      },
                      {
                        path: paths.settingsTokens,
                        handle: page('Access Tokens'),
                        lazy: () => import('./routes/settings/tokens.tsx'),
                      },
                    ],
                  },
                  // A role's page sits in the settings frame too, though its path is outside /settings.
                  {
                    handle: page('Settings'),
                    lazy: () => import('./routes/settings/layout.tsx'),
                    children: [
                      {
                        path: paths.roleDetail,
                        handle: resourcePage('Roles'),
                        lazy: () => import('./routes/roles/detail.tsx'),
                      },
                    ],
                  },
                  { path: paths.endpoints, handle: page('Endpoints'), lazy: listPages.endpoints },
                  {
                    path: paths.endpointDetail,
                    handle: resourcePage('Endpoints'),
                    lazy: () => import('./routes/endpoints/detail.tsx'),
                  },
                  {
                    path: paths.createAppEndpoint,
                    handle: page('New Endpoint'),
                    lazy: () => import('./routes/endpoints/create.tsx'),
                  },
                  {
                    path: paths.createDatabaseEndpoint,
                    handle: page('New Endpoint'),
                    lazy: () => import('./routes/endpoints/create-database.tsx'),
                  },
                  {
                    path: paths.certificateDetail,
                    handle: resourcePage('Certificates'),
                    lazy: () => import('./routes/certificates/detail.tsx'),
                  },
                  {
                    path: paths.createCertificate,
                    handle: page('New Certificate'),
                    lazy: () => import('./routes/certificates/create.tsx'),
                  },
                  {
                    path: paths.createLogDrain,
                    handle: page('New Log Drain'),
                    lazy: () => import('./routes/drains/create-log-drain.tsx'),
                  },
                  {
                    path: paths.createMetricDrain,
                    handle: page('New Metric Drain'),
                    lazy: () => import('./routes/drains/create-metric-drain.tsx'),
                  },
                  {
                    path: paths.impersonate,
                    handle: page('Impersonate'),
                    lazy: () => import('./routes/impersonate/impersonate.tsx'),
                  },
                  {
                    path: paths.plans,
                    handle: page('Plans'),
                    lazy: () => import('./routes/billing/plans.tsx'),
                  },
                  {
                    path: paths.billing,
                    handle: page('Billing'),
                    lazy: () => import('./routes/billing/add-payment.tsx'),
                  },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', handle: page('Page Not Found'), lazy: () => import('./routes/errors/not-found.tsx') },
    ],
  },
];
