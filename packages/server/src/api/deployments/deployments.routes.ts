import { deploymentCollection, deploymentResource } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idParams, pagedQuery } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { type DeploymentRow, toDeploymentHal } from './deployments.hal.ts';
import type { DeploymentsService } from './deployments.service.ts';

const tags = ['Deployments'];

export async function deploymentsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; deployments: DeploymentsService },
) {
  const { urls, callers, deployments } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const hal = (deployment: DeploymentRow) => toDeploymentHal(deployment, urls);
  // Lists are newest first.
  const list = (summary: string) => ({
    tags,
    summary,
    params: idParams,
    querystring: pagedQuery,
    response: responses({ 200: deploymentCollection }),
  });

  app.get(
    '/deployments',
    {
      schema: {
        tags,
        summary: 'Deployments of every app the caller may see',
        querystring: pagedQuery,
        response: responses({ 200: deploymentCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await deployments.list(caller, pagingFrom(request.query));
      return collection('deployments', `${urls.api}/deployments`, items.map(hal), paging);
    },
  );

  app.get(
    '/deployments/:id',
    {
      schema: {
        tags,
        summary: 'A deployment',
        params: idParams,
        response: responses({ 200: deploymentResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const id = parseNumericId(request.params.id);
      return hal(await deployments.get(caller, id));
    },
  );

  app.get('/apps/:id/deployments', { schema: list("An app's deployments") }, async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await deployments.listForApp(
      caller,
      parseNumericId(request.params.id),
      pagingFrom(request.query),
    );
    const href = `${urls.api}/apps/${request.params.id}/deployments`;
    return collection('deployments', href, items.map(hal), paging);
  });

  app.get(
    '/sources/:id/deployments',
    { schema: list('Deployments from a source, of the apps the caller may see') },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await deployments.listForSource(
        caller,
        parseNumericId(request.params.id),
        pagingFrom(request.query),
      );
      const href = `${urls.api}/sources/${request.params.id}/deployments`;
      return collection('deployments', href, items.map(hal), paging);
    },
  );
}
