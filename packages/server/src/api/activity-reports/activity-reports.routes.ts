import {
  activityReportCollection,
  activityReportFileAnswer,
  activityReportMessages,
  activityReportResource,
  SERVER_PAGE_SIZE_DEFAULT,
  textAnswer,
} from '@berth/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import { forbidden } from '../../http/errors.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { idRoute, pagedQuery, pathParameter, querySchema, queryValue } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toActivityReportHal } from './activity-reports.hal.ts';
import type { ActivityReportsService } from './activity-reports.service.ts';

const tags = ['Activity reports'];

/**
 * Activity reports (contract §5.6): an environment's list, one report, a report asked for now, and its
 * CSV behind a signed, expiring link (contract §1.10).
 */
export async function activityReportsRoutes(
  fastify: FastifyInstance,
  deps: {
    urls: FamilyUrls;
    callers: Callers;
    reports: ActivityReportsService;
    /** The API's base URL as the request reached it (the link is followed by whoever asked). */
    apiUrlFor?: (request: FastifyRequest) => string;
  },
) {
  const { urls, callers, reports } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/accounts/:id/activity_reports',
    idRoute(
      tags,
      "An environment's activity reports, newest first",
      { 200: activityReportCollection },
      {
        querystring: pagedQuery,
      },
    ),
    async (request) => {
      const caller = await callers.require(request);
      // spec 3 §9: server-paged lists hold 40 a page unless asked otherwise.
      const paging = pagingFrom(request.query, SERVER_PAGE_SIZE_DEFAULT);
      const page = await reports.list(caller, parseNumericId(request.params.id), paging);
      return collection(
        'activity_reports',
        `${urls.api}/accounts/${request.params.id}/activity_reports`,
        page.items.map((report) => toActivityReportHal(report, urls)),
        page.paging,
      );
    },
  );

  app.post(
    '/accounts/:id/activity_reports',
    idRoute(
      tags,
      'Ask for a report of the last 7 days now (made in a moment); asked again while it is made or within a minute of it, that report',
      { 200: activityReportResource, 201: activityReportResource },
    ),
    async (request, reply) => {
      const caller = await callers.require(request);
      const { report, created } = await reports.request(caller, parseNumericId(request.params.id));
      return reply.code(created ? 201 : 200).send(toActivityReportHal(report, urls));
    },
  );

  app.get(
    '/activity_reports/:id',
    idRoute(tags, 'An activity report', { 200: activityReportResource }),
    async (request) => {
      const caller = await callers.require(request);
      return toActivityReportHal(await reports.get(caller, parseNumericId(request.params.id)), urls);
    },
  );

  // Contract §1.10: the answer is a URL the console navigates to; the file is readable without
  // credentials until the link expires.
  app.get(
    '/activity_reports/:id/download',
    idRoute(tags, "A signed, expiring link to the report's CSV (text); 409 while it is being made", {
      200: textAnswer,
    }),
    async (request, reply) => {
      const caller = await callers.require(request);
      const path = await reports.downloadPath(caller, parseNumericId(request.params.id));
      const base = deps.apiUrlFor ? deps.apiUrlFor(request) : urls.api;
      return reply.type('text/plain; charset=utf-8').send(`${base}${path}`);
    },
  );

  app.get(
    '/activity_report_files/:id',
    {
      // Public: the signed link is the credential (contract §1.10).
      config: { public: true },
      schema: {
        tags,
        summary: "An activity report's CSV, by its signed link",
        params: z.strictObject({ id: pathParameter }),
        querystring: querySchema({ expires: queryValue.optional(), signature: queryValue.optional() }),
        response: responses({ 200: activityReportFileAnswer }),
      },
    },
    async (request, reply) => {
      const file = await reports.file(
        parseNumericId(request.params.id),
        Number(request.query.expires),
        request.query.signature ?? '',
      );
      if (!file) throw forbidden(activityReportMessages.invalidLink);
      // Who holds the link reads it; nothing between keeps a copy.
      reply.header('cache-control', 'no-store');
      reply.header('content-disposition', `attachment; filename="${file.filename}"`);
      return reply.type('text/csv; charset=utf-8').send(file.csv);
    },
  );
}
