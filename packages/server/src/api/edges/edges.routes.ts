import {
  boundedString,
  EDGE_MAX_DISTANCE,
  EDGE_ROOT_TYPES,
  type EdgeRootType,
  edgeCollection,
  MAX_LENGTH,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { unprocessable } from '../../http/errors.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { querySchema, route } from '../../http/route-schemas.ts';
import { toEdgeHal } from './edges.hal.ts';
import type { EdgeRoot, EdgesService } from './edges.service.ts';

const tags = ['Dependencies'];

// Each parameter is bounded before anything reads it (a longer one is refused with its own message).
const edgeQuery = querySchema(
  {
    root_resource_id: boundedString(MAX_LENGTH.id, { label: 'root_resource_id' })
      .describe('The app or database whose neighbours are asked for')
      .optional(),
    root_resource_type: boundedString(MAX_LENGTH.keyword, { label: 'root_resource_type' })
      .describe(EDGE_ROOT_TYPES.join(' or '))
      .optional(),
    max_distance: boundedString(MAX_LENGTH.keyword, { label: 'max_distance' })
      .describe(`Only ${EDGE_MAX_DISTANCE} (the root's own neighbours)`)
      .optional(),
    time_range_start: boundedString(MAX_LENGTH.keyword, { label: 'time_range_start' })
      .describe('Accepted and ignored: edges are derived from the current configurations')
      .optional(),
  },
  { paged: true },
);

function refuse(message: string, field: string): never {
  throw unprocessable(message, { [field]: [message] });
}

const isRootType = (value: string): value is EdgeRootType =>
  (EDGE_ROOT_TYPES as readonly string[]).includes(value);

/** The root asked for, or null for every edge; a root named by halves, or of another kind, is refused. */
function rootOf(query: {
  root_resource_id?: string;
  root_resource_type?: string;
  max_distance?: string;
}): EdgeRoot | null {
  const { root_resource_id: id, root_resource_type: type, max_distance: distance } = query;
  if (distance !== undefined && distance !== String(EDGE_MAX_DISTANCE)) {
    refuse(`Only max_distance=${EDGE_MAX_DISTANCE} is supported`, 'max_distance');
  }
  if (id === undefined && type === undefined) return null;
  if (id === undefined) refuse('root_resource_id is required with root_resource_type', 'root_resource_id');
  if (type === undefined)
    refuse('root_resource_type is required with root_resource_id', 'root_resource_type');
  if (!isRootType(type)) {
    refuse(`root_resource_type must be ${EDGE_ROOT_TYPES.join(' or ')}`, 'root_resource_type');
  }
  // A malformed id names nothing: the service answers it as a resource not found.
  return { type, id: parseNumericId(id) };
}

export async function edgesRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; edges: EdgesService },
) {
  const { urls, callers, edges } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // contract §5.13. Without a root: every edge of the environments the caller may read, paged by the
  // apps the edges start from (edges.service.ts). POST /edges is not offered: edges are derived from
  // configurations, not recorded, and no screen records one (the contract marks it unused).
  app.get(
    '/edges',
    route(
      tags,
      "The dependency graph: an app's or database's neighbours, or every edge the caller may read",
      { 200: edgeCollection },
      { querystring: edgeQuery },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const root = rootOf(request.query);
      const self = new URL(`${urls.api}/edges`);
      const page =
        root === null
          ? await edges.list(caller, pagingFrom(request.query))
          : await edges.around(caller, root, pagingFrom(request.query));
      if (root !== null) {
        self.searchParams.set('root_resource_id', request.query.root_resource_id ?? '');
        self.searchParams.set('root_resource_type', root.type);
        self.searchParams.set('max_distance', String(EDGE_MAX_DISTANCE));
      }
      return collection(
        'edges',
        self.toString(),
        page.items.map((edge) => toEdgeHal(edge, urls)),
        page.paging,
      );
    },
  );
}
