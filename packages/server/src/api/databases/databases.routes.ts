import {
  createDatabaseSchema,
  databaseCollection,
  databaseCredentialCollection,
  databaseResource,
  diskResource,
  noContent,
  serviceCollection,
  updateDatabaseSchema,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CallerAccess, Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, listHref, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { queryFlag, queryText } from '../../http/query.ts';
import {
  bodyCheckedByService,
  idRoute,
  pagedQuery,
  queryFlagValue,
  querySchema,
  queryValue,
  route,
} from '../../http/route-schemas.ts';
import { toServiceHal } from '../services/services.hal.ts';
import { type DatabaseView, toCredentialHal, toDatabaseHal, toDiskHal } from './databases.hal.ts';
import type { DatabasesService } from './databases.service.ts';

const tags = ['Databases'];

/** A list of databases: paging, and `no_embed=true` to leave out each database's `_embedded`. */
const listQuery = querySchema({ no_embed: queryFlagValue }, { paged: true });

export async function databasesRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; databases: DatabasesService },
) {
  const { urls, callers, databases } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const hal = (view: DatabaseView) => toDatabaseHal(view, urls);
  const id = (value: string) => parseNumericId(value);
  // No answer holds more than one page: without paging asked for, page 1 of at most 5000 (contract §8.12).
  const pageOf = (query: unknown) => pagingFrom(query);
  const list = (
    selfUrl: string,
    page: { items: DatabaseView[]; paging?: Parameters<typeof collection>[3] },
  ) => collection('databases', selfUrl, page.items.map(hal), page.paging);

  app.get(
    '/databases',
    route(
      tags,
      'Databases of every environment the caller may see',
      { 200: databaseCollection },
      {
        querystring: listQuery.extend({
          search: queryValue
            .describe('A case-insensitive substring of the handle, id, type, status or environment handle')
            .optional(),
        }),
      },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const bare = queryFlag(request.query, 'no_embed');
      const search = queryText(request.query, 'search');
      const page = await databases.list(caller, pageOf(request.query), !bare, search);
      return list(listHref(`${urls.api}/databases`, { no_embed: bare, search }), page);
    },
  );

  app.get(
    '/accounts/:id/databases',
    idRoute(tags, "An environment's databases", { 200: databaseCollection }, { querystring: listQuery }),
    async (request) => {
      const caller = await callers.require(request);
      const bare = queryFlag(request.query, 'no_embed');
      const page = await databases.listInEnvironment(
        caller,
        id(request.params.id),
        pageOf(request.query),
        !bare,
      );
      return list(listHref(`${urls.api}/accounts/${request.params.id}/databases`, { no_embed: bare }), page);
    },
  );

  app.get('/databases/:id', idRoute(tags, 'A database', { 200: databaseResource }), async (request) => {
    const caller = await callers.require(request);
    return hal(await databases.get(caller, id(request.params.id)));
  });

  app.post(
    '/accounts/:id/databases',
    idRoute(
      tags,
      'Create a database (the record only: pending until `provision` is posted)',
      { 201: databaseResource },
      {
        body: bodyCheckedByService(
          createDatabaseSchema,
          'The new database: its handle and image (`type` picks the default version)',
        ),
      },
    ),
    async (request, reply) => {
      const caller = await callers.require(request);
      const created = await databases.create(caller, id(request.params.id), request.body);
      return reply.code(201).send(hal(created));
    },
  );

  app.put(
    '/databases/:id',
    idRoute(
      tags,
      'Rename a database or switch its backups',
      { 200: databaseResource },
      {
        body: updateDatabaseSchema,
      },
    ),
    async (request) => {
      const caller = await callers.require(request);
      return hal(await databases.update(caller, id(request.params.id), request.body));
    },
  );

  app.get(
    '/databases/:id/dependents',
    idRoute(
      tags,
      'Databases initialized from this one',
      { 200: databaseCollection },
      {
        querystring: pagedQuery,
      },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const page = await databases.dependents(caller, id(request.params.id), pageOf(request.query));
      return list(`${urls.api}/databases/${request.params.id}/dependents`, page);
    },
  );

  app.post(
    '/databases/:id/unlink',
    idRoute(tags, 'Stop treating a replica as a dependent of its source', { 204: noContent }),
    async (request, reply) => {
      const caller = await callers.require(request);
      await databases.unlink(caller, id(request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/databases/:id/database_credentials',
    idRoute(tags, "A database's credentials (needs the sensitive scope)", {
      200: databaseCredentialCollection,
    }),
    async (request) => {
      const caller: CallerAccess = await callers.require(request);
      const rows = await databases.credentials(caller, id(request.params.id));
      return collection(
        'database_credentials',
        `${urls.api}/databases/${request.params.id}/database_credentials`,
        rows.map(({ credential, url }) => toCredentialHal(credential, url, urls)),
      );
    },
  );

  app.get(
    '/databases/:id/services',
    idRoute(tags, "A database's service (its engine's container)", { 200: serviceCollection }),
    async (request) => {
      const caller = await callers.require(request);
      const rows = await databases.servicesOf(caller, id(request.params.id));
      return collection(
        'services',
        `${urls.api}/databases/${request.params.id}/services`,
        rows.map((service) => toServiceHal(service, urls)),
      );
    },
  );

  app.get('/disks/:id', idRoute(tags, 'A database disk', { 200: diskResource }), async (request) => {
    const caller = await callers.require(request);
    return toDiskHal(await databases.disk(caller, id(request.params.id)), urls);
  });
}
