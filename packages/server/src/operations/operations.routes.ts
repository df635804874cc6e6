import type { FastifyInstance } from 'fastify';
import type { CallerAccess, Callers } from '../auth/caller-access.ts';
import type { FamilyUrls } from '../config.ts';
import type { Db } from '../db/client.ts';
import { forbidden } from '../http/errors.ts';
import { collection, pagingFrom } from '../http/hal.ts';
import { parseNumericId } from '../http/ids.ts';
import { codeScanResultIds, type OperationRow, toOperationHal } from './operations.hal.ts';
import { filtersFrom, type OperationsService, showsConfiguration } from './operations.service.ts';

export async function operationsRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    urls: FamilyUrls;
    callers: Callers;
    operations: OperationsService;
  },
) {
  const { db, urls, callers, operations } = deps;
  // Configuration values are sensitive (read scope, spec 1 §6); others see that variables changed, not their values.
  // The code scan result link of scan_code operations comes from `scanResults` (one query per response).
  const hal = (op: OperationRow, caller: CallerAccess, scanResults: Map<number, number> = new Map()) =>
    toOperationHal(op, urls, {
      showEnv: showsConfiguration(caller, op),
      codeScanResultId: scanResults.get(op.id) ?? null,
    });

  // contract §6: the service reads the request; the route answers the queued operation.
  app.post<{ Params: { id: string } }>('/apps/:id/operations', async (request, reply) => {
    const caller = await callers.require(request);
    const id = parseNumericId(request.params.id);
    const { op } = await operations.start(caller, 'app', id, request.body);
    return reply.code(201).send(hal(op, caller));
  });

  app.post<{ Params: { id: string } }>('/services/:id/operations', async (request, reply) => {
    const caller = await callers.require(request);
    const id = parseNumericId(request.params.id);
    const { op } = await operations.start(caller, 'service', id, request.body);
    return reply.code(201).send(hal(op, caller));
  });

  // Lists: newest first, 40 per page unless asked (contract §1.4, §5.11).
  const listPaging = (query: unknown) => pagingFrom(query, 40) ?? { page: 1, perPage: 40 };

  async function respondList(
    selfUrl: string,
    scope: Parameters<OperationsService['list']>[0],
    query: unknown,
    caller: CallerAccess,
  ) {
    const paging = listPaging(query);
    const { rows, total } = await operations.list(scope, filtersFrom(query), paging);
    const scanResults = await codeScanResultIds(db, rows);
    return collection(
      'operations',
      selfUrl,
      rows.map((op) => hal(op, caller, scanResults)),
      { ...paging, total },
    );
  }

  app.get<{ Params: { id: string } }>('/organizations/:id/operations', async (request) => {
    const caller = await callers.require(request);
    const organizationId = request.params.id;
    const scope = await operations.organizationScope(caller, organizationId);
    return respondList(
      `${urls.api}/organizations/${organizationId}/operations`,
      scope,
      request.query,
      caller,
    );
  });

  app.get<{ Params: { id: string } }>('/accounts/:id/operations', async (request) => {
    const caller = await callers.require(request);
    const { environment, where } = await operations.environmentScope(
      caller,
      parseNumericId(request.params.id),
    );
    return respondList(`${urls.api}/accounts/${environment.id}/operations`, where, request.query, caller);
  });

  app.get<{ Params: { id: string }; Querystring: { with_services?: string } }>(
    '/apps/:id/operations',
    async (request) => {
      const caller = await callers.require(request);
      const { app: target, where } = await operations.appScope(
        caller,
        parseNumericId(request.params.id),
        request.query.with_services === 'true',
      );
      return respondList(`${urls.api}/apps/${target.id}/operations`, where, request.query, caller);
    },
  );

  app.get<{ Params: { id: string } }>('/services/:id/operations', async (request) => {
    const caller = await callers.require(request);
    const { service, where } = await operations.serviceScope(caller, parseNumericId(request.params.id));
    return respondList(`${urls.api}/services/${service.id}/operations`, where, request.query, caller);
  });

  app.get<{ Params: { id: string } }>('/operations/:id', async (request) => {
    const caller = await callers.require(request);
    const op = await operations.visible(caller, parseNumericId(request.params.id));
    return hal(op, caller, await codeScanResultIds(db, [op]));
  });

  // Contract §1.10: the answer is a URL; the text behind it is readable without credentials until it expires.
  app.get<{ Params: { id: string } }>('/operations/:id/logs', async (request, reply) => {
    const caller = await callers.require(request);
    const op = await operations.visible(caller, parseNumericId(request.params.id));
    return reply.type('text/plain; charset=utf-8').send(`${urls.api}${operations.logsPath(op.id)}`);
  });

  app.get<{ Params: { id: string }; Querystring: { expires?: string; signature?: string } }>(
    '/operation_logs/:id',
    async (request, reply) => {
      const operationId = parseNumericId(request.params.id);
      const valid =
        operationId !== null &&
        operations.verifyLogsSignature(
          operationId,
          Number(request.query.expires),
          request.query.signature ?? '',
        );
      reply.header('access-control-allow-origin', '*');
      if (!valid || operationId === null) throw forbidden('This log link is invalid or has expired');
      return reply.type('text/plain; charset=utf-8').send(await operations.logText(operationId));
    },
  );
}
