import { EDGE_RELATIONSHIPS } from '@berth/core';
import { and, eq, inArray, isNotNull, type SQL } from 'drizzle-orm';
import type { CallerAccess, CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { apps, configurations, databaseCredentials, databases, services, vhosts } from '../../db/schema.ts';
import type { Page } from '../../db/select-page.ts';
import { type Paging, pageOf } from '../../http/hal.ts';
import type { SecretBox } from '../../security/secret-box.ts';
import type { AppsService } from '../apps/apps.service.ts';
import type { DatabasesService } from '../databases/databases.service.ts';
import { connectionHost, type DependencyTarget, dependenciesOf, hostIndex } from './dependency-hosts.ts';
import type { EdgeEnd, EdgeView } from './edges.hal.ts';

/** An app's current configuration, the source of its edges. */
interface ConfiguredApp {
  appId: number;
  environmentId: number;
  env: Record<string, string | null>;
  createdAt: Date;
  updatedAt: Date;
}

interface DerivedEdge {
  source: ConfiguredApp;
  target: DependencyTarget;
}

export type EdgeRoot = { type: 'app' | 'database'; id: number | null };

const RELATIONSHIP: Record<DependencyTarget['type'], string> = {
  database: EDGE_RELATIONSHIPS.databaseConnection,
  app: EDGE_RELATIONSHIPS.appEndpoint,
};

/**
 * The dependency graph (contract §4.3 edge), derived rather than stored: an app depends on a database
 * when a value of its current configuration names the database's connection host, and on another app
 * when a value names a host name of one of that app's endpoints. Only resources of one environment are
 * compared with each other (apps, databases and endpoints are all indexed by environment_id), so a
 * graph costs what its environment holds, never what the organization does. Nothing is written: POST
 * /edges (contract §5.13, unused by the console) is not offered.
 */
export function createEdgesService(deps: {
  db: Db;
  secrets: SecretBox;
  apps: AppsService;
  databases: DatabasesService;
}) {
  const { db, secrets } = deps;
  const { access } = deps.apps;

  /** The hosts that name one resource of these environments: databases' connection hosts, endpoints' names. */
  async function hostsIn(environmentIds: number[]): Promise<Map<string, DependencyTarget>> {
    if (environmentIds.length === 0) return new Map();
    const [credentials, endpoints] = await Promise.all([
      db
        .select({ databaseId: databases.id, sealed: databaseCredentials.connectionUrlSealed })
        .from(databases)
        .innerJoin(databaseCredentials, eq(databaseCredentials.databaseId, databases.id))
        .where(inArray(databases.environmentId, environmentIds)),
      db
        .select({
          appId: services.appId,
          userDomain: vhosts.userDomain,
          virtualDomain: vhosts.virtualDomain,
          externalHost: vhosts.externalHost,
        })
        .from(vhosts)
        .innerJoin(services, eq(vhosts.serviceId, services.id))
        .where(and(inArray(vhosts.environmentId, environmentIds), isNotNull(services.appId))),
    ]);
    return hostIndex([
      ...credentials.map((credential) => ({
        // Only the host is kept: the opened URL (and its password) goes no further than this line.
        host: connectionHost(secrets.open(credential.sealed)),
        target: { type: 'database' as const, id: credential.databaseId },
      })),
      ...endpoints.flatMap((endpoint) => {
        const target = { type: 'app' as const, id: endpoint.appId ?? 0 };
        return [endpoint.userDomain, endpoint.virtualDomain, endpoint.externalHost].map((host) => ({
          host,
          target,
        }));
      }),
    ]);
  }

  /** Apps with a current configuration, picked by `where`, in id order. */
  function configuredApps(where: SQL | undefined) {
    return db
      .select({
        appId: apps.id,
        environmentId: apps.environmentId,
        env: configurations.env,
        createdAt: configurations.createdAt,
        updatedAt: configurations.updatedAt,
      })
      .from(apps)
      .innerJoin(configurations, eq(configurations.id, apps.currentConfigurationId))
      .where(where)
      .orderBy(apps.id);
  }

  function derive(sources: ConfiguredApp[], hosts: ReadonlyMap<string, DependencyTarget>): DerivedEdge[] {
    return sources.flatMap((source) =>
      dependenciesOf(Object.values(source.env), hosts)
        // An app reaching its own endpoint does not depend on itself.
        .filter((target) => !(target.type === 'app' && target.id === source.appId))
        // A stored configuration keeps no order of its variables: databases first, then apps, by id.
        .sort((a, b) => (a.type === b.type ? a.id - b.id : a.type === 'database' ? -1 : 1))
        .map((target) => ({ source, target })),
    );
  }

  /** The edges with both ends as complete representations, read in a handful of queries. */
  async function present(caller: CallerAccess, edges: DerivedEdge[]): Promise<EdgeView[]> {
    if (edges.length === 0) return [];
    const appIds = new Set(edges.map((edge) => edge.source.appId));
    const databaseIds = new Set<number>();
    for (const { target } of edges) (target.type === 'app' ? appIds : databaseIds).add(target.id);
    const [appPage, databaseRows] = await Promise.all([
      deps.apps.page(inArray(apps.id, [...appIds]), null, true),
      databaseIds.size
        ? db
            .select()
            .from(databases)
            .where(inArray(databases.id, [...databaseIds]))
        : [],
    ]);
    const databaseViews = await deps.databases.views(caller, databaseRows, true);
    const appOf = new Map(appPage.items.map((view) => [view.app.id, view]));
    const databaseOf = new Map(databaseViews.map((view) => [view.database.id, view]));
    const endOf = (target: DependencyTarget): EdgeEnd | undefined => {
      if (target.type === 'app') {
        const view = appOf.get(target.id);
        return view && { type: 'app', view };
      }
      const view = databaseOf.get(target.id);
      return view && { type: 'database', view };
    };
    return edges.flatMap(({ source, target }) => {
      const from = endOf({ type: 'app', id: source.appId });
      const to = endOf(target);
      // A resource removed since the edges were derived leaves its edges out.
      if (!from || !to) return [];
      return [
        {
          id: `app-${source.appId}-${target.type}-${target.id}`,
          relationshipType: RELATIONSHIP[target.type],
          source: from,
          destination: to,
          createdAt: source.createdAt,
          updatedAt: source.updatedAt,
        },
      ];
    });
  }

  return {
    /**
     * The edges at distance 1 of an app (what it depends on and what depends on it) or of a database
     * (the apps that depend on it), for a caller with read on its environment (404 if absent or
     * invisible, 403 without read), sources in id order.
     */
    async around(ref: CallerRef, root: EdgeRoot, paging: Paging): Promise<Page<EdgeView>> {
      const caller = await access.caller(ref);
      const place =
        root.type === 'app'
          ? (await deps.apps.load(caller, root.id, 'edge.read')).environmentId
          : (await deps.databases.load(caller, root.id, 'edge.read')).row.environmentId;
      const [hosts, sources] = await Promise.all([
        hostsIn([place]),
        configuredApps(eq(apps.environmentId, place)),
      ]);
      const touchesRoot = ({ source, target }: DerivedEdge) =>
        root.type === 'app'
          ? source.appId === root.id || (target.type === 'app' && target.id === root.id)
          : target.type === 'database' && target.id === root.id;
      // Paged before the ends are read: a database most apps use still costs one page of them.
      const window = pageOf(derive(sources, hosts).filter(touchesRoot), paging);
      return { items: await present(caller, window.items), paging: window.paging };
    },

    /**
     * Every edge of the environments where the caller may read, paged by the apps they start from: a
     * page holds the edges of `perPage` configured apps in id order (so it may hold more or fewer edges
     * than that), and `total` counts those apps. A page reads its apps' configurations and the hosts of
     * their environments only, however large the organization.
     */
    async list(ref: CallerRef, paging: Paging): Promise<Page<EdgeView>> {
      const caller = await access.caller(ref);
      const readable = await access.readableEnvironmentIds(caller, 'edge.read');
      const where = and(inArray(apps.environmentId, readable), isNotNull(apps.currentConfigurationId));
      const [sources, total] = await Promise.all([
        configuredApps(where)
          .limit(paging.perPage)
          .offset((paging.page - 1) * paging.perPage),
        db.$count(apps, where),
      ]);
      const hosts = await hostsIn([...new Set(sources.map((source) => source.environmentId))]);
      return {
        items: await present(caller, derive(sources, hosts)),
        paging: { page: paging.page, perPage: paging.perPage, total },
      };
    },
  };
}
export type EdgesService = ReturnType<typeof createEdgesService>;
