import { noContent } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import type { CallerRef, Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Page } from '../../db/select-page.ts';
import { collection, type Paging, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { bodyCheckedByService, idParams, pagedQuery } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';

/** What a kind of drain's service does: the same for log and metric drains. */
export interface DrainService<View> {
  list(caller: CallerRef, paging: Paging | null): Promise<Page<View>>;
  listInEnvironment(
    caller: CallerRef,
    environmentId: number | null,
    paging: Paging | null,
  ): Promise<Page<View>>;
  get(caller: CallerRef, id: number | null): Promise<View>;
  create(caller: CallerRef, environmentId: number | null, body: unknown): Promise<View>;
  remove(caller: CallerRef, id: number | null): Promise<void>;
}

/**
 * The routes of one kind of drain (contract §5.10): `/<collection>` across the caller's environments,
 * `/accounts/:id/<collection>` (list, create), `/<collection>/:id` (show, delete). Their operations go
 * through the operations routes.
 */
export async function drainRoutes<View, Resource extends z.ZodType, List extends z.ZodType>(
  fastify: FastifyInstance,
  deps: {
    urls: FamilyUrls;
    callers: Callers;
    service: DrainService<View>;
    /** `log_drains` or `metric_drains`. */
    collectionKey: 'log_drains' | 'metric_drains';
    noun: string;
    tag: string;
    createBody: z.ZodType;
    createDescription: string;
    resource: Resource;
    list: List;
    hal(view: View): z.infer<Resource>;
  },
) {
  const { urls, callers, service, collectionKey: key, noun } = deps;
  // Typed by hand: the schemas below validate and document each request and answer as everywhere.
  const app = fastify;
  const idOf = (request: { params: unknown }) => parseNumericId((request.params as { id: string }).id);
  const tags = [deps.tag];
  // The body is read once the caller may create drains in the environment (404 or 403 first).
  const body = bodyCheckedByService(deps.createBody, deps.createDescription);
  const page = (items: View[], self: string, paging?: { page: number; perPage: number; total: number }) =>
    collection(key, self, items.map(deps.hal), paging);

  app.get(
    `/${key}`,
    {
      schema: {
        tags,
        summary: `List the ${noun}s of every environment the caller can see`,
        querystring: pagedQuery,
        response: responses({ 200: deps.list }),
      },
    },
    async (request) => {
      const { items, paging } = await service.list(await callers.require(request), pagingFrom(request.query));
      return page(items, `${urls.api}/${key}`, paging);
    },
  );

  app.get(
    `/accounts/:id/${key}`,
    {
      schema: {
        tags,
        summary: `List an environment's ${noun}s`,
        params: idParams,
        querystring: pagedQuery,
        response: responses({ 200: deps.list }),
      },
    },
    async (request) => {
      const { items, paging } = await service.listInEnvironment(
        await callers.require(request),
        idOf(request),
        pagingFrom(request.query),
      );
      return page(items, `${urls.api}/accounts/${idOf(request)}/${key}`, paging);
    },
  );

  app.post(
    `/accounts/:id/${key}`,
    {
      schema: {
        tags,
        summary: `Create a ${noun} in an environment (then provision it)`,
        params: idParams,
        body,
        response: responses({ 201: deps.resource }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      const created = await service.create(caller, idOf(request), request.body);
      return reply.code(201).send(deps.hal(created));
    },
  );

  app.get(
    `/${key}/:id`,
    {
      schema: {
        tags,
        summary: `Show a ${noun}`,
        params: idParams,
        response: responses({ 200: deps.resource }),
      },
    },
    async (request) => deps.hal(await service.get(await callers.require(request), idOf(request))),
  );

  app.delete(
    `/${key}/:id`,
    {
      schema: {
        tags,
        summary: `Delete a ${noun} that is not shipping (deprovision it first)`,
        params: idParams,
        response: responses({ 204: noContent }),
      },
    },
    async (request, reply) => {
      await service.remove(await callers.require(request), idOf(request));
      return reply.code(204).send(null);
    },
  );
}
