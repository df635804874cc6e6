import type { FastifyInstance } from 'fastify';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { AuthGuard } from '../../http/authenticate.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { codeScanResultIds, type OperationRow, toOperationHal } from '../../operations/operations.hal.ts';
import { filtersFrom, type OperationsService } from '../../operations/operations.service.ts';
import type { CallerAccess } from '../access/environment-access.ts';
import { ROUTE_SCOPES } from '../access/scope-table.ts';
import { presentVhosts } from './vhost-views.ts';
import type { VhostRow } from './vhosts.hal.ts';
import { createVhostsService } from './vhosts.service.ts';

type ById = { Params: { id: string } };

/** Endpoints (vhosts) and their operations: contract §5.9, §5.11 and §6. */
export async function vhostsRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; guard: AuthGuard; operations: OperationsService },
) {
  const { db, urls, guard, operations } = deps;
  const vhosts = createVhostsService(deps);
  const present = (userId: string, rows: VhostRow[]) => presentVhosts({ db, urls }, userId, rows);
  const operationHal = (op: OperationRow, caller: CallerAccess, scanResults = new Map<number, number>()) =>
    toOperationHal(op, urls, {
      showEnv: caller.allows({ id: op.environmentId ?? -1, organizationId: op.organizationId }, 'read'),
      codeScanResultId: scanResults.get(op.id) ?? null,
    });

  app.get('/vhosts', async (request) => {
    const caller = await guard.requireCaller(request);
    const { items, paging } = await vhosts.list(caller.user.id, pagingFrom(request.query));
    return collection('vhosts', `${urls.api}/vhosts`, await present(caller.user.id, items), paging);
  });

  app.get<ById>('/accounts/:id/vhosts', async (request) => {
    const caller = await guard.requireCaller(request);
    const { items, paging } = await vhosts.listInEnvironment(
      caller.user.id,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['GET /accounts/:id/vhosts'],
      pagingFrom(request.query),
    );
    return collection(
      'vhosts',
      `${urls.api}/accounts/${request.params.id}/vhosts`,
      await present(caller.user.id, items),
      paging,
    );
  });

  app.get<ById>('/apps/:id/vhosts', async (request) => {
    const caller = await guard.requireCaller(request);
    const { items, paging } = await vhosts.listForApp(
      caller.user.id,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['GET /apps/:id/vhosts'],
      pagingFrom(request.query),
    );
    return collection(
      'vhosts',
      `${urls.api}/apps/${request.params.id}/vhosts`,
      await present(caller.user.id, items),
      paging,
    );
  });

  app.get<ById>('/services/:id/vhosts', async (request) => {
    const caller = await guard.requireCaller(request);
    const { items, paging } = await vhosts.listForService(
      caller.user.id,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['GET /services/:id/vhosts'],
      pagingFrom(request.query),
    );
    return collection(
      'vhosts',
      `${urls.api}/services/${request.params.id}/vhosts`,
      await present(caller.user.id, items),
      paging,
    );
  });

  app.get<ById>('/vhosts/:id', async (request) => {
    const caller = await guard.requireCaller(request);
    const vhost = await vhosts.get(
      caller.user.id,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['GET /vhosts/:id'],
    );
    return (await present(caller.user.id, [vhost]))[0];
  });

  app.post<ById>('/services/:id/vhosts', async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const created = await vhosts.create(
      caller.user.id,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['POST /services/:id/vhosts'],
      request.body,
    );
    return reply.code(201).send((await present(caller.user.id, [created]))[0]);
  });

  app.patch<ById>('/vhosts/:id', async (request) => {
    const caller = await guard.requireCaller(request);
    const updated = await vhosts.update(
      caller.user.id,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['PATCH /vhosts/:id'],
      request.body,
    );
    return (await present(caller.user.id, [updated]))[0];
  });

  app.delete<ById>('/vhosts/:id', async (request, reply) => {
    const caller = await guard.requireCaller(request);
    await vhosts.remove(caller.user, parseNumericId(request.params.id), ROUTE_SCOPES['DELETE /vhosts/:id']);
    return reply.code(204).send();
  });

  app.post<ById>('/vhosts/:id/operations', async (request, reply) => {
    const caller = await guard.requireCaller(request);
    const id = parseNumericId(request.params.id);
    // contract §6: provision, deprovision or renew, read by the operations service like any resource's.
    const { op, caller: callerAccess } = await operations.start(caller.user, 'vhost', id, request.body);
    return reply.code(201).send(operationHal(op, callerAccess));
  });

  // Newest first, 40 per page unless asked (contract §1.4, §5.11).
  app.get<ById>('/vhosts/:id/operations', async (request) => {
    const caller = await guard.requireCaller(request);
    const {
      vhost,
      caller: callerAccess,
      where,
    } = await vhosts.operationsScope(
      caller.user.id,
      parseNumericId(request.params.id),
      ROUTE_SCOPES['GET /vhosts/:id/operations'],
    );
    const paging = pagingFrom(request.query, 40) ?? { page: 1, perPage: 40 };
    const { rows, total } = await operations.list(where, filtersFrom(request.query), paging);
    const scanResults = await codeScanResultIds(db, rows);
    return collection(
      'operations',
      `${urls.api}/vhosts/${vhost.id}/operations`,
      rows.map((op) => operationHal(op, callerAccess, scanResults)),
      { ...paging, total },
    );
  });
}
