import { configurationResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idParams } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toConfigurationHal } from './configurations.hal.ts';
import type { ConfigurationsService } from './configurations.service.ts';

export async function configurationsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; configurations: ConfigurationsService },
) {
  const { urls, callers, configurations } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  // Environment variables are sensitive: `read` (or sensitive, which implies it), not basic_read (spec 1 §6).
  app.get(
    '/configurations/:id',
    {
      schema: {
        tags: ['Configurations'],
        summary: "An app's environment variables",
        params: idParams,
        response: responses({ 200: configurationResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const configuration = await configurations.get(caller, parseNumericId(request.params.id));
      return toConfigurationHal(configuration, urls);
    },
  );
}
