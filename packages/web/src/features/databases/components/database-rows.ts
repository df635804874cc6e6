import type { ScalingLabel } from '@berth/core';
import type { Database } from '../../../resources/databases/database.hal.ts';

/** A database whose service is not known yet has no recommendation to show. */
const RIGHT_SIZED: ScalingLabel = { kind: 'right_sized', text: 'Right Sized', savings: 0 };

/** spec 3 §3 database row: the database plus what the lists show beside it. */
export interface DatabaseRow {
  id: string;
  handle: string;
  type: string;
  status: string;
  envHandle: string;
  /** GB; null while unknown (the bare list carries no disk). */
  diskSize: number | null;
  /** GB, the database service's memory limit / 1024 (spec 3 §3); null when no service is known. */
  containerSize: number | null;
  enableBackups: boolean;
  /** Estimated USD per month; undefined while the costs load. */
  cost: number | undefined;
  /** spec 2 §4 Scaling Recs of the database's service; `savings` (spec 3 §2) is its sort key. */
  scaling: ScalingLabel;
  savings: number;
  createdAt: string;
}

export interface DatabaseRowSources {
  /** Environment handle by id: a database of another organization's environment is left out. */
  envHandles: ReadonlyMap<string, string>;
  /** The services that run databases (features/services `useServices`). */
  services?: readonly {
    id: string;
    databaseId: string | null;
    containerMemoryMb: number;
    instanceClass: string;
  }[];
  /** The Scaling Recs label of a service (features/sizing `useScalingLabels`). */
  scalingLabel?: (service: { id: string; instanceClass: string; containerMemoryMb: number }) => ScalingLabel;
  /** Disk size (GB) by database id, when the list at hand is bare. */
  diskSizes?: ReadonlyMap<string, number>;
  costs?: ReadonlyMap<string, number>;
}

/** spec 3 §3: the rows of a database list, from the databases and the lists around them. */
export function databaseRows(databases: readonly Database[], sources: DatabaseRowSources): DatabaseRow[] {
  type RowService = NonNullable<DatabaseRowSources['services']>[number];
  const byDatabase = new Map<string, RowService>();
  const byId = new Map<string, RowService>();
  for (const service of sources.services ?? []) {
    byId.set(service.id, service);
    if (service.databaseId) byDatabase.set(service.databaseId, service);
  }
  return databases
    .filter((database) => sources.envHandles.has(database.environmentId))
    .map((database) => {
      const service =
        byDatabase.get(database.id) ?? (database.serviceId ? byId.get(database.serviceId) : undefined);
      const memoryMb = service?.containerMemoryMb;
      const scaling = (service && sources.scalingLabel?.(service)) || RIGHT_SIZED;
      return {
        id: database.id,
        handle: database.handle,
        type: database.type,
        status: database.status,
        envHandle: sources.envHandles.get(database.environmentId) ?? 'Unknown',
        diskSize: database.disk?.sizeGb ?? sources.diskSizes?.get(database.id) ?? null,
        containerSize: memoryMb === undefined ? null : memoryMb / 1024,
        enableBackups: database.enableBackups,
        cost: sources.costs ? (sources.costs.get(database.id) ?? 0) : undefined,
        scaling,
        savings: scaling.savings,
        createdAt: database.createdAt,
      };
    });
}
