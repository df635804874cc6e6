import type { DeploymentCollection } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromDeploymentResource } from '../../../resources/deployments/deployment.hal.ts';
import { deploymentKeys } from '../../../resources/deployments/deployment-keys.ts';

/**
 * contract §5.7 GET /sources/:id/deployments. It lives with deployments (it answers deployments and
 * feeds the same table); the source detail route composes it (a feature never imports another).
 */
export function useSourceDeployments(sourceId: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: deploymentKeys.source(sourceId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<DeploymentCollection>(
        'api',
        `/sources/${encodeURIComponent(sourceId)}/deployments`,
        { signal },
      );
      return embeddedList(list, 'deployments').map(fromDeploymentResource);
    },
    enabled: phase === 'authenticated' && sourceId !== '',
  });
}
