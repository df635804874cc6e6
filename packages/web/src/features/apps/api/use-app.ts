import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';
import { type AppHal, fromAppHal } from './app.hal.ts';
import { appKeys } from './app-keys.ts';

/** contract §5.7 GET /apps/:id, with its embedded services, image and last operations. */
export function useApp(id: string) {
  return useQuery({
    queryKey: appKeys.detail(id),
    queryFn: async ({ signal }) =>
      fromAppHal(await apiRequest<AppHal>('api', `/apps/${encodeURIComponent(id)}`, { signal })),
  });
}
