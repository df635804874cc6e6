import { useIsFetching } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useApps } from '../../features/apps/api/use-apps.ts';
import { useCosts } from '../../features/costs/api/use-costs.ts';
import { useDeployments } from '../../features/deployments/api/use-deployments.ts';
import { useEndpoints } from '../../features/endpoints/api/use-endpoints.ts';
import { NO_OPERATION_FILTERS } from '../../features/operations/api/operation-filters.ts';
import { useOperations } from '../../features/operations/api/use-operations.ts';
import { useServices } from '../../features/services/api/use-services.ts';
import { useSources } from '../../features/sources/api/use-sources.ts';
import { useDatabases } from '../../resources/databases/use-databases.ts';
import { listPages } from '../list-pages.ts';

/** How long no request may be under way before the page counts as loaded. */
const PAGE_QUIET_MS = 50;

/** The longest the start-up lists wait for the page's own requests. */
const STARTUP_LISTS_WAIT_MS = 1000;

/**
 * True once the page's own requests have been answered (or STARTUP_LISTS_WAIT_MS passed): the server
 * answers requests side by side, so ten start-up lists asked at the same moment as the page's two would
 * hold the page's rows back until nearly all of them are done.
 */
function usePageRequestsFirst(): boolean {
  const fetching = useIsFetching();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const cap = setTimeout(() => setReady(true), STARTUP_LISTS_WAIT_MS);
    return () => clearTimeout(cap);
  }, []);
  useEffect(() => {
    if (fetching !== 0) return;
    // Quiet for a moment: the page's queries start just after this mounts, and a page that asks for
    // its columns once its rows are in is not done when the rows are.
    const quiet = setTimeout(() => setReady(true), PAGE_QUIET_MS);
    return () => clearTimeout(quiet);
  }, [fetching]);
  return ready;
}

/**
 * Contract §7 steps 7 and 8 (spec 3 §4 start-up sequence): once the required data is in, the lists
 * every page draws on load in parallel, the organization's first page of operations keeps polling,
 * and the costs follow. Pages then read them from the cache instead of waiting.
 * (Stacks and environments are already loaded by the shell; drains join when that resource exists.)
 */
export function StartupLists({ organizationId }: { organizationId: string }) {
  return usePageRequestsFirst() ? <StartupListQueries organizationId={organizationId} /> : null;
}

function StartupListQueries({ organizationId }: { organizationId: string }) {
  useEffect(() => {
    // The list pages' code too (built consoles only: tests and the dev server load it on demand).
    if (!import.meta.env.PROD) return;
    const idle = setTimeout(() => {
      // Only a head start: a chunk that fails to load now is loaded again when its page opens.
      for (const load of Object.values(listPages)) load().catch(() => {});
    }, 0);
    return () => clearTimeout(idle);
  }, []);
  useApps();
  useDatabases();
  useServices();
  useEndpoints({ kind: 'all' }, { poll: false });
  useOperations(`/organizations/${organizationId}/operations`, 1, NO_OPERATION_FILTERS);
  useDeployments();
  useSources();
  useCosts(organizationId, 'stacks');
  useCosts(organizationId, 'accounts');
  useCosts(organizationId, 'apps');
  useCosts(organizationId, 'services');
  useCosts(organizationId, 'databases');
  return null;
}
