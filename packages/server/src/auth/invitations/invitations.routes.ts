import {
  createInvitationSchema,
  invitationCollection,
  invitationResource,
  MAX_LENGTH,
  noContent,
  tooLongMessage,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FamilyUrls } from '../../config.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { unprocessable } from '../../http/errors.ts';
import { collection } from '../../http/hal.ts';
import { idRoute, route } from '../../http/route-schemas.ts';
import type { InvitationsService } from './invitations.service.ts';

// The `type` names what is reset; only invitations are (an unsupported type has its own 422).
const resetBody = z.looseObject({
  type: z
    .string({ error: 'type must not be empty' })
    .max(MAX_LENGTH.keyword, { error: tooLongMessage('type', MAX_LENGTH.keyword), abort: true }),
  invitation_id: z
    .string()
    .max(MAX_LENGTH.id, { error: tooLongMessage('invitation_id', MAX_LENGTH.id), abort: true })
    .optional(),
});

/** Invitations (contract §5.3); accepting with the mailed code is `POST /verifications` type invitation. */
export async function invitationsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; guard: AuthGuard; invitations: InvitationsService },
) {
  const { urls, guard, invitations } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Invitations'];
  const single = (summary: string) => idRoute(tags, summary, { 204: noContent });

  const list = idRoute(tags, 'An organization’s pending invitations the caller may manage', {
    200: invitationCollection,
  });
  app.get('/organizations/:id/invitations', list, async (request) => {
    const caller = await guard.requireCaller(request);
    const pending = await invitations.list(caller, request.params.id);
    return collection('invitations', `${urls.auth}/organizations/${request.params.id}/invitations`, pending);
  });

  const invite = idRoute(
    tags,
    'Invite an address into a role (mails the claim link)',
    { 201: invitationResource },
    { body: createInvitationSchema },
  );
  app.post('/roles/:id/invitations', invite, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    return reply.code(201).send(await invitations.invite(caller, request.params.id, request.body));
  });

  // Works without a token: the claim, login and sign-up pages show it before anyone signs in.
  const show = {
    config: { public: true },
    ...idRoute(tags, 'An invitation’s display fields (no token needed)', { 200: invitationResource }),
  };
  app.get('/invitations/:id', show, async (request) => invitations.show(request.params.id));

  app.delete('/invitations/:id', single('Revoke an invitation'), async (request, reply) => {
    const caller = await guard.requireCaller(request);
    await invitations.revoke(caller, request.params.id);
    return reply.code(204).send(null);
  });

  const accept = single('Accept an invitation as the caller (their verified address is the invited one)');
  app.post('/invitations/:id/accept', accept, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    await invitations.acceptAsCaller(caller, request.params.id);
    return reply.code(204).send(null);
  });

  // A new code and a new mail for a pending invitation (contract §5.3 "resend").
  const reset = route(
    tags,
    'Mail a pending invitation again, with a new code',
    { 204: noContent },
    { body: resetBody.describe('`type` `invitation` with `invitation_id`') },
  );
  app.post('/resets', reset, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const { body } = request;
    if (body.type !== 'invitation') throw unprocessable(`Reset type "${body.type}" is not supported`);
    if (!body.invitation_id) throw unprocessable('invitation_id must not be empty');
    await invitations.resend(caller, body.invitation_id);
    return reply.code(204).send(null);
  });
}
