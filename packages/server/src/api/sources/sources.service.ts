import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { sources } from '../../db/schema.ts';
import { type Page, selectPage } from '../../db/select-page.ts';
import { notFound } from '../../http/errors.ts';
import type { Paging } from '../../http/hal.ts';
import type { CallerAccess } from '../access/environment-access.ts';
import { createResourceAccess } from '../access/resource-access.ts';
import type { SourceRow } from './sources.hal.ts';

/**
 * Sources belong to an organization, not to an environment: any member sees them (the scope table's
 * basic_read has no environment to apply to); the deployments listed under one are filtered instead.
 */
export function createSourcesService(deps: { db: Db }) {
  const { db } = deps;
  const access = createResourceAccess(db);
  const ofCallerOrganizations = (caller: CallerAccess) =>
    inArray(sources.organizationId, [...caller.actors.keys()]);

  async function load(caller: CallerAccess, id: number | null): Promise<SourceRow> {
    const [source] =
      id === null
        ? []
        : await db
            .select()
            .from(sources)
            .where(and(eq(sources.id, id), ofCallerOrganizations(caller)));
    if (!source) throw notFound('Source');
    return source;
  }

  return {
    load,

    async list(userId: string, paging: Paging | null): Promise<Page<SourceRow>> {
      const caller = await access.forUser(userId);
      return selectPage(db, sources, { where: ofCallerOrganizations(caller), orderBy: [sources.id], paging });
    },

    async get(userId: string, id: number | null): Promise<SourceRow> {
      return load(await access.forUser(userId), id);
    },
  };
}
