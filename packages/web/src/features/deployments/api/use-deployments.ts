import { type DeploymentCollection, MAX_PAGE_SIZE } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromDeploymentResource } from '../../../resources/deployments/deployment.hal.ts';
import { deploymentKeys } from '../../../resources/deployments/deployment-keys.ts';

/** contract §5.7 GET /deployments?per_page=5000: every deployment the caller can read, newest first. */
export function useDeployments(options: { enabled?: boolean } = {}) {
  const { phase } = useSession();
  return useQuery({
    queryKey: deploymentKeys.list(),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<DeploymentCollection>('api', `/deployments?per_page=${MAX_PAGE_SIZE}`, {
        signal,
      });
      return embeddedList(list, 'deployments').map(fromDeploymentResource);
    },
    enabled: phase === 'authenticated' && options.enabled !== false,
  });
}
