import {
  noContent,
  whitelistMembershipCollection,
  whitelistMembershipCreateInput,
  whitelistMembershipResource,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FamilyUrls } from '../../config.ts';
import { collection } from '../../http/hal.ts';
import { bodyCheckedByService, idRoute } from '../../http/route-schemas.ts';
import type { Callers } from '../caller-access.ts';
import { toWhitelistMembershipHal } from './whitelist-memberships.hal.ts';
import type { WhitelistMembershipsService } from './whitelist-memberships.service.ts';

/** The SSO bypass list (contract §5.4 whitelist memberships), the Account Owner's. */
export async function whitelistMembershipsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; whitelistMemberships: WhitelistMembershipsService },
) {
  const { urls, callers, whitelistMemberships } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Single sign-on'];

  app.get(
    '/organizations/:id/whitelist_memberships',
    idRoute(tags, 'The members exempt from SSO enforcement (Account Owners)', {
      200: whitelistMembershipCollection,
    }),
    async (request) => {
      const caller = await callers.require(request);
      const rows = await whitelistMemberships.list(caller, request.params.id);
      return collection(
        'whitelist_memberships',
        `${urls.auth}/organizations/${request.params.id}/whitelist_memberships`,
        rows.map((row) => toWhitelistMembershipHal(row, urls)),
      );
    },
  );

  app.post(
    '/organizations/:id/whitelist_memberships',
    idRoute(
      tags,
      'Exempt a member from SSO enforcement (Account Owners; not an Account Owner, who is exempt already)',
      { 201: whitelistMembershipResource },
      { body: bodyCheckedByService(whitelistMembershipCreateInput, '`user_id`: the member to exempt') },
    ),
    async (request, reply) => {
      const caller = await callers.require(request);
      const row = await whitelistMemberships.add(caller, request.params.id, request.body);
      return reply.code(201).send(toWhitelistMembershipHal(row, urls));
    },
  );

  app.delete(
    '/whitelist_memberships/:id',
    idRoute(tags, 'Take a member off the SSO exception list (Account Owners)', { 204: noContent }),
    async (request, reply) => {
      const caller = await callers.require(request);
      await whitelistMemberships.remove(caller, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
