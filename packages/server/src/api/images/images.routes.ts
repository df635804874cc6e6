import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { parseNumericId } from '../../http/ids.ts';
import { toImageHal } from './images.hal.ts';
import { createImagesService } from './images.service.ts';

export async function imagesRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers },
) {
  const { urls, callers } = deps;
  const images = createImagesService(deps);

  app.get<{ Params: { id: string } }>('/images/:id', async (request) => {
    const caller = await callers.require(request);
    const id = parseNumericId(request.params.id);
    return toImageHal(await images.get(caller, id), urls);
  });
}
