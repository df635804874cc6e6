import type { Database } from '../../../resources/databases/database.hal.ts';

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
  /**
   * spec 3 §2 sort key `savings`. Berth computes no database sizing recommendations (there is no API
   * for them), so nothing is ever saved: always 0.
   */
  savings: number;
  createdAt: string;
}

export interface DatabaseRowSources {
  /** Environment handle by id: a database of another organization's environment is left out. */
  envHandles: ReadonlyMap<string, string>;
  /** The services that run databases (features/services `useServices`). */
  services?: readonly { id: string; databaseId: string | null; containerMemoryMb: number }[];
  /** Disk size (GB) by database id, when the list at hand is bare. */
  diskSizes?: ReadonlyMap<string, number>;
  costs?: ReadonlyMap<string, number>;
}

/** spec 3 §3: the rows of a database list, from the databases and the lists around them. */
export function databaseRows(databases: readonly Database[], sources: DatabaseRowSources): DatabaseRow[] {
  const memoryByDatabase = new Map<string, number>();
  const memoryByService = new Map<string, number>();
  for (const service of sources.services ?? []) {
    memoryByService.set(service.id, service.containerMemoryMb);
    if (service.databaseId) memoryByDatabase.set(service.databaseId, service.containerMemoryMb);
  }
  return databases
    .filter((database) => sources.envHandles.has(database.environmentId))
    .map((database) => {
      const memoryMb =
        memoryByDatabase.get(database.id) ??
        (database.serviceId ? memoryByService.get(database.serviceId) : undefined);
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
        savings: 0,
        createdAt: database.createdAt,
      };
    });
}
