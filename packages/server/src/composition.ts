import {
  activityReportLinksKey,
  createActivityReportsService,
} from './api/activity-reports/activity-reports.service.ts';
import { createAppsService } from './api/apps/apps.service.ts';
import { createAuditEventsService } from './api/audit-events/audit-events.service.ts';
import { createBackupsService } from './api/backups/backups.service.ts';
import { createCertificatesService } from './api/certificates/certificates.service.ts';
import { createCodeScanResultsService } from './api/code-scan-results/code-scan-results.service.ts';
import { createConfigurationsService } from './api/configurations/configurations.service.ts';
import { createCostsService } from './api/costs/costs.service.ts';
import { createCustomResourcesService } from './api/custom-resources/custom-resources.service.ts';
import { createDatabaseProblems } from './api/databases/database-problem.ts';
import { createDatabasesService } from './api/databases/databases.service.ts';
import { createDeploymentsService } from './api/deployments/deployments.service.ts';
import { createEdgesService } from './api/edges/edges.service.ts';
import { createEnvironmentsService } from './api/environments/environments.service.ts';
import { createHomeService } from './api/home/home.service.ts';
import { createImagesService } from './api/images/images.service.ts';
import { createLogDrainsService } from './api/log-drains/log-drains.service.ts';
import { createMetricDrainsService } from './api/metric-drains/metric-drains.service.ts';
import { createPermissionsService } from './api/permissions/permissions.service.ts';
import { createReleasesService } from './api/releases/releases.service.ts';
import { createSearchService } from './api/search/search.service.ts';
import { createSecurityService } from './api/security/security.service.ts';
import { createServiceDefinitionsService } from './api/service-definitions/service-definitions.service.ts';
import { createServiceLogsService } from './api/services/service-logs.service.ts';
import { createServicesService } from './api/services/services.service.ts';
import { createSizingService } from './api/sizing/sizing.service.ts';
import { createSourcesService } from './api/sources/sources.service.ts';
import { createStackNodesService } from './api/stacks/stack-nodes.service.ts';
import { createStacksService } from './api/stacks/stacks.service.ts';
import { registeredSwarmClusters, swarmClusterTlsBox } from './api/stacks/swarm-clusters.service.ts';
import { createSupportService } from './api/support/support.service.ts';
import { createVhostsService } from './api/vhosts/vhosts.service.ts';
import { createCallers } from './auth/caller-access.ts';
import { createInvitationsService } from './auth/invitations/invitations.service.ts';
import { createPasswordResetService } from './auth/passwords/password-reset.service.ts';
import { createPersonalAccessTokens } from './auth/personal-access-tokens/personal-access-tokens.service.ts';
import { createLoginLimiter, createRateLimiter, waitMinutes } from './auth/rate-limit.ts';
import { createRoleAccess } from './auth/roles/role-access.ts';
import { createSamlConfigurationsService } from './auth/saml/saml-configurations.service.ts';
import { createSamlLoginService, SSO_LOGIN_STARTS_PER_MINUTE } from './auth/saml/saml-login.service.ts';
import { createScimConfigurationsService } from './auth/scim-configurations/scim-configurations.service.ts';
import { createSecurityKeysService } from './auth/security-keys/security-keys.service.ts';
import { createSecurityNotices } from './auth/security-notices.ts';
import { createCliTokens } from './auth/sso/cli-token.ts';
import { createDeviceCookies } from './auth/tokens/device-cookies.ts';
import { createTokenService } from './auth/tokens/token.service.ts';
import { loadSigningKey } from './auth/tokens/token-keys.ts';
import { createTwoFactorService } from './auth/two-factor/two-factor.service.ts';
import { createEmailVerificationService } from './auth/users/email-verification.service.ts';
import { createWhitelistMemberships } from './auth/whitelist-memberships/whitelist-memberships.service.ts';
import { createBilling } from './billing/billing.service.ts';
import {
  activePlanTerms,
  createInvoicesService,
  invoicePortalKey,
} from './billing/invoices/invoices.service.ts';
import { createLocalPaymentProvider } from './billing/payments/local-provider.ts';
import { createStripePaymentProvider } from './billing/payments/stripe-provider.ts';
import { createPlansService } from './billing/plans/plans.service.ts';
import { type Config, drainTlsOf, familyUrls } from './config.ts';
import type { Db } from './db/client.ts';
import { createLogShipper } from './drains/log-shipper.ts';
import { createMetricShipper } from './drains/metric-shipper.ts';
import { createAuthGuard } from './http/authenticate.ts';
import { createMailer, type Mail } from './mail/mailer.ts';
import { createContainerMetricsService } from './metrics/container-metrics/container-metrics.service.ts';
import { createActivityReportScheduler } from './operations/activity-report-scheduler.ts';
import { createAutoscaler, runtimeLoadSource } from './operations/autoscaler.ts';
import { createBackupScheduler } from './operations/backup-scheduler.ts';
import { createContainerReconciler } from './operations/container-reconciler.ts';
import { createNodeLossRecorder } from './operations/node-loss.ts';
import { createOperationsService, operationLogsKey } from './operations/operations.service.ts';
import { periodic } from './operations/periodic.ts';
import { createSizingRecommender, runtimeUsageSource } from './operations/sizing-recommender.ts';
import { createWorker, type OperationEvent } from './operations/worker.ts';
import { createRuntimes } from './runtimes/runtimes.ts';
import { createScimGroupsService } from './scim/scim-groups.service.ts';
import { createScimUsersService } from './scim/scim-users.service.ts';
import { createSecretBox, databaseCredentialsBox } from './security/secret-box.ts';
/**
 * The composition root: every service of the server, built once and wired to the services it needs.
 * Routes receive the ones they use as typed dependencies and never build a service themselves.
 */
