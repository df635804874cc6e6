import type { EdgeResource } from '@berth/core';
import type { FamilyUrls } from '../../config.ts';
import { iso, links } from '../../http/hal.ts';
import { type AppView, toAppHal } from '../apps/apps.hal.ts';
import { type DatabaseView, toDatabaseHal } from '../databases/databases.hal.ts';

export type EdgeEnd = { type: 'app'; view: AppView } | { type: 'database'; view: DatabaseView };

/** An edge as its HAL needs it: `source` depends on `destination`. */
export interface EdgeView {
  id: string;
  relationshipType: string;
  source: EdgeEnd;
  destination: EdgeEnd;
  /** The configuration that names the destination: since when (and as of when) the edge holds. */
  createdAt: Date;
  updatedAt: Date;
}

/** An end of an edge as its own route answers it (contract §8 item 17: never a stub). */
function endHal(end: EdgeEnd, urls: FamilyUrls) {
  return end.type === 'app' ? toAppHal(end.view, urls) : toDatabaseHal(end.view, urls);
}

export function toEdgeHal(edge: EdgeView, urls: FamilyUrls): EdgeResource {
  const source = endHal(edge.source, urls);
  const destination = endHal(edge.destination, urls);
  return {
    id: edge.id,
    _type: 'edge',
    relationship_type: edge.relationshipType,
    created_at: iso(edge.createdAt),
    updated_at: iso(edge.updatedAt),
    _links: links({
      // An edge is derived, not stored: its id says what it joins, and no route reads one alone.
      self: `${urls.api}/edges/${edge.id}`,
      source_resource: source._links.self.href,
      destination_resource: destination._links.self.href,
    }),
    _embedded: { source_resource: source, destination_resource: destination },
  };
}
