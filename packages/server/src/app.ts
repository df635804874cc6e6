import { MAX_LENGTH, SCIM_BASE_PATH } from '@berth/core';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { activityReportsRoutes } from './api/activity-reports/activity-reports.routes.ts';
import { appsRoutes } from './api/apps/apps.routes.ts';
import { auditEventsRoutes } from './api/audit-events/audit-events.routes.ts';
import { backupsRoutes } from './api/backups/backups.routes.ts';
import { certificatesRoutes } from './api/certificates/certificates.routes.ts';
import { codeScanResultsRoutes } from './api/code-scan-results/code-scan-results.routes.ts';
import { configurationsRoutes } from './api/configurations/configurations.routes.ts';
import { costsRoutes } from './api/costs/costs.routes.ts';
import { customResourcesRoutes } from './api/custom-resources/custom-resources.routes.ts';
import { databaseImagesRoutes } from './api/database-images/database-images.routes.ts';
import { ensureDatabaseImages } from './api/database-images/database-images.service.ts';
import { databasesRoutes } from './api/databases/databases.routes.ts';
import { deploymentsRoutes } from './api/deployments/deployments.routes.ts';
import { edgesRoutes } from './api/edges/edges.routes.ts';
import { environmentsRoutes } from './api/environments/environments.routes.ts';
import { homeRoutes } from './api/home/home.routes.ts';
import { imagesRoutes } from './api/images/images.routes.ts';
import { logDrainsRoutes } from './api/log-drains/log-drains.routes.ts';
import { metricDrainsRoutes } from './api/metric-drains/metric-drains.routes.ts';
import { permissionsRoutes } from './api/permissions/permissions.routes.ts';
import { releasesRoutes } from './api/releases/releases.routes.ts';
import { searchRoutes } from './api/search/search.routes.ts';
import { securityRoutes } from './api/security/security.routes.ts';
import { serviceDefinitionsRoutes } from './api/service-definitions/service-definitions.routes.ts';
import { servicesRoutes } from './api/services/services.routes.ts';
import { sizingRoutes } from './api/sizing/sizing.routes.ts';
import { sourcesRoutes } from './api/sources/sources.routes.ts';
import { stacksRoutes } from './api/stacks/stacks.routes.ts';
import { ensureDefaultStack } from './api/stacks/stacks.service.ts';
import { supportRoutes } from './api/support/support.routes.ts';
import { vhostsRoutes } from './api/vhosts/vhosts.routes.ts';
import { invitationsRoutes } from './auth/invitations/invitations.routes.ts';
import { organizationsRoutes } from './auth/organizations/organizations.routes.ts';
import { passwordResetsRoutes } from './auth/passwords/password-resets.routes.ts';
import { personalAccessTokensRoutes } from './auth/personal-access-tokens/personal-access-tokens.routes.ts';
import { rolesRoutes } from './auth/roles/roles.routes.ts';
import { samlRoutes } from './auth/saml/saml.routes.ts';
import { samlConfigurationsRoutes } from './auth/saml/saml-configurations.routes.ts';
import { scimConfigurationsRoutes } from './auth/scim-configurations/scim-configurations.routes.ts';
import { securityKeysRoutes } from './auth/security-keys/security-keys.routes.ts';
import { sessionsRoutes } from './auth/sessions/sessions.routes.ts';
import { sshKeysRoutes } from './auth/ssh-keys/ssh-keys.routes.ts';
import { cliTokensRoutes } from './auth/sso/cli-token.routes.ts';
import { cliLanding } from './auth/sso/cli-token.ts';
import { SIGNED_IN_COOKIE, tokensRoutes } from './auth/tokens/tokens.routes.ts';
import { twoFactorRoutes } from './auth/two-factor/two-factor.routes.ts';
import { usersRoutes } from './auth/users/users.routes.ts';
import { verificationsRoutes } from './auth/verifications/verifications.routes.ts';
import { whitelistMembershipsRoutes } from './auth/whitelist-memberships/whitelist-memberships.routes.ts';
import { billingRoutes } from './billing/billing.routes.ts';
import { invoicePortalUrlOf, invoicesRoutes } from './billing/invoices/invoices.routes.ts';
import { plansRoutes } from './billing/plans/plans.routes.ts';
import { createServices } from './composition.ts';
import { type Config, familyUrls, familyUrlsFor } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import type { LogShipper } from './drains/log-shipper.ts';
import type { MetricShipper } from './drains/metric-shipper.ts';
import { gitHttpRoutes } from './git/git-http.routes.ts';
import { createGitRepositoriesService } from './git/git-repositories.service.ts';
import { fastifyTrustProxy, isFromThisMachine } from './http/client-address.ts';
import { compression } from './http/compression.ts';
import { consoleDocument as consoleDocumentOf, type RuntimeConfigOf } from './http/console-navigation.ts';
import { consoleIndexIn, consoleStatic } from './http/console-static.ts';
import { corsHook } from './http/cors.ts';
import { ApiError, handleError } from './http/errors.ts';
import { healthRoutes } from './http/health.ts';
import { boundInput } from './http/input-limits.ts';
import { jsonBody } from './http/json-body.ts';
import { loggableError, requestForLog } from './http/loggable-error.ts';
import { apiNotFound } from './http/not-found.ts';
import { nulGuard } from './http/nul-guard.ts';
import { trackRequestAddress } from './http/request-address.ts';
import { schemaFirst } from './http/schema-first.ts';
import { securityHeaders, securityHeadersSetter } from './http/security-headers.ts';
import { serviceFamily } from './http/service-family.ts';
import { mailboxRoutes, newMailboxSecret } from './mail/mailbox.routes.ts';
import type { Mail, Mailer } from './mail/mailer.ts';
import { containerMetricsRoutes } from './metrics/container-metrics/container-metrics.routes.ts';
import type { ActivityReportScheduler } from './operations/activity-report-scheduler.ts';
import type { Autoscaler } from './operations/autoscaler.ts';
import type { ContainerReconciler } from './operations/container-reconciler.ts';
import { operationsRoutes } from './operations/operations.routes.ts';
import { periodic } from './operations/periodic.ts';
import type { SizingRecommender } from './operations/sizing-recommender.ts';
import { describeOperationEvent, type Worker } from './operations/worker.ts';
import type { Runtime } from './runtimes/runtime.ts';
import { scimFamily } from './scim/scim.plugin.ts';

