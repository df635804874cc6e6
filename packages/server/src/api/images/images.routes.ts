import { imageResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idParams } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toImageHal } from './images.hal.ts';
import type { ImagesService } from './images.service.ts';

export async function imagesRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; images: ImagesService },
) {
  const { urls, callers, images } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/images/:id',
    {
      schema: {
        tags: ['Images'],
        summary: 'An image an app was deployed from',
        params: idParams,
        response: responses({ 200: imageResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const id = parseNumericId(request.params.id);
      return toImageHal(await images.get(caller, id), urls);
    },
  );
}
