import type { AppResource } from '@berth/core';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../lib/api-client.ts';
import { fromAppResource } from './app.hal.ts';
import { appKeys } from './app-keys.ts';

/**
 * contract §5.7 GET /apps/:id, with its embedded services, image and last operations. `enabled: false`
 * asks nothing (a component that needs the app only in some cases).
 */
export function useApp(id: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: appKeys.detail(id),
    enabled: options.enabled ?? true,
    queryFn: async ({ signal }) =>
      fromAppResource(await apiRequest<AppResource>('api', `/apps/${encodeURIComponent(id)}`, { signal })),
  });
}
