import { z } from 'zod';
import { appResource } from '../apps/app.hal.ts';
import { databaseResource } from '../databases/database.hal.ts';
import { halCollection, halId, halLinks, isoTimestamp } from '../hal/hal.ts';

/** The resources a dependency graph can start from (contract §5.13 `root_resource_type`). */
export const EDGE_ROOT_TYPES = ['app', 'database'] as const;
export type EdgeRootType = (typeof EDGE_ROOT_TYPES)[number];

/** The one distance the graph is asked for: the root's own neighbours. */
export const EDGE_MAX_DISTANCE = 1;

/**
 * How one resource depends on another, as derived from an app's current configuration: a variable names
 * a database's connection host, or a host name of another app's endpoint.
 */
export const EDGE_RELATIONSHIPS = {
  databaseConnection: 'database_connection',
  appEndpoint: 'app_endpoint',
} as const;

/** Either end of an edge, sent whole (contract §8 item 17: the console parses them as full resources). */
const edgeEnd = z.discriminatedUnion('_type', [appResource, databaseResource]);

/** contract §4.3 edge: `source_resource` depends on `destination_resource`. */
export const edgeResource = z
  .strictObject({
    id: halId,
    _type: z.literal('edge'),
    relationship_type: z.string(),
    created_at: isoTimestamp,
    updated_at: isoTimestamp,
    _links: halLinks(['self', 'source_resource', 'destination_resource']),
    _embedded: z.strictObject({ source_resource: edgeEnd, destination_resource: edgeEnd }),
  })
  .meta({ id: 'Edge' });
export type EdgeResource = z.infer<typeof edgeResource>;

export const edgeCollection = halCollection('edges', edgeResource).meta({ id: 'EdgeCollection' });
export type EdgeCollection = z.infer<typeof edgeCollection>;
