import { type ActionName, certificateMessages, createCertificateSchema } from '@berth/core';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { CallerAccess, CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { apps, certificates, services, vhosts } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import { parseBody, unprocessable } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import { allows, createAccess } from '../access/access.ts';
import type { AppView } from '../apps/apps.hal.ts';
import type { AppsService } from '../apps/apps.service.ts';
import type { VhostRow } from '../vhosts/vhosts.hal.ts';
import { parseCertificate } from './certificate-pem.ts';
import type { CertificateRow } from './certificates.hal.ts';

export interface CertificateView {
  certificate: CertificateRow;
  /** spec 1 §6: the private key shows to callers with the sensitive scope only. */
  showKey: boolean;
}

/** Certificates of an environment (contract §5.9): uploaded as PEM, parsed, used by custom HTTPS endpoints. */
export function createCertificatesService(deps: { db: Db; apps: AppsService }) {
  const { db, apps: appsService } = deps;
  const access = createAccess(db);

  async function load(caller: CallerAccess, id: number | null, action: ActionName): Promise<CertificateView> {
    const [found] = id === null ? [] : await db.select().from(certificates).where(eq(certificates.id, id));
    const { row: certificate, environment } = await access.resource(caller, found, action, 'Certificate');
    return { certificate, showKey: allows(caller, environment, 'certificate.private_key.read') };
  }

  /** The columns of an uploaded certificate: the body is read only once the caller may upload here. */
  function columns(body: unknown) {
    const input = parseBody(createCertificateSchema, body);
    return { ...parseCertificate(input.certificate_body, input.private_key), acme: false };
  }

  return {
    async listInEnvironment(
      ref: CallerRef,
      environmentId: number | null,
      paging: Paging | null,
    ): Promise<Page<CertificateView>> {
      const caller = await access.caller(ref);
      const environment = await access.environment(caller, environmentId, 'certificate.read');
      const showKey = allows(caller, environment, 'certificate.private_key.read');
      const { items, paging: window } = await selectPage(db, certificates, {
        where: eq(certificates.environmentId, environment.id),
        orderBy: [certificates.id],
        paging,
      });
      return { items: items.map((certificate) => ({ certificate, showKey })), paging: window };
    },

    async get(ref: CallerRef, id: number | null): Promise<CertificateView> {
      return load(await access.caller(ref), id, 'certificate.read');
    },

    async create(ref: CallerRef, environmentId: number | null, body: unknown): Promise<CertificateView> {
      const caller = await access.caller(ref);
      const environment = await access.environment(caller, environmentId, 'certificate.create');
      const [created] = await db
        .insert(certificates)
        .values({ environmentId: environment.id, ...columns(body) })
        .returning();
      if (!created) throw new Error('Certificate insert returned nothing');
      return { certificate: created, showKey: allows(caller, environment, 'certificate.private_key.read') };
    },

    /** Replaces the certificate and key (a renewed certificate); endpoints using it apply it on their next provision. */
    async replace(ref: CallerRef, id: number | null, body: unknown) {
      const view = await load(await access.caller(ref), id, 'certificate.update');
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
    async remove(ref: CallerRef, id: number | null): Promise<void> {
      const { certificate } = await load(await access.caller(ref), id, 'certificate.delete');
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

    async listVhosts(ref: CallerRef, id: number | null, paging: Paging | null) {
      const { certificate } = await load(await access.caller(ref), id, 'certificate.read');
      return selectPage(db, vhosts, {
        where: eq(vhosts.certificateId, certificate.id),
        orderBy: [vhosts.id],
        paging,
      }) as Promise<Page<VhostRow>>;
    },

    /** Apps with an endpoint using the certificate (without embeds: the console reads their services apart). */
    async listApps(ref: CallerRef, id: number | null, paging: Paging | null): Promise<Page<AppView>> {
      const { certificate } = await load(await access.caller(ref), id, 'certificate.read');
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
