import { createHmac } from 'node:crypto';
import { createCostsService } from './api/costs/costs.service.ts';
import { createEnvironmentsService } from './api/environments/environments.service.ts';
import { createPermissionsService } from './api/permissions/permissions.service.ts';
import { createCallers } from './auth/caller-access.ts';
import { createInvitationsService } from './auth/invitations/invitations.service.ts';
import { createLoginLimiter } from './auth/rate-limit.ts';
import { createTokenService } from './auth/tokens/token.service.ts';
import { loadSigningKey } from './auth/tokens/token-keys.ts';
import { createEmailVerificationService } from './auth/users/email-verification.service.ts';
import { type Config, familyUrls } from './config.ts';
import type { Db } from './db/client.ts';
import { createAuthGuard } from './http/authenticate.ts';
import { createMailer, type Mail } from './mail/mailer.ts';
import { createOperationsService } from './operations/operations.service.ts';
import { createWorker } from './operations/worker.ts';
import { createSimRuntime } from './runtimes/sim/sim-runtime.ts';

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
  },
) {
  const urls = familyUrls(config);
  const mailer = createMailer({
    db,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    onKept: hooks.onOutboxMail,
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
    onMailError: (error) => hooks.onError(error),
  });
  const environments = createEnvironmentsService({ db });
  // The caller of each request with their memberships and permissions, resolved once per request.
  const callers = createCallers({ db, guard });
  // One instance per runtime: the worker runs operations on it, the metric tunnel reads from it.
  const runtimes = { sim: createSimRuntime({ stepMs: config.simStepMs }) };
  const worker = createWorker({
    db,
    runtimes,
    leaseMs: config.workerLeaseMs,
    onError: (error) => hooks.onError(error),
  });
  const operations = createOperationsService({
    db,
    logsKey: createHmac('sha256', signingKey).update('berth operation log links').digest(),
    onQueued: () => worker.poke(),
    limits: config.operationLimits,
  });

  const permissions = createPermissionsService({ db });
  const costs = createCostsService({ db });

  return {
    urls,
    mailer,
    tokens,
    guard,
    limiter,
    verification,
    invitations,
    environments,
    callers,
    runtimes,
    worker,
    operations,
    permissions,
    costs,
  };
}
export type Services = Awaited<ReturnType<typeof createServices>>;
