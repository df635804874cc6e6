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
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { CallerRef } from '../../auth/caller-access.ts';
import type { Db } from '../../db/client.ts';
import { apps, backups, databases, disks, environments, services, vhosts } from '../../db/schema.ts';
import { createAccess, isVisible } from '../access/access.ts';
import { visibleStacks } from '../stacks/stacks.service.ts';
import type { Cost } from './costs.hal.ts';

/**
 * Estimated monthly costs of an organization's resources (contract §5.12), from the core cost model.
 * The caller must belong to the organization (else 404); resources in environments they cannot see
 * (no basic_read) are left out. Each call reads the organization's rows in a few set-based queries.
 *
 * Endpoints with a load balancer (provisioned, or being changed or removed) cost the vhost rate, or the
 * shared rate when shared, and count towards their app or database.
 * A database also costs its disk (GB and IOPS above the included 3000) and its backups; the backups of a
 * database that is gone still cost their environment. An environment costs the sum of its apps, its
 * databases and those orphaned backups.
 */
export function createCostsService(deps: { db: Db; rates?: CostRates }) {
  const { db } = deps;
  const rates = deps.rates ?? COST_RATES;
  const access = createAccess(db);

  /** The environments of the organization the caller may see; 404 unless they are a member. */
  async function readableEnvironmentIds(ref: CallerRef, organizationId: string): Promise<Set<number>> {
    const caller = await access.caller(ref);
    access.organization(caller, organizationId, 'cost.read');
    const rows = await db
      .select({ id: environments.id, organizationId: environments.organizationId })
      .from(environments)
      .where(eq(environments.organizationId, organizationId));
    return new Set(rows.filter((row) => isVisible(caller, row)).map((row) => row.id));
  }

  /** Services priced by their containers; `of` keeps only app or database services. */
  async function serviceCosts(organizationId: string, readable: Set<number>, of?: 'app' | 'database') {
    const rows = await db
      .select({
        id: services.id,
        environmentId: services.environmentId,
        appId: services.appId,
        databaseId: services.databaseId,
        containerCount: services.containerCount,
        containerMemoryLimitMb: services.containerMemoryLimitMb,
        instanceClass: services.instanceClass,
      })
      .from(services)
      .innerJoin(environments, eq(services.environmentId, environments.id))
      .where(
        and(
          eq(environments.organizationId, organizationId),
          of === 'app'
            ? isNotNull(services.appId)
            : of === 'database'
              ? isNotNull(services.databaseId)
              : undefined,
        ),
      )
      .orderBy(asc(services.id));
    return rows
      .filter((row) => readable.has(row.environmentId))
      .map((row) => ({
        ...row,
        estCost: containersMonthlyCost(
          {
            containerCount: row.containerCount,
            containerMemoryMb: row.containerMemoryLimitMb,
            instanceClass: row.instanceClass,
          },
          rates,
        ),
      }));
  }

  /** Endpoints that exist on the runtime, each with its monthly cost and the app or database it serves. */
  async function endpointCosts(organizationId: string, readable: Set<number>) {
    const rows = await db
      .select({
        environmentId: vhosts.environmentId,
        shared: vhosts.shared,
        appId: services.appId,
        databaseId: services.databaseId,
      })
      .from(vhosts)
      .innerJoin(services, eq(vhosts.serviceId, services.id))
      .innerJoin(environments, eq(vhosts.environmentId, environments.id))
      .where(and(eq(environments.organizationId, organizationId), isNotNull(vhosts.externalHost)));
    return rows
      .filter((row) => readable.has(row.environmentId))
      .map((row) => ({ ...row, estCost: endpointsMonthlyCost(1, rates, { shared: row.shared }) }));
  }

  /** Disks and backups: each row priced, keyed by its database (null: a backup whose database is gone). */
  async function storageCosts(organizationId: string, readable: Set<number>) {
    const [diskRows, backupRows] = await Promise.all([
      db
        .select({
          databaseId: disks.databaseId,
          environmentId: disks.environmentId,
          size: disks.size,
          iops: disks.provisionedIops,
        })
        .from(disks)
        .innerJoin(environments, eq(disks.environmentId, environments.id))
        .where(eq(environments.organizationId, organizationId)),
      db
        .select({
          databaseId: backups.databaseId,
          environmentId: backups.environmentId,
          sizeGb: sql<number>`sum(${backups.sizeGb})`.mapWith(Number),
        })
        .from(backups)
        .innerJoin(environments, eq(backups.environmentId, environments.id))
        .where(eq(environments.organizationId, organizationId))
        .groupBy(backups.databaseId, backups.environmentId),
    ]);
    return [
      ...diskRows.map((disk) => ({
        databaseId: disk.databaseId as number | null,
        environmentId: disk.environmentId,
        estCost: diskMonthlyCost(disk.size, rates) + iopsMonthlyCost(disk.iops, rates),
      })),
      ...backupRows.map((backup) => ({
        databaseId: backup.databaseId,
        environmentId: backup.environmentId,
        estCost: backupMonthlyCost(backup.sizeGb, rates),
      })),
    ].filter((row) => readable.has(row.environmentId));
  }

  async function ownedRows(
    table: typeof apps | typeof databases,
    organizationId: string,
    readable: Set<number>,
  ) {
    const rows = await db
      .select({ id: table.id, environmentId: table.environmentId })
      .from(table)
      .innerJoin(environments, eq(table.environmentId, environments.id))
      .where(eq(environments.organizationId, organizationId))
      .orderBy(asc(table.id));
    return rows.filter((row) => readable.has(row.environmentId));
  }

  function sumBy<K>(items: { key: K | null; estCost: number }[]): Map<K, number> {
    const sums = new Map<K, number>();
    for (const item of items) {
      if (item.key !== null) sums.set(item.key, (sums.get(item.key) ?? 0) + item.estCost);
    }
    return sums;
  }

  async function appCosts(organizationId: string, readable: Set<number>) {
    const [rows, serviceRows, endpointRows] = await Promise.all([
      ownedRows(apps, organizationId, readable),
      serviceCosts(organizationId, readable, 'app'),
      endpointCosts(organizationId, readable),
    ]);
    const byApp = sumBy([...serviceRows, ...endpointRows].map((s) => ({ key: s.appId, estCost: s.estCost })));
    return rows.map((row) => ({ ...row, estCost: byApp.get(row.id) ?? 0 }));
  }

  async function databaseCosts(organizationId: string, readable: Set<number>) {
    const [rows, serviceRows, endpointRows, storageRows] = await Promise.all([
      ownedRows(databases, organizationId, readable),
      serviceCosts(organizationId, readable, 'database'),
      endpointCosts(organizationId, readable),
      storageCosts(organizationId, readable),
    ]);
    const byDatabase = sumBy(
      [...serviceRows, ...endpointRows, ...storageRows].map((s) => ({
        key: s.databaseId,
        estCost: s.estCost,
      })),
    );
    return rows.map((row) => ({ ...row, estCost: byDatabase.get(row.id) ?? 0 }));
  }

  /**
   * The organization's priced things in groups, each under the environment of the app or database it
   * counts towards (storage of a database that is gone: its own environment).
   */
  async function environmentCostGroups(organizationId: string) {
    const inOrganization = eq(environments.organizationId, organizationId);
    const owners = [
      { owner: apps, ownerKey: services.appId },
      { owner: databases, ownerKey: services.databaseId },
    ] as const;
    const containerGroups = owners.map(({ owner, ownerKey }) =>
      db
        .select({
          environmentId: owner.environmentId,
          instanceClass: services.instanceClass,
          memoryMb:
            sql<number>`sum(greatest(${services.containerCount}, 0) * greatest(${services.containerMemoryLimitMb}, 0))`.mapWith(
              Number,
            ),
        })
        .from(services)
        .innerJoin(owner, eq(ownerKey, owner.id))
        .innerJoin(environments, eq(owner.environmentId, environments.id))
        .where(inOrganization)
        .groupBy(owner.environmentId, services.instanceClass),
    );
    const endpointGroups = owners.map(({ owner, ownerKey }) =>
      db
        .select({
          environmentId: owner.environmentId,
          shared: vhosts.shared,
          endpoints: sql<number>`count(*)`.mapWith(Number),
        })
        .from(vhosts)
        .innerJoin(services, eq(vhosts.serviceId, services.id))
        .innerJoin(owner, eq(ownerKey, owner.id))
        .innerJoin(environments, eq(owner.environmentId, environments.id))
        .where(and(inOrganization, isNotNull(vhosts.externalHost)))
        .groupBy(owner.environmentId, vhosts.shared),
    );
    // A disk or backup counts under its database's environment, or its own once the database is gone.
    const storageEnvironment = (own: typeof disks.environmentId | typeof backups.environmentId) =>
      sql<number>`coalesce(${databases.environmentId}, ${own})`.mapWith(Number);
    const diskGroups = db
      .select({
        environmentId: storageEnvironment(disks.environmentId),
        iops: disks.provisionedIops,
        disks: sql<number>`count(*)`.mapWith(Number),
        sizeGb: sql<number>`sum(greatest(${disks.size}, 0))`.mapWith(Number),
      })
      .from(disks)
      .leftJoin(databases, eq(disks.databaseId, databases.id))
      .innerJoin(environments, eq(disks.environmentId, environments.id))
      .where(inOrganization)
      .groupBy(storageEnvironment(disks.environmentId), disks.provisionedIops);
    const backupGroups = db
      .select({
        environmentId: storageEnvironment(backups.environmentId),
        sizeGb: sql<number>`sum(${backups.sizeGb})`.mapWith(Number),
      })
      .from(backups)
      .leftJoin(databases, eq(backups.databaseId, databases.id))
      .innerJoin(environments, eq(backups.environmentId, environments.id))
      .where(inOrganization)
      .groupBy(storageEnvironment(backups.environmentId));
    const [containerRows, endpointRows, diskRows, backupRows] = await Promise.all([
      Promise.all(containerGroups),
      Promise.all(endpointGroups),
      diskGroups,
      backupGroups,
    ]);
    return {
      containers: containerRows.flat(),
      endpoints: endpointRows.flat(),
      disks: diskRows,
      backups: backupRows,
    };
  }

  return {
    rates,

    async services(ref: CallerRef, organizationId: string): Promise<Cost[]> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      return (await serviceCosts(organizationId, readable)).map((row) => ({
        id: row.id,
        resourceType: 'Service',
        estCost: row.estCost,
      }));
    },

    async apps(ref: CallerRef, organizationId: string): Promise<Cost[]> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      return (await appCosts(organizationId, readable)).map((row) => ({
        id: row.id,
        resourceType: 'App',
        estCost: row.estCost,
      }));
    },

    async databases(ref: CallerRef, organizationId: string): Promise<Cost[]> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      return (await databaseCosts(organizationId, readable)).map((row) => ({
        id: row.id,
        resourceType: 'Database',
        estCost: row.estCost,
      }));
    },

    /**
     * An environment costs the sum of its apps and databases (and the storage of databases that are
     * gone). Added up by the database in groups (environment and instance class, endpoint kind, disk
     * IOPS): a few rows per environment instead of every service, endpoint and disk of the organization.
     * Every price is linear in what is summed, so the groups cost what their rows do.
     */
    async accounts(ref: CallerRef, organizationId: string): Promise<Cost[]> {
      const readable = await readableEnvironmentIds(ref, organizationId);
      const totals = new Map<number, number>();
      const add = (environmentId: number | null, estCost: number) => {
        if (environmentId !== null && readable.has(environmentId)) {
          totals.set(environmentId, (totals.get(environmentId) ?? 0) + estCost);
        }
      };
      const groups = await environmentCostGroups(organizationId);
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
      return [...readable]
        .sort((a, b) => a - b)
        .map((id) => ({ id, resourceType: 'Account', estCost: totals.get(id) ?? 0 }));
    },

    /**
     * The stacks the organization sees (contract §1.11). A dedicated stack (owned by the organization,
     * not self-hosted) costs the stack rate; shared stacks cost their tenants nothing.
     */
    async stacks(ref: CallerRef, organizationId: string): Promise<Cost[]> {
      await readableEnvironmentIds(ref, organizationId);
      const rows = await visibleStacks(db, [organizationId]);
      return rows.map((stack) => ({
        id: stack.id,
        resourceType: 'Stack',
        estCost: stackMonthlyCost(
          { dedicated: stack.organizationId === organizationId && !stack.selfHosted },
          rates,
        ),
      }));
    },

    async assertMember(ref: CallerRef, organizationId: string): Promise<void> {
      await readableEnvironmentIds(ref, organizationId);
    },
  };
}
export type CostsService = ReturnType<typeof createCostsService>;
