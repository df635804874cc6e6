import {
  COST_RATES,
  type CostRates,
  estimateMonthlyCost,
  INCLUDED_IOPS,
  stackMonthlyCost,
} from '@berth/core';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { costVersions, environments, resourceCosts, services } from '../../db/schema.ts';
import { selectPlainColumns } from '../../db/select-page.ts';
import type { Paging } from '../../http/hal.ts';
import { createAccess, isVisible } from '../access/access.ts';
import { visibleStacks } from '../stacks/stacks.service.ts';
import type { Cost } from './costs.hal.ts';

/**
 * Estimated monthly costs of an organization's resources (contract §5.12), from the core cost model.
 * The caller must belong to the organization (else 404); resources in environments they cannot see
 * (no basic_read) are left out.
 *
 * What each service, app, database and environment is priced by is kept in `resource_costs` by triggers,
 * in the same transaction as the change (migration 0039, issue 40): a page reads one run of that table by
 * its index and prices the rows here with `@berth/core`, so the rates and the model are written once.
 * A service costs its containers; an app its services' containers and its endpoints with a load balancer
 * (the vhost rate, or the shared rate when shared); a database those and its disk (GB and IOPS above the
 * included 3000) and its backups. An environment costs everything priced that lives in it, including the
 * backups of databases that are gone.
 */
/** What the priced services run: how many, their containers and those containers' memory (MB). */
export interface Running {
  services: number;
  containers: number;
  containerMemoryMb: number;
}

/** One page of a costs list and how many there are in all. */
export interface CostPage {
  items: Cost[];
  total: number;
}

/** A kept row's quantities (see db/tables/resource-costs.ts). */
export type KeptQuantities = Pick<
  typeof resourceCosts.$inferSelect,
  | 'mClassMemoryMb'
  | 'cClassMemoryMb'
  | 'rClassMemoryMb'
  | 'endpoints'
  | 'sharedEndpoints'
  | 'diskGb'
  | 'extraIops'
  | 'backupGb'
>;

const keptQuantities = {
  mClassMemoryMb: resourceCosts.mClassMemoryMb,
  cClassMemoryMb: resourceCosts.cClassMemoryMb,
  rClassMemoryMb: resourceCosts.rClassMemoryMb,
  endpoints: resourceCosts.endpoints,
  sharedEndpoints: resourceCosts.sharedEndpoints,
  diskGb: resourceCosts.diskGb,
  extraIops: resourceCosts.extraIops,
  backupGb: resourceCosts.backupGb,
};

/**
 * What a kept row costs a month. Every price is linear in what it multiplies, so one container of a
 * family's summed memory costs what that family's containers do, and the IOPS above the baseline summed
 * over the disks cost what each disk's do.
 */
export function keptMonthlyCost(row: KeptQuantities, rates: CostRates = COST_RATES): number {
  return estimateMonthlyCost(
    {
      containers: [
        { containerCount: 1, containerMemoryMb: Number(row.mClassMemoryMb), instanceClass: 'm' },
        { containerCount: 1, containerMemoryMb: Number(row.cClassMemoryMb), instanceClass: 'c' },
        { containerCount: 1, containerMemoryMb: Number(row.rClassMemoryMb), instanceClass: 'r' },
      ],
      endpoints: row.endpoints,
      sharedEndpoints: row.sharedEndpoints,
      diskGb: Number(row.diskGb),
      provisionedIops: INCLUDED_IOPS + Number(row.extraIops),
      backupGb: Number(row.backupGb),
    },
    rates,
  );
}

/** A page's columns under short names, read as one JSON array per column. */
const pageColumns = {
  id: resourceCosts.ownerId,
  m: resourceCosts.mClassMemoryMb,
  c: resourceCosts.cClassMemoryMb,
  r: resourceCosts.rClassMemoryMb,
  endpoints: resourceCosts.endpoints,
  shared: resourceCosts.sharedEndpoints,
  disk: resourceCosts.diskGb,
  iops: resourceCosts.extraIops,
  backup: resourceCosts.backupGb,
};

type OwnerType = 'app' | 'database' | 'environment' | 'service';
const RESOURCE_TYPES = {
  app: 'App',
  database: 'Database',
  environment: 'Account',
  service: 'Service',
} as const;

