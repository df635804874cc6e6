import type { FastifyInstance } from 'fastify';
import type { CallerAccess, Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { codeScanResultIds, type OperationRow, toOperationHal } from '../../operations/operations.hal.ts';
import {
  filtersFrom,
  type OperationsService,
  showsConfiguration,
} from '../../operations/operations.service.ts';
import { presentVhosts } from './vhost-views.ts';
import type { VhostRow } from './vhosts.hal.ts';
import { createVhostsService } from './vhosts.service.ts';

type ById = { Params: { id: string } };

/** Endpoints (vhosts) and their operations: contract §5.9, §5.11 and §6. */
export async function vhostsRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers; operations: OperationsService },
) {
  const { db, urls, callers, operations } = deps;
  const vhosts = createVhostsService(deps);
  const present = (caller: CallerAccess, rows: VhostRow[]) => presentVhosts({ db, urls }, caller, rows);
  const operationHal = (op: OperationRow, caller: CallerAccess, scanResults = new Map<number, number>()) =>
    toOperationHal(op, urls, {
      showEnv: showsConfiguration(caller, op),
      codeScanResultId: scanResults.get(op.id) ?? null,
    });

  app.get('/vhosts', async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await vhosts.list(caller, pagingFrom(request.query));
    return collection('vhosts', `${urls.api}/vhosts`, await present(caller, items), paging);
  });

  app.get<ById>('/accounts/:id/vhosts', async (request) => {
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

  app.get<ById>('/apps/:id/vhosts', async (request) => {
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

  app.get<ById>('/services/:id/vhosts', async (request) => {
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

  app.get<ById>('/vhosts/:id', async (request) => {
    const caller = await callers.require(request);
    const vhost = await vhosts.get(caller, parseNumericId(request.params.id));
    return (await present(caller, [vhost]))[0];
  });

  app.post<ById>('/services/:id/vhosts', async (request, reply) => {
    const caller = await callers.require(request);
    const created = await vhosts.create(caller, parseNumericId(request.params.id), request.body);
    return reply.code(201).send((await present(caller, [created]))[0]);
  });

  app.patch<ById>('/vhosts/:id', async (request) => {
    const caller = await callers.require(request);
    const updated = await vhosts.update(caller, parseNumericId(request.params.id), request.body);
    return (await present(caller, [updated]))[0];
  });

  app.delete<ById>('/vhosts/:id', async (request, reply) => {
    const caller = await callers.require(request);
    await vhosts.remove(caller, parseNumericId(request.params.id));
    return reply.code(204).send();
  });

  app.post<ById>('/vhosts/:id/operations', async (request, reply) => {
    const caller = await callers.require(request);
    const id = parseNumericId(request.params.id);
    // contract §6: provision, deprovision or renew, read by the operations service like any resource's.
    const { op } = await operations.start(caller, 'vhost', id, request.body);
    return reply.code(201).send(operationHal(op, caller));
  });

  // Newest first, 40 per page unless asked (contract §1.4, §5.11).
  app.get<ById>('/vhosts/:id/operations', async (request) => {
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
  });
}
