import { createLogDrainSchema, logDrainCollection, logDrainResource, noContent } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { bodyCheckedByService, idParams, pagedQuery } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toLogDrainHal } from './log-drains.hal.ts';
import type { LogDrainsService, LogDrainView } from './log-drains.service.ts';

/** Log drains: contract §5.10 (their operations go through the operations routes). */

// The body is read once the caller may create drains in the environment (404 or 403 first, whatever it holds).
const createBody = bodyCheckedByService(
  createLogDrainSchema,
  'The drain: handle, type, sources, and the fields of its type (URL, host and port, token, database)',
);

export async function logDrainsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; logDrains: LogDrainsService },
) {
  const { urls, callers, logDrains } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Log drains'];
  const hal = (view: LogDrainView) => toLogDrainHal(view.drain, urls, view);

  app.get(
    '/log_drains',
    {
      schema: {
        tags,
        summary: 'List the log drains of every environment the caller can see',
        querystring: pagedQuery,
        response: responses({ 200: logDrainCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await logDrains.list(caller, pagingFrom(request.query));
      return collection('log_drains', `${urls.api}/log_drains`, items.map(hal), paging);
    },
  );

  app.get(
    '/accounts/:id/log_drains',
    {
      schema: {
        tags,
        summary: "List an environment's log drains",
        params: idParams,
        querystring: pagedQuery,
        response: responses({ 200: logDrainCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await logDrains.listInEnvironment(
        caller,
        parseNumericId(request.params.id),
        pagingFrom(request.query),
      );
      return collection(
        'log_drains',
        `${urls.api}/accounts/${request.params.id}/log_drains`,
        items.map(hal),
        paging,
      );
    },
  );

  app.post(
    '/accounts/:id/log_drains',
    {
      schema: {
        tags,
        summary: 'Create a log drain in an environment (then provision it)',
        params: idParams,
        body: createBody,
        response: responses({ 201: logDrainResource }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      const created = await logDrains.create(caller, parseNumericId(request.params.id), request.body);
      return reply.code(201).send(hal(created));
    },
  );

  app.get(
    '/log_drains/:id',
    {
      schema: {
        tags,
        summary: 'Show a log drain',
        params: idParams,
        response: responses({ 200: logDrainResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      return hal(await logDrains.get(caller, parseNumericId(request.params.id)));
    },
  );

  app.delete(
    '/log_drains/:id',
    {
      schema: {
        tags,
        summary: 'Delete a log drain that is not shipping (deprovision it first)',
        params: idParams,
        response: responses({ 204: noContent }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      await logDrains.remove(caller, parseNumericId(request.params.id));
      return reply.code(204).send(null);
    },
  );
}
