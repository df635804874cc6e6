import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { MAX_LENGTH } from '@berth/core';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { createEnvironmentAccess } from './api/access/environment-access.ts';
import { appsRoutes } from './api/apps/apps.routes.ts';
import { certificatesRoutes } from './api/certificates/certificates.routes.ts';
import { codeScanResultsRoutes } from './api/code-scan-results/code-scan-results.routes.ts';
import { configurationsRoutes } from './api/configurations/configurations.routes.ts';
import { costsRoutes } from './api/costs/costs.routes.ts';
import { createCostsService } from './api/costs/costs.service.ts';
import { databaseImagesRoutes } from './api/database-images/database-images.routes.ts';
import { ensureDatabaseImages } from './api/database-images/database-images.service.ts';
import { deploymentsRoutes } from './api/deployments/deployments.routes.ts';
import { environmentsRoutes } from './api/environments/environments.routes.ts';
import { createEnvironmentsService } from './api/environments/environments.service.ts';
import { imagesRoutes } from './api/images/images.routes.ts';
import { permissionsRoutes } from './api/permissions/permissions.routes.ts';
import { createPermissionsService } from './api/permissions/permissions.service.ts';
import { releasesRoutes } from './api/releases/releases.routes.ts';
import { serviceDefinitionsRoutes } from './api/service-definitions/service-definitions.routes.ts';
import { servicesRoutes } from './api/services/services.routes.ts';
import { sourcesRoutes } from './api/sources/sources.routes.ts';
import { stacksRoutes } from './api/stacks/stacks.routes.ts';
import { ensureDefaultStack } from './api/stacks/stacks.service.ts';
import { vhostsRoutes } from './api/vhosts/vhosts.routes.ts';
import { invitationsRoutes } from './auth/invitations/invitations.routes.ts';
import { createInvitationsService } from './auth/invitations/invitations.service.ts';
import { organizationsRoutes } from './auth/organizations/organizations.routes.ts';
import { createLoginLimiter } from './auth/rate-limit.ts';
import { rolesRoutes } from './auth/roles/roles.routes.ts';
import { createTokenService } from './auth/tokens/token.service.ts';
import { loadSigningKey } from './auth/tokens/token-keys.ts';
import { tokensRoutes } from './auth/tokens/tokens.routes.ts';
import { createEmailVerificationService } from './auth/users/email-verification.service.ts';
import { usersRoutes } from './auth/users/users.routes.ts';
import { verificationsRoutes } from './auth/verifications/verifications.routes.ts';
import { type Config, familyUrls } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { createAuthGuard } from './http/authenticate.ts';
import { fastifyTrustProxy, isFromThisMachine } from './http/client-address.ts';
import { isBrowserNavigation, sendConsole } from './http/console-navigation.ts';
import { corsHook } from './http/cors.ts';
import { ApiError, errorBody, handleError } from './http/errors.ts';
import { boundInput } from './http/input-limits.ts';
import { loggableError, requestForLog } from './http/loggable-error.ts';
import { mailboxRoutes } from './mail/mailbox.routes.ts';
import { createMailer, type Mail, type Mailer } from './mail/mailer.ts';
import { containerMetricsRoutes } from './metrics/container-metrics/container-metrics.routes.ts';
import { operationsRoutes } from './operations/operations.routes.ts';
import { createOperationsService } from './operations/operations.service.ts';
import { createWorker, type Worker } from './operations/worker.ts';
import { createSimRuntime } from './runtimes/sim/sim-runtime.ts';

export interface BerthApp {
  app: FastifyInstance;
  database: Database;
  mailer: Mailer;
  worker: Worker;
  close(): Promise<void>;
}

/** JSON 404 for a path no route matched, as the contract's error body. */
function apiNotFound(request: FastifyRequest, reply: FastifyReply) {
  const pathname = request.url.split('?')[0] ?? '/';
  return reply
    .code(404)
    .type('application/hal+json; charset=utf-8')
    .send(
      errorBody(new ApiError(404, 'not_found', `No route for ${request.method} ${pathname.slice(0, 200)}`)),
    );
}

/**
 * What every service family shares, registered inside its own plugin so it applies to that family's
 * routes only: HAL+JSON bodies, and a JSON 404 for unknown paths under its prefix. A browser opening a
 * console route that shares a family's prefix (`/billing/...`) gets the console instead (when built).
 */