const OWNER_TYPES = { apps: 'app', databases: 'database', services: 'service' } as const;
/** The costs lists of owners paged by id, whose answers the routes keep. */
export type OwnerList = keyof typeof OWNER_TYPES;

/** Environments and stacks are few by nature: their ids and costs are paged in memory. */
function pageOf<T>(all: T[], paging: Paging): T[] {
  const start = (paging.page - 1) * paging.perPage;
  return all.slice(start, start + paging.perPage);
}

export function createCostsService(deps: { db: Db; rates?: CostRates }) {
  const { db } = deps;
  const rates = deps.rates ?? COST_RATES;
  const access = createAccess(db);

  /**
   * The environments of the organization the caller may see, ascending, and the organization's cost
   * version read in the same statement; 404 unless they are a member.
   */
  async function readableEnvironments(
    ref: CallerRef,
    organizationId: string,
  ): Promise<{ ids: number[]; version: number }> {
    const caller = await access.caller(ref);
    access.organization(caller, organizationId, 'cost.read');
    const rows = await db
      .select({
        id: environments.id,
        organizationId: environments.organizationId,
        version: sql<number>`coalesce((select ${costVersions.version} from ${costVersions}
          where ${costVersions.organizationId} = ${organizationId}), 0)`.mapWith(Number),
      })
      .from(environments)
      .where(eq(environments.organizationId, organizationId))
      .orderBy(asc(environments.id));
    return {
      ids: rows.filter((row) => isVisible(caller, row)).map((row) => row.id),
      version: rows[0]?.version ?? 0,
    };
  }

  async function readableEnvironmentIds(ref: CallerRef, organizationId: string): Promise<number[]> {
    return (await readableEnvironments(ref, organizationId)).ids;
  }

  /** Rows in the readable environments (an empty list matches nothing). */
  const inReadable = (column: AnyPgColumn, readable: number[]) =>
    inArray(column, readable.length ? readable : [-1]);

  const priced = (ownerType: OwnerType, rows: ({ id: number } & KeptQuantities)[]): Cost[] =>
    rows.map(({ id, ...quantities }) => ({
      id,
      resourceType: RESOURCE_TYPES[ownerType],
      estCost: keptMonthlyCost(quantities, rates),
    }));

  /**
   * A page of one kind of owner in the readable environments, by id, with their count: one run of the
   * kept rows' (owner type, environment, owner) index, at any size of the organization.
   */
  async function ownerCosts(
    ownerType: 'app' | 'database' | 'service',
    readable: number[],
    paging: Paging,
  ): Promise<CostPage> {
    const where = and(
      eq(resourceCosts.ownerType, ownerType),
      inReadable(resourceCosts.environmentId, readable),
    );
    // Only the columns, as one JSON text: drizzle's mapping of a page's 5,000 rows took longer than the
    // query (db/select-page.ts).
    const page = db
      .select(
        Object.fromEntries(
          Object.entries(pageColumns).map(([alias, column]) => [alias, sql`${column}`.as(alias)]),
        ),
      )
      .from(resourceCosts)
      .where(where)
      .orderBy(asc(resourceCosts.ownerId))
      .limit(paging.perPage)
      .offset((paging.page - 1) * paging.perPage);
    const [columns, total] = await Promise.all([
      selectPlainColumns<Record<keyof typeof pageColumns, number>>(
        db,
        page.getSQL(),
        Object.keys(pageColumns) as (keyof typeof pageColumns)[],
      ),
      db.$count(resourceCosts, where),
    ]);
    const rows = columns.id.map((id, i) => ({
      id,
      mClassMemoryMb: columns.m[i] ?? 0,
      cClassMemoryMb: columns.c[i] ?? 0,
      rClassMemoryMb: columns.r[i] ?? 0,
      endpoints: columns.endpoints[i] ?? 0,
      sharedEndpoints: columns.shared[i] ?? 0,
      diskGb: columns.disk[i] ?? 0,
      extraIops: columns.iops[i] ?? 0,
      backupGb: columns.backup[i] ?? 0,
    }));
    return { items: priced(ownerType, rows), total };
  }

  /** What each of these environments costs, in their order (an environment without a row costs 0). */
  async function environmentCosts(ids: number[]): Promise<Cost[]> {
    const rows = ids.length
      ? await db
          .select({ id: resourceCosts.ownerId, ...keptQuantities })
          .from(resourceCosts)
          .where(and(eq(resourceCosts.ownerType, 'environment'), inArray(resourceCosts.ownerId, ids)))
      : [];
    const costs = new Map(priced('environment', rows).map((cost) => [cost.id, cost]));
    return ids.map((id) => costs.get(id) ?? { id, resourceType: 'Account' as const, estCost: 0 });
  }

  /** What the readable environments' services run (home's scaling summary), from the services' index. */
  async function running(readable: number[]): Promise<Running> {
    const [row] = await db
      .select({
        services: sql<number>`count(*)`.mapWith(Number),
        containers: sql<number>`coalesce(sum(greatest(${services.containerCount}, 0)), 0)`.mapWith(Number),
        containerMemoryMb:
          sql<number>`coalesce(sum(greatest(${services.containerCount}, 0) * greatest(${services.containerMemoryLimitMb}, 0)), 0)`.mapWith(
            Number,
          ),
      })
      .from(services)
      .where(inReadable(services.environmentId, readable));
    return row ?? { services: 0, containers: 0, containerMemoryMb: 0 };
  }

  /** The stacks the organization sees (contract §1.11), each with what it costs the organization. */
  async function stackCosts(organizationId: string): Promise<Cost[]> {
    const rows = await visibleStacks(db, [organizationId]);
    return rows.map((stack) => ({
      id: stack.id,
      resourceType: 'Stack' as const,
      estCost: stackMonthlyCost(
        { dedicated: stack.organizationId === organizationId && !stack.selfHosted },
        rates,
      ),
    }));
  }

  /**
   * What a page of services, apps or databases depends on, once the caller may read costs: the
   * organization's cost version, which moves with every change to its kept cost rows (migration 0045),
   * and the environments the caller can see. `read` prices the page; the routes keep its answer under
   * these.
   */
  async function ownerPage(
    list: OwnerList,
    ref: CallerRef,
    organizationId: string,
    paging: Paging,
  ): Promise<{ version: number; readable: number[]; read: () => Promise<CostPage> }> {
    const { ids, version } = await readableEnvironments(ref, organizationId);
    return { version, readable: ids, read: () => ownerCosts(OWNER_TYPES[list], ids, paging) };
  }

  return {
    rates,

    ownerPage,

    /** A page of the organization's services, each priced by its containers. */
    services: async (ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> =>
      (await ownerPage('services', ref, organizationId, paging)).read(),

    /** A page of the organization's apps: their services' containers and their endpoints. */
    apps: async (ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> =>
      (await ownerPage('apps', ref, organizationId, paging)).read(),

    /** A page of the organization's databases: containers, endpoints, disk and backups. */
    databases: async (ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> =>
      (await ownerPage('databases', ref, organizationId, paging)).read(),

    /** A page of the readable environments, each costing everything priced that lives in it. */
    async accounts(ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      return { items: await environmentCosts(pageOf(readable, paging)), total: readable.length };
    },

    /**
     * The stacks the organization sees (contract §1.11). A dedicated stack (owned by the organization,
     * not self-hosted) costs the stack rate; shared stacks cost their tenants nothing.
     */
    async stacks(ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> {
      await readableEnvironmentIds(ref, organizationId);
      const all = await stackCosts(organizationId);
      return { items: pageOf(all, paging), total: all.length };
    },

    /**
     * The organization's estimated monthly cost as the caller may see it (the environments they can read
     * and the stacks the organization pays for), with the services, containers and memory priced in it:
     * home's cost card and scaling summary (spec 3 §2).
     */
    async organizationMonthly(
      ref: CallerRef,
      organizationId: string,
    ): Promise<{ estCost: number; running: Running }> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      const [environmentCostList, stacks, runs] = await Promise.all([
        environmentCosts(readable),
        stackCosts(organizationId),
        running(readable),
      ]);
      let estCost = 0;
      for (const environment of environmentCostList) estCost += environment.estCost;
      for (const stack of stacks) estCost += stack.estCost;
      return { estCost, running: runs };
    },

    async assertMember(ref: CallerRef, organizationId: string): Promise<void> {
      await readableEnvironmentIds(ref, organizationId);
    },
  };
}
export type CostsService = ReturnType<typeof createCostsService>;
