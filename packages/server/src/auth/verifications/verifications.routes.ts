import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AuthGuard } from '../../http/authenticate.ts';
import { parseBody, unprocessable } from '../../http/errors.ts';
import type { InvitationsService } from '../invitations/invitations.service.ts';
import type { EmailVerificationService } from '../users/email-verification.service.ts';

const verificationBody = z.looseObject({
  type: z.string({ error: 'type must not be empty' }),
  challenge_id: z.string().optional(),
  invitation_id: z.string().optional(),
  verification_code: z.string().optional(),
});

/**
 * POST /verifications completes a mailed challenge. The code in the link is the proof, so no token is
 * needed: the link works in whichever browser opens it. An invitation is the exception: it is accepted
 * as the signed-in caller, whom it makes a member.
 */
export async function verificationsRoutes(
  app: FastifyInstance,
  deps: { verification: EmailVerificationService; invitations: InvitationsService; guard: AuthGuard },
) {
  app.post('/verifications', async (request, reply) => {
    const body = parseBody(verificationBody, request.body);
    if (body.type === 'invitation') {
      const caller = await deps.guard.requireCaller(request);
      if (!body.invitation_id || !body.verification_code) {
        throw unprocessable('invitation_id and verification_code must not be empty');
      }
      await deps.invitations.acceptWithCode(caller, body.invitation_id, body.verification_code);
      return reply.code(204).send();
    }
    if (body.type !== 'email_verification_challenge') {
      throw unprocessable(`Verification type "${body.type}" is not supported`);
    }
    if (!body.challenge_id || !body.verification_code) {
      throw unprocessable('challenge_id and verification_code must not be empty');
    }
    await deps.verification.complete(body.challenge_id, body.verification_code);
    return reply.code(204).send();
  });
}
