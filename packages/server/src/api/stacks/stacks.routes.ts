import { stackCollection, stackResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pageOf, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idParams, pagedQuery } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toStackHal } from './stacks.hal.ts';
import type { StacksService } from './stacks.service.ts';

export async function stacksRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; stacks: StacksService },
) {
  const { urls, callers, stacks } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Stacks'];

  app.get(
    '/stacks',
    {
      schema: {
        tags,
        summary: 'List the stacks the caller can see',
        querystring: pagedQuery,
        response: responses({ 200: stackCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = pageOf(await stacks.list(caller), pagingFrom(request.query));
      return collection(
        'stacks',
        `${urls.api}/stacks`,
        items.map((stack) => toStackHal(stack, urls)),
        paging,
      );
    },
  );

  app.get(
    '/stacks/:id',
    {
      schema: {
        tags,
        summary: 'Show a stack',
        params: idParams,
        response: responses({ 200: stackResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      return toStackHal(await stacks.get(caller, parseNumericId(request.params.id)), urls);
    },
  );
}
