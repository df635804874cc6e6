import {
  noContent,
  u2fChallengeResource,
  u2fDeviceCollection,
  u2fDeviceInput,
  u2fDeviceResource,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FamilyUrls } from '../../config.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { notFound } from '../../http/errors.ts';
import { collection } from '../../http/hal.ts';
import { isUuid } from '../../http/ids.ts';
import { idRoute } from '../../http/route-schemas.ts';
import type { Caller } from '../tokens/token.service.ts';
import type { SecurityKeysService } from './security-keys.service.ts';

/**
 * Security keys (contract §5.2): registration challenges, the keys of the caller, and their removal. All
 * need an elevated token (§3.6); another user's keys are not there for the caller (404). The login's key
 * challenge comes with its `otp_token_required` answer (§3.7).
 */
export async function securityKeysRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; guard: AuthGuard; securityKeys: SecurityKeysService },
) {
  const { urls, guard, securityKeys } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Security keys'];
  const elevated = { caller: { elevated: true } };

  function ownUser(request: { params: { id: string } }, caller: Caller) {
    if (!isUuid(request.params.id) || request.params.id !== caller.user.id) throw notFound('User');
    return caller.user;
  }

  const list = {
    config: elevated,
    ...idRoute(tags, 'The caller’s security keys (elevated)', { 200: u2fDeviceCollection }),
  };
  app.get('/users/:id/u2f_devices', list, async (request) => {
    const user = ownUser(request, await guard.requireCaller(request));
    const rows = await securityKeys.devicesOf(user.id);
    return collection(
      'u2f_devices',
      `${urls.auth}/users/${user.id}/u2f_devices`,
      rows.map((row) => securityKeys.toDeviceHal(row)),
    );
  });

  const challenge = {
    config: elevated,
    ...idRoute(tags, 'WebAuthn creation options for a new security key (elevated; 2FA must be on)', {
      201: u2fChallengeResource,
    }),
  };
  app.post('/users/:id/u2f_challenges', challenge, async (request, reply) => {
    const user = ownUser(request, await guard.requireCaller(request));
    return reply.code(201).send(await securityKeys.registrationChallenge(user));
  });

  const add = {
    config: elevated,
    ...idRoute(
      tags,
      'Add a security key from its WebAuthn attestation (elevated; 2FA must be on)',
      { 201: u2fDeviceResource },
      { body: u2fDeviceInput },
    ),
  };
  app.post('/users/:id/u2f_devices', add, async (request, reply) => {
    const user = ownUser(request, await guard.requireCaller(request));
    const row = await securityKeys.register(user, request.body.name, request.body.u2f);
    return reply.code(201).send(securityKeys.toDeviceHal(row));
  });

  const remove = {
    config: elevated,
    ...idRoute(tags, 'Delete one of the caller’s security keys (elevated)', { 204: noContent }),
  };
  app.delete('/u2f_devices/:id', remove, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    await securityKeys.remove(caller.user, request.params.id);
    return reply.code(204).send(null);
  });
}
