import {
  OPERATION_CATALOG,
  type OperationResourceType,
  operationCollection,
  operationResource,
  operationTypeBody,
  operationTypesOf,
  textAnswer,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { CallerAccess, Callers } from '../auth/caller-access.ts';
import type { FamilyUrls } from '../config.ts';
import type { Db } from '../db/client.ts';
import { forbidden } from '../http/errors.ts';
import { collection, pagingFrom } from '../http/hal.ts';
import { parseNumericId } from '../http/ids.ts';
import { idRoute, pathParameter, queryFlagValue, querySchema, queryValue } from '../http/route-schemas.ts';
import { responses } from '../http/schema-first.ts';
import { codeScanResultIds, type OperationRow, toOperationHal } from './operations.hal.ts';
import {
  cursorFrom,
  cursorOf,
  filtersFrom,
  type OperationsService,
  showsConfiguration,
} from './operations.service.ts';

/** The body of `POST /<resources>/:id/operations`: its type decides the rest (checked by the service). */
const startBody = (resourceType: OperationResourceType) =>
  operationTypeBody.describe(
    `\`type\` is one of ${operationTypesOf(resourceType).join(', ')}; the other keys depend on it (contract §6). ` +
      `Any other type is not supported for ${OPERATION_CATALOG[resourceType].noun}.`,
  );

/** The filters of an operation list's query, carried into its next and previous links. */
const LIST_FILTERS = [
  'resource_type',
  'operation_type',
  'type',
  'operation_status',
  'status',
  'since',
  'with_services',
  'newest_per_resource',
] as const;

/** An operation list's query (here and an endpoint's): paging and the activity filters (contract §5.11). */
export const operationListQuery = querySchema(
  {
    resource_type: queryValue.optional(),
    operation_type: queryValue.optional(),
    type: queryValue.optional(),
    operation_status: queryValue.optional(),
    status: queryValue.optional(),
    since: queryValue.describe('Only operations updated since: an ISO 8601 time with a time zone').optional(),
    newest_per_resource: queryFlagValue.describe(
      'Berth addition: `true` keeps only the newest operation of each resource (with `operation_status=failed`: the resources whose last operation failed)',
    ),
    after: queryValue.describe("Where the page starts: the cursor of the page before's next link").optional(),
  },
  { paged: true },
);

/**
 * Operations as the API answers them, here and under `/vhosts/:id/operations`. Configuration values are
 * sensitive (read scope, spec 1 §6); others see that variables changed, not their values. The code scan
 * result link of scan_code operations comes from `scanResults` (one query per response).
 */
export function operationAnswers(deps: { db: Db; urls: FamilyUrls; operations: OperationsService }) {
  const { db, urls, operations } = deps;
  const hal = (
    op: OperationRow,
    caller: CallerAccess,
    scanResults: Map<number, number> = new Map(),
    failureReasons?: Map<number, string | null>,
  ) =>
    toOperationHal(op, urls, {
      showEnv: showsConfiguration(caller, op),
      codeScanResultId: scanResults.get(op.id) ?? null,
      failureReason: failureReasons?.get(op.id),
    });

  /** A list: newest first, 40 per page unless asked (contract §1.4, §5.11). */
  async function respondList(
    selfUrl: string,
    scope: Parameters<OperationsService['list']>[0],
    query: unknown,
    caller: CallerAccess,
  ) {
    const paging = pagingFrom(query, 40);
    const { rows, total, estimated, more } = await operations.list(
      scope,
      filtersFrom(query),
      paging,
      cursorFrom(query),
    );
    const [scanResults, failureReasons] = await Promise.all([
      codeScanResultIds(db, rows),
      operations.failureReasons(rows, paging.perPage),
    ]);
    const answer = collection(
      'operations',
      selfUrl,
      rows.map((op) => hal(op, caller, scanResults, failureReasons)),
      { ...paging, total },
    );
    // The pages around keep the list's filters; the next one starts after this page's last row, on the
    // index however deep (issue 19).
    const around = (link: { href: string } | undefined, after?: string) => {
      if (!link) return undefined;
      const url = new URL(link.href);
      const asked = (query ?? {}) as Record<string, unknown>;
      for (const key of LIST_FILTERS) {
        const value = asked[key];
        if (typeof value === 'string' && value !== '') url.searchParams.set(key, value);
      }
      if (after) url.searchParams.set('after', after);
      return { href: url.toString() };
    };
    // Whether a next page exists is what the page's one extra row said, not the count: rows added while
    // someone pages never leave a link to an empty page.
    const last = rows.at(-1);
    const nextPage = new URL(selfUrl);
    nextPage.searchParams.set('page', String(paging.page + 1));
    nextPage.searchParams.set('per_page', String(paging.perPage));
    const next = more && last ? around({ href: nextPage.toString() }, cursorOf(last)) : undefined;
    const prev = around(answer._links.prev);
    const linked = {
      ...answer,
      _links: { self: answer._links.self, ...(next ? { next } : {}), ...(prev ? { prev } : {}) },
    };
    return estimated ? { ...linked, total_count_estimated: true } : linked;
  }

  return { hal, respondList };
}

export async function operationsRoutes(
  fastify: FastifyInstance,
  deps: {
    db: Db;
    urls: FamilyUrls;
    callers: Callers;
    operations: OperationsService;
    /** The family URLs to answer a request with (familyUrlsFor), when they follow the request's origin. */
    urlsFor?: (request: { protocol: string; host: string }) => FamilyUrls;
  },
) {
  const { db, urls, callers, operations } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Operations'];
  const list = (summary: string) =>
    idRoute(tags, summary, { 200: operationCollection }, { querystring: operationListQuery });
  const { hal, respondList } = operationAnswers({ db, urls, operations });

  // contract §6: the service reads the request; the route answers the queued operation.
  const start = (resourceType: OperationResourceType) =>
    idRoute(
      tags,
      `Start an operation on ${OPERATION_CATALOG[resourceType].noun}`,
      { 201: operationResource },
      { body: startBody(resourceType) },
    );

  app.post('/apps/:id/operations', start('app'), async (request, reply) => {
    const caller = await callers.require(request);
    const id = parseNumericId(request.params.id);
    const { op } = await operations.start(caller, 'app', id, request.body);
    return reply.code(201).send(hal(op, caller));
  });

  app.post('/services/:id/operations', start('service'), async (request, reply) => {
    const caller = await callers.require(request);
    const id = parseNumericId(request.params.id);
    const { op } = await operations.start(caller, 'service', id, request.body);
    return reply.code(201).send(hal(op, caller));
  });

  // Databases, backups, environments and drains take operations the same way (contract §6).
  for (const resourceType of ['database', 'backup', 'account', 'log_drain', 'metric_drain'] as const) {
    const path = OPERATION_CATALOG[resourceType].path;
    app.post(`/${path}/:id/operations`, start(resourceType), async (request, reply) => {
      const caller = await callers.require(request);
      const id = parseNumericId(request.params.id);
      const { op } = await operations.start(caller, resourceType, id, request.body);
      return reply.code(201).send(hal(op, caller));
    });
  }

  app.get(
    '/databases/:id/operations',
    idRoute(
      tags,
      "A database's operations (and its service's and endpoints' with `with_services=true`), newest first",
      { 200: operationCollection },
      { querystring: operationListQuery.extend({ with_services: queryFlagValue }) },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const { database, where } = await operations.databaseScope(
        caller,
        parseNumericId(request.params.id),
        request.query.with_services === 'true',
      );
      return respondList(`${urls.api}/databases/${database.id}/operations`, where, request.query, caller);
    },
  );

  app.get(
    '/organizations/:id/operations',
    list("An organization's operations, newest first"),
    async (request) => {
      const caller = await callers.require(request);
      const organizationId = request.params.id;
      const scope = await operations.organizationScope(caller, organizationId);
      return respondList(
        `${urls.api}/organizations/${organizationId}/operations`,
        scope,
        request.query,
        caller,
      );
    },
  );

  app.get('/accounts/:id/operations', list("An environment's operations, newest first"), async (request) => {
    const caller = await callers.require(request);
    const { environment, where } = await operations.environmentScope(
      caller,
      parseNumericId(request.params.id),
    );
    return respondList(`${urls.api}/accounts/${environment.id}/operations`, where, request.query, caller);
  });

  app.get(
    '/apps/:id/operations',
    idRoute(
      tags,
      "An app's operations (and its services' with `with_services=true`), newest first",
      { 200: operationCollection },
      { querystring: operationListQuery.extend({ with_services: queryFlagValue }) },
    ),
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

  app.get('/services/:id/operations', list("A service's operations, newest first"), async (request) => {
    const caller = await callers.require(request);
    const { service, where } = await operations.serviceScope(caller, parseNumericId(request.params.id));
    return respondList(`${urls.api}/services/${service.id}/operations`, where, request.query, caller);
  });

  for (const kind of ['log_drain', 'metric_drain'] as const) {
    const path = OPERATION_CATALOG[kind].path;
    const summary =
      kind === 'log_drain'
        ? "A log drain's operations, newest first"
        : "A metric drain's operations, newest first";
    app.get(`/${path}/:id/operations`, list(summary), async (request) => {
      const caller = await callers.require(request);
      const { drain, where } = await operations.drainScope(caller, kind, parseNumericId(request.params.id));
      return respondList(`${urls.api}/${path}/${drain.id}/operations`, where, request.query, caller);
    });
  }

  const single = idRoute(tags, 'An operation', { 200: operationResource });
  app.get('/operations/:id', single, async (request) => {
    const caller = await callers.require(request);
    const op = await operations.visible(caller, parseNumericId(request.params.id));
    return hal(op, caller, await codeScanResultIds(db, [op]));
  });

  // Contract §1.10: the answer is a URL; the text behind it is readable without credentials until it expires.
  const logsLink = idRoute(tags, "A signed, expiring link to the operation's log (text)", {
    200: textAnswer,
  });
  app.get('/operations/:id/logs', logsLink, async (request, reply) => {
    const caller = await callers.require(request);
    const op = await operations.visible(caller, parseNumericId(request.params.id));
    // The link is followed by whoever asked: at the origin they reached (PUBLIC_URL's when set).
    const base = deps.urlsFor ? deps.urlsFor(request).api : urls.api;
    return reply.type('text/plain; charset=utf-8').send(`${base}${operations.logsPath(op.id)}`);
  });

  app.get(
    '/operation_logs/:id',
    {
      // Public: the signed link is the credential (contract §1.10).
      config: { public: true },
      schema: {
        tags,
        summary: "An operation's log, by its signed link",
        params: z.strictObject({ id: pathParameter }),
        querystring: querySchema({ expires: queryValue.optional(), signature: queryValue.optional() }),
        response: responses({ 200: textAnswer }),
      },
    },
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
