import { MAX_LENGTH } from '@berth/core';
import type { FastifyInstance } from 'fastify';
import type { Callers } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { collection, pagingFrom } from '../../http/hal.ts';
import { parseNumericId } from '../../http/ids.ts';
import { toAppHal } from '../apps/apps.hal.ts';
import { presentVhosts } from '../vhosts/vhost-views.ts';
import { toCertificateHal } from './certificates.hal.ts';
import { type CertificateView, createCertificatesService } from './certificates.service.ts';

type ById = { Params: { id: string } };

/** Certificates: contract §5.9. */

/** A certificate chain and its private key are far longer than the other strings a body holds. */
const pemBody = { config: { maxBodyString: MAX_LENGTH.pemBody } };
export async function certificatesRoutes(
  app: FastifyInstance,
  deps: { db: Db; urls: FamilyUrls; callers: Callers },
) {
  const { urls, callers } = deps;
  const certificates = createCertificatesService(deps);
  const hal = (view: CertificateView) => toCertificateHal(view.certificate, urls, { showKey: view.showKey });

  // Auto-paged by the console (contract §1.4): page 1, then the rest in parallel.
  app.get<ById>('/accounts/:id/certificates', async (request) => {
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
  });

  app.post<ById>('/accounts/:id/certificates', pemBody, async (request, reply) => {
    const caller = await callers.require(request);
    const created = await certificates.create(caller, parseNumericId(request.params.id), request.body);
    return reply.code(201).send(hal(created));
  });

  app.get<ById>('/certificates/:id', async (request) => {
    const caller = await callers.require(request);
    return hal(await certificates.get(caller, parseNumericId(request.params.id)));
  });

  app.patch<ById>('/certificates/:id', pemBody, async (request) => {
    const caller = await callers.require(request);
    return hal(await certificates.replace(caller, parseNumericId(request.params.id), request.body));
  });

  app.delete<ById>('/certificates/:id', async (request, reply) => {
    const caller = await callers.require(request);
    await certificates.remove(caller, parseNumericId(request.params.id));
    return reply.code(204).send();
  });

  app.get<ById>('/certificates/:id/vhosts', async (request) => {
    const caller = await callers.require(request);
    const { items, paging } = await certificates.listVhosts(
      caller,
      parseNumericId(request.params.id),
      pagingFrom(request.query),
    );
    return collection(
      'vhosts',
      `${urls.api}/certificates/${request.params.id}/vhosts`,
      await presentVhosts(deps, caller, items),
      paging,
    );
  });

  app.get<ById>('/certificates/:id/apps', async (request) => {
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
  });
}