export interface BerthApp {
  app: FastifyInstance;
  database: Database;
  mailer: Mailer;
  /** This start's secret of the /dev/mail mailbox (its link carries it); null when no mailbox is served. */
  mailboxSecret: string | null;
  worker: Worker;
  /** Restarts services whose containers went missing (started with the worker; tests call it). */
  reconciler: ContainerReconciler;
  logShipper: LogShipper;
  metricShipper: MetricShipper;
  /** Scales services by their sizing policies; makes the daily sizing recommendations (tests call them). */
  autoscaler: Autoscaler;
  recommender: SizingRecommender;
  /** Makes the weekly and on-demand activity reports (tests call it). */
  activityReports: ActivityReportScheduler;
  /** The runtimes this process drives, by name (tests stand in for what an engine would answer). */
  runtimes: Record<string, Runtime>;
  close(): Promise<void>;
}

/** Builds the whole server: the four service families, the mailbox and the console (used by tests too). */
export async function buildApp(
  config: Config,
  options: {
    logger?: FastifyServerOptions['logger'];
    database?: Database;
    /** Told of each message kept in the outbox (no SMTP), so people elsewhere can read their links. */
    onOutboxMail?: (mail: Mail) => void;
  } = {},
): Promise<BerthApp> {
  const database =
    options.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const { db } = database;
  const urls = familyUrls(config);
  await ensureDefaultStack(db, config.runtime, config.edge.appsDomain, config.autoscaling);
  await ensureDatabaseImages(db);

  // Every service is built once, here, and handed to the routes that use it.
  const services = await createServices(config, db, {
    onOutboxMail: options.onOutboxMail,
    onError: (error) => app.log.error(loggableError(error)),
    // A line as each operation starts and ends, with its fields for whoever reads the log as JSON.
    onOperation: (event) => app.log.info({ operation: event }, describeOperationEvent(event)),
  });
  const {
    mailer,
    tokens,
    guard,
    limiter,
    verification,
    invitations,
    environments,
    callers,
    worker,
    operations,
  } = services;

  const mailboxServed = mailer.transport === 'outbox' && config.mailbox;
  // A new one at each start, known only to this process and to whoever reads its start banner.
  const mailboxSecret = mailboxServed ? newMailboxSecret() : null;
  // What the console reads at start: served at /config.json and written into its index.html.
  const runtimeConfig: RuntimeConfigOf = (request) => {
    const seen = familyUrlsFor(config, request);
    return {
      appUrl: seen.app,
      authUrl: seen.auth,
      apiUrl: seen.api,
      billingUrl: seen.billing,
      metricTunnelUrl: seen.metrics,
      // Named only to those who could read it: the mailbox answers nobody else.
      mailboxUrl: mailboxServed && isFromThisMachine(request) ? `${seen.app}/dev/mail` : null,
      docsUrl: config.docsUrl ?? null,
      // BERTH_HOME: whether members land on the home dashboard (issue 38).
      home: config.home,
      statusPageUrl: config.statusPageUrl ?? null,
      // The payment form's provider (issue 37); Stripe's publishable key is meant for browsers.
      payments: config.payments.mode,
      stripePublishableKey: config.payments.stripe?.publishableKey ?? null,
    };
  };
  // The built console's index.html, or null: the not-found handlers serve it to browser navigations.
  const consoleIndex = consoleIndexIn(config.webDist);
  const consoleDocument = consoleIndex
    ? consoleDocumentOf(consoleIndex, runtimeConfig, (request) => Boolean(request.cookies[SIGNED_IN_COOKIE]))
    : null;

  const scriptSources = consoleDocument?.scriptSources ?? [];
  const consoleSources = { stripe: config.payments.mode === 'stripe' };
  const setSecurityHeaders = securityHeadersSetter(config.publicUrl, scriptSources, consoleSources);
  const app = Fastify({
    // Requests are logged without their query string or mailed codes (see loggablePath).
    logger: options.logger
      ? { ...(options.logger === true ? {} : options.logger), serializers: { req: requestForLog } }
      : false,
    bodyLimit: 1024 * 1024,
    // A body that would reach an object's prototype is refused with 400 (see json-body.ts).
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    trustProxy: fastifyTrustProxy(config.trustProxy),
    // Contract §1.1: the console requests `/services/:id/releases/?with_deleted=true`.
    // Path parameters are ids and handles: the router answers 414 for anything longer.
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_LENGTH.pathParameter },
    // What the router refuses leaves in the contract's error body too, without echoing the path.
    frameworkErrors: (error, request, reply) => {
      const refused =
        error.code === 'FST_ERR_MAX_PARAM_LENGTH'
          ? new ApiError(414, 'uri_too_long', 'A path parameter is too long')
          : new ApiError(400, 'bad_request', 'The URL is not valid');
      setSecurityHeaders(request, reply);
      return handleError(refused, request, reply);
    },
  });

  // First: its headers are set in an onRequest hook, before any other hook may answer.
  await securityHeaders(app, { publicUrl: config.publicUrl, scriptSources, sources: consoleSources });
  // Before every route: it attaches itself to each route as the route is declared.
  await compression(app);
  await app.register(jsonBody);
  await app.register(cookie);
  app.addHook('onRequest', corsHook(config.corsOrigins));
  trackRequestAddress(app);
  await app.register(nulGuard);
  app.setErrorHandler(handleError);
  schemaFirst(app, { checkResponses: config.checkResponses });
  boundInput(app);
  await app.register(serviceFamily, {
    prefix: '/auth',
    consoleDocument,
    guard,
    openapi: {
      title: 'Berth Auth',
      description: 'Accounts, sessions and tokens, organizations, roles and invitations.',
      serverUrl: config.publicUrl,
    },
    routes: async (auth) => {
      const secureCookies = config.publicUrl.startsWith('https://');
      const { twoFactor, securityKeys } = services;
      await tokensRoutes(auth, {
        db,
        urls,
        tokens,
        guard,
        limiter,
        deviceCookies: services.deviceCookies,
        secureCookies,
        twoFactor,
        securityKeys,
        notices: services.notices,
      });
      const { signupLimiter, verificationLimiter } = services;
      await usersRoutes(auth, {
        db,
        urls,
        guard,
        verification,
        invitations,
        tokens,
        signupLimiter,
        twoFactor,
        notices: services.notices,
      });
      await verificationsRoutes(auth, {
        verification,
        invitations,
        guard,
        tokens,
        passwordResets: services.passwordResets,
        twoFactor,
        limiter: verificationLimiter,
      });
      await passwordResetsRoutes(auth, {
        passwordResets: services.passwordResets,
        perEmail: services.passwordResetLimiter,
        perAddress: services.passwordResetAddressLimiter,
      });
      await organizationsRoutes(auth, { db, urls, guard, callers, plans: services.plans });
      await rolesRoutes(auth, { db, urls, callers, roleAccess: services.roleAccess });
      await invitationsRoutes(auth, { urls, guard, invitations });
      await sshKeysRoutes(auth, { db, urls, guard, notices: services.notices });
      await sessionsRoutes(auth, { db, urls, guard, tokens });
      await personalAccessTokensRoutes(auth, {
        urls,
        guard,
        personalAccessTokens: services.personalAccessTokens,
      });
      await twoFactorRoutes(auth, { urls, guard, twoFactor });
      await securityKeysRoutes(auth, { urls, guard, securityKeys });
      await scimConfigurationsRoutes(auth, { urls, guard, scimConfigurations: services.scimConfigurations });
      // SAML single sign-on: the Account Owner's configuration, and the browser's login through it.
      const { samlConfigurations, samlLogin } = services;
      await samlConfigurationsRoutes(auth, { urls, callers, samlConfigurations });
      await samlRoutes(auth, {
        urls,
        secureCookies,
        samlConfigurations,
        samlLogin,
        // landing_page=clitoken: the login leaves a CLI token for its browser to collect.
        cliLanding: cliLanding({ cliTokens: services.cliTokens, tokens }),
        loginLimiter: services.ssoLoginLimiter,
      });
      // SSO enforcement's bypass list, and the CLI tokens SSO logins leave.
      await whitelistMembershipsRoutes(auth, {
        urls,
        callers,
        whitelistMemberships: services.whitelistMemberships,
      });
      await cliTokensRoutes(auth, { urls, cliTokens: services.cliTokens });
    },
  });
  await app.register(serviceFamily, {
    prefix: '/api',
    consoleDocument,
    guard,
    openapi: {
      title: 'Berth API',
      description:
        'Stacks, environments, apps, services, deployments, databases, backups, endpoints, certificates and operations.',
      serverUrl: config.publicUrl,
    },
    routes: async (api) => {
      await stacksRoutes(api, { urls, callers, stacks: services.stacks, stackNodes: services.stackNodes });
      await environmentsRoutes(api, { urls, callers, environments });
      await appsRoutes(api, { urls, callers, apps: services.apps });
      await servicesRoutes(api, {
        urls,
        callers,
        services: services.servicesService,
        logs: services.serviceLogs,
      });
      await releasesRoutes(api, { urls, callers, releases: services.releases });
      await imagesRoutes(api, { urls, callers, images: services.images });
      await configurationsRoutes(api, { urls, callers, configurations: services.configurations });
      await codeScanResultsRoutes(api, { urls, callers, codeScanResults: services.codeScanResults });
      await serviceDefinitionsRoutes(api, {
        urls,
        callers,
        serviceDefinitions: services.serviceDefinitions,
      });
      await deploymentsRoutes(api, { urls, callers, deployments: services.deployments });
      await sourcesRoutes(api, { urls, callers, sources: services.sources });
      await permissionsRoutes(api, { urls, callers, permissions: services.permissions });
      await databaseImagesRoutes(api, { db, urls, guard });
      await databasesRoutes(api, { urls, callers, databases: services.databases });
      await backupsRoutes(api, { urls, callers, backups: services.backups });
      await costsRoutes(api, { urls, callers, costs: services.costs });
      await homeRoutes(api, { db, urls, callers, home: services.home });
      await plansRoutes(api, { urls, callers, plans: services.plans });
      await operationsRoutes(api, {
        db,
        urls,
        callers,
        operations,
        urlsFor: (request) => familyUrlsFor(config, request),
      });
      await vhostsRoutes(api, { db, urls, callers, operations, vhosts: services.vhosts });
      await certificatesRoutes(api, { db, urls, callers, certificates: services.certificates });
      await logDrainsRoutes(api, { urls, callers, logDrains: services.logDrains });
      await metricDrainsRoutes(api, { urls, callers, metricDrains: services.metricDrains });
      await sizingRoutes(api, { urls, callers, sizing: services.sizing });
      await supportRoutes(api, { urls, callers, support: services.support });
      await customResourcesRoutes(api, { urls, callers, customResources: services.customResources });
      await edgesRoutes(api, { urls, callers, edges: services.edges });
      await securityRoutes(api, { urls, callers, security: services.security });
      await activityReportsRoutes(api, {
        urls,
        callers,
        reports: services.activityReports,
        apiUrlFor: (request) => familyUrlsFor(config, request).api,
      });
      await searchRoutes(api, { urls, callers, search: services.search });
      await auditEventsRoutes(api, { urls, callers, auditEvents: services.auditEvents });
    },
  });
  await app.register(serviceFamily, {
    prefix: '/metrics',
    consoleDocument,
    guard,
    openapi: {
      title: 'Berth Metrics',
      description: 'Container metrics of apps and databases.',
      serverUrl: config.publicUrl,
    },
    routes: async (metrics) => {
      await containerMetricsRoutes(metrics, { callers, metrics: services.containerMetrics });
    },
  });
  // Billing details, payment sources, trials and invoices; its prefix answers as an API, not as the console.
  await app.register(serviceFamily, {
    prefix: '/billing',
    consoleDocument,
    guard,
    openapi: {
      title: 'Berth Billing',
      description: 'Billing details, payment sources and trials, Stripe webhooks, and invoices.',
      serverUrl: config.publicUrl,
    },
    routes: async (billing) => {
      await billingRoutes(billing, {
        urls,
        callers,
        billing: services.billing,
        stripe: services.stripePayments,
        invoicePortalUrl: invoicePortalUrlOf(urls, services.invoices),
      });
      await invoicesRoutes(billing, { urls, callers, invoices: services.invoices });
    },
  });

  // Mail whose delivery failed goes again when its wait is over (mailer.ts), from this process.
  const mailRetries = periodic(
    () => mailer.retryDue(),
    (error) => app.log.error(loggableError(error)),
  );
  if (mailer.transport === 'smtp') mailRetries.start(15_000);
  // Support files whose row is gone (a deleted user's or ticket's rows cascade) leave this process's data
  // directory within the hour; web-only processes too, since the files are where the API wrote them.
  const supportSweeps = periodic(
    () => services.support.sweepOrphanFiles(),
    (error) => app.log.error(loggableError(error)),
  );
  supportSweeps.start(60 * 60 * 1000);
  await app.register(healthRoutes, {
    db,
    mailFailing: () => mailer.failing(),
    // The worker runs in this process unless BERTH_WORKER=off (then `npm run worker` processes work the queue).
    workerExpected: () => !config.worker || worker.isRunning(),
  });
  app.get('/config.json', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return runtimeConfig(request);
  });
  // /dev is this machine's own corner: never the console, and a JSON 404 for whatever is not served.
  await app.register(
    async (dev) => {
      dev.setNotFoundHandler(apiNotFound);
      if (mailboxSecret) await dev.register(mailboxRoutes, { mailer, secret: mailboxSecret });
    },
    { prefix: '/dev' },
  );

  // The apps' git remotes (smart HTTP): never the console.
  await app.register(
    async (git) =>
      gitHttpRoutes(git, {
        db,
        tokens: services.tokens,
        repositories: createGitRepositoriesService({
          db,
          gitDir: config.git.dir,
          operations: services.operations,
        }),
        operations: services.operations,
        publicUrl: config.publicUrl,
        gitDir: config.git.dir,
        maxPushBytes: config.git.maxPushBytes,
      }),
    { prefix: '/git' },
  );

  // Provisioning (SCIM 2.0) for identity providers: its own token, content type and errors, never the console.
  await app.register(
    async (scim) =>
      scimFamily(scim, {
        baseUrl: `${config.publicUrl}${SCIM_BASE_PATH}`,
        configurations: services.scimConfigurations,
        users: services.scimUsers,
        groups: services.scimGroups,
      }),
    { prefix: SCIM_BASE_PATH },
  );

  // Outside the service families (which answer their own 404s), an unknown path is the console's.
  await app.register(consoleStatic, { webDist: config.webDist, consoleDocument });

  if (config.worker) {
    worker.start();
    services.backupScheduler.start(config.backupCheckSeconds * 1000);
    services.activityReportScheduler.start(config.activityReportCheckSeconds * 1000);
    services.reconciler.start();
    services.logShipper.start(config.drainIntervalSeconds * 1000);
    services.metricShipper.start(Math.max(1, config.metricDrainIntervalSeconds) * 1000);
    services.autoscaler.start(Math.max(1, config.autoscaleIntervalSeconds) * 1000);
    services.recommender.start(Math.max(1, config.recommendationCheckSeconds) * 1000);
    services.usageMeter.start(config.usageMeterSeconds * 1000, { immediately: true });
  }

  return {
    app,
    database,
    mailer,
    mailboxSecret,
    worker,
    reconciler: services.reconciler,
    logShipper: services.logShipper,
    metricShipper: services.metricShipper,
    autoscaler: services.autoscaler,
    recommender: services.recommender,
    activityReports: services.activityReportScheduler,
    runtimes: services.runtimeSet.runtimes,
    async close() {
      // First stop taking requests and finish those in flight. Keep-alive sockets are closed as they go
      // idle (else a client's idle socket holds the stop for its 72 s), and what is left after 5 s is cut.
      const idle = setInterval(() => app.server.closeIdleConnections(), 100);
      const cut = setTimeout(() => app.server.closeAllConnections(), 5000);
      try {
        await app.close();
      } finally {
        clearInterval(idle);
        clearTimeout(cut);
      }
      await mailRetries.stop();
      await supportSweeps.stop();
      await services.autoscaler.stop();
      await services.recommender.stop();
      await services.usageMeter.stop();
      await services.backupScheduler.stop();
      await services.activityReportScheduler.stop();
      await services.reconciler.stop();
      await services.logShipper.stop();
      await services.metricShipper.stop();
      await worker.stop();
      await services.runtimeSet.close();
      await database.close();
    },
  };
}
