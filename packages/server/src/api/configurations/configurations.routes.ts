import type { FastifyInstance } from 'fastify';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { configurations } from '../../db/schema.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { parseNumericId } from '../../http/ids.ts';
import { ROUTE_SCOPES } from '../access/scope-table.ts';
import { createAppsService } from '../apps/apps.service.ts';
import { toConfigurationHal } from './configurations.hal.ts';

export async function configurationsRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; guard: AuthGuard },
) {
  const { urls, guard } = deps;
  const apps = createAppsService(deps);

  // Environment variables are sensitive: `read` (or sensitive, which implies it), not basic_read (spec 1 §6).
  app.get<{ Params: { id: string } }>('/configurations/:id', async (request) => {
    const caller = await guard.requireCaller(request);
    const configuration = await apps.getOwned(
      caller.user.id,
      configurations,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['GET /configurations/:id'],
      'Configuration',
    );
    return toConfigurationHal(configuration, urls);
  });
}