export async function createServices(
  config: Config,
  db: Db,
  hooks: {
    /** Told of each message kept in the outbox (no SMTP), so people elsewhere can read their links. */
    onOutboxMail?: (mail: Mail) => void;
    /** Errors that have no request to answer (mail delivery, the worker). */
    onError: (error: unknown) => void;
    /** Each operation the worker starts and ends. */
    onOperation?: (event: OperationEvent) => void;
  },
) {
  const urls = familyUrls(config);
  const mailer = createMailer({
    db,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    // Links are printed only while the outbox is this machine's mailbox: a server whose mail goes
    // nowhere must not write live reset and invitation links into its logs.
    onKept: config.mailbox ? hooks.onOutboxMail : undefined,
    // Said once when mail stops going out, once when it goes again: not a log line per message.
    onNotice: (line) => console.warn(line),
  });
  // Changes to how an account signs in are told to its owner by mail.
  const notices = createSecurityNotices({ mailer, urls, onMailError: (error) => hooks.onError(error) });
  const signingKey = await loadSigningKey(db, config.jwtSecret);
  const tokens = createTokenService({ db, key: signingKey, urls });
  const guard = createAuthGuard(tokens);
  const limiter = createLoginLimiter({ db, limits: config.loginRateLimit });
  // Devices that logged in before: their failures count apart from the account's lock.
  const deviceCookies = createDeviceCookies(signingKey);
  // SSO login starts per client address (each keeps a request id in the database for 10 minutes). Generous:
  // a whole office behind one address may sign in at nine.
  const ssoLoginLimiter = createRateLimiter({
    db,
    name: 'sso-login',
    limit: SSO_LOGIN_STARTS_PER_MINUTE,
    windowSeconds: 60,
    message: (seconds) =>
      `Too many single sign-on attempts from this address. Please wait ${waitMinutes(seconds)} and try again.`,
  });
  // Sign-ups (and sign-up checks) per client address.
  const signupLimiter = createRateLimiter({
    db,
    name: 'signup',
    limit: config.signupRateLimit.perAddress,
    windowSeconds: config.signupRateLimit.windowSeconds,
    message: (seconds) =>
      `Too many sign-up attempts from this address. Please wait ${waitMinutes(seconds)} and try again.`,
  });
  // Wrong verification and invitation codes per client address (each link also counts its own).
  const verificationLimiter = createRateLimiter({
    db,
    name: 'verification',
    limit: config.verificationRateLimit.perAddress,
    windowSeconds: config.verificationRateLimit.windowSeconds,
    message: (seconds) =>
      `Too many wrong verification codes were tried from this address. Please wait ${waitMinutes(seconds)} and try again.`,
  });
  // Forgotten-password mails per email address (known or not) and per client address.
  const passwordResetLimiter = createRateLimiter({
    db,
    name: 'password-reset',
    limit: config.passwordResetRateLimit.perEmail,
    windowSeconds: config.passwordResetRateLimit.windowSeconds,
    message: (seconds) =>
      `Too many password reset requests for this email address. Please wait ${waitMinutes(seconds)} and try again.`,
  });
  const passwordResetAddressLimiter = createRateLimiter({
    db,
    name: 'password-reset-address',
    limit: config.passwordResetRateLimit.perAddress,
    windowSeconds: config.passwordResetRateLimit.windowSeconds,
    message: (seconds) =>
      `Too many password reset requests from this address. Please wait ${waitMinutes(seconds)} and try again.`,
  });
  const passwordResets = createPasswordResetService({
    db,
    mailer,
    notices,
    urls,
    ttlSeconds: config.passwordResetTtlSeconds,
    maxFailures: config.verificationRateLimit.perCode,
  });
  const verification = createEmailVerificationService({
    db,
    mailer,
    urls,
    ttlSeconds: config.emailVerificationTtlSeconds,
    maxFailures: config.verificationRateLimit.perCode,
    onMailError: (error) => hooks.onError(error),
  });
  // Who may see and change a role and its members (the roles routes and invitations share it).
  const roleAccess = createRoleAccess(db);
  const invitations = createInvitationsService({
    db,
    mailer,
    urls,
    ttlSeconds: config.invitationTtlSeconds,
    maxFailures: config.verificationRateLimit.perCode,
    roleAccess,
    onMailError: (error) => hooks.onError(error),
  });
  // 2FA: TOTP secrets and recovery codes sealed under the server secret; wrong codes counted per user,
  // apart from wrong passwords.
  const otpLimiter = createRateLimiter({
    db,
    name: 'otp',
    limit: 10,
    windowSeconds: 15 * 60,
    message: (seconds) =>
      `Too many wrong 2FA codes were tried. Please wait ${waitMinutes(seconds)} and try again.`,
  });
  const twoFactor = createTwoFactorService({
    db,
    urls,
    mailer,
    notices,
    box: createSecretBox(signingKey, 'two-factor'),
    limiter: otpLimiter,
  });
  // Security keys (WebAuthn) for the PUBLIC_URL relying party; wrong assertions count with wrong codes.
  const securityKeys = createSecurityKeysService({ db, urls, limiter: otpLimiter, notices });
  // Personal access tokens for git and the API, each user's own.
  const personalAccessTokens = createPersonalAccessTokens({ db, tokens, notices });
  // SAML single sign-on: each organization's IdP (its SP private key sealed), and the logins through it.
  const samlConfigurations = createSamlConfigurationsService({
    db,
    box: createSecretBox(signingKey, 'saml sp keys'),
    metadataFetch: config.ssoMetadata,
  });
  const samlLogin = createSamlLoginService({ db, urls, configurations: samlConfigurations, tokens });
  // The caller of each request with their memberships and permissions, resolved once per request.
  const callers = createCallers({ db, guard });
  // SSO enforcement's bypass list, and the CLI tokens SSO logins leave for their browser to collect.
  const whitelistMemberships = createWhitelistMemberships({ db });
  const cliTokens = createCliTokens({ db, tokens });
  // Provisioning (SCIM 2.0): each organization's configuration and token, and the users and groups its
  // identity provider manages through /scim/v2.
  const scimConfigurations = createScimConfigurationsService({ db });
  const scimUsers = createScimUsersService({ db });
  const scimGroups = createScimGroupsService({ db });
  // One instance per runtime: the worker runs operations on it, the metric tunnel reads from it.
  // A node lost under a cluster is recorded on each app that ran containers there (issue 39).
  const nodeLoss = createNodeLossRecorder({ db });
  const clusterTls = swarmClusterTlsBox(signingKey);
  const runtimeSet = await createRuntimes(config, signingKey, {
    superviseEdge: true,
    clusters: () => registeredSwarmClusters(db, clusterTls),
    onNodeLost: async (runtime, node) => {
      const written = await nodeLoss.record({ runtime, ...node });
      console.warn(
        `Node ${node.hostname} stopped answering: recorded on ${written.length} app${written.length === 1 ? '' : 's'}`,
      );
    },
  });
  const { runtimes } = runtimeSet;
  const environments = createEnvironmentsService({
    db,
    runtimes,
    onRuntimeLeftover: (message) => console.warn(message),
  });
  // Database credentials are kept sealed under a key derived from the server secret.
  const secrets = databaseCredentialsBox(signingKey);
  const drainTls = drainTlsOf(config);
  const worker = createWorker({
    db,
    runtimes,
    lookForRuntimes: runtimeSet.lookForClusters,
    secrets,
    drainTls,
    leaseMs: config.workerLeaseMs,
    onError: (error) => hooks.onError(error),
    onOperation: hooks.onOperation,
  });
  const operations = createOperationsService({
    db,
    logsKey: operationLogsKey(signingKey),
    onQueued: () => worker.poke(),
    limits: config.operationLimits,
  });

  // Automatic daily backups and their pruning, run beside the worker.
  const backupScheduler = createBackupScheduler({ db, operations, onError: (error) => hooks.onError(error) });
  const reconciler = createContainerReconciler({
    db,
    runtimes,
    operations,
    onError: (error) => hooks.onError(error),
    onOrphansRemoved: (names) =>
      console.warn(`Removed ${names.length} orphaned container(s): ${names.join(', ')}`),
    onRoutingRepaired: (changes) =>
      console.warn(`Re-routed endpoints to moved containers: ${changes.join('; ')}`),
  });

  // Autoscaling: enabled sizing policies scale their services; daily sizing recommendations.
  const autoscaler = createAutoscaler({
    db,
    operations,
    load: runtimeLoadSource(runtimes),
    onError: (error) => hooks.onError(error),
  });
  const recommender = createSizingRecommender({
    db,
    usage: runtimeUsageSource(runtimes),
    minimumObservedMs: config.recommendationMinObservedMinutes * 60_000,
    onError: (error) => hooks.onError(error),
  });

  const permissions = createPermissionsService({ db });
  const costs = createCostsService({ db });
  // The home dashboard: counts, cost, scaling, sources, activity and security of an organization.
  const home = createHomeService({ db, costs, operations });
  // Invoices from metered usage, priced under each organization's plan (issue 37).
  const invoices = createInvoicesService({
    db,
    planTerms: activePlanTerms(db),
    portalKey: invoicePortalKey(signingKey),
    onError: (error) => hooks.onError(error),
  });
  // Samples usage hourly and closes ended months; idempotent, so each process running it is harmless.
  const usageMeter = periodic(
    () => invoices.pass(),
    (error) => hooks.onError(error),
  );
  // Payment methods (BERTH_PAYMENTS), and the plans whose changes need one; plans set the limits that
  // environments, endpoints, databases, backups, scaling and autoscaling are held to.
  // Stripe's provider also reads its webhook deliveries (billing.routes.ts), so it is kept by its own name.
  const stripePayments = config.payments.stripe ? createStripePaymentProvider(config.payments.stripe) : null;
  const paymentProvider = config.payments.mode === 'local' ? createLocalPaymentProvider() : stripePayments;
  const billing = createBilling({
    db,
    mode: config.payments.mode,
    provider: paymentProvider,
    trialDays: config.payments.trialDays,
  });
  const plans = createPlansService({
    db,
    defaultPlan: config.defaultPlan,
    hasPaymentMethod: (organizationId) => billing.hasPaymentMethod(organizationId),
  });
  // Apps and what belongs to them: each reads with its app's (or service's) environment access.
  const apps = createAppsService({ db });
  const servicesService = createServicesService({ db, apps });
  const sources = createSourcesService({ db });
  const images = createImagesService({ apps });
  const configurations = createConfigurationsService({ db, apps });
  const codeScanResults = createCodeScanResultsService({ apps });
  const serviceDefinitions = createServiceDefinitionsService({ db, apps });
  const deployments = createDeploymentsService({ db, apps, sources });
  const releases = createReleasesService({ db, services: servicesService });
  // Sizing policies (what the autoscaler follows) and the daily sizing recommendations.
  const sizing = createSizingService({ db, services: servicesService });
  // Stacks, endpoints, certificates and the metric tunnel.
  const stacks = createStacksService({ db });
  // Issue 39: the machines each stack runs on, as its runtime reports them.
  const stackNodes = createStackNodesService({
    db,
    stacks,
    runtimes,
    onEngineError: (stack, error) =>
      console.warn(`Listing the nodes of stack ${stack.name} failed: ${(error as Error).message ?? error}`),
  });
  const vhosts = createVhostsService({ db, operations, apps, services: servicesService });
  const certificates = createCertificatesService({ db, apps });
  const containerMetrics = createContainerMetricsService({ db, runtimes });
  const serviceLogs = createServiceLogsService({ db, runtimes });
  // Databases and their backups.
  const databases = createDatabasesService({
    db,
    secrets,
    problems: createDatabaseProblems({
      db,
      runtimes,
      onEngineError: (databaseId, error) =>
        console.warn(
          `Asking whether database ${databaseId} can run failed: ${(error as Error).message ?? error}`,
        ),
    }),
  });
  const backups = createBackupsService({ db });
  // Issue 38: the Security & Compliance facts of an environment, and its weekly activity reports (made
  // beside the worker; one asked for on demand is made at once).
  const security = createSecurityService({ db });
  // Issue 41: the audit events Activity shows beside the operations.
  const auditEvents = createAuditEventsService({ db });
  const activityReports = createActivityReportsService({
    db,
    linksKey: activityReportLinksKey(signingKey),
    // Only where the worker runs in this process: a web-only process (BERTH_WORKER=off) leaves the
    // report to the worker processes, which make it at their next pass.
    onRequested: config.worker ? () => void activityReportScheduler.poke() : undefined,
  });
  const activityReportScheduler = createActivityReportScheduler({
    reports: activityReports,
    onError: (error) => hooks.onError(error),
  });
  // Global search (issue 38) over everything above, read through indexes.
  const search = createSearchService({ db });
  // Log drains: their destinations' URLs and tokens sealed under a key of their own, and the shipper
  // that sends each provisioned drain its lines (run beside the worker).
  const drainBox = createSecretBox(signingKey, 'log drains');
  const logDrains = createLogDrainsService({ db, box: drainBox });
  const metricDrainBox = createSecretBox(signingKey, 'metric drains');
  const metricDrains = createMetricDrainsService({ db, box: metricDrainBox });
  const metricShipper = createMetricShipper({
    db,
    runtimes,
    box: metricDrainBox,
    databaseSecrets: secrets,
    tls: drainTls,
    onError: (error) => hooks.onError(error),
  });
  const logShipper = createLogShipper({
    db,
    runtimes,
    box: drainBox,
    databaseSecrets: secrets,
    tls: drainTls,
    onError: (error) => hooks.onError(error),
  });

  // Support tickets: stored, mailed to support and to their requester; at most 10 an hour per user.
  const support = createSupportService({
    db,
    mailer,
    appUrl: urls.app,
    dir: config.support.dir,
    supportEmails: config.support.emails,
    tickets: createRateLimiter({
      db,
      name: 'support-ticket',
      limit: 10,
      windowSeconds: 60 * 60,
      message: (seconds) =>
        `Too many support tickets were sent. Please wait ${waitMinutes(seconds)} and try again.`,
    }),
    onMailError: (error) => hooks.onError(error),
    onNotice: (line) => console.warn(line),
  });
  const customResources = createCustomResourcesService({ db });
  // Issue 38: the dependency graph, derived from the apps' configurations and what they name.
  const edges = createEdgesService({ db, secrets, apps, databases });

  return {
    urls,
    auditEvents,
    support,
    customResources,
    edges,
    billing,
    stripePayments,
    invoices,
    usageMeter,
    plans,
    mailer,
    notices,
    tokens,
    guard,
    limiter,
    deviceCookies,
    signupLimiter,
    ssoLoginLimiter,
    verificationLimiter,
    verification,
    passwordResetLimiter,
    passwordResetAddressLimiter,
    passwordResets,
    roleAccess,
    invitations,
    otpLimiter,
    twoFactor,
    securityKeys,
    personalAccessTokens,
    samlConfigurations,
    samlLogin,
    environments,
    callers,
    whitelistMemberships,
    cliTokens,
    scimConfigurations,
    scimUsers,
    scimGroups,
    runtimes,
    runtimeSet,
    secrets,
    worker,
    backupScheduler,
    reconciler,
    autoscaler,
    recommender,
    operations,
    permissions,
    costs,
    home,
    apps,
    servicesService,
    sources,
    images,
    configurations,
    codeScanResults,
    serviceDefinitions,
    deployments,
    releases,
    sizing,
    stacks,
    stackNodes,
    search,
    vhosts,
    certificates,
    logDrains,
    logShipper,
    metricDrains,
    metricShipper,
    containerMetrics,
    serviceLogs,
    databases,
    backups,
    security,
    activityReports,
    activityReportScheduler,
  };
}
export type Services = Awaited<ReturnType<typeof createServices>>;
