import { z } from 'zod';
import { halCollection, halId, halLinks } from '../hal/hal.ts';
import { SEARCH_RESOURCE_TYPES } from './search.ts';

/**
 * One thing global search found (issue 38; the contract names no search call, so this one is Berth's):
 * what it is, its id, a title and a line that tells it apart (its environment, its app, its engine).
 * `self` is the resource's own address; `account`, `app` and `database` name where it lives, so the
 * console can open it (a service's page is under its app, or is its database's).
 */
export const searchResultResource = z
  .strictObject({
    id: halId,
    _type: z.literal('search_result'),
    resource_type: z.enum(SEARCH_RESOURCE_TYPES),
    title: z.string(),
    description: z.string(),
    _links: halLinks(['self'], ['account', 'app', 'database']),
  })
  .meta({ id: 'SearchResult' });
export type SearchResultResource = z.infer<typeof searchResultResource>;

export const searchResultCollection = halCollection('search_results', searchResultResource).meta({
  id: 'SearchResultCollection',
});
export type SearchResultCollection = z.infer<typeof searchResultCollection>;
