import { resourceKey, type SearchResourceType, type SearchResultResource } from '@berth/core';
import { idOf, linkId } from '../../lib/hal.ts';
import { paths, to } from '../../lib/paths.ts';

/** What global search found (GET /api/search), as the console shows and opens it. */
export interface SearchResult {
  /** spec 3 §2: "type-id", the key recent resources are tracked by. */
  key: string;
  type: SearchResourceType;
  id: string;
  title: string;
  description: string;
  /** The console page that shows it. */
  path: string;
}

/** The page of a found resource: a service's is under its app, a database's service is its database's. */
function pathOf(type: SearchResourceType, id: string, result: SearchResultResource): string {
  switch (type) {
    case 'stack':
      return to.stack(id);
    case 'environment':
      return to.environment(id);
    case 'app':
      return to.app(id);
    case 'database':
      return to.database(id);
    case 'endpoint':
      return to.endpoint(id);
    case 'source':
      return to.source(id);
    case 'deployment':
      return to.deployment(id);
    case 'service': {
      const appId = linkId(result, 'app');
      const databaseId = linkId(result, 'database');
      if (appId) return to.service(appId, id);
      return databaseId ? to.database(databaseId) : paths.services;
    }
  }
}

export function fromSearchResultResource(result: SearchResultResource): SearchResult {
  const id = idOf(result);
  return {
    key: resourceKey(result.resource_type, id),
    type: result.resource_type,
    id,
    title: result.title,
    description: result.description,
    path: pathOf(result.resource_type, id, result),
  };
}

/** How a kind of resource is named beside a result. */
export const SEARCH_TYPE_LABELS: Record<SearchResourceType, string> = {
  stack: 'Stack',
  environment: 'Environment',
  app: 'App',
  database: 'Database',
  endpoint: 'Endpoint',
  service: 'Service',
  source: 'Source',
  deployment: 'Deployment',
};
