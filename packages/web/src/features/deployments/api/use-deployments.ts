import { type DeploymentResource, MAX_PAGE_SIZE } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { allPages } from '../../../lib/all-pages.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromDeploymentResource } from '../../../resources/deployments/deployment.hal.ts';
import { deploymentKeys } from '../../../resources/deployments/deployment-keys.ts';

/** contract §5.7 GET /deployments?per_page=5000: every deployment the caller can read, newest first. */
export function useDeployments(options: { enabled?: boolean } = {}) {
  const { phase } = useSession();
  return useQuery({
    queryKey: deploymentKeys.list(),
    queryFn: async ({ signal }) => {
      return (
        await allPages<DeploymentResource>(
          'api',
          `/deployments?per_page=${MAX_PAGE_SIZE}`,
          'deployments',
          signal,
        )
      ).map(fromDeploymentResource);
    },
    enabled: phase === 'authenticated' && options.enabled !== false,
  });
}