function serviceFamily(family: FastifyInstance, consoleIndex: string | null) {
  family.addHook('onSend', async (_request, reply, payload) => {
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('application/json')) {
      reply.header('content-type', 'application/hal+json; charset=utf-8');
    }
    return payload;
  });
  family.setNotFoundHandler((request, reply) =>
    consoleIndex && isBrowserNavigation(request)
      ? sendConsole(reply, consoleIndex)
      : apiNotFound(request, reply),
  );
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
  await ensureDefaultStack(db);
  await ensureDatabaseImages(db);

  const mailer = createMailer({
    db,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    onKept: options.onOutboxMail,
  });
  const signingKey = await loadSigningKey(db, config.jwtSecret);
  const tokens = createTokenService({ db, key: signingKey, urls });
  const guard = createAuthGuard(tokens);
  const limiter = createLoginLimiter({ db, limits: config.loginRateLimit });
  const verification = createEmailVerificationService({
    db,
    mailer,
    urls,
    ttlSeconds: config.emailVerificationTtlSeconds,
  });
  const invitations = createInvitationsService({
    db,
    mailer,
    urls,
    ttlSeconds: config.invitationTtlSeconds,
    onMailError: (error) => app.log.error(loggableError(error)),
  });
  const environments = createEnvironmentsService({ db });
  const access = createEnvironmentAccess(db);
  // One instance per runtime: the worker runs operations on it, the metric tunnel reads from it.
  const runtimes = { sim: createSimRuntime({ stepMs: config.simStepMs }) };
  const worker = createWorker({
    db,
    runtimes,
    leaseMs: config.workerLeaseMs,
    onError: (error) => app.log.error(loggableError(error)),
  });
  const operations = createOperationsService({
    db,
    logsKey: createHmac('sha256', signingKey).update('berth operation log links').digest(),
    onQueued: () => worker.poke(),
    limits: config.operationLimits,
  });

  const app = Fastify({
    // Requests are logged without their query string or mailed codes (see loggablePath).
    logger: options.logger
      ? { ...(options.logger === true ? {} : options.logger), serializers: { req: requestForLog } }
      : false,
    bodyLimit: 1024 * 1024,
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
      return handleError(refused, request, reply);
    },
  });

  // The console sends application/hal+json on every call, GETs and DELETEs included, often with no body.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    ['application/json', 'application/hal+json'],
    { parseAs: 'string' },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      // PostgreSQL text cannot hold NUL; refuse it here rather than fail deep in a query.
      if (text.includes('\\u0000') || text.includes('\u0000')) {
        return done(
          new ApiError(400, 'bad_request', 'Request body must not contain NUL characters'),
          undefined,
        );
      }
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new ApiError(400, 'bad_request', 'Request body is not valid JSON'), undefined);
      }
    },
  );
  await app.register(cookie);
  app.addHook('onRequest', corsHook(config.corsOrigins));
  app.addHook('onRequest', async (request) => {
    if (/%00/i.test(request.url))
      throw new ApiError(400, 'bad_request', 'The URL must not contain NUL characters');
  });
  app.setErrorHandler(handleError);
  boundInput(app);
  // The built console's index.html, or null: the not-found handlers serve it to browser navigations.
  const consoleIndexPath = path.join(config.webDist, 'index.html');
  const consoleIndex = fs.existsSync(consoleIndexPath) ? consoleIndexPath : null;

  await app.register(
    async (auth) => {
      serviceFamily(auth, consoleIndex);
      const secureCookies = config.publicUrl.startsWith('https://');
      await tokensRoutes(auth, { db, urls, tokens, guard, limiter, secureCookies });
      await usersRoutes(auth, { db, urls, guard, verification, invitations, tokens });
      await verificationsRoutes(auth, { verification, invitations, guard, tokens });
      await organizationsRoutes(auth, { db, urls, guard });
      await rolesRoutes(auth, { db, urls, guard });
      await invitationsRoutes(auth, { urls, guard, invitations });
    },
    { prefix: '/auth' },
  );
  await app.register(
    async (api) => {
      serviceFamily(api, consoleIndex);
      await stacksRoutes(api, { db, urls, guard });
      await environmentsRoutes(api, { urls, guard, environments });
      await appsRoutes(api, { db, urls, guard });
      await servicesRoutes(api, { db, urls, guard });
      await releasesRoutes(api, { db, urls, guard });
      await imagesRoutes(api, { db, urls, guard });
      await configurationsRoutes(api, { db, urls, guard });
      await codeScanResultsRoutes(api, { db, urls, guard });
      await serviceDefinitionsRoutes(api, { db, urls, guard });
      await deploymentsRoutes(api, { db, urls, guard });
      await sourcesRoutes(api, { db, urls, guard });
      await permissionsRoutes(api, { urls, guard, permissions: createPermissionsService({ db }) });
      await databaseImagesRoutes(api, { db, urls, guard });
      await costsRoutes(api, { urls, guard, costs: createCostsService({ db }) });
      await operationsRoutes(api, { db, urls, guard, access, operations });
      await vhostsRoutes(api, { db, urls, guard, operations });
      await certificatesRoutes(api, { db, urls, guard });
    },
    { prefix: '/api' },
  );
  await app.register(
    async (metrics) => {
      serviceFamily(metrics, consoleIndex);
      await containerMetricsRoutes(metrics, { db, guard, runtimes });
    },
    { prefix: '/metrics' },
  );
  // Billing has no routes yet; its prefix still answers as an API, not as the console.
  await app.register(async (billing) => serviceFamily(billing, consoleIndex), { prefix: '/billing' });

  const mailboxServed = mailer.transport === 'outbox' && config.mailbox;
  app.get('/config.json', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return {
      appUrl: urls.app,
      authUrl: urls.auth,
      apiUrl: urls.api,
      billingUrl: urls.billing,
      metricTunnelUrl: urls.metrics,
      // Named only to those who could read it: the mailbox answers nobody else.
      mailboxUrl: mailboxServed && isFromThisMachine(request) ? `${urls.app}/dev/mail` : null,
      docsUrl: config.docsUrl ?? null,
      statusPageUrl: config.statusPageUrl ?? null,
    };
  });
  // /dev is this machine's own corner: never the console, and a JSON 404 for whatever is not served.
  await app.register(
    async (dev) => {
      dev.setNotFoundHandler(apiNotFound);
      if (mailboxServed) await dev.register(mailboxRoutes, { mailer });
    },
    { prefix: '/dev' },
  );

  if (consoleIndex) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      setHeaders(res, filePath) {
        // Vite fingerprints assets, so they never change under the same name.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
  }

  // Outside the service families (which answer their own 404s), an unknown path is the console's.
  app.setNotFoundHandler((request, reply) => {
    if (consoleIndex && (request.method === 'GET' || request.method === 'HEAD')) {
      return sendConsole(reply, consoleIndex);
    }
    return apiNotFound(request, reply);
  });

  if (config.worker) worker.start();

  return {
    app,
    database,
    mailer,
    worker,
    async close() {
      await worker.stop();
      await app.close();
      await database.close();
    },
  };
}
