import { MAX_PAGE_SIZE, POLL_INTERVAL_MS, type VhostResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromVhostResource } from '../../../resources/endpoints/endpoint.hal.ts';
import { endpointKeys } from './endpoint-keys.ts';

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
 * A list of endpoints. A scoped list a screen shows polls every 5 s (spec 2 §7 "endpoint polls"; pass
 * `poll: false` where it is only a count or a summary). The organization-wide `/vhosts` is a start-up
 * collection (contract §7): never polled, refetched when revisited after 60 s (contract §1.13, the
 * query client's stale time), whatever `poll` says.
 */
export function useEndpoints(scope: EndpointScope, { poll = true }: { poll?: boolean } = {}) {
  const { phase } = useSession();
  const path = endpointListPath(scope);
  const polls = poll && scope.kind !== 'all';
  return useQuery({
    queryKey: endpointKeys.list(path),
    queryFn: async ({ signal }) => {
      return (await allPages<VhostResource>('api', path, 'vhosts', signal)).map(fromVhostResource);
    },
    enabled: phase === 'authenticated' && (scope.kind === 'all' || scope.id !== ''),
    // spec 2 §7, spec 3 §4: every 5 s, paused while the browser tab is hidden.
    refetchInterval: polls ? POLL_INTERVAL_MS.endpoint : false,
    refetchIntervalInBackground: false,
  });
}
