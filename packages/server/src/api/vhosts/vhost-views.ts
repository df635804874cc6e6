import type { VhostResource as VhostHal } from '@berth/core';
import { eq, inArray } from 'drizzle-orm';
import type { CallerAccess } from '../../auth/caller-access.ts';
import type { FamilyUrls } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { apps, databases, services } from '../../db/schema.ts';
import { allows, createAccess } from '../access/access.ts';
import { toVhostHal, type VhostResource, type VhostRow, type VhostView } from './vhosts.hal.ts';

/**
 * The HAL of endpoints as one caller sees them, for every route that answers endpoints (the vhost lists
 * and detail, a certificate's endpoints).
 */
export async function presentVhosts(
  deps: { db: Db; urls: FamilyUrls },
  caller: CallerAccess,
  rows: readonly VhostRow[],
): Promise<VhostHal[]> {
  return (await vhostViews(deps.db, caller, rows)).map((view) => toVhostHal(view, deps.urls));
}

/**
 * What the HAL of endpoints needs beyond their rows, for one caller in two queries: the app or database
 * each one serves (spec 2 §3 resourceType, resourceId, resourceHandle) and whether the caller may see
 * its credentials (sensitive scope on its environment).
 */
async function vhostViews(db: Db, caller: CallerAccess, rows: readonly VhostRow[]): Promise<VhostView[]> {
  if (rows.length === 0) return [];
  const [readable, owners] = await Promise.all([
    createAccess(db).readableEnvironments(caller, 'vhost.read'),
    db
      .select({
        serviceId: services.id,
        appId: apps.id,
        appHandle: apps.handle,
        databaseId: databases.id,
        databaseHandle: databases.handle,
      })
      .from(services)
      .leftJoin(apps, eq(services.appId, apps.id))
      .leftJoin(databases, eq(services.databaseId, databases.id))
      .where(inArray(services.id, [...new Set(rows.map((vhost) => vhost.serviceId))])),
  ]);
  const environments = new Map(readable.map((environment) => [environment.id, environment]));
  const resources = new Map<number, VhostResource>();
  for (const owner of owners) {
    if (owner.appId !== null) {
      resources.set(owner.serviceId, { type: 'app', id: owner.appId, handle: owner.appHandle ?? '' });
    } else if (owner.databaseId !== null) {
      resources.set(owner.serviceId, {
        type: 'database',
        id: owner.databaseId,
        handle: owner.databaseHandle ?? '',
      });
    }
  }
  return rows.map((vhost) => {
    const environment = environments.get(vhost.environmentId);
    return {
      vhost,
      resource: resources.get(vhost.serviceId) ?? null,
      // spec 2 §6: credentials need sensitive (which implies read; read alone is not enough).
      showToken: environment !== undefined && allows(caller, environment, 'vhost.credentials.read'),
    };
  });
}
