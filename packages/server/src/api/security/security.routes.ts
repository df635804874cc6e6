import { securitySummaryResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idRoute } from '../../http/route-schemas.ts';
import { toSecuritySummaryHal } from './security.hal.ts';
import type { SecurityService } from './security.service.ts';

/** Issue 38: the Security & Compliance dashboard's facts of one environment (Full Visibility). */
export async function securityRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; security: SecurityService },
) {
  const { urls, callers, security } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    '/accounts/:id/security_summary',
    idRoute(
      ['Security'],
      "What Berth knows of an environment's security: two-factor adoption, SSO, backups, encryption, endpoints and recent privileged changes",
      { 200: securitySummaryResource },
    ),
    async (request, reply) => {
      const caller = await callers.require(request);
      const summary = await security.summary(caller, parseNumericId(request.params.id));
      // Names and addresses of members: not for shared caches.
      reply.header('cache-control', 'no-store');
      return toSecuritySummaryHal(summary, urls);
    },
  );
}
