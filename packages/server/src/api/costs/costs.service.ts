import {
  backupMonthlyCost,
  COST_RATES,
  type CostRates,
  containersMonthlyCost,
  diskMonthlyCost,
  endpointsMonthlyCost,
  iopsMonthlyCost,
  stackMonthlyCost,
} from '@berth/core';
import { and, asc, between, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { apps, backups, databases, disks, environments, services, vhosts } from '../../db/schema.ts';
import {
  selectAscendingJsonArray,
  selectColumnsAsJson,
  selectPlainRowsAsJson,
} from '../../db/select-page.ts';
import type { Paging } from '../../http/hal.ts';
import { createAccess, isVisible } from '../access/access.ts';
import { visibleStacks } from '../stacks/stacks.service.ts';
import type { Cost } from './costs.hal.ts';

/**
 * Estimated monthly costs of an organization's resources (contract §5.12), from the core cost model.
 * The caller must belong to the organization (else 404); resources in environments they cannot see
 * (no basic_read) are left out. Apps, databases and services are priced a page at a time: the page's
 * rows by id, then what they cost by that id range on an index, so a page takes the same time in an
 * organization of 1,000 apps or 50,000 (issue 19).
 *
 * Endpoints with a load balancer (provisioned, or being changed or removed) cost the vhost rate, or the
 * shared rate when shared, and count towards their app or database.
 * A database also costs its disk (GB and IOPS above the included 3000) and its backups; the backups of a
 * database that is gone still cost their environment. An environment costs the sum of its apps, its
 * databases and those orphaned backups.
 */
/** One page of a costs list and how many there are in all. */
export interface CostPage {
  items: Cost[];
  total: number;
}

/** Environments and stacks are few by nature: their costs are paged in memory. */
function pageOfCosts(all: Cost[], paging: Paging): CostPage {
  const start = (paging.page - 1) * paging.perPage;
  return { items: all.slice(start, start + paging.perPage), total: all.length };
}

export function createCostsService(deps: { db: Db; rates?: CostRates }) {
  const { db } = deps;
  const rates = deps.rates ?? COST_RATES;
  const access = createAccess(db);

  /** The environments of the organization the caller may see, ascending; 404 unless they are a member. */
  async function readableEnvironmentIds(ref: CallerRef, organizationId: string): Promise<number[]> {
    const caller = await access.caller(ref);
    access.organization(caller, organizationId, 'cost.read');
    const rows = await db
      .select({ id: environments.id, organizationId: environments.organizationId })
      .from(environments)
      .where(eq(environments.organizationId, organizationId))
      .orderBy(asc(environments.id));
    return rows.filter((row) => isVisible(caller, row)).map((row) => row.id);
  }

  /** Rows in the readable environments (an empty list matches nothing). */
  const inReadable = (column: AnyPgColumn, readable: number[]) =>
    inArray(column, readable.length ? readable : [-1]);

  /**
   * One page of an owner table's rows in the readable environments, by id, with their count. The page is
   * a run of ids [first, last]: what is priced for it is read by that range on an index, so a page costs
   * the same at any size of the organization.
   */
  async function ownerPage(
    table: typeof apps | typeof databases,
    readable: number[],
    paging: Paging,
  ): Promise<{ ids: number[]; total: number }> {
    const where = inReadable(table.environmentId, readable);
    // Only the ids, as one JSON text: a page's whole rows took most of the answer's time.
    const page = db
      .select({ id: table.id })
      .from(table)
      .where(where)
      .orderBy(asc(table.id))
      .limit(paging.perPage)
      .offset((paging.page - 1) * paging.perPage);
    const [ids, total] = await Promise.all([
      selectAscendingJsonArray<number>(db, page.getSQL()),
      db.$count(table, where),
    ]);
    return { ids, total };
  }

  /** Containers priced per owner: count × memory summed by owner and instance class (prices are linear in it). */
  async function containerCostsBy(
    ownerKey: typeof services.appId | typeof services.databaseId,
    ids: number[],
    readable: number[],
  ) {
    const query = db
      .select({
        ownerId: sql`${ownerKey}`.as('owner_id'),
        instanceClass: sql`${services.instanceClass}`.as('instance_class'),
        memoryMb:
          sql`sum(greatest(${services.containerCount}, 0) * greatest(${services.containerMemoryLimitMb}, 0))`.as(
            'memory_mb',
          ),
      })
      .from(services)
      .where(
        and(between(ownerKey, ids[0] ?? 0, ids.at(-1) ?? -1), inReadable(services.environmentId, readable)),
      )
      .groupBy(ownerKey, services.instanceClass);
    const rows = await selectPlainRowsAsJson<{ owner_id: number; instance_class: string; memory_mb: number }>(
      db,
      query.getSQL(),
    );
    return rows.map((row) => ({
      key: row.owner_id,
      // One container of the summed memory costs what the owner's containers of that class do.
      estCost: containersMonthlyCost(
        { containerCount: 1, containerMemoryMb: row.memory_mb, instanceClass: row.instance_class },
        rates,
      ),
    }));
  }

  /** Endpoints that exist on the runtime (a load balancer: the vhost or shared rate), per owner. */
  async function endpointCostsBy(
    ownerKey: typeof services.appId | typeof services.databaseId,
    ids: number[],
    readable: number[],
  ) {
    const query = db
      .select({
        ownerId: sql`${ownerKey}`.as('owner_id'),
        shared: sql`${vhosts.shared}`.as('shared'),
        endpoints: sql`count(*)`.as('endpoints'),
      })
      .from(vhosts)
      .innerJoin(services, eq(vhosts.serviceId, services.id))
      .where(
        and(
          between(ownerKey, ids[0] ?? 0, ids.at(-1) ?? -1),
          inReadable(vhosts.environmentId, readable),
          isNotNull(vhosts.externalHost),
        ),
      )
      .groupBy(ownerKey, vhosts.shared);
    const rows = await selectPlainRowsAsJson<{ owner_id: number; shared: boolean; endpoints: number }>(
      db,
      query.getSQL(),
    );
    return rows.map((row) => ({
      key: row.owner_id,
      estCost: endpointsMonthlyCost(row.endpoints, rates, { shared: row.shared }),
    }));
  }

  /** A database's disk (GB, and IOPS above those included) and its backups, per database of the range. */
  async function storageCosts(ids: number[], readable: number[]) {
    const range = (column: typeof disks.databaseId | typeof backups.databaseId) =>
      between(column, ids[0] ?? 0, ids.at(-1) ?? -1);
    const diskQuery = db
      .select({
        databaseId: sql`${disks.databaseId}`.as('database_id'),
        size: sql`${disks.size}`.as('size'),
        iops: sql`${disks.provisionedIops}`.as('iops'),
      })
      .from(disks)
      .where(and(range(disks.databaseId), inReadable(disks.environmentId, readable)));
    const backupQuery = db
      .select({
        databaseId: sql`${backups.databaseId}`.as('database_id'),
        sizeGb: sql`sum(${backups.sizeGb})`.as('size_gb'),
      })
      .from(backups)
      .where(and(range(backups.databaseId), inReadable(backups.environmentId, readable)))
      .groupBy(backups.databaseId);
    const [diskRows, backupRows] = await Promise.all([
      selectPlainRowsAsJson<{ database_id: number | null; size: number; iops: number }>(
        db,
        diskQuery.getSQL(),
      ),
      selectPlainRowsAsJson<{ database_id: number | null; size_gb: number }>(db, backupQuery.getSQL()),
    ]);
    return [
      ...diskRows.map((disk) => ({
        key: disk.database_id,
        estCost: diskMonthlyCost(disk.size, rates) + iopsMonthlyCost(disk.iops, rates),
      })),
      ...backupRows.map((backup) => ({
        key: backup.database_id,
        estCost: backupMonthlyCost(backup.size_gb, rates),
      })),
    ];
  }

  function sumBy<K>(items: { key: K | null; estCost: number }[]): Map<K, number> {
    const sums = new Map<K, number>();
    for (const item of items) {
      if (item.key !== null) sums.set(item.key, (sums.get(item.key) ?? 0) + item.estCost);
    }
    return sums;
  }

  /**
   * The readable environments' priced things in groups (environment and instance class, endpoint kind,
   * disk IOPS), each under its own environment: a service, endpoint, disk or backup lives in the
   * environment of its app or database (and a backup whose database is gone stays in its own). Each
   * query reads one table by its environment index, joining nothing.
   */
  async function environmentCostGroups(readable: number[]) {
    const containerGroups = db
      .select({
        environmentId: services.environmentId,
        instanceClass: services.instanceClass,
        memoryMb:
          sql<number>`sum(greatest(${services.containerCount}, 0) * greatest(${services.containerMemoryLimitMb}, 0))`.mapWith(
            Number,
          ),
      })
      .from(services)
      .where(inReadable(services.environmentId, readable))
      .groupBy(services.environmentId, services.instanceClass);
    const endpointGroups = db
      .select({
        environmentId: vhosts.environmentId,
        shared: vhosts.shared,
        endpoints: sql<number>`count(*)`.mapWith(Number),
      })
      .from(vhosts)
      .where(and(inReadable(vhosts.environmentId, readable), isNotNull(vhosts.externalHost)))
      .groupBy(vhosts.environmentId, vhosts.shared);
    const diskGroups = db
      .select({
        environmentId: disks.environmentId,
        iops: disks.provisionedIops,
        disks: sql<number>`count(*)`.mapWith(Number),
        sizeGb: sql<number>`sum(greatest(${disks.size}, 0))`.mapWith(Number),
      })
      .from(disks)
      .where(inReadable(disks.environmentId, readable))
      .groupBy(disks.environmentId, disks.provisionedIops);
    const backupGroups = db
      .select({
        environmentId: backups.environmentId,
        sizeGb: sql<number>`sum(${backups.sizeGb})`.mapWith(Number),
      })
      .from(backups)
      .where(inReadable(backups.environmentId, readable))
      .groupBy(backups.environmentId);
    const [containers, endpoints, diskRows, backupRows] = await Promise.all([
      containerGroups,
      endpointGroups,
      diskGroups,
      backupGroups,
    ]);
    return { containers, endpoints, disks: diskRows, backups: backupRows };
  }

  return {
    rates,

    /** A page of the organization's services, each priced by its containers. */
    async services(ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      const where = inReadable(services.environmentId, readable);
      // Only what prices a service, not its whole row: the whole rows took most of the answer's time.
      const priced = {
        id: services.id,
        containerCount: services.containerCount,
        containerMemoryLimitMb: services.containerMemoryLimitMb,
        instanceClass: services.instanceClass,
      };
      const page = db
        .select(priced)
        .from(services)
        .where(where)
        .orderBy(asc(services.id))
        .limit(paging.perPage)
        .offset((paging.page - 1) * paging.perPage);
      const [rows, total] = await Promise.all([
        selectColumnsAsJson(db, priced, page.getSQL()),
        db.$count(services, where),
      ]);
      const items = rows.map((service) => ({
        id: service.id,
        resourceType: 'Service' as const,
        estCost: containersMonthlyCost(
          {
            containerCount: service.containerCount,
            containerMemoryMb: service.containerMemoryLimitMb,
            instanceClass: service.instanceClass,
          },
          rates,
        ),
      }));
      return { items, total };
    },

    /** A page of the organization's apps: their services' containers and their endpoints. */
    async apps(ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      const { ids, total } = await ownerPage(apps, readable, paging);
      const parts = await Promise.all([
        containerCostsBy(services.appId, ids, readable),
        endpointCostsBy(services.appId, ids, readable),
      ]);
      const byApp = sumBy(parts.flat());
      return { items: ids.map((id) => ({ id, resourceType: 'App', estCost: byApp.get(id) ?? 0 })), total };
    },

    /** A page of the organization's databases: containers, endpoints, disk and backups. */
    async databases(ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      const { ids, total } = await ownerPage(databases, readable, paging);
      const parts = await Promise.all([
        containerCostsBy(services.databaseId, ids, readable),
        endpointCostsBy(services.databaseId, ids, readable),
        storageCosts(ids, readable),
      ]);
      const byDatabase = sumBy(parts.flat());
      return {
        items: ids.map((id) => ({ id, resourceType: 'Database', estCost: byDatabase.get(id) ?? 0 })),
        total,
      };
    },

    /**
     * An environment costs the sum of its apps and databases (and the storage of databases that are
     * gone). Added up by the database in groups (environment and instance class, endpoint kind, disk
     * IOPS): a few rows per environment instead of every service, endpoint and disk of the organization.
     * Every price is linear in what is summed, so the groups cost what their rows do.
     */
    async accounts(ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      const readableSet = new Set(readable);
      const totals = new Map<number, number>();
      const add = (environmentId: number | null, estCost: number) => {
        if (environmentId !== null && readableSet.has(environmentId)) {
          totals.set(environmentId, (totals.get(environmentId) ?? 0) + estCost);
        }
      };
      const groups = await environmentCostGroups(readable);
      for (const row of groups.containers) {
        // One container of the summed memory costs what the group's containers do.
        add(
          row.environmentId,
          containersMonthlyCost(
            { containerCount: 1, containerMemoryMb: row.memoryMb, instanceClass: row.instanceClass },
            rates,
          ),
        );
      }
      for (const row of groups.endpoints) {
        add(row.environmentId, endpointsMonthlyCost(row.endpoints, rates, { shared: row.shared }));
      }
      for (const row of groups.disks) {
        add(
          row.environmentId,
          diskMonthlyCost(row.sizeGb, rates) + row.disks * iopsMonthlyCost(row.iops, rates),
        );
      }
      for (const row of groups.backups) add(row.environmentId, backupMonthlyCost(row.sizeGb, rates));
      const all = readable.map((id) => ({
        id,
        resourceType: 'Account' as const,
        estCost: totals.get(id) ?? 0,
      }));
      return pageOfCosts(all, paging);
    },

    /**
     * The stacks the organization sees (contract §1.11). A dedicated stack (owned by the organization,
     * not self-hosted) costs the stack rate; shared stacks cost their tenants nothing.
     */
    async stacks(ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> {
      await readableEnvironmentIds(ref, organizationId);
      const rows = await visibleStacks(db, [organizationId]);
      const all = rows.map((stack) => ({
        id: stack.id,
        resourceType: 'Stack' as const,
        estCost: stackMonthlyCost(
          { dedicated: stack.organizationId === organizationId && !stack.selfHosted },
          rates,
        ),
      }));
      return pageOfCosts(all, paging);
    },

    async assertMember(ref: CallerRef, organizationId: string): Promise<void> {
      await readableEnvironmentIds(ref, organizationId);
    },
  };
}
export type CostsService = ReturnType<typeof createCostsService>;
