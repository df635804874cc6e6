import {
  type DatabaseCredentialCollection,
  type DatabaseImageCollection,
  type DatabaseResource,
  MAX_PAGE_SIZE,
  POLL_INTERVAL_MS,
} from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { allPages } from '../../lib/all-pages.ts';
import { apiRequest } from '../../lib/api-client.ts';
import { embeddedList } from '../../lib/hal.ts';
import { useSession } from '../../lib/session-store.ts';
import { startupPaths } from '../../lib/startup-paths.ts';
import {
  type Database,
  fromDatabaseCredentialResource,
  fromDatabaseImageResource,
  fromDatabaseResource,
  isSettling,
} from './database.hal.ts';
import { databaseKeys } from './database-keys.ts';

/** contract §5.8 GET /databases?per_page=5000&no_embed=true: every database the caller can read. */
export function useDatabases() {
  const { phase } = useSession();
  return useQuery({
    queryKey: databaseKeys.list(),
    queryFn: async ({ signal }) => {
      return (await allPages<DatabaseResource>('api', startupPaths.databases, 'databases', signal)).map(
        fromDatabaseResource,
      );
    },
    enabled: phase === 'authenticated',
  });
}

/** How often a list with a database still provisioning or deprovisioning asks again (as endpoint lists do). */
export function settlingPoll(databases: readonly Database[] | undefined): number | false {
  return databases?.some(isSettling) ? POLL_INTERVAL_MS.endpoint : false;
}

/** contract §5.8 GET /accounts/:id/databases: an environment's databases, with their disks embedded. */
export function useEnvironmentDatabases(environmentId: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: databaseKeys.inEnvironment(environmentId),
    queryFn: async ({ signal }) => {
      return (
        await allPages<DatabaseResource>(
          'api',
          `/accounts/${encodeURIComponent(environmentId)}/databases?per_page=${MAX_PAGE_SIZE}`,
          'databases',
          signal,
        )
      ).map(fromDatabaseResource);
    },
    enabled: phase === 'authenticated' && environmentId !== '',
    refetchInterval: (query) => settlingPoll(query.state.data),
  });
}

/**
 * contract §5.8 GET /databases/:id, polled while the database is changing (spec 2 §4: provisioning and
 * deprovisioning end in an operation the page follows) or while its runtime says it cannot run.
 */
export function useDatabase(id: string, options: { poll?: boolean } = {}) {
  const { phase } = useSession();
  return useQuery({
    queryKey: databaseKeys.detail(id),
    queryFn: async ({ signal }) =>
      fromDatabaseResource(
        await apiRequest<DatabaseResource>('api', `/databases/${encodeURIComponent(id)}`, { signal }),
      ),
    enabled: phase === 'authenticated' && id !== '',
    refetchInterval: (query) => {
      if (!options.poll) return false;
      const status = query.state.data?.status;
      if (status === 'provisioning' || status === 'deprovisioning') return 3000;
      // An unavailable database (issue 39) is asked again now and then, so a node that comes back shows.
      return query.state.data?.statusProblem ? 15_000 : false;
    },
  });
}

/** contract §5.8 GET /databases/:id/database_credentials (needs sensitive: ask only when the caller has it). */
export function useDatabaseCredentials(id: string, enabled: boolean) {
  return useQuery({
    queryKey: databaseKeys.credentials(id),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<DatabaseCredentialCollection>(
        'api',
        `/databases/${encodeURIComponent(id)}/database_credentials`,
        { signal },
      );
      return embeddedList(list, 'database_credentials').map(fromDatabaseCredentialResource);
    },
    enabled: enabled && id !== '',
  });
}

/** contract §5.8 GET /databases/:id/dependents: replicas and copies initialized from this one. */
export function useDatabaseDependents(id: string) {
  return useQuery({
    queryKey: databaseKeys.dependents(id),
    queryFn: async ({ signal }) => {
      return (
        await allPages<DatabaseResource>(
          'api',
          `/databases/${encodeURIComponent(id)}/dependents?per_page=${MAX_PAGE_SIZE}`,
          'databases',
          signal,
        )
      ).map(fromDatabaseResource);
    },
    enabled: id !== '',
  });
}

/** contract §5.8 GET /database_images?per_page=5000: the catalog, sorted by description (numeric-aware, descending). */
export function useDatabaseImages() {
  const { phase } = useSession();
  return useQuery({
    queryKey: databaseKeys.images(),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<DatabaseImageCollection>(
        'api',
        `/database_images?per_page=${MAX_PAGE_SIZE}`,
        { signal },
      );
      return embeddedList(list, 'database_images')
        .map(fromDatabaseImageResource)
        .sort((a, b) => b.description.localeCompare(a.description, undefined, { numeric: true }));
    },
    enabled: phase === 'authenticated',
    staleTime: Number.POSITIVE_INFINITY,
  });
}
