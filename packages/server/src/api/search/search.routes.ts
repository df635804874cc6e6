import {
  boundedString,
  parseResourceKey,
  type ResourceKey,
  SEARCH_QUERY_MAX_LENGTH,
  SEARCH_RESOURCE_KEYS_MAX,
  searchResultCollection,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { unprocessable } from '../../http/errors.ts';
import { collection } from '../../http/hal.ts';
import { querySchema, route } from '../../http/route-schemas.ts';
import { toSearchResultHal } from './search.hal.ts';
import type { SearchService } from './search.service.ts';

const tags = ['Search'];

// The longest list of keys: the most keys, each "type-id" at its longest, and the commas between them.
const RESOURCES_MAX_LENGTH = SEARCH_RESOURCE_KEYS_MAX * 37;

const searchQuery = querySchema({
  q: boundedString(SEARCH_QUERY_MAX_LENGTH, { label: 'Search text' })
    .describe(
      'What to look for: an id, or text within a handle, host name, git ref, commit or image (case-insensitive)',
    )
    .optional(),
  resources: boundedString(RESOURCES_MAX_LENGTH, { label: 'Resources' })
    .describe(
      `Instead of q: up to ${SEARCH_RESOURCE_KEYS_MAX} "type-id" keys, comma-separated (app-42,database-7), answered in that order, each only while the caller may read it`,
    )
    .optional(),
});

/** The keys of `resources`, each checked; a malformed one is refused by name. */
function resourceKeysOf(text: string): ResourceKey[] {
  const parts = text.split(',');
  if (parts.length > SEARCH_RESOURCE_KEYS_MAX) {
    const message = `At most ${SEARCH_RESOURCE_KEYS_MAX} resources can be named at once`;
    throw unprocessable(message, { resources: [message] });
  }
  return parts.map((part) => {
    const key = parseResourceKey(part.trim());
    if (!key) {
      const message = `Not a resource key (type-id): ${part.trim().slice(0, 40)}`;
      throw unprocessable(message, { resources: [message] });
    }
    return key;
  });
}

export async function searchRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; search: SearchService },
) {
  const { urls, callers, search } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/search',
    route(
      tags,
      'Global search: at most 15 of the resources the caller may read, closest matches first',
      { 200: searchResultCollection },
      { querystring: searchQuery },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const { q, resources } = request.query;
      if (q !== undefined && resources !== undefined) {
        const message = 'Ask for q or for resources, not both';
        throw unprocessable(message, { resources: [message] });
      }
      const hits =
        resources !== undefined
          ? await search.resolve(caller, resourceKeysOf(resources))
          : await search.search(caller, q ?? '');
      const self = new URL(`${urls.api}/search`);
      if (q !== undefined) self.searchParams.set('q', q);
      if (resources !== undefined) self.searchParams.set('resources', resources);
      return collection(
        'search_results',
        self.toString(),
        hits.map((hit) => toSearchResultHal(hit, urls)),
      );
    },
  );
}
