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
import {
  bodyCheckedByService,
  idParams,
  pagedQuery,
  querySchema,
  queryValue,
} from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { codeScanResultIds, type OperationRow, toOperationHal } from '../../operations/operations.hal.ts';
import {
  filtersFrom,
  type OperationsService,
  showsConfiguration,
} from '../../operations/operations.service.ts';
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

/** An endpoint's operations: paging and the activity filters (contract §5.11, read by `filtersFrom`). */
const operationsQuery = querySchema(
  {
    resource_type: queryValue.optional(),
    operation_type: queryValue.optional(),
    type: queryValue.optional(),
    operation_status: queryValue.optional(),
    status: queryValue.optional(),
    since: queryValue
      .describe('Only operations updated since: an ISO time or a duration such as `14d`')
      .optional(),
  },
  { paged: true },
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
  const operationHal = (op: OperationRow, caller: CallerAccess, scanResults = new Map<number, number>()) =>
    toOperationHal(op, urls, {
      showEnv: showsConfiguration(caller, op),
      codeScanResultId: scanResults.get(op.id) ?? null,
    });
  const list = (summary: string) => ({
    schema: {
      tags,
      summary,
      params: idParams,
      querystring: pagedQuery,
      response: responses({ 200: vhostCollection }),
    },
  });
  const single = (summary: string) => ({
    schema: { tags, summary, params: idParams, response: responses({ 200: vhostResource }) },
  });

  app.get(
    '/vhosts',
    {
      schema: {
        tags,
        summary: 'List the endpoints of every environment the caller can see',
        querystring: pagedQuery,
        response: responses({ 200: vhostCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await vhosts.list(caller, pagingFrom(request.query));
      return collection('vhosts', `${urls.api}/vhosts`, await present(caller, items), paging);
    },
  );

  app.get('/accounts/:id/vhosts', list("List an environment's endpoints"), async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await vhosts.listInEnvironment(
      caller,
      parseNumericId(request.params.id),
      pagingFrom(request.query),
    );
    return collection(
      'vhosts',
      `${urls.api}/accounts/${request.params.id}/vhosts`,
      await present(caller, items),
      paging,
    );
  });

  app.get('/apps/:id/vhosts', list("List the endpoints of an app's services"), async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await vhosts.listForApp(
      caller,
      parseNumericId(request.params.id),
      pagingFrom(request.query),
    );
    return collection(
      'vhosts',
      `${urls.api}/apps/${request.params.id}/vhosts`,
      await present(caller, items),
      paging,
    );
  });

  app.get('/services/:id/vhosts', list("List a service's endpoints"), async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await vhosts.listForService(
      caller,
      parseNumericId(request.params.id),
      pagingFrom(request.query),
    );
    return collection(
      'vhosts',
      `${urls.api}/services/${request.params.id}/vhosts`,
      await present(caller, items),
      paging,
    );
  });

  app.get('/vhosts/:id', single('Show an endpoint'), async (request) => {
    const caller = await callers.require(request);
    const vhost = await vhosts.get(caller, parseNumericId(request.params.id));
    return await presentOne(caller, vhost);
  });

  app.post(
    '/services/:id/vhosts',
    {
      schema: {
        tags,
        summary: 'Create an endpoint on a service (pending until provisioned)',
        params: idParams,
        body: createBody,
        response: responses({ 201: vhostResource }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      const created = await vhosts.create(caller, parseNumericId(request.params.id), request.body);
      return reply.code(201).send(await presentOne(caller, created));
    },
  );

  app.patch(
    '/vhosts/:id',
    {
      schema: {
        tags,
        summary: "Change an endpoint's settings (applied by its next provision)",
        params: idParams,
        body: updateBody,
        response: responses({ 200: vhostResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const updated = await vhosts.update(caller, parseNumericId(request.params.id), request.body);
      return await presentOne(caller, updated);
    },
  );

  app.delete(
    '/vhosts/:id',
    {
      schema: {
        tags,
        summary: 'Delete an endpoint (a provisioned one is deprovisioned first)',
        params: idParams,
        response: responses({ 204: noContent }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      await vhosts.remove(caller, parseNumericId(request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/vhosts/:id/operations',
    {
      schema: {
        tags,
        summary: 'Start an operation on an endpoint',
        params: idParams,
        body: startBody,
        response: responses({ 201: operationResource }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      const id = parseNumericId(request.params.id);
      // contract §6: provision, deprovision or renew, read by the operations service like any resource's.
      const { op } = await operations.start(caller, 'vhost', id, request.body);
      return reply.code(201).send(operationHal(op, caller));
    },
  );

  // Newest first, 40 per page unless asked (contract §1.4, §5.11).
  app.get(
    '/vhosts/:id/operations',
    {
      schema: {
        tags,
        summary: "List an endpoint's operations, newest first",
        params: idParams,
        querystring: operationsQuery,
        response: responses({ 200: operationCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { vhost, where } = await vhosts.operationsScope(caller, parseNumericId(request.params.id));
      const paging = pagingFrom(request.query, 40) ?? { page: 1, perPage: 40 };
      const { rows, total } = await operations.list(where, filtersFrom(request.query), paging);
      const scanResults = await codeScanResultIds(db, rows);
      return collection(
        'operations',
        `${urls.api}/vhosts/${vhost.id}/operations`,
        rows.map((op) => operationHal(op, caller, scanResults)),
        { ...paging, total },
      );
    },
  );
}
