import { MAX_PAGE_SIZE } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList, type HalCollection } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromVhostHal, type VhostHal } from './endpoint.hal.ts';
import { endpointKeys } from './endpoint-keys.ts';

/** spec 2 §7, spec 3 §4: endpoint polls run every 5 s (paused while the browser tab is hidden). */
export const ENDPOINT_POLL_MS = 5_000;

/** Where a list of endpoints comes from (contract §5.9). */
export type EndpointScope =
  | { kind: 'all' }
  | { kind: 'app'; id: string }
  | { kind: 'service'; id: string }
  | { kind: 'environment'; id: string }
  | { kind: 'certificate'; id: string };

export function endpointListPath(scope: EndpointScope): string {
  switch (scope.kind) {
    case 'all':
      return `/vhosts?per_page=${MAX_PAGE_SIZE}`;
    case 'app':
      return `/apps/${encodeURIComponent(scope.id)}/vhosts`;
    case 'service':
      return `/services/${encodeURIComponent(scope.id)}/vhosts`;
    case 'environment':
      return `/accounts/${encodeURIComponent(scope.id)}/vhosts`;
    case 'certificate':
      return `/certificates/${encodeURIComponent(scope.id)}/vhosts`;
  }
}

/**
 * A list of endpoints. `poll` keeps it fresh every 5 s while a screen shows it; the start-up list
 * (contract §7) loads `/vhosts` once without polling.
 */
export function useEndpoints(scope: EndpointScope, { poll = true }: { poll?: boolean } = {}) {
  const { phase } = useSession();
  const path = endpointListPath(scope);
  return useQuery({
    queryKey: endpointKeys.list(path),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<HalCollection<VhostHal>>('api', path, { signal });
      return embeddedList(list, 'vhosts').map(fromVhostHal);
    },
    enabled: phase === 'authenticated' && (scope.kind === 'all' || scope.id !== ''),
    refetchInterval: poll ? ENDPOINT_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}
