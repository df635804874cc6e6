// The test oracle for the kept costs (issue 40): the costs pages as they were computed before
// resource_costs, summing services, endpoints, disks and backups at every read. Tests only: kept-costs.test.ts
// checks the kept rows against it after each of a seeded run of changes.

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
import { createAccess, isVisible } from '../api/access/access.ts';
import type { Cost } from '../api/costs/costs.hal.ts';
import { visibleStacks } from '../api/stacks/stacks.service.ts';
import type { CallerRef } from '../auth/caller-access.ts';
import type { Db } from '../db/client.ts';
import { apps, backups, databases, disks, environments, services, vhosts } from '../db/schema.ts';
import { selectAscendingJsonArray, selectPlainColumns } from '../db/select-page.ts';
import type { Paging } from '../http/hal.ts';

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
/** What the priced services run: how many, their containers and those containers' memory (MB). */
interface Running {
  services: number;
  containers: number;
  containerMemoryMb: number;
}

/** One page of a costs list and how many there are in all. */
interface CostPage {
  items: Cost[];
  total: number;
}

/**
 * A page of owners (ascending ids) and what each part of their cost adds up to. Each part (containers,
 * endpoints, storage) keeps its own sums as its rows come in; the parts are added together in the order
 * they were opened, so a cost does not change in its last digit with the order the queries answer in.
 * An owner outside the page (a row of the id range in an environment the caller cannot see) is left out.
 */
interface PageTotals {
  /** The page's id range, for the parts' index scans (an empty page matches nothing). */
  first: number;
  last: number;
  /** A new part's sums: call it before the part's first await, so the parts open in a fixed order. */
  part(): (owner: number | null | undefined, estCost: number) => void;
  costs(resourceType: 'App' | 'Database'): Cost[];
}

function pageTotals(ids: number[]): PageTotals {
  const place = new Map(ids.map((id, i) => [id, i]));
  const parts: Float64Array[] = [];
  return {
    first: ids[0] ?? 0,
    last: ids.at(-1) ?? -1,
    part() {
      const sums = new Float64Array(ids.length);
      parts.push(sums);
      return (owner, estCost) => {
        const at = owner == null ? undefined : place.get(owner);
        if (at !== undefined) sums[at] = (sums[at] ?? 0) + estCost;
      };
    },
    costs: (resourceType) =>
      ids.map((id, i) => ({
        id,
        resourceType,
        estCost: parts.reduce((total, sums) => total + (sums[i] ?? 0), 0),
      })),
  };
}

/** Environments and stacks are few by nature: their costs are paged in memory. */
function pageOfCosts(all: Cost[], paging: Paging): CostPage {
  const start = (paging.page - 1) * paging.perPage;
  return { items: all.slice(start, start + paging.perPage), total: all.length };
}

