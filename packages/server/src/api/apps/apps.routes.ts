import { appCollection, appResource, createAppSchema, updateAppSchema } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { queryFlag, queryText } from '../../http/query.ts';
import { idParams, queryFlagValue, querySchema, queryValue } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { type AppView, toAppHal } from './apps.hal.ts';
import type { AppsService } from './apps.service.ts';

const tags = ['Apps'];

/** A list of apps: paging, and `no_embed=true` to leave out each app's `_embedded`. */
const listQuery = querySchema({ no_embed: queryFlagValue }, { paged: true });

export async function appsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; apps: AppsService },
) {
  const { urls, callers, apps } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const hal = (view: AppView) => toAppHal(view, urls);
  const single = { params: idParams, response: responses({ 200: appResource }) };

  app.get(
    '/apps',
    {
      schema: {
        tags,
        summary: 'Apps of every environment the caller may see',
        querystring: listQuery.extend({
          search: queryValue
            .describe('A case-insensitive substring of the handle, id, status or what the embeds carry')
            .optional(),
        }),
        response: responses({ 200: appCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const embed = !queryFlag(request.query, 'no_embed');
      const { items, paging } = await apps.list(
        caller,
        pagingFrom(request.query),
        embed,
        queryText(request.query, 'search'),
      );
      return collection('apps', `${urls.api}/apps`, items.map(hal), paging);
    },
  );

  app.get(
    '/accounts/:id/apps',
    {
      schema: {
        tags,
        summary: "An environment's apps",
        params: idParams,
        querystring: listQuery,
        response: responses({ 200: appCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await apps.listInEnvironment(
        caller,
        parseNumericId(request.params.id),
        pagingFrom(request.query),
        !queryFlag(request.query, 'no_embed'),
      );
      return collection('apps', `${urls.api}/accounts/${request.params.id}/apps`, items.map(hal), paging);
    },
  );

  app.get('/apps/:id', { schema: { tags, summary: 'An app', ...single } }, async (request) => {
    const caller = await callers.require(request);
    return hal(await apps.get(caller, parseNumericId(request.params.id)));
  });

  app.post(
    '/accounts/:id/apps',
    {
      schema: {
        tags,
        summary: 'Create an app (pending until its first deploy)',
        params: idParams,
        body: createAppSchema,
        response: responses({ 201: appResource }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      const created = await apps.create(caller, parseNumericId(request.params.id), request.body);
      return reply.code(201).send(hal(created));
    },
  );

  app.put(
    '/apps/:id',
    { schema: { tags, summary: 'Rename an app', ...single, body: updateAppSchema } },
    async (request) => {
      const caller = await callers.require(request);
      return hal(await apps.rename(caller, parseNumericId(request.params.id), request.body));
    },
  );
}
