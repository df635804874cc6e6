import {
  MAX_LENGTH,
  noContent,
  passwordMessages,
  passwordSchema,
  requiredMessage,
  tooLongMessage,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthGuard } from '../../http/authenticate.ts';
import { parseBody, unprocessable } from '../../http/errors.ts';
import { responses } from '../../http/schema-first.ts';
import type { InvitationsService } from '../invitations/invitations.service.ts';
import type { PasswordResetService } from '../passwords/password-reset.service.ts';
import type { RateLimiter } from '../rate-limit.ts';
import type { TokenService } from '../tokens/token.service.ts';
import { SESSION_COOKIE } from '../tokens/tokens.routes.ts';
import type { TwoFactorService } from '../two-factor/two-factor.service.ts';
import type { EmailVerificationService } from '../users/email-verification.service.ts';

// The `type` chooses what is verified; the handler asks for that type's fields (and for a caller, when
// an invitation is accepted), with the contract's messages for a missing field or an unsupported type.
const verificationBody = z
  .looseObject({
    type: z
      .string({ error: 'type must not be empty' })
      .max(MAX_LENGTH.keyword, { error: tooLongMessage('type', MAX_LENGTH.keyword), abort: true }),
    challenge_id: z
      .string()
      .max(MAX_LENGTH.id, { error: tooLongMessage('challenge_id', MAX_LENGTH.id), abort: true })
      .optional(),
    invitation_id: z
      .string()
      .max(MAX_LENGTH.id, { error: tooLongMessage('invitation_id', MAX_LENGTH.id), abort: true })
      .optional(),
    verification_code: z
      .string()
      .max(MAX_LENGTH.code, { error: tooLongMessage('verification_code', MAX_LENGTH.code), abort: true })
      .optional(),
  })
  .describe(
    '`type` `email_verification_challenge` with `challenge_id` and `verification_code` (no token needed), ' +
      'or `password_reset_challenge` with `challenge_id`, `verification_code` and the new `password` ' +
      '(ends every session of the user), ' +
      'or `otp_reset_challenge` with `challenge_id` and `verification_code` (turns 2FA off), ' +
      'or `invitation` with `invitation_id` and `verification_code` (accepted as the signed-in caller).',
  );

// The new password of a reset: the spec's password rules (spec 1 §5).
const newPasswordBody = z.looseObject({
  password: z
    .string({ error: requiredMessage('Password') })
    .max(MAX_LENGTH.password, { error: passwordMessages.tooLong, abort: true })
    .pipe(passwordSchema),
});

/**
 * POST /verifications completes a mailed challenge. The code in the link is the proof, so no token is
 * needed: the link works in whichever browser opens it. An invitation is the exception: it is accepted
 * as the signed-in caller, whom it makes a member.
 */
export async function verificationsRoutes(
  fastify: FastifyInstance,
  deps: {
    verification: EmailVerificationService;
    invitations: InvitationsService;
    guard: AuthGuard;
    tokens: TokenService;
    passwordResets: PasswordResetService;
    /** `otp_reset_challenge`: the member confirms an owner's 2FA reset. */
    twoFactor: TwoFactorService;
    /** Wrong codes per client address: counted before a code is checked, forgiven when it was right. */
    limiter: RateLimiter;
  },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Public: an email verification link works without a session; an invitation code asks for one below.
  const verify = {
    config: { public: true },
    schema: {
      tags: ['Verifications'],
      summary: 'Complete a mailed verification: an email address, or an invitation',
      body: verificationBody,
      response: responses({ 204: noContent }),
    },
  };
  app.post('/verifications', verify, async (request, reply) => {
    const { body } = request;
    if (body.type === 'invitation') {
      // The mailed code proves the address, and accepting with it verifies the account.
      const caller = await deps.guard.requireCaller(request, { allowUnverified: true });
      if (!body.invitation_id || !body.verification_code) {
        throw unprocessable('invitation_id and verification_code must not be empty');
      }
      const attempt = await deps.limiter.hit(`ip:${request.ip}`);
      await deps.invitations.acceptWithCode(caller, body.invitation_id, body.verification_code);
      await attempt.forgive();
      return reply.code(204).send(null);
    }
    if (body.type === 'password_reset_challenge') {
      if (!body.challenge_id || !body.verification_code) {
        throw unprocessable('challenge_id and verification_code must not be empty');
      }
      const { password } = parseBody(newPasswordBody, body);
      const attempt = await deps.limiter.hit(`ip:${request.ip}`);
      await deps.passwordResets.complete(body.challenge_id, body.verification_code, password);
      await attempt.forgive();
      return reply.code(204).send(null);
    }
    if (body.type === 'otp_reset_challenge') {
      if (!body.challenge_id || !body.verification_code) {
        throw unprocessable('challenge_id and verification_code must not be empty');
      }
      // 2FA goes off and the member's other sessions end; this browser's, if it is theirs, stays.
      const caller = await deps.guard.optionalCaller(request).catch(() => null);
      const session = await deps.tokens.sessionToken(request.cookies[SESSION_COOKIE]);
      const keep = [caller?.token.id, session?.id].filter((id): id is string => !!id);
      const attempt = await deps.limiter.hit(`ip:${request.ip}`);
      await deps.twoFactor.completeReset(body.challenge_id, body.verification_code, keep);
      await attempt.forgive();
      return reply.code(204).send(null);
    }
    if (body.type !== 'email_verification_challenge') {
      throw unprocessable(`Verification type "${body.type}" is not supported`);
    }
    if (!body.challenge_id || !body.verification_code) {
      throw unprocessable('challenge_id and verification_code must not be empty');
    }
    // A change of address ends the user's other sessions; the browser that opens the link, when it is
    // signed in as that user, stays signed in (the link alone, elsewhere, keeps none).
    const caller = await deps.guard.optionalCaller(request).catch(() => null);
    const session = await deps.tokens.sessionToken(request.cookies[SESSION_COOKIE]);
    const keep = [caller?.token.id, session?.id].filter((id): id is string => !!id);
    const attempt = await deps.limiter.hit(`ip:${request.ip}`);
    await deps.verification.complete(body.challenge_id, body.verification_code, keep);
    await attempt.forgive();
    return reply.code(204).send(null);
  });
}
