import { MAX_LENGTH, tooLongMessage } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { FamilyUrls } from '../../config.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { parseBody, unprocessable } from '../../http/errors.ts';
import { collection } from '../../http/hal.ts';
import type { InvitationsService } from './invitations.service.ts';

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
  app: FastifyInstance,
  deps: { urls: FamilyUrls; guard: AuthGuard; invitations: InvitationsService },
) {
  const { urls, guard, invitations } = deps;

  app.get<{ Params: { id: string } }>('/organizations/:id/invitations', async (request) => {
    const caller = await guard.requireCaller(request);
    const list = await invitations.list(caller, request.params.id);
    return collection('invitations', `${urls.auth}/organizations/${request.params.id}/invitations`, list);
  });

  app.post<{ Params: { id: string } }>('/roles/:id/invitations', async (request, reply) => {
    const caller = await guard.requireCaller(request);
    return reply.code(201).send(await invitations.invite(caller, request.params.id, request.body));
  });

  // Works without a token: the claim, login and sign-up pages show it before anyone signs in.
  app.get<{ Params: { id: string } }>('/invitations/:id', { config: { public: true } }, async (request) =>
    invitations.show(request.params.id),
  );

  app.delete<{ Params: { id: string } }>('/invitations/:id', async (request, reply) => {
    const caller = await guard.requireCaller(request);
    await invitations.revoke(caller, request.params.id);
    return reply.code(204).send();
  });

  app.post<{ Params: { id: string } }>('/invitations/:id/accept', async (request, reply) => {
    const caller = await guard.requireCaller(request);
    await invitations.acceptAsCaller(caller, request.params.id);
    return reply.code(204).send();
  });

  // A new code and a new mail for a pending invitation (contract §5.3 "resend").
  app.post('/resets', async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const body = parseBody(resetBody, request.body);
    if (body.type !== 'invitation') throw unprocessable(`Reset type "${body.type}" is not supported`);
    if (!body.invitation_id) throw unprocessable('invitation_id must not be empty');
    await invitations.resend(caller, body.invitation_id);
    return reply.code(204).send();
  });
}
