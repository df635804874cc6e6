import { Readable } from 'node:stream';
import { auditEventCollection } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { idRoute, querySchema, queryValue } from '../../http/route-schemas.ts';
import { exportAnswer, toAuditEventHal } from './audit-events.hal.ts';
import {
  type AuditEventsService,
  auditCursorFrom,
  auditCursorOf,
  auditFiltersFrom,
  auditFormatFrom,
} from './audit-events.service.ts';

/** The filters of the list and the export, carried into next links. */
const FILTERS = ['action', 'actor', 'since', 'until'] as const;

const filterQuery = {
  action: queryValue.describe('Only this action (`role.update`, …); `all` for any').optional(),
  actor: queryValue.describe('Only the changes of this actor, by e-mail').optional(),
  since: queryValue.describe('Only events at or after this ISO 8601 time').optional(),
  until: queryValue.describe('Only events before this ISO 8601 time').optional(),
};

export async function auditEventsRoutes(
  fastify: FastifyInstance,
  deps: { urls: FamilyUrls; callers: Callers; auditEvents: AuditEventsService },
) {
  const { urls, callers, auditEvents } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Audit events'];

  app.get(
    '/organizations/:id/audit_events',
    idRoute(
      tags,
      "An organization's audit events the caller may read, newest first (issue 41)",
      { 200: auditEventCollection },
      {
        querystring: querySchema(
          {
            ...filterQuery,
            after: queryValue.describe("The cursor of the page before's next link").optional(),
          },
          { paged: true },
        ),
      },
    ),
    async (request) => {
      const caller = await callers.require(request);
      const organizationId = request.params.id;
      const paging = pagingFrom(request.query, 40);
      const filters = auditFiltersFrom(request.query);
      const after = auditCursorFrom(request.query);
      const { rows, total, more } = await auditEvents.list(caller, organizationId, filters, paging, after);
      const selfUrl = `${urls.api}/organizations/${organizationId}/audit_events`;
      const answer = collection(
        'audit_events',
        selfUrl,
        rows.map((row) => toAuditEventHal(row, urls)),
        { ...paging, total },
      );
      // The next page starts after this page's last row (on the index however deep), with the same filters;
      // whether it exists is what the page's one extra row said.
      const withFilters = (href: string) => {
        const url = new URL(href);
        for (const key of FILTERS) {
          const value = (request.query as Record<string, unknown>)[key];
          if (typeof value === 'string' && value !== '') url.searchParams.set(key, value);
        }
        return url;
      };
      const last = rows.at(-1);
      let next: { href: string } | undefined;
      if (more && last) {
        const url = withFilters(selfUrl);
        url.searchParams.set('page', String(paging.page + 1));
        url.searchParams.set('per_page', String(paging.perPage));
        url.searchParams.set('after', auditCursorOf(last));
        next = { href: url.toString() };
      }
      const prev = answer._links.prev ? { href: withFilters(answer._links.prev.href).toString() } : undefined;
      return {
        ...answer,
        _links: { self: answer._links.self, ...(next ? { next } : {}), ...(prev ? { prev } : {}) },
      };
    },
  );

  app.get(
    '/organizations/:id/audit_events/export',
    idRoute(
      tags,
      "An organization's audit events the caller may read, as a JSON lines (`format=jsonl`) or CSV download",
      { 200: exportAnswer },
      {
        querystring: querySchema({
          ...filterQuery,
          format: queryValue.describe('`jsonl` (default) or `csv`').optional(),
        }),
      },
    ),
    async (request, reply) => {
      const caller = await callers.require(request);
      const format = auditFormatFrom(request.query);
      const filters = auditFiltersFrom(request.query);
      const lines = await auditEvents.exportLines(caller, request.params.id, filters, format);
      const day = new Date().toISOString().slice(0, 10);
      reply.header('cache-control', 'no-store');
      reply.header('content-disposition', `attachment; filename="audit-events-${day}.${format}"`);
      reply.type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
      // A stream is sent as it is (no serializer); the schema above documents the file's text.
      return reply.send(Readable.from(lines) as unknown as string);
    },
  );
}
