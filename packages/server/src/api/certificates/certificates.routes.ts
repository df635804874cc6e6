import {
  appCollection,
  certificateCollection,
  certificateResource,
  createCertificateSchema,
  MAX_LENGTH,
  noContent,
  vhostCollection,
} from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { bodyCheckedByService, idParams, pagedQuery } from '../../http/route-schemas.ts';
import { responses } from '../../http/schema-first.ts';
import { toAppHal } from '../apps/apps.hal.ts';
import { presentVhosts } from '../vhosts/vhost-views.ts';
import { toCertificateHal } from './certificates.hal.ts';
import type { CertificatesService, CertificateView } from './certificates.service.ts';

/** Certificates: contract §5.9. */

/** A certificate chain and its private key are far longer than the other strings a body holds. */
const pemBody = { maxBodyString: MAX_LENGTH.pemBody };

// The service reads an upload only once the caller may upload to the environment or replace the
// certificate (404 or 403 first, whatever the body), so the routes document the body and let it through.
const uploadBody = bodyCheckedByService(
  createCertificateSchema,
  'The certificate (with its chain) and its private key, in PEM',
);

export async function certificatesRoutes(
  fastify: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers; certificates: CertificatesService },
) {
  const { db, urls, callers, certificates } = deps;
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const tags = ['Certificates'];
  const hal = (view: CertificateView) => toCertificateHal(view.certificate, urls, { showKey: view.showKey });

  // Auto-paged by the console (contract §1.4): page 1, then the rest in parallel.
  app.get(
    '/accounts/:id/certificates',
    {
      schema: {
        tags,
        summary: "List an environment's certificates",
        params: idParams,
        querystring: pagedQuery,
        response: responses({ 200: certificateCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await certificates.listInEnvironment(
        caller,
        parseNumericId(request.params.id),
        pagingFrom(request.query),
      );
      return collection(
        'certificates',
        `${urls.api}/accounts/${request.params.id}/certificates`,
        items.map(hal),
        paging,
      );
    },
  );

  app.post(
    '/accounts/:id/certificates',
    {
      config: pemBody,
      schema: {
        tags,
        summary: 'Upload a certificate to an environment',
        params: idParams,
        body: uploadBody,
        response: responses({ 201: certificateResource }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      const created = await certificates.create(caller, parseNumericId(request.params.id), request.body);
      return reply.code(201).send(hal(created));
    },
  );

  app.get(
    '/certificates/:id',
    {
      schema: {
        tags,
        summary: 'Show a certificate',
        params: idParams,
        response: responses({ 200: certificateResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      return hal(await certificates.get(caller, parseNumericId(request.params.id)));
    },
  );

  app.patch(
    '/certificates/:id',
    {
      config: pemBody,
      schema: {
        tags,
        summary: 'Replace a certificate and its key (a renewed certificate)',
        params: idParams,
        body: uploadBody,
        response: responses({ 200: certificateResource }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      return hal(await certificates.replace(caller, parseNumericId(request.params.id), request.body));
    },
  );

  app.delete(
    '/certificates/:id',
    {
      schema: {
        tags,
        summary: 'Delete a certificate no endpoint uses',
        params: idParams,
        response: responses({ 204: noContent }),
      },
    },
    async (request, reply) => {
      const caller = await callers.require(request);
      await certificates.remove(caller, parseNumericId(request.params.id));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/certificates/:id/vhosts',
    {
      schema: {
        tags,
        summary: 'List the endpoints using a certificate',
        params: idParams,
        querystring: pagedQuery,
        response: responses({ 200: vhostCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await certificates.listVhosts(
        caller,
        parseNumericId(request.params.id),
        pagingFrom(request.query),
      );
      return collection(
        'vhosts',
        `${urls.api}/certificates/${request.params.id}/vhosts`,
        await presentVhosts({ db, urls }, caller, items),
        paging,
      );
    },
  );

  app.get(
    '/certificates/:id/apps',
    {
      schema: {
        tags,
        summary: 'List the apps with an endpoint using a certificate',
        params: idParams,
        querystring: pagedQuery,
        response: responses({ 200: appCollection }),
      },
    },
    async (request) => {
      const caller = await callers.require(request);
      const { items, paging } = await certificates.listApps(
        caller,
        parseNumericId(request.params.id),
        pagingFrom(request.query),
      );
      return collection(
        'apps',
        `${urls.api}/certificates/${request.params.id}/apps`,
        items.map((view) => toAppHal(view, urls)),
        paging,
      );
    },
  );
}
