import { EDGE_MAX_DISTANCE, EDGE_RELATIONSHIPS, type EdgeCollection, type EdgeResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { pagesByNextLink } from '../../../lib/all-pages.ts';
import { appKeys } from '../../../resources/apps/app-keys.ts';

/** A resource the app depends on, as the Dependencies tab lists it. */
export interface AppDependency {
  /** The edge's id: one row per resource depended on. */
  id: string;
  kind: 'Database' | 'App';
  resourceId: string;
  name: string;
  /** The relationship in plain words. */
  relationship: string;
}

/** What a relationship means, said plainly (the server derives both from the app's configuration). */
export function relationshipText(relationshipType: string): string {
  switch (relationshipType) {
    case EDGE_RELATIONSHIPS.databaseConnection:
      return "Connects to it: a configuration variable holds the database's host";
    case EDGE_RELATIONSHIPS.appEndpoint:
      return 'Calls it: a configuration variable holds a host name of its endpoint';
    default:
      return relationshipType.replaceAll('_', ' ');
  }
}

function dependencyOf(edge: EdgeResource): AppDependency {
  const destination = edge._embedded.destination_resource;
  return {
    id: edge.id,
    kind: destination._type === 'database' ? 'Database' : 'App',
    resourceId: destination.id,
    name: destination.handle,
    relationship: relationshipText(edge.relationship_type),
  };
}

/**
 * contract §5.13 GET /edges around the app, every page (its `next` link is followed): the edges that
 * start at the app are what it depends on; those that end at it (apps that use it) are left out.
 */
export function useAppDependencies(appId: string) {
  return useQuery({
    queryKey: [...appKeys.detail(appId), 'dependencies'] as const,
    queryFn: async ({ signal }) => {
      const pages = await pagesByNextLink<EdgeCollection>(
        'api',
        `/edges?root_resource_id=${encodeURIComponent(appId)}&root_resource_type=app&max_distance=${EDGE_MAX_DISTANCE}`,
        signal,
      );
      return pages
        .flatMap((page) => page._embedded.edges)
        .filter((edge) => {
          const source = edge._embedded.source_resource;
          return source._type === 'app' && source.id === appId;
        })
        .map(dependencyOf);
    },
  });
}
