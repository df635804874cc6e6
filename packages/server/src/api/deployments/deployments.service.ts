import { and, desc, eq, inArray } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { deployments } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import type { Paging } from '../../http/hal.ts';
import type { AppsService } from '../apps/apps.service.ts';
import type { SourcesService } from '../sources/sources.service.ts';
import type { DeploymentRow } from './deployments.hal.ts';

const NEWEST_FIRST = [desc(deployments.createdAt), desc(deployments.id)];

export function createDeploymentsService(deps: { db: Db; apps: AppsService; sources: SourcesService }) {
  const { db, apps, sources } = deps;
  const { access } = apps;

  return {
    /** Deployments of every app the caller may see, newest first (contract §1.11). */
    async list(ref: CallerRef, paging: Paging | null): Promise<Page<DeploymentRow>> {
      const environmentIds = await access.readableEnvironmentIds(await access.caller(ref), 'deployment.read');
      return selectPage(db, deployments, {
        where: inArray(deployments.appId, apps.appIdsIn(environmentIds)),
        orderBy: NEWEST_FIRST,
        paging,
      });
    },

    listForApp(ref: CallerRef, appId: number | null, paging: Paging | null) {
      return apps.listOwned(ref, deployments, appId, 'deployment.read', { orderBy: NEWEST_FIRST, paging });
    },

    /** Deployments from a source of the caller's organizations, limited to apps the caller may see. */
    async listForSource(ref: CallerRef, sourceId: number | null, paging: Paging | null) {
      const caller = await access.caller(ref);
      const source = await sources.load(caller, sourceId);
      const environmentIds = await access.readableEnvironmentIds(caller, 'deployment.read');
      return selectPage(db, deployments, {
        where: and(
          eq(deployments.sourceId, source.id),
          inArray(deployments.appId, apps.appIdsIn(environmentIds)),
        ),
        orderBy: NEWEST_FIRST,
        paging,
      });
    },

    get(ref: CallerRef, id: number | null): Promise<DeploymentRow> {
      return apps.getOwned(ref, deployments, id, 'deployment.read', 'Deployment');
    },
  };
}
export type DeploymentsService = ReturnType<typeof createDeploymentsService>;
