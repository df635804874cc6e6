import { configurationResource, markSensitiveEnvKeysInput, sensitiveEnvKeysResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { getById } from '../../http/get-by-id.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idParams } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toConfigurationHal } from './configurations.hal.ts';
import type { ConfigurationsService } from './configurations.service.ts';
import { toSensitiveEnvKeysHal } from './sensitive-env-keys.hal.ts';

export async function configurationsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; configurations: ConfigurationsService },
) {
  const { urls, callers, configurations } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  // Environment variables are sensitive: `read` (or sensitive, which implies it), not basic_read (spec 1 §6).
  const route = {
    path: '/configurations/:id',
    tags: ['Configurations'],
    summary: "An app's environment variables",
    answer: configurationResource,
    callers,
  };
  getById(fastify, route, async (caller, id) =>
    toConfigurationHal(await configurations.get(caller, id), urls),
  );

  // issue 41: which of an app's variables are sensitive, a record beside its configuration.
  const sensitive = {
    tags: ['Configurations'],
    params: idParams,
    response: responses({ 200: sensitiveEnvKeysResource }),
  };
  app.get(
    '/apps/:id/sensitive_env_keys',
    { schema: { ...sensitive, summary: "Names of an app's sensitive variables (needs read)" } },
    async (request) => {
      const caller = await callers.require(request);
      const view = await configurations.sensitiveKeys(caller, parseNumericId(request.params.id));
      return toSensitiveEnvKeysHal(view, urls);
    },
  );
  app.post(
    '/apps/:id/sensitive_env_keys',
    {
      schema: {
        ...sensitive,
        summary: 'Mark variables sensitive (needs deploy); a name leaves only with its variable',
        body: markSensitiveEnvKeysInput,
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const view = await configurations.markSensitive(
        caller,
        parseNumericId(request.params.id),
        request.body,
      );
      return toSensitiveEnvKeysHal(view, urls);
    },
  );
}
