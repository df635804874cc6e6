import { type DeploymentCollection, POLL_INTERVAL_MS } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList } from '../../../lib/hal.ts';
import { fromDeploymentResource } from '../../../resources/deployments/deployment.hal.ts';
import { deploymentKeys } from '../../../resources/deployments/deployment-keys.ts';

/** spec 3 §7 GET /apps/:id/deployments, newest first. */
export function useAppDeployments(appId: string) {
  return useQuery({
    queryKey: deploymentKeys.app(appId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<DeploymentCollection>(
        'api',
        `/apps/${encodeURIComponent(appId)}/deployments`,
        { signal },
      );
      return embeddedList(list, 'deployments')
        .map(fromDeploymentResource)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },
    // spec 3 §4: operation lists poll every 10 s (TanStack pauses while the tab is hidden).
    refetchInterval: POLL_INTERVAL_MS.operationList,
  });
}
