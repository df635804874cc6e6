import type { FastifyInstance } from 'fastify';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { notFound } from '../../http/errors.ts';
import { collection, pageOf, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { toDatabaseImageHal } from './database-images.hal.ts';
import { getDatabaseImage, listDatabaseImages } from './database-images.service.ts';

/** The catalog is public to every signed-in user (contract §1.11): no environment is involved. */
export async function databaseImagesRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; guard: AuthGuard },
) {
  const { db, urls, guard } = deps;

  app.get('/database_images', async (request) => {
    await guard.requireCaller(request);
    const { items, paging } = pageOf(await listDatabaseImages(db), pagingFrom(request.query));
    const now = new Date();
    return collection(
      'database_images',
      `${urls.api}/database_images`,
      items.map((image) => toDatabaseImageHal(image, urls, now)),
      paging,
    );
  });

  app.get<{ Params: { id: string } }>('/database_images/:id', async (request) => {
    await guard.requireCaller(request);
    const image = await getDatabaseImage(db, parseNumericId(request.params.id));
    if (!image) throw notFound('Database image');
    return toDatabaseImageHal(image, urls);
  });
}
