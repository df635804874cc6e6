import { certificateMessages, createCertificateSchema } from '@berth/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { apps, certificates, services, vhosts } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import { notFound, parseBody, unprocessable } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import type { CallerAccess, NeededScope } from '../access/environment-access.ts';
import { createResourceAccess } from '../access/resource-access.ts';
import type { AppView } from '../apps/apps.hal.ts';
import { createAppsService } from '../apps/apps.service.ts';
import type { VhostRow } from '../vhosts/vhosts.hal.ts';
import { parseCertificate } from './certificate-pem.ts';
import type { CertificateRow } from './certificates.hal.ts';

export interface CertificateView {
  certificate: CertificateRow;
  /** spec 1 §6: the private key shows to callers with the sensitive scope only. */
  showKey: boolean;
}

/** Certificates of an environment (contract §5.9): uploaded as PEM, parsed, used by custom HTTPS endpoints. */
export function createCertificatesService(deps: { db: Db }) {
  const { db } = deps;
  const access = createResourceAccess(db);
  const appsService = createAppsService({ db });

  async function load(caller: CallerAccess, id: number | null, scope: NeededScope): Promise<CertificateView> {
    const [certificate] =
      id === null ? [] : await db.select().from(certificates).where(eq(certificates.id, id));
    if (!certificate) throw notFound('Certificate');
    const environment = await access.authorizeIn(caller, certificate.environmentId, scope, 'Certificate');
    return { certificate, showKey: caller.allows(environment, 'sensitive') };
  }

  /** The columns of an uploaded certificate: the body is read only once the caller may upload here. */
  function columns(body: unknown) {
    const input = parseBody(createCertificateSchema, body);
    return { ...parseCertificate(input.certificate_body, input.private_key), acme: false };
  }

  return {
    async listInEnvironment(
      userId: string,
      environmentId: number | null,
      scope: NeededScope,
      paging: Paging | null,
    ): Promise<Page<CertificateView>> {
      const caller = await access.forUser(userId);
      const environment = await access.authorizeIn(caller, environmentId, scope, 'Environment');
      const showKey = caller.allows(environment, 'sensitive');
      const { items, paging: window } = await selectPage(db, certificates, {
        where: eq(certificates.environmentId, environment.id),
        orderBy: [certificates.id],
        paging,
      });
      return { items: items.map((certificate) => ({ certificate, showKey })), paging: window };
    },

    async get(userId: string, id: number | null, scope: NeededScope): Promise<CertificateView> {
      return load(await access.forUser(userId), id, scope);
    },

    async create(
      userId: string,
      environmentId: number | null,
      scope: NeededScope,
      body: unknown,
    ): Promise<CertificateView> {
      const caller = await access.forUser(userId);
      const environment = await access.authorizeIn(caller, environmentId, scope, 'Environment');
      const [created] = await db
        .insert(certificates)
        .values({ environmentId: environment.id, ...columns(body) })
        .returning();
      if (!created) throw new Error('Certificate insert returned nothing');
      return { certificate: created, showKey: caller.allows(environment, 'sensitive') };
    },

    /** Replaces the certificate and key (a renewed certificate); endpoints using it apply it on their next provision. */
    async replace(userId: string, id: number | null, scope: NeededScope, body: unknown) {
      const view = await load(await access.forUser(userId), id, scope);
      const [updated] = await db
        .update(certificates)
        .set({ ...columns(body), updatedAt: new Date() })
        .where(eq(certificates.id, view.certificate.id))
        .returning();
      return { ...view, certificate: updated ?? view.certificate };
    },

    /**
     * spec 2 §5 and §8: refused while any endpoint uses it. The delete re-checks in the same statement,
     * so an endpoint attached meanwhile never loses its certificate.
     */
    async remove(userId: string, id: number | null, scope: NeededScope): Promise<void> {
      const { certificate } = await load(await access.forUser(userId), id, scope);
      const deleted = await db
        .delete(certificates)
        .where(
          and(
            eq(certificates.id, certificate.id),
            sql`not exists (select 1 from ${vhosts} where ${vhosts.certificateId} = ${certificate.id})`,
          ),
        )
        .returning({ id: certificates.id });
      if (deleted.length === 0) throw unprocessable(certificateMessages.inUse);
    },

    async listVhosts(userId: string, id: number | null, scope: NeededScope, paging: Paging | null) {
      const { certificate } = await load(await access.forUser(userId), id, scope);
      return selectPage(db, vhosts, {
        where: eq(vhosts.certificateId, certificate.id),
        orderBy: [vhosts.id],
        paging,
      }) as Promise<Page<VhostRow>>;
    },

    /** Apps with an endpoint using the certificate (without embeds: the console reads their services apart). */
    async listApps(
      userId: string,
      id: number | null,
      scope: NeededScope,
      paging: Paging | null,
    ): Promise<Page<AppView>> {
      const { certificate } = await load(await access.forUser(userId), id, scope);
      const using = db
        .select({ id: services.appId })
        .from(vhosts)
        .innerJoin(services, eq(vhosts.serviceId, services.id))
        .where(eq(vhosts.certificateId, certificate.id));
      return appsService.page(inArray(apps.id, using), paging, false);
    },
  };
}
export type CertificatesService = ReturnType<typeof createCertificatesService>;