export function createComputedCostsService(deps: { db: Db; rates?: CostRates }) {
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
   * One page of an owner table's rows in the readable environments, by id, priced by `parts`, with their
   * count. The page is a run of ids [first, last]: what is priced for it is read by that range on an index,
   * so a page costs the same at any size of the organization.
   */
  async function ownerCosts(
    table: typeof apps | typeof databases,
    resourceType: 'App' | 'Database',
    readable: number[],
    paging: Paging,
    parts: (page: PageTotals) => Promise<void>[],
  ): Promise<CostPage> {
    const where = inReadable(table.environmentId, readable);
    // Only the ids, as one JSON text: a page's whole rows took most of the answer's time.
    const ids = db
      .select({ id: table.id })
      .from(table)
      .where(where)
      .orderBy(asc(table.id))
      .limit(paging.perPage)
      .offset((paging.page - 1) * paging.perPage);
    const priced = selectAscendingJsonArray<number>(db, ids.getSQL()).then(async (pageIds) => {
      const page = pageTotals(pageIds);
      await Promise.all(parts(page));
      return page;
    });
    // Counted beside the page and its prices, not before them: at 50,000 apps the count takes longer than
    // the page's ids.
    const [page, total] = await Promise.all([priced, db.$count(table, where)]);
    return { items: page.costs(resourceType), total };
  }

  /**
   * The owners' services, each priced by its containers. Read as they are: an owner has a few services, and
   * grouping 5,000 of them by owner and class in the database took longer than adding them up here.
   */
  async function addContainerCosts(
    ownerKey: typeof services.appId | typeof services.databaseId,
    page: PageTotals,
    readable: number[],
  ) {
    const add = page.part();
    const query = db
      .select({
        ownerId: sql`${ownerKey}`.as('owner_id'),
        count: sql`${services.containerCount}`.as('count'),
        memoryMb: sql`${services.containerMemoryLimitMb}`.as('memory_mb'),
        instanceClass: sql`${services.instanceClass}`.as('instance_class'),
      })
      .from(services)
      .where(and(between(ownerKey, page.first, page.last), inReadable(services.environmentId, readable)));
    const rows = await selectPlainColumns<{
      owner_id: number;
      count: number;
      memory_mb: number;
      instance_class: string;
    }>(db, query.getSQL(), ['owner_id', 'count', 'memory_mb', 'instance_class']);
    rows.owner_id.forEach((owner, i) => {
      const sizing = {
        containerCount: rows.count[i] ?? 0,
        containerMemoryMb: rows.memory_mb[i] ?? 0,
        instanceClass: rows.instance_class[i] ?? '',
      };
      add(owner, containersMonthlyCost(sizing, rates));
    });
  }

  /** Endpoints that exist on the runtime (a load balancer: the vhost or shared rate), per owner. */
  async function addEndpointCosts(
    ownerKey: typeof services.appId | typeof services.databaseId,
    page: PageTotals,
    readable: number[],
  ) {
    const add = page.part();
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
          between(ownerKey, page.first, page.last),
          inReadable(vhosts.environmentId, readable),
          isNotNull(vhosts.externalHost),
        ),
      )
      .groupBy(ownerKey, vhosts.shared);
    const rows = await selectPlainColumns<{ owner_id: number; shared: boolean; endpoints: number }>(
      db,
      query.getSQL(),
      ['owner_id', 'shared', 'endpoints'],
    );
    rows.owner_id.forEach((owner, i) => {
      add(owner, endpointsMonthlyCost(rows.endpoints[i] ?? 0, rates, { shared: rows.shared[i] === true }));
    });
  }

  /** A database's disk (GB, and IOPS above those included) and its backups, per database of the page. */
  async function addStorageCosts(page: PageTotals, readable: number[]) {
    const addDisk = page.part();
    const addBackups = page.part();
    const range = (column: typeof disks.databaseId | typeof backups.databaseId) =>
      between(column, page.first, page.last);
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
      selectPlainColumns<{ database_id: number | null; size: number; iops: number }>(db, diskQuery.getSQL(), [
        'database_id',
        'size',
        'iops',
      ]),
      selectPlainColumns<{ database_id: number | null; size_gb: number }>(db, backupQuery.getSQL(), [
        'database_id',
        'size_gb',
      ]),
    ]);
    diskRows.database_id.forEach((database, i) => {
      addDisk(
        database,
        diskMonthlyCost(diskRows.size[i] ?? 0, rates) + iopsMonthlyCost(diskRows.iops[i] ?? 0, rates),
      );
    });
    backupRows.database_id.forEach((database, i) => {
      addBackups(database, backupMonthlyCost(backupRows.size_gb[i] ?? 0, rates));
    });
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
        // What runs, for home's scaling summary: read in the same pass over the index.
        services: sql<number>`count(*)`.mapWith(Number),
        containers: sql<number>`sum(greatest(${services.containerCount}, 0))`.mapWith(Number),
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

  /**
   * What each readable environment costs: the sum of its apps and databases (and the storage of databases
   * that are gone). Added up by the database in groups (environment and instance class, endpoint kind, disk
   * IOPS): a few rows per environment instead of every service, endpoint and disk of the organization.
   * Every price is linear in what is summed, so the groups cost what their rows do.
   */
  async function environmentTotals(
    readable: number[],
  ): Promise<{ totals: Map<number, number>; running: Running }> {
    const readableSet = new Set(readable);
    const totals = new Map<number, number>();
    const running: Running = { services: 0, containers: 0, containerMemoryMb: 0 };
    const add = (environmentId: number | null, estCost: number) => {
      if (environmentId !== null && readableSet.has(environmentId)) {
        totals.set(environmentId, (totals.get(environmentId) ?? 0) + estCost);
      }
    };
    const groups = await environmentCostGroups(readable);
    for (const row of groups.containers) {
      running.services += row.services;
      running.containers += row.containers;
      running.containerMemoryMb += row.memoryMb;
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
    return { totals, running };
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

  return {
    rates,

    /** A page of the organization's services, each priced by its containers. */
    async services(ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      const where = inReadable(services.environmentId, readable);
      // Only what prices a service, not its whole row: the whole rows took most of the answer's time.
      const page = db
        .select({
          id: sql`${services.id}`.as('id'),
          count: sql`${services.containerCount}`.as('count'),
          memoryMb: sql`${services.containerMemoryLimitMb}`.as('memory_mb'),
          instanceClass: sql`${services.instanceClass}`.as('instance_class'),
        })
        .from(services)
        .where(where)
        .orderBy(asc(services.id))
        .limit(paging.perPage)
        .offset((paging.page - 1) * paging.perPage);
      const [rows, total] = await Promise.all([
        selectPlainColumns<{ id: number; count: number; memory_mb: number; instance_class: string }>(
          db,
          page.getSQL(),
          ['id', 'count', 'memory_mb', 'instance_class'],
        ),
        db.$count(services, where),
      ]);
      const items = rows.id.map((id, i) => ({
        id,
        resourceType: 'Service' as const,
        estCost: containersMonthlyCost(
          {
            containerCount: rows.count[i] ?? 0,
            containerMemoryMb: rows.memory_mb[i] ?? 0,
            instanceClass: rows.instance_class[i] ?? '',
          },
          rates,
        ),
      }));
      return { items, total };
    },

    /** A page of the organization's apps: their services' containers and their endpoints. */
    async apps(ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      return ownerCosts(apps, 'App', readable, paging, (page) => [
        addContainerCosts(services.appId, page, readable),
        addEndpointCosts(services.appId, page, readable),
      ]);
    },

    /** A page of the organization's databases: containers, endpoints, disk and backups. */
    async databases(ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      return ownerCosts(databases, 'Database', readable, paging, (page) => [
        addContainerCosts(services.databaseId, page, readable),
        addEndpointCosts(services.databaseId, page, readable),
        addStorageCosts(page, readable),
      ]);
    },

    /** An environment costs the sum of its apps and databases (see environmentTotals). */
    async accounts(ref: CallerRef, organizationId: string, paging: Paging): Promise<CostPage> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      const { totals } = await environmentTotals(readable);
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
      const all = await stackCosts(organizationId);
      return pageOfCosts(all, paging);
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
      const [environments, stacks] = await Promise.all([
        environmentTotals(readable),
        stackCosts(organizationId),
      ]);
      let estCost = 0;
      for (const environmentCost of environments.totals.values()) estCost += environmentCost;
      for (const stack of stacks) estCost += stack.estCost;
      return { estCost, running: environments.running };
    },

    async assertMember(ref: CallerRef, organizationId: string): Promise<void> {
      await readableEnvironmentIds(ref, organizationId);
    },
  };
}
