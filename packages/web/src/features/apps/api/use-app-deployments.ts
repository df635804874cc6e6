import { POLL_INTERVAL_MS } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { embeddedList, type HalCollection } from '../../../lib/hal.ts';
import { type DeploymentHal, fromDeploymentHal } from './app.hal.ts';
import { appKeys } from './app-keys.ts';

/** spec 3 §7 GET /apps/:id/deployments, newest first. */
export function useAppDeployments(appId: string) {
  return useQuery({
    queryKey: appKeys.deployments(appId),
    queryFn: async ({ signal }) => {
      const list = await apiRequest<HalCollection<DeploymentHal>>(
        'api',
        `/apps/${encodeURIComponent(appId)}/deployments`,
        { signal },
      );
      return embeddedList(list, 'deployments')
        .map(fromDeploymentHal)
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    },
    // spec 3 §4: operation lists poll every 10 s (TanStack pauses while the tab is hidden).
    refetchInterval: POLL_INTERVAL_MS.operationList,
  });
}
