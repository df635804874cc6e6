import { appCollection, appResource, createAppSchema, updateAppSchema } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, listHref, type Paging, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { createKeptAnswers } from '../../http/kept-answers.ts';
import { queryFlag, queryText } from '../../http/query.ts';
import { idParams, queryFlagValue, querySchema, queryValue } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { type AppView, toAppHal } from './apps.hal.ts';
import type { AppPage, AppsService } from './apps.service.ts';

const tags = ['Apps'];

/** A list of apps: paging, and `no_embed=true` to leave out each app's `_embedded`. */
const listQuery = querySchema({ no_embed: queryFlagValue }, { paged: true });

/**
 * The bare apps lists this process keeps (issue 40): a page of 5,000 apps is 1.5 MB of JSON read,
 * serialized and compressed at every call, and every first visit to the console's apps list asks for it.
 * Kept under the versions of the environments it covers (apps.service bareListKey), so a change is seen by
 * the next call. 48 MB holds some twenty such pages with their encodings.
 */
const KEPT_LIST_BYTES = 48 * 1024 * 1024;

/** What a kept page's key says of its paging: which page of how many. */
const pageKey = (paging: Paging) => `${paging.page} ${paging.perPage}`;

export async function appsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; apps: AppsService },
) {
  const { urls, callers, apps } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const hal = (view: AppView) => toAppHal(view, urls);
  const single = { params: idParams, response: responses({ 200: appResource }) };
  const kept = createKeptAnswers(KEPT_LIST_BYTES);

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
    async (request, reply) => {
      const caller = await callers.require(request);
      const embed = !queryFlag(request.query, 'no_embed');
      const search = queryText(request.query, 'search');
      const requested = pagingFrom(request.query);
      const answer = ({ items, paging }: AppPage) =>
        collection(
          'apps',
          listHref(`${urls.api}/apps`, { no_embed: !embed, search }),
          items.map(hal),
          paging,
        );
      if (embed || search) return answer(await apps.list(caller, requested, embed, search));
      const { key, read } = await apps.bareList(caller, requested);
      return kept.send(request, reply, `apps ${pageKey(requested)} ${key}`, async () => answer(await read()));
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
    async (request, reply) => {
      const caller = await callers.require(request);
      const environmentId = parseNumericId(request.params.id);
      const requested = pagingFrom(request.query);
      const bare = queryFlag(request.query, 'no_embed');
      const self = listHref(`${urls.api}/accounts/${request.params.id}/apps`, { no_embed: bare });
      const answer = ({ items, paging }: AppPage) => collection('apps', self, items.map(hal), paging);
      if (!bare) return answer(await apps.listInEnvironment(caller, environmentId, requested, true));
      const { key, read } = await apps.bareListInEnvironment(caller, environmentId, requested);
      // The id as written goes into the answer's links, so it is part of the key.
      const where = `accounts ${request.params.id}`;
      return kept.send(request, reply, `${where} ${pageKey(requested)} ${key}`, async () =>
        answer(await read()),
      );
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
