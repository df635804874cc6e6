import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { CallerAccess, EnvironmentAccess } from '../api/access/environment-access.ts';
import { isMemberOf } from '../auth/access.ts';
import type { FamilyUrls } from '../config.ts';
import type { Db } from '../db/client.ts';
import { apps, services } from '../db/schema.ts';
import type { AuthGuard } from '../http/authenticate.ts';
import { forbidden, notFound } from '../http/errors.ts';
import { collection, pagingFrom } from '../http/hal.ts';
import { isUuid, parseNumericId } from '../http/ids.ts';
import { codeScanResultIds, type OperationRow, toOperationHal } from './operations.hal.ts';
import { filtersFrom, type OperationsService } from './operations.service.ts';

export async function operationsRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    urls: FamilyUrls;
    guard: AuthGuard;
    access: EnvironmentAccess;
    operations: OperationsService;
  },
) {
  const { db, urls, guard, access, operations } = deps;
  // Configuration values are sensitive (read scope, spec 1 §6); others see that variables changed, not their values.
  // The code scan result link of scan_code operations comes from `scanResults` (one query per response).
  const hal = (op: OperationRow, callerAccess: CallerAccess, scanResults: Map<number, number> = new Map()) =>
    toOperationHal(op, urls, {
      showEnv: callerAccess.allows({ id: op.environmentId ?? -1, organizationId: op.organizationId }, 'read'),
      codeScanResultId: scanResults.get(op.id) ?? null,
    });

  async function loadApp(id: string) {
    const appId = parseNumericId(id);
    const [row] = appId === null ? [] : await db.select().from(apps).where(eq(apps.id, appId));
    return row;
  }

  async function loadService(id: string) {
    const serviceId = parseNumericId(id);
    const [row] =
      serviceId === null ? [] : await db.select().from(services).where(eq(services.id, serviceId));
    return row;
  }

  // contract §6: the service reads the request; the route answers the queued operation.
  app.post<{ Params: { id: string } }>('/apps/:id/operations', async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const id = parseNumericId(request.params.id);
    const { op, caller: callerAccess } = await operations.start(caller.user, 'app', id, request.body);
    return reply.code(201).send(hal(op, callerAccess));
  });

  app.post<{ Params: { id: string } }>('/services/:id/operations', async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const id = parseNumericId(request.params.id);
    const { op, caller: callerAccess } = await operations.start(caller.user, 'service', id, request.body);
    return reply.code(201).send(hal(op, callerAccess));
  });

  // Lists: newest first, 40 per page unless asked (contract §1.4, §5.11).
  const listPaging = (query: unknown) => pagingFrom(query, 40) ?? { page: 1, perPage: 40 };

  async function respondList(
    selfUrl: string,
    scope: Parameters<OperationsService['list']>[0],
    query: unknown,
    callerAccess: CallerAccess,
  ) {
    const paging = listPaging(query);
    const { rows, total } = await operations.list(scope, filtersFrom(query), paging);
    const scanResults = await codeScanResultIds(db, rows);
    return collection(
      'operations',
      selfUrl,
      rows.map((op) => hal(op, callerAccess, scanResults)),
      { ...paging, total },
    );
  }

  app.get<{ Params: { id: string } }>('/organizations/:id/operations', async (request) => {
    const caller = await guard.requireCaller(request);
    const organizationId = request.params.id;
    if (!isUuid(organizationId) || !(await isMemberOf(db, caller.user.id, organizationId))) {
      throw notFound('Organization');
    }
    const callerAccess = await access.forUser(caller.user.id);
    const readable = (await access.readableEnvironments(callerAccess)).filter(
      (environment) => environment.organizationId === organizationId,
    );
    const scope = operations.environmentsScope(readable.map((environment) => environment.id));
    return respondList(
      `${urls.api}/organizations/${organizationId}/operations`,
      scope,
      request.query,
      callerAccess,
    );
  });

  app.get<{ Params: { id: string } }>('/accounts/:id/operations', async (request) => {
    const caller = await guard.requireCaller(request);
    const callerAccess = await access.forUser(caller.user.id);
    const environment = await access.authorize(callerAccess, parseNumericId(request.params.id), 'basic_read');
    const scope = operations.environmentsScope([environment.id]);
    return respondList(
      `${urls.api}/accounts/${environment.id}/operations`,
      scope,
      request.query,
      callerAccess,
    );
  });

  app.get<{ Params: { id: string }; Querystring: { with_services?: string } }>(
    '/apps/:id/operations',
    async (request) => {
      const caller = await guard.requireCaller(request);
      const target = await loadApp(request.params.id);
      const callerAccess = await access.forUser(caller.user.id);
      await access.authorize(callerAccess, target?.environmentId ?? null, 'basic_read');
      if (!target) throw notFound('App');
      const scope = operations.appScope(target.id, request.query.with_services === 'true');
      return respondList(`${urls.api}/apps/${target.id}/operations`, scope, request.query, callerAccess);
    },
  );

  app.get<{ Params: { id: string } }>('/services/:id/operations', async (request) => {
    const caller = await guard.requireCaller(request);
    const target = await loadService(request.params.id);
    const callerAccess = await access.forUser(caller.user.id);
    await access.authorize(callerAccess, target?.environmentId ?? null, 'basic_read');
    if (!target) throw notFound('Service');
    const scope = operations.serviceScope(target.id);
    return respondList(`${urls.api}/services/${target.id}/operations`, scope, request.query, callerAccess);
  });

  /** An operation the caller may see: through its environment, or as an owner once that is gone. */
  async function visibleOperation(userId: string, id: string) {
    const operationId = parseNumericId(id);
    const op = operationId === null ? undefined : await operations.get(operationId);
    if (!op) throw notFound('Operation');
    const callerAccess = await access.forUser(userId);
    const environment = await operations.environmentOf(op);
    const visible = environment
      ? callerAccess.allows(environment, 'basic_read')
      : callerAccess.allows({ id: -1, organizationId: op.organizationId }, 'owner');
    if (!visible) throw notFound('Operation');
    return { op, callerAccess };
  }

  app.get<{ Params: { id: string } }>('/operations/:id', async (request) => {
    const caller = await guard.requireCaller(request);
    const { op, callerAccess } = await visibleOperation(caller.user.id, request.params.id);
    return hal(op, callerAccess, await codeScanResultIds(db, [op]));
  });

  // Contract §1.10: the answer is a URL; the text behind it is readable without credentials until it expires.
  app.get<{ Params: { id: string } }>('/operations/:id/logs', async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const { op } = await visibleOperation(caller.user.id, request.params.id);
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
