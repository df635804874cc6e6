import {
  createEndpointSchema,
  noContent,
  OPERATION_CATALOG,
  operationCollection,
  operationResource,
  operationTypeBody,
  operationTypesOf,
  updateEndpointSchema,
  vhostCollection,
  vhostResource,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CallerAccess, Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { bodyCheckedByService, idRoute, pagedQuery, route } from '../../http/route-schemas.ts';
import { operationAnswers, operationListQuery } from '../../operations/operations.routes.ts';
import type { OperationsService } from '../../operations/operations.service.ts';
import { presentVhosts } from './vhost-views.ts';
import type { VhostRow } from './vhosts.hal.ts';
import type { VhostsService } from './vhosts.service.ts';

// The create and update bodies are read by the service once the caller may act on the service or
// endpoint (404 or 403 first, whatever the body; tests assert that order), so the routes document them
// and let them through.
const createBody = bodyCheckedByService(
  createEndpointSchema,
  "The endpoint's settings, checked once the caller may create endpoints on the service",
);
const updateBody = bodyCheckedByService(
  updateEndpointSchema,
  'The settings to change (others keep their value), checked once the caller may change the endpoint',
);

/** `POST /vhosts/:id/operations`: its type decides the rest (checked by the operations service). */
const startBody = operationTypeBody.describe(
  `\`type\` is one of ${operationTypesOf('vhost').join(', ')} (contract §6). ` +
    `Any other type is not supported for ${OPERATION_CATALOG.vhost.noun}.`,
);

/** Endpoints (vhosts) and their operations: contract §5.9, §5.11 and §6. */
export async function vhostsRoutes(
  fastify: FastifyInstance,
  deps: {
    db: Db;
    urls: FamilyUrls;
    callers: Callers;
    operations: OperationsService;
    vhosts: VhostsService;
  },
) {
  const { db, urls, callers, operations, vhosts } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Endpoints'];
  const present = (caller: CallerAccess, rows: VhostRow[]) => presentVhosts({ db, urls }, caller, rows);
  const presentOne = async (caller: CallerAccess, row: VhostRow) => {
    const [hal] = await present(caller, [row]);
    if (!hal) throw new Error('An endpoint was presented as nothing');
    return hal;
  };
  const operationAnswer = operationAnswers({ db, urls, operations });
  const list = (summary: string) =>
    idRoute(tags, summary, { 200: vhostCollection }, { querystring: pagedQuery });

  app.get(
    '/vhosts',
    route(
      tags,
      'List the endpoints of every environment the caller can see',
      { 200: vhostCollection },
      { querystring: pagedQuery },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await vhosts.list(caller, pagingFrom(request.query));
      return collection('vhosts', `${urls.api}/vhosts`, await present(caller, items), paging);
    },
  );

  /** `/<resources>/:id/vhosts`: the endpoints under one environment, app or service, paged. */
  const listUnder = (resources: string, summary: string, find: VhostsService['listForApp']) =>
    app.get(`/${resources}/:id/vhosts`, list(summary), async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await find(
        caller,
        parseNumericId(request.params.id),
        pagingFrom(request.query),
      );
      const selfUrl = `${urls.api}/${resources}/${request.params.id}/vhosts`;
      return collection('vhosts', selfUrl, await present(caller, items), paging);
    });
  listUnder('accounts', "List an environment's endpoints", vhosts.listInEnvironment);
  listUnder('apps', "List the endpoints of an app's services", vhosts.listForApp);
  listUnder('services', "List a service's endpoints", vhosts.listForService);
  listUnder('databases', "List the endpoints of a database's service", vhosts.listForDatabase);

  app.get('/vhosts/:id', idRoute(tags, 'Show an endpoint', { 200: vhostResource }), async (request) => {
    const caller = await callers.require(request);
    const vhost = await vhosts.get(caller, parseNumericId(request.params.id));
    return await presentOne(caller, vhost);
  });

  app.post(
    '/services/:id/vhosts',
    idRoute(
      tags,
      'Create an endpoint on a service (pending until provisioned)',
      { 201: vhostResource },
      { body: createBody },
    ),
    async (request, reply) => {
      const caller = await callers.require(request);
      const created = await vhosts.create(caller, parseNumericId(request.params.id), request.body);
      return reply.code(201).send(await presentOne(caller, created));
    },
  );

  app.patch(
    '/vhosts/:id',
    idRoute(
      tags,
      "Change an endpoint's settings (applied by its next provision)",
      { 200: vhostResource },
      { body: updateBody },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const updated = await vhosts.update(caller, parseNumericId(request.params.id), request.body);
      return await presentOne(caller, updated);
    },
  );

  app.delete(
    '/vhosts/:id',
    idRoute(tags, 'Delete an endpoint (a provisioned one is deprovisioned first)', { 204: noContent }),
    async (request, reply) => {
      const caller = await callers.require(request);
      await vhosts.remove(caller, parseNumericId(request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/vhosts/:id/operations',
    idRoute(tags, 'Start an operation on an endpoint', { 201: operationResource }, { body: startBody }),
    async (request, reply) => {
      const caller = await callers.require(request);
      const id = parseNumericId(request.params.id);
      // contract §6: provision, deprovision or renew, read by the operations service like any resource's.
      const { op } = await operations.start(caller, 'vhost', id, request.body);
      return reply.code(201).send(operationAnswer.hal(op, caller));
    },
  );

  app.get(
    '/vhosts/:id/operations',
    idRoute(
      tags,
      "List an endpoint's operations, newest first",
      { 200: operationCollection },
      { querystring: operationListQuery },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const { vhost, where } = await vhosts.operationsScope(caller, parseNumericId(request.params.id));
      const selfUrl = `${urls.api}/vhosts/${vhost.id}/operations`;
      return operationAnswer.respondList(selfUrl, where, request.query, caller);
    },
  );
}
