import type { FastifyInstance } from 'fastify';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { images } from '../../db/schema.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { parseNumericId } from '../../http/ids.ts';
import { ROUTE_SCOPES } from '../access/scope-table.ts';
import { createAppsService } from '../apps/apps.service.ts';
import { toImageHal } from './images.hal.ts';

export async function imagesRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; guard: AuthGuard },
) {
  const { urls, guard } = deps;
  const apps = createAppsService(deps);

  app.get<{ Params: { id: string } }>('/images/:id', async (request) => {
    const caller = await guard.requireCaller(request);
    const id = parseNumericId(request.params.id);
    return toImageHal(
      await apps.getOwned(caller.user.id, images, id, ROUTE_SCOPES['GET /images/:id'], 'Image'),
      urls,
    );
  });
}
