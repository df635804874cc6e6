import { imageResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { getById } from '../../http/get-by-id.ts';
import { toImageHal } from './images.hal.ts';
import type { ImagesService } from './images.service.ts';

export async function imagesRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; images: ImagesService },
) {
  const { urls, callers, images } = deps;
  const route = {
    path: '/images/:id',
    tags: ['Images'],
    summary: 'An image an app was deployed from',
    answer: imageResource,
    callers,
  };
  getById(fastify, route, async (caller, id) => toImageHal(await images.get(caller, id), urls));
}
