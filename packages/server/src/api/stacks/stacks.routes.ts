import {
  HIDS_REPORTS_PER_PAGE,
  intrusionDetectionReportCollection,
  STACK_NODE_ID_MAX_LENGTH,
  stackCollection,
  stackNodeCollection,
  stackNodeResource,
  stackResource,
  updateStackNodeSchema,
  vpcPeerCollection,
  vpnTunnelCollection,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pageOf, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idParams, idRoute, pagedQuery, pathParameter } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toStackNodeHal } from './stack-nodes.hal.ts';
import type { StackNodesService } from './stack-nodes.service.ts';
import { toStackHal, toVpcPeerHal, toVpnTunnelHal } from './stacks.hal.ts';
import type { StacksService } from './stacks.service.ts';

export async function stacksRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; stacks: StacksService; stackNodes: StackNodesService },
) {
  const { urls, callers, stacks, stackNodes } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Stacks'];

  app.get(
    '/stacks',
    {
      schema: {
        tags,
        summary: 'List the stacks the caller can see',
        querystring: pagedQuery,
        response: responses({ 200: stackCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = pageOf(await stacks.list(caller), pagingFrom(request.query));
      return collection(
        'stacks',
        `${urls.api}/stacks`,
        items.map((stack) => toStackHal(stack, urls)),
        paging,
      );
    },
  );

  app.get(
    '/stacks/:id',
    {
      schema: {
        tags,
        summary: 'Show a stack',
        params: idParams,
        response: responses({ 200: stackResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      return toStackHal(await stacks.get(caller, parseNumericId(request.params.id)), urls);
    },
  );

  // spec 2 §2 the stack page's tabs (contract §5.6): lists, paged, empty where the stack has none.
  app.get(
    '/stacks/:id/vpn_tunnels',
    idRoute(tags, "A stack's VPN tunnels", { 200: vpnTunnelCollection }, { querystring: pagedQuery }),
    async (request) => {
      const caller = await callers.require(request);
      const paging = pagingFrom(request.query);
      const page = await stacks.vpnTunnels(caller, parseNumericId(request.params.id), paging);
      return collection(
        'vpn_tunnels',
        `${urls.api}/stacks/${page.stack.id}/vpn_tunnels`,
        page.items.map((tunnel) => toVpnTunnelHal(tunnel, urls)),
        page.paging,
      );
    },
  );

  app.get(
    '/stacks/:id/vpc_peers',
    idRoute(
      tags,
      "A stack's VPC peering connections",
      { 200: vpcPeerCollection },
      { querystring: pagedQuery },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const paging = pagingFrom(request.query);
      const page = await stacks.vpcPeers(caller, parseNumericId(request.params.id), paging);
      return collection(
        'vpc_peers',
        `${urls.api}/stacks/${page.stack.id}/vpc_peers`,
        page.items.map((peer) => toVpcPeerHal(peer, urls)),
        page.paging,
      );
    },
  );

  app.get(
    '/stacks/:id/intrusion_detection_reports',
    idRoute(
      tags,
      "A stack's Managed HIDS reports (403 with the spec's message where the stack does not expose them)",
      { 200: intrusionDetectionReportCollection },
      { querystring: pagedQuery },
    ),
    async (request) => {
      const caller = await callers.require(request);
      // spec 2 §9: this list pages by 10.
      const paging = pagingFrom(request.query, HIDS_REPORTS_PER_PAGE);
      const { stack, items } = await stacks.intrusionDetectionReports(
        caller,
        parseNumericId(request.params.id),
      );
      return collection(
        'intrusion_detection_reports',
        `${urls.api}/stacks/${stack.id}/intrusion_detection_reports`,
        items,
        {
          page: paging.page,
          perPage: paging.perPage,
          total: items.length,
        },
      );
    },
  );

  // Issue 39: the stack page's Nodes tab (a Berth resource): the machines the stack runs on and the
  // containers each runs, those of resources the caller may not read only counted.
  app.get(
    '/stacks/:id/nodes',
    idRoute(
      tags,
      "A stack's nodes with the containers each runs (503 where the stack's runtime does not run in this process)",
      { 200: stackNodeCollection },
      { querystring: pagedQuery },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const { stack, nodes } = await stackNodes.list(caller, parseNumericId(request.params.id));
      const { items, paging } = pageOf(nodes, pagingFrom(request.query));
      return collection(
        'nodes',
        `${urls.api}/stacks/${stack.id}/nodes`,
        items.map((node) => toStackNodeHal(stack, node, urls)),
        paging,
      );
    },
  );

  // Issue 39: a platform owner drains a node before taking its machine down (its containers move to the
  // others first), or activates it again.
  app.put(
    '/stacks/:id/nodes/:node_id',
    {
      schema: {
        tags,
        summary:
          "Drain, pause or activate one of a stack's nodes (platform owners of the stack's organization)",
        params: z.strictObject({
          id: pathParameter,
          node_id: z.string().max(STACK_NODE_ID_MAX_LENGTH, { abort: true }),
        }),
        body: updateStackNodeSchema,
        response: responses({ 200: stackNodeResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { stack, node } = await stackNodes.setAvailability(
        caller,
        parseNumericId(request.params.id),
        request.params.node_id,
        request.body.availability,
      );
      return toStackNodeHal(stack, node, urls);
    },
  );
}
