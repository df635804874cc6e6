import type { ServiceResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
import { useSession } from '../../../lib/session-store.ts';
import { startupPaths } from '../../../lib/startup-paths.ts';
import { fromServiceResource } from '../../../resources/services/service.hal.ts';
import { serviceKeys } from '../../../resources/services/service-keys.ts';

/**
 * contract §5.7 GET /services?per_page=5000: every service the caller can read; `pollMs` while a page waits
 * for a service to appear or change (a database being provisioned gets its service at the end); `enabled:
 * false` holds it back (a page whose own rows come first).
 */
export function useServices(options: { pollMs?: number | false; enabled?: boolean } = {}) {
  const { phase } = useSession();
  return useQuery({
    queryKey: serviceKeys.list(),
    queryFn: async ({ signal }) => {
      return (await allPages<ServiceResource>('api', startupPaths.services, 'services', signal)).map(
        fromServiceResource,
      );
    },
    enabled: phase === 'authenticated' && options.enabled !== false,
    refetchInterval: options.pollMs ?? false,
  });
}
