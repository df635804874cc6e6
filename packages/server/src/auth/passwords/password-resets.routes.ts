import { emailSchema, MAX_LENGTH, noContent, tooLongMessage } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loggableError } from '../../http/loggable-error.ts';
import { responses } from '../../http/schema-first.ts';
import type { RateLimiter } from '../rate-limit.ts';
import type { PasswordResetService } from './password-reset.service.ts';

const resetRequestBody = z.looseObject({
  email: emailSchema,
  origin: z
    .string()
    .max(MAX_LENGTH.reference, { error: tooLongMessage('origin', MAX_LENGTH.reference), abort: true })
    .optional(),
});

/**
 * POST /password/resets/new: mails a reset link to the address when it has an account. The answer is the
 * same 204 for every address, known or not, and so is its timing: the mail is written after the answer.
 * Both limits count every request, whatever the address, so a 429 tells nothing either.
 */
export async function passwordResetsRoutes(
  fastify: FastifyInstance,
  deps: {
    passwordResets: PasswordResetService;
    /** Requests per email address (known or not). */
    perEmail: RateLimiter;
    /** Requests per client address. */
    perAddress: RateLimiter;
  },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const options = {
    config: { public: true },
    schema: {
      tags: ['Verifications'],
      summary: 'Mail a password reset link (the same answer whether the address has an account or not)',
      body: resetRequestBody,
      response: responses({ 204: noContent }),
    },
  };
  app.post('/password/resets/new', options, async (request, reply) => {
    const { email } = request.body;
    await deps.perAddress.hit(`ip:${request.ip}`);
    await deps.perEmail.hit(`email:${email}`);
    void deps.passwordResets
      .request(email)
      .catch((error: unknown) => request.log.error(loggableError(error)));
    return reply.code(204).send(null);
  });
}
