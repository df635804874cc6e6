import type { AppResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { fromAppResource } from '../../../resources/apps/app.hal.ts';
import { appKeys } from '../../../resources/apps/app-keys.ts';

/** contract §5.7 GET /apps/:id, with its embedded services, image and last operations. */
export function useApp(id: string) {
  return useQuery({
    queryKey: appKeys.detail(id),
    queryFn: async ({ signal }) =>
      fromAppResource(await apiRequest<AppResource>('api', `/apps/${encodeURIComponent(id)}`, { signal })),
  });
}
