import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { parseNumericId } from '../../http/ids.ts';
import { toConfigurationHal } from './configurations.hal.ts';
import { createConfigurationsService } from './configurations.service.ts';

export async function configurationsRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers },
) {
  const { urls, callers } = deps;
  const configurations = createConfigurationsService(deps);

  // Environment variables are sensitive: `read` (or sensitive, which implies it), not basic_read (spec 1 §6).
  app.get<{ Params: { id: string } }>('/configurations/:id', async (request) => {
    const caller = await callers.require(request);
    const configuration = await configurations.get(caller, parseNumericId(request.params.id));
    return toConfigurationHal(configuration, urls);
  });
}
