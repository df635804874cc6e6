import { homeResource, noContent } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { idRoute } from '../../http/route-schemas.ts';
import { codeScanResultIds } from '../../operations/operations.hal.ts';
import { toHomeHal } from './home.hal.ts';
import type { HomeService } from './home.service.ts';

const tags = ['Home'];

/** spec 3 §2 Home: `/organizations/:id/home`, the dashboard of one of the caller's organizations. */
export async function homeRoutes(
  fastify: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers; home: HomeService },
) {
  const { db, urls, callers, home } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/organizations/:id/home',
    idRoute(
      tags,
      "The organization's home dashboard: counts, estimated monthly cost, scaling, top source, latest activity and security, counted over what the caller may read",
      { 200: homeResource },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const summary = await home.summary(caller, request.params.id);
      return toHomeHal(summary, urls, caller, await codeScanResultIds(db, summary.activities));
    },
  );

  app.delete(
    '/organizations/:id/home/feedback_banner',
    idRoute(tags, "Dismisses the home dashboard's beta feedback banner for the caller, for good", {
      204: noContent,
    }),
    async (request, reply) => {
      const caller = await callers.require(request);
      await home.dismissFeedbackBanner(caller, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
