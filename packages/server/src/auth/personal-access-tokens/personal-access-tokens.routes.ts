import {
  createdPersonalAccessTokenResource,
  personalAccessTokenCollection,
  personalAccessTokenInput,
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
import { toPersonalAccessTokenHal } from './personal-access-tokens.hal.ts';
import type { PersonalAccessTokens } from './personal-access-tokens.service.ts';

export interface PersonalAccessTokensDeps {
  urls: FamilyUrls;
  guard: AuthGuard;
  personalAccessTokens: PersonalAccessTokens;
}

/**
 * Personal access tokens (Berth addition to contract §5.2): each user lists and makes only their own;
 * revoking one is `DELETE /tokens/:id`, as for any token of theirs.
 */
export async function personalAccessTokensRoutes(fastify: FastifyInstance, deps: PersonalAccessTokensDeps) {
  const { urls, guard, personalAccessTokens } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Tokens'];

  /** Another user's tokens are not there for the caller: 404, as for their other resources. */
  function ownUserId(request: { params: { id: string } }, caller: Caller): string {
    if (!isUuid(request.params.id) || request.params.id !== caller.user.id) throw notFound('User');
    return caller.user.id;
  }

  app.get(
    '/users/:id/personal_access_tokens',
    idRoute(tags, 'The caller’s personal access tokens (never the tokens themselves)', {
      200: personalAccessTokenCollection,
    }),
    async (request) => {
      const caller = await guard.requireCaller(request);
      const userId = ownUserId(request, caller);
      const rows = await personalAccessTokens.list(userId);
      return collection(
        'personal_access_tokens',
        `${urls.auth}/users/${userId}/personal_access_tokens`,
        rows.map((row) => toPersonalAccessTokenHal(row, urls)),
      );
    },
  );

  // A token acts as its owner wherever they may act: making one needs the password entered again (an
  // elevated token, which no token can mint), as adding an SSH key does.
  const create = {
    config: { caller: { elevated: true } },
    ...idRoute(
      tags,
      'Make a personal access token for git and the API (elevated); the answer is the only time it is shown',
      { 201: createdPersonalAccessTokenResource },
      { body: personalAccessTokenInput },
    ),
  };
  app.post('/users/:id/personal_access_tokens', create, async (request, reply) => {
    const caller = await guard.requireCaller(request);
    ownUserId(request, caller);
    const { token, accessToken } = await personalAccessTokens.create(caller.user, request.body);
    // The secret is in this answer only: no cache keeps a copy.
    reply.header('cache-control', 'no-store');
    return reply.code(201).send({ ...toPersonalAccessTokenHal(token, urls), access_token: accessToken });
  });
}
