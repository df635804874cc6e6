import { databaseImageCollection, databaseImageResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { notFound } from '../../http/errors.ts';
import { collection, pageOf, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idParams, pagedQuery } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toDatabaseImageHal } from './database-images.hal.ts';
import { getDatabaseImage, listDatabaseImages } from './database-images.service.ts';

/** The catalog is public to every signed-in user (contract §1.11): no environment is involved. */
export async function databaseImagesRoutes(
  fastify: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; guard: AuthGuard },
) {
  const { db, urls, guard } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Database Images'];

  app.get(
    '/database_images',
    {
      schema: {
        tags,
        summary: 'List the database images',
        querystring: pagedQuery,
        response: responses({ 200: databaseImageCollection }),
      },
    },
    async (request) => {
      await guard.requireCaller(request);
      const { items, paging } = pageOf(await listDatabaseImages(db), pagingFrom(request.query));
      const now = new Date();
      return collection(
        'database_images',
        `${urls.api}/database_images`,
        items.map((image) => toDatabaseImageHal(image, urls, now)),
        paging,
      );
    },
  );

  app.get(
    '/database_images/:id',
    {
      schema: {
        tags,
        summary: 'Show a database image',
        params: idParams,
        response: responses({ 200: databaseImageResource }),
      },
    },
    async (request) => {
      await guard.requireCaller(request);
      const image = await getDatabaseImage(db, parseNumericId(request.params.id));
      if (!image) throw notFound('Database image');
      return toDatabaseImageHal(image, urls);
    },
  );
}
