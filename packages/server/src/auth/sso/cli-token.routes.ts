import { MAX_LENGTH, tokenResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { FamilyUrls } from '../../config.ts';
import { route } from '../../http/route-schemas.ts';
import { toTokenHal } from '../tokens/tokens.hal.ts';
import type { CliTokens } from './cli-token.ts';

const collectBody = z.strictObject({
  code: z
    .string({ error: 'code must not be empty' })
    .max(MAX_LENGTH.code, { error: 'code is not valid', abort: true })
    .min(1, 'code must not be empty'),
});

/** The CLI token an SSO login left for its browser (auth/sso/cli-token.ts), collected once with its code. */
export async function cliTokensRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; cliTokens: CliTokens },
) {
  const { urls, cliTokens } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // Public: the one-time code from the login's redirect is the proof, as a mailed link's code is.
  const collect = {
    config: { public: true },
    ...route(
      ['Single sign-on'],
      'Collect the CLI token an SSO login with landing_page=clitoken left (its one-time code)',
      { 201: tokenResource },
      { body: collectBody },
    ),
  };
  app.post('/cli_tokens', collect, async (request, reply) => {
    const issued = await cliTokens.collect(request.body.code, {
      userAgent: request.headers['user-agent'],
      ip: request.ip,
    });
    // Never cached anywhere on the way: it answers a long-lived credential.
    reply.header('cache-control', 'no-store');
    return reply.code(201).send(toTokenHal(issued.token, issued.accessToken, urls));
  });
}
