import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { type DeploymentRow, toDeploymentHal } from './deployments.hal.ts';
import { createDeploymentsService } from './deployments.service.ts';

type ById = { Params: { id: string } };

export async function deploymentsRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers },
) {
  const { urls, callers } = deps;
  const deployments = createDeploymentsService(deps);
  const hal = (deployment: DeploymentRow) => toDeploymentHal(deployment, urls);

  app.get('/deployments', async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await deployments.list(caller, pagingFrom(request.query));
    return collection('deployments', `${urls.api}/deployments`, items.map(hal), paging);
  });

  app.get<ById>('/deployments/:id', async (request) => {
    const caller = await callers.require(request);
    const id = parseNumericId(request.params.id);
    return hal(await deployments.get(caller, id));
  });

  app.get<ById>('/apps/:id/deployments', async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await deployments.listForApp(
      caller,
      parseNumericId(request.params.id),
      pagingFrom(request.query),
    );
    const href = `${urls.api}/apps/${request.params.id}/deployments`;
    return collection('deployments', href, items.map(hal), paging);
  });

  app.get<ById>('/sources/:id/deployments', async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await deployments.listForSource(
      caller,
      parseNumericId(request.params.id),
      pagingFrom(request.query),
    );
    const href = `${urls.api}/sources/${request.params.id}/deployments`;
    return collection('deployments', href, items.map(hal), paging);
  });
}
