import type { SearchResourceType, SearchResultResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import { links } from '../../http/hal.ts';
import type { SearchHit } from './search.service.ts';

/** Where each kind of resource lives in the api family (environments are "accounts", endpoints "vhosts"). */
const COLLECTIONS: Record<SearchResourceType, string> = {
  stack: 'stacks',
  environment: 'accounts',
  app: 'apps',
  database: 'databases',
  endpoint: 'vhosts',
  service: 'services',
  source: 'sources',
  deployment: 'deployments',
};

/** A search hit on the wire: the resource's own link, and where it lives. */
export function toSearchResultHal(hit: SearchHit, urls: FamilyUrls): SearchResultResource {
  return {
    id: hit.id,
    _type: 'search_result',
    resource_type: hit.type,
    title: hit.title,
    description: hit.description,
    _links: links({
      self: `${urls.api}/${COLLECTIONS[hit.type]}/${hit.id}`,
      account:
        hit.environmentId && hit.type !== 'environment' ? `${urls.api}/accounts/${hit.environmentId}` : null,
      app: hit.appId ? `${urls.api}/apps/${hit.appId}` : null,
      database: hit.databaseId ? `${urls.api}/databases/${hit.databaseId}` : null,
    }),
  };
}
