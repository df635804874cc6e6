import type { DeploymentResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session-store.ts';
import { fromDeploymentResource } from '../../../resources/deployments/deployment.hal.ts';
import { deploymentKeys } from '../../../resources/deployments/deployment-keys.ts';

/** contract §5.7 GET /deployments/:id. */
export function useDeployment(id: string) {
  const { phase } = useSession();
  return useQuery({
    queryKey: deploymentKeys.detail(id),
    queryFn: async ({ signal }) =>
      fromDeploymentResource(
        await apiRequest<DeploymentResource>('api', `/deployments/${encodeURIComponent(id)}`, { signal }),
      ),
    enabled: phase === 'authenticated' && id !== '',
  });
}
