import {
  MAX_LENGTH,
  noContent,
  otpConfigurationResource,
  otpRecoveryCodeCollection,
  tooLongMessage,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FamilyUrls } from '../../config.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { notFound } from '../../http/errors.ts';
import { collection } from '../../http/hal.ts';
import { isUuid } from '../../http/ids.ts';
import { idRoute, route } from '../../http/route-schemas.ts';
import type { TwoFactorService } from './two-factor.service.ts';

const resetBody = z.looseObject({
  user_id: z
    .string({ error: 'user_id must not be empty' })
    .max(MAX_LENGTH.id, { error: tooLongMessage('user_id', MAX_LENGTH.id), abort: true })
    .min(1, 'user_id must not be empty'),
});

/**
 * 2FA (contract §5.2): pending TOTP configurations, their recovery codes, and an owner's request to
 * reset a member's 2FA. Turning 2FA on and off is `PATCH /users/:id` (type `otp`), the second factor at
 * login is `POST /tokens`, and the reset link is completed by `POST /verifications`.
 */
export async function twoFactorRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; guard: AuthGuard; twoFactor: TwoFactorService },
) {
  const { urls, guard, twoFactor } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Two-factor authentication'];
  const elevated = { caller: { elevated: true } };

  const create = {
    config: elevated,
    ...idRoute(tags, 'Start 2FA setup: a new pending TOTP secret (elevated)', {
      201: otpConfigurationResource,
    }),
  };
  app.post('/users/:id/otp_configurations', create, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    if (!isUuid(request.params.id) || request.params.id !== caller.user.id) throw notFound('User');
    const configuration = await twoFactor.create(caller.user);
    return reply.code(201).send(twoFactor.toConfigurationHal(configuration, caller.user.email));
  });

  const codesHref = (id: string) => `${urls.auth}/otp_configurations/${id}/otp_recovery_codes`;

  const listCodes = {
    config: elevated,
    ...idRoute(tags, 'The recovery codes of the caller’s OTP configuration (elevated)', {
      200: otpRecoveryCodeCollection,
    }),
  };
  app.get('/otp_configurations/:id/otp_recovery_codes', listCodes, async (request) => {
    const caller = await guard.requireCaller(request);
    const codes = await twoFactor.recoveryCodes(caller.user, request.params.id);
    return collection('otp_recovery_codes', codesHref(request.params.id), codes);
  });

  const regenerate = {
    config: elevated,
    ...idRoute(tags, 'Replace the recovery codes of the caller’s OTP configuration (elevated)', {
      201: otpRecoveryCodeCollection,
    }),
  };
  app.post('/otp_configurations/:id/otp_recovery_codes', regenerate, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    await twoFactor.regenerateRecoveryCodes(caller.user, request.params.id);
    const codes = await twoFactor.recoveryCodes(caller.user, request.params.id);
    return reply.code(201).send(collection('otp_recovery_codes', codesHref(request.params.id), codes));
  });

  const userCodes = {
    config: elevated,
    ...idRoute(tags, 'The recovery codes of the caller’s current OTP configuration (elevated)', {
      200: otpRecoveryCodeCollection,
    }),
  };
  app.get('/users/:id/otp_recovery_codes', userCodes, async (request) => {
    const caller = await guard.requireCaller(request);
    const { user } = caller;
    if (!isUuid(request.params.id) || request.params.id !== user.id) throw notFound('User');
    const codes = user.currentOtpConfigurationId
      ? await twoFactor.recoveryCodes(user, user.currentOtpConfigurationId)
      : [];
    return collection('otp_recovery_codes', `${urls.auth}/users/${user.id}/otp_recovery_codes`, codes);
  });

  const reset = route(
    tags,
    'Ask a member to confirm a reset of their 2FA (organization owners)',
    { 204: noContent },
    {
      body: resetBody,
    },
  );
  app.post('/otp/resets/new', reset, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    await twoFactor.requestReset(caller.user, request.body.user_id);
    return reply.code(204).send(null);
  });
}
